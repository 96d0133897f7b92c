"""Runtime evidence naming a class or a family the tables do not hold (issue 11, session 26).

1. An exception message naming, as the object its call ran on, a class no table holds but in
   the shape of a framework's drafting classes (``<Family>Proposer``, ``<Family>Speculator``,
   ``<Family>WorkerV3``): a fork's own proposer or a release newer than the tables. The class
   decides. Not from an import that failed, a name of no family, a model's layer, or prose.
2. An SGLang command that is not whole (flags quoted in an environment bullet, a paste cut
   mid-option, arguments in shell variables) is no plain launch: its speculative options may be
   past the cut, so the family the run's lines name still counts. A whole command still is.
3. A release older than every [[promote]] row's first release cannot have rewritten MTP: the
   word is SGLang's NEXTN there, launch or not.
Our own lines in several shapes; near misses in the same words must not move.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, roots, run

from spectrace.path_frames import unknown_class
from spectrace.worker_path import WorkerPath


def probed_path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided path of the text's crashes, a probe appended (as the round measure reads)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    rank = {"unknown": 1}
    return sorted(paths, key=lambda p: (rank.get(p.value, 0), 0 if p.conditional else 1))[0]

_V1_TB = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 905, in run_busy_loop',
    "    self._process_engine_step()",
]


# --- 1. a class the tables do not hold, named by the exception as what ran -----------------


def test_the_shape_is_read_from_the_tables() -> None:
    assert unknown_class("DSparkProposer").family == "DSPARK"  # type: ignore[union-attr]
    assert unknown_class("Qwen3NextMTPProposer").family == "MTP"  # type: ignore[union-attr]
    assert unknown_class("LocalEagle3Speculator").family == "EAGLE3"  # type: ignore[union-attr]
    assert unknown_class("DFlashWorkerV3").family == "DFLASH"  # type: ignore[union-attr]
    for name in ("EagleProposer", "TpModelWorker", "GPUWorker", "CustomProposer",
                 "DeepseekV4MTPLayer", "EagleMTPProposer", "LlamaDecoderLayer"):  # fmt: skip
        assert unknown_class(name) is None, name


def test_a_forks_proposer_raised_with_an_unexpected_keyword(tmp_path: Path) -> None:
    lines = ["acme/dsv4-spark-serving · issue #7 · open",
             "# Engine crashes on the first completion request",
             "",
             "Bring-up on two nodes works until the first request, then:",
             "```",
             "TypeError: DSparkProposer.propose() got an unexpected keyword argument 'slot_ids'",
             '  File ".../vllm/v1/worker/gpu_model_runner.py", in propose_draft_token_ids',
             "```",
             "The image ships its own `overlay/vllm/v1/spec_decode/dspark_proposer.py`."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkProposer")


def test_a_forks_proposer_missing_an_attribute_under_a_traceback(tmp_path: Path) -> None:
    lines = [*_V1_TB,
             '  File "/work/fork/vllm/v1/spec_decode/qwen3_next_mtp.py", line 88, in propose',
             "    self.tree_width",
             "AttributeError: 'Qwen3NextMTPProposer' object has no attribute 'tree_width'"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "Qwen3NextMTPProposer")


def test_a_newer_sglang_worker_named_by_its_repr(tmp_path: Path) -> None:
    lines = ["[2026-09-02 04:11:52 TP0] Scheduler hit an exception: Traceback (most recent call last):",
             '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3012, in run_scheduler_process',
             "    scheduler.event_loop_overlap()",
             "RuntimeError: draft step failed in <sglang.srt.speculative.dflash_worker_v3.DFlashWorkerV3 "
             "object at 0x7f3a2c1d9e10>: shape mismatch"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "DFlashWorkerV3")


def test_a_failed_import_of_the_class_is_no_run_of_it(tmp_path: Path) -> None:
    lines = [*_V1_TB[:1],
             '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 12, in <module>',
             "ImportError: cannot import name 'DSparkProposer' from 'vllm.v1.spec_decode.dspark'"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "DSparkProposer", path


def test_a_class_of_no_family_or_a_models_layer_decides_nothing(tmp_path: Path) -> None:
    for message in ("TypeError: CustomProposer.propose() got an unexpected keyword argument 'x'",
                    "AttributeError: 'DeepseekV4MTPLayer' object has no attribute 'shared_head'",
                    "TypeError: EagleMTPProposer.propose() missing 1 required positional argument"):  # fmt: skip
        path = crash_path(run(tmp_path, [*_V1_TB, message]))
        assert path.worker_class is None, (message, path)


def test_an_expected_failure_in_a_plan_is_no_run(tmp_path: Path) -> None:
    lines = ["# Plan: tree drafting for the local proposer", "",
             "- [ ] **Step 2: Run the unit test to verify it fails**", "",
             "Run: `python -m pytest tests/test_tree.py::test_tree_propose -v`", "",
             "Expected: FAIL with `AttributeError: 'Eagle3TreeProposer' object has no attribute 'propose_tree'`."]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "Eagle3TreeProposer", path


def test_an_error_a_note_says_one_would_see_is_no_run(tmp_path: Path) -> None:
    lines = ["# Notes on porting the drafter", "",
             "If the runner and the proposer disagree you would see something like",
             "TypeError: DSparkProposer.propose() got an unexpected keyword argument 'req_ids'",
             "so keep both files in sync."]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


def test_the_same_error_under_the_writers_own_dspark_run(tmp_path: Path) -> None:
    lines = ["# 500 on the first request with the DSpark overlay",
             "",
             "Our two-node DSpark deployment boots, then the first request fails:",
             "",
             "TypeError: DSparkProposer.propose() got an unexpected keyword argument 'req_ids'"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkProposer")


def test_the_class_named_in_a_design_note_is_no_run(tmp_path: Path) -> None:
    lines = ["# Design: pass request ids to the drafter",
             "",
             "`DSparkProposer.propose()` should take the request ids so the draft cache can be keyed "
             "per request; the runner would pass them from `propose_draft_token_ids`."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 2. an SGLang command that is not whole is no plain launch ----------------------------

_SCHED_TB = ["[TP3] Scheduler hit an exception: Traceback (most recent call last):",
             "    scheduler.event_loop_overlap()",
             "    batch_result = self.run_batch(batch)"]  # fmt: skip


def test_flags_in_an_environment_bullet_beside_a_family_option(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #40001 · open",
             "# [Bug] decode stalls then the watchdog kills the server",
             "",
             "ops · description · 2026-08-10",
             "## Setup",
             "- 8x H200, `--tp-size 8 --ep-size 8`, FP8 weights, DSpark drafting "
             "(`--speculative-dspark-block-size 5`), context 256k",
             "",
             *_SCHED_TB]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


def test_the_same_bullet_in_other_words(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #40002 · open",
             "# [Bug] illegal memory access after a few hours",
             "",
             "ops · description · 2026-08-11",
             "Deployment: `--tp 4 --mem-fraction-static 0.8` plus `--speculative-dspark-block-size 3` "
             "on four B200 cards.",
             "",
             *_SCHED_TB]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


def test_a_cut_command_under_a_ci_line_naming_mtp(tmp_path: Path) -> None:
    lines = ["[ci] image: lmsysorg/sglang:v0.5.4-cu126",
             "[ci] MTP run enabled for this job",
             "run.sh: line 88:  311 Killed   python3 -m sglang.launch_server --model-path \"${MODEL}\" "
             "--tp-size \"${TP}\" --port 30000 --trust-remote-code -",
             '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 301, in __init__',
             "    self.initialize(min_per_gpu_memory)",
             "Exception: Capture cuda graph failed: out of memory"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "EAGLEWorker" in (path.worker_class or "") + (path.conditional or ""), path


def test_a_whole_command_with_no_algorithm_stays_plain(tmp_path: Path) -> None:
    lines = ["[ci] image: lmsysorg/sglang:v0.5.4-cu126",
             "[ci] MTP run enabled for this job",
             "$ python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 --tp-size 8 --port 30000",
             "Traceback (most recent call last):",
             '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 301, in __init__',
             "    self.initialize(min_per_gpu_memory)",
             "Exception: Capture cuda graph failed: out of memory"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


def test_flags_in_a_bullet_set_apart_as_a_plan_name_no_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #40003 · open",
             "# [Feature] faster decode on Kimi",
             "",
             "ops · description · 2026-08-12",
             "- today: `--tp-size 8 --ep-size 8`; we will try DSpark (`--speculative-dspark-block-size 5`) next week"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


def test_flags_in_a_code_prs_sentence_show_no_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #40777 · open · Python",
             "# [Spec] Share the draft buffer sizing between DSpark and DFlash", "",
             "dev-q · description · 2026-08-20", "## Modifications", "",
             "- Size the buffer from `--tp-size 8` and `--speculative-dspark-block-size 5` together, "
             "as the DSpark worker expects.",
             "- No behaviour change for EAGLE."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_lone_family_option_in_a_code_prs_bullet_shows_no_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #40778 · open · Python",
             "# [Spec] Buffer sizing for adaptive drafting", "",
             "dev-q · description · 2026-08-21", "## Modifications", "",
             "- Take the widest `--speculative-dspark-block-size` into account when sizing the buffer."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 3. no MTP promotion before the release that brought it -------------------------------


def test_mtp_on_an_old_release_with_a_cut_launch_is_nextn(tmp_path: Path) -> None:
    lines = ["sglang 0.5.3", "[bench] running the MTP variant",
             "python3 -m sglang.launch_server --model-path \"${M}\" --tp 8 --speculative-num-steps 3 -",
             '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2400, in event_loop_normal',
             "    result = self.run_batch(batch)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "EAGLEWorker" in (path.worker_class or "") + (path.conditional or ""), path


def test_mtp_on_a_gemma4_model_after_the_promotion_stays_open(tmp_path: Path) -> None:
    lines = ["sglang 0.5.14", "[bench] running the MTP variant on gemma-4-31b",
             "python3 -m sglang.launch_server --model-path \"${M}\" --tp 8 --speculative-num-steps 3 -",
             '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2400, in event_loop_normal',
             "    result = self.run_batch(batch)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class not in ("EAGLEWorker", "EAGLEWorkerV2"), path


# --- 4. draft tokens in vLLM's dump of the crashing step ----------------------------------


def _dump(spec: str, pid: int = 4411) -> str:
    return (f"(EngineCore_DP0 pid={pid}) ERROR 03-14 09:21:40 [dump_input.py:79] Dumping scheduler output for "
            "model execution: SchedulerOutput(scheduled_new_reqs=[], scheduled_cached_reqs=CachedRequestData("
            "req_ids=['cmpl-7a1'], resumed_req_ids=set(), new_token_ids=[], num_computed_tokens=[812]), "
            f"num_scheduled_tokens={{cmpl-7a1: 5}}, total_num_scheduled_tokens=5, scheduled_spec_decode_tokens={spec}, "
            "scheduled_encoder_inputs={}, num_common_prefix_blocks=[3], finished_req_ids=[], "
            "free_encoder_mm_hashes=[])")  # fmt: skip


def test_draft_tokens_in_the_dump_leave_every_drafting_class_open(tmp_path: Path) -> None:
    lines = ["some-org/vllm-fork · issue #12 · open", "# [Feature]: support for the new checkpoint?", "",
             "[turn 3 by tester]", "```", _dump("{cmpl-7a1: [-1, -1, -1, -1]}"), "```"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|MTPSpeculator|NgramProposer")


def test_draft_tokens_in_a_bare_engine_log(tmp_path: Path) -> None:
    lines = ["INFO 03-14 09:20:02 [api_server.py:1800] Starting vLLM API server 0 on http://0.0.0.0:8000",
             _dump("{cmpl-7a1: [1187, 304, 11]}"),
             "(EngineCore_DP0 pid=4411) ERROR 03-14 09:21:40 [core.py:720] EngineCore encountered a fatal error.",
             "Traceback (most recent call last):",
             '  File "/usr/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 711, in run_engine_core',
             "    engine_core.run_busy_loop()",
             "RuntimeError: CUDA error: device-side assert triggered"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.conditional and "EagleProposer" in path.conditional and "DFlashSpeculator" in path.conditional, path


def test_the_runner_the_text_states_narrows_the_dump(tmp_path: Path) -> None:
    lines = ["export VLLM_USE_V2_MODEL_RUNNER=1", "vllm serve org/model --port 8000",
             _dump("{cmpl-7a1: [-1, -1]}")]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.conditional and "EagleSpeculator" in path.conditional, path
    assert "EagleProposer" not in path.conditional, path


def test_a_dump_with_no_draft_tokens_names_no_class(tmp_path: Path) -> None:
    lines = ["some-org/vllm-fork · issue #13 · open", "# [Bug]: crash under load", "",
             _dump("{}")]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path
