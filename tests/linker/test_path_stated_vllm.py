"""vLLM / vllm-ascend / TensorRT-LLM runs whose method is stated outside any launch line: an
issue template's environment bullets, vLLM's own "Detected MTP model" line pasted alone, a
thread title (with the release it names and the thread's day), a TensorRT-LLM one-model mode
named in a PR's prose; and the texts where the same words name no run (rounds 18-20 study).

Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import roots, run

VLLM = "vllm-project/vllm"
PROBE = ["Traceback (most recent call last):", '  File "/srv/app.py", line 1, in <module>',
         "RuntimeError: engine died"]  # fmt: skip
V1_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 701, in run',
    "    engine_core.run_busy_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
V0_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.10/site-packages/vllm/engine/llm_engine.py", line 1386, in step',
    "    outputs = self.model_executor.execute_model(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def thread(repo: str, title: str, day: str, *post: str, labels: str = "bug") -> list[str]:
    return [f"{repo} · issue #5151 · open · Python", f"labels: {labels}", f"# {title}", "",
            f"ivy · description · {day}", *post]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]) -> tuple[str, str | None, str | None, str]:
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    first = path.evidence[0].text if path.evidence else ""
    return path.value, path.worker_class, path.family, first


def test_an_environment_bullet_states_the_method(tmp_path: Path) -> None:
    lines = ["## Environment", "- vLLM: 0.20.1", "- GPU: 1x L40S",
             "- Speculative decoding enabled (`method=mtp`, `num_speculative_tokens=2`)",
             "", *PROBE]  # fmt: skip
    value, worker, family, shown = _path(tmp_path, lines)
    assert (value, worker, family) == ("other", "EagleProposer", "MTP")
    assert shown.startswith("- Speculative decoding enabled")


@pytest.mark.parametrize(
    "lines",
    [
        ["### Previous setup (worked)", "- vLLM 0.10.1", "- Speculative decoding: mtp", "",
         "### Current setup", "- vLLM 0.13.0", *PROBE],
        ["- vLLM: 0.13.0", "- Speculative decoding: mtp", "- now: no speculative decoding",
         *PROBE],
        ["- Speculative decoding: mtp", *PROBE],  # no line places the text on vLLM
    ],
)
def test_a_bullet_set_apart_or_unplaced_decides_nothing(
    tmp_path: Path, lines: list[str]
) -> None:
    value, worker, _family, _shown = _path(tmp_path, lines)
    assert worker != "EagleProposer" and value != "other"


def test_vllms_detected_mtp_line_pasted_alone_names_the_proposer(tmp_path: Path) -> None:
    lines = ["After adding the head files the server now detects it:", "",
             '"Detected MTP model. Sharing target model embedding weights"', "", *PROBE]  # fmt: skip
    value, worker, family, shown = _path(tmp_path, lines)
    assert (value, worker, family) == ("other", "EagleProposer", "MTP")
    assert shown.startswith('"Detected MTP model')


def test_the_detected_line_inside_a_sentence_is_not_the_runs(tmp_path: Path) -> None:
    lines = ["The docs say the log should show `Detected MTP model. Sharing target model "
             "embedding weights with the draft model.` but mine never prints it:",
             "vllm serve org/Big-32B --tensor-parallel-size 4", *V1_CRASH]  # fmt: skip
    value, worker, _family, _shown = _path(tmp_path, lines)
    assert value != "other" and worker is None


def test_a_plugin_release_in_a_vllm_ascend_title_picks_its_proposer(tmp_path: Path) -> None:
    frames = [
        "Traceback (most recent call last):",
        '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2752,'
        " in _model_forward",
        "RuntimeError: ACL graph capture failed",
    ]
    lines = thread("vllm-project/vllm-ascend", "[Bug]: v0.23.0rc1-310p mtp与图模式无法同时开启",
                   "2026-07-27", *frames)  # fmt: skip
    value, worker, family, shown = _path(tmp_path, lines)
    assert (value, worker, family) == ("other", "AscendEagleProposer", "MTP")
    assert "v0.23.0rc1" in shown


@pytest.mark.parametrize(
    ("title", "day", "worker"),
    [
        ("[Bug]: EAGLE speculative decoding crash", "2024-11-20", "MultiStepWorker"),
        ("[Bug]: ngram speculative decoding crash in vLLM 0.6.3", "2025-06-01", "NGramWorker"),
        ("[Bug]: Prompt logprobs with an MLP Speculator crash the server", "2024-08-21",
         "MLPSpeculatorWorker"),
        ("[Bug]: EAGLE3 crash at decode", "2026-01-10", "EagleProposer"),
    ],
)
def test_a_titles_family_runs_the_class_of_its_day_or_release(
    tmp_path: Path, title: str, day: str, worker: str
) -> None:
    crash = V0_CRASH if worker.endswith("Worker") else V1_CRASH
    value, found, _family, shown = _path(tmp_path, thread(VLLM, title, day, *crash))
    assert (value, found) == ("other", worker)
    assert shown == f"# {title}"


@pytest.mark.parametrize(
    ("title", "labels"),
    [
        ("[Feature]: MTP support on 310P", "feature request"),
        ("[RFC]: remove the V0 ngram worker", "RFC"),
        ("[Bug]: 关闭 MTP 后 vLLM 崩溃", "bug"),
        ("[Bug]: converting acme/Orbit-32B-EAGLE3 with speculators fails", "bug"),
    ],
)
def test_titles_that_name_no_run_decide_nothing(tmp_path: Path, title: str, labels: str) -> None:
    lines = thread(VLLM, title, "2026-01-10", "Plain serving crashes today:", *V1_CRASH,
                   labels=labels)  # fmt: skip
    value, worker, _family, _shown = _path(tmp_path, lines)
    assert value == "unknown" and worker is None


def test_a_converters_crash_under_a_draft_title_gets_no_server_path(tmp_path: Path) -> None:
    crash = ["Traceback (most recent call last):",
             '  File "/opt/venv/lib/python3.12/site-packages/transformers/modeling_utils.py",'
             " line 4100, in from_pretrained", "KeyError: 'midlayer.norm.weight'"]  # fmt: skip
    lines = thread(VLLM, "[Bug]: acme/Orbit-32B-EAGLE3 fails to load", "2026-01-10", *crash)
    value, worker, _family, _shown = _path(tmp_path, lines)
    assert value == "unknown" and worker is None


def test_a_trt_pr_naming_the_one_model_mtp_mode_decides_it(tmp_path: Path) -> None:
    lines = ["NVIDIA/TensorRT-LLM · pull request #9090 · merged · Python",
             "# [fix] Reserve draft tokens for one-model speculative decoding", "",
             "kai · description · 2026-07-08",
             "Serving a one-model MTP checkpoint aborts under load with:", "```",
             "AssertionError: total_num_tokens (N) should be less than or equal to max_num_tokens",
             "```",
             "The drafter is None for `MTP_EAGLE_ONE_MODEL`, so the draft tokens are never "
             "reserved."]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.framework) == ("other", "MTPEagleWorker", "trtllm")
    assert path.evidence[0].lineno == 9


def test_a_trt_condition_never_asks_for_an_sglang_version(tmp_path: Path) -> None:
    lines = ["NVIDIA/TensorRT-LLM · issue #9091 · open · Python", "# [Bug] MTP crash under load",
             "", "kai · description · 2026-07-08", "TensorRT-LLM version: 1.2.0",
             "Serving with MTP speculative decoding aborts:", *PROBE]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert not any("sglang" in m.lower() for m in path.missing)


def test_a_lower_case_title_under_a_saved_header_is_read(tmp_path: Path) -> None:
    """The title holds no literal of its own (``mtp`` in lower case): the lines right under a
    saved thread's header still reach the title reader."""
    lines = [f"{VLLM} · pull request #7070 · closed · Python",
             "# fix mtp launch error in vllm-0.17.1-rc, about cuda graph", "",
             "[turn 0 by kai, continued]", *V1_CRASH]  # fmt: skip
    value, worker, family, shown = _path(tmp_path, lines)
    assert (value, worker, family) == ("other", "EagleProposer", "MTP")
    assert shown.startswith("# fix mtp launch error")


@pytest.mark.parametrize(("tail", "decided"), [("    --tensor-parallel-size 8 \\", True),
                                               ("    --tensor-parallel-size 8", False)])
def test_a_cut_command_leaves_the_titles_method_standing(
    tmp_path: Path, tail: str, decided: bool
) -> None:
    """A `vllm serve` cut before its last flags may hold --speculative-config below: the title's
    method stands; the same command shown whole without it is a plain run."""
    lines = thread(VLLM, "[Bug]: serve with mtp==3 crashes on decode", "2026-06-05",
                   "vllm serve org/Big-V4 \\", "    --max-num-seqs 64 \\", tail, "", *V1_CRASH)  # fmt: skip
    value, worker, _family, _shown = _path(tmp_path, lines)
    assert (value == "other" and worker == "EagleProposer") is decided


V0_LINE = ("INFO 02-17 15:41:22 spec_decode_worker.py:195] Configuring SpecDecodeWorker with "
           "proposer=<class 'vllm.spec_decode.multi_step_worker.MultiStepWorker'>")


def test_v0s_own_proposer_line_quoted_in_a_reply_names_the_worker(tmp_path: Path) -> None:
    lines = thread(VLLM, "[Usage]: which proposer does my draft model use?", "2025-02-17",
                   f"You can see the log: '{V0_LINE}' so it uses MultiStepWorker.", *PROBE)  # fmt: skip
    value, worker, _family, shown = _path(tmp_path, lines)
    assert (value, worker) == ("other", "MultiStepWorker")
    assert "Configuring SpecDecodeWorker" in shown


def test_v0s_proposer_line_from_an_old_deployment_names_nothing(tmp_path: Path) -> None:
    lines = thread(VLLM, "[Bug]: crash at decode", "2025-10-20",
                   f"Back on 0.6 our old draft-model deployment logged `{V0_LINE}`.",
                   "This server has no speculative config:", "vllm serve org/Big-32B -tp 8",
                   *V1_CRASH)  # fmt: skip
    value, worker, _family, _shown = _path(tmp_path, lines)
    assert value != "other" and worker is None
