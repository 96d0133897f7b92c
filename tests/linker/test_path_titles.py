"""An SGLang crash whose algorithm only the thread's title names (``thread_title``): the title is
the report's subject, so the era rule decides by the thread's day or gives its condition, and
the verdict shows the title line. A title that sets its names apart (a feature request, a
comparison, "without"), a launch command naming another algorithm, a title of another
framework's tracker: no title verdict. Every line here is our own, in the shapes threads take."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

HEADER = "sgl-project/sglang · issue #{n} · open · Python"
SCHED_CRASH = [
    "```",
    "[TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2700, in run_scheduler_process',
    "    scheduler.event_loop_normal_disagg_prefill()",
    '  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/prefill.py", line 300, in event_loop_normal_disagg_prefill',
    "    self.process_batch_result_disagg_prefill(batch, result)",
    "RuntimeError: shape mismatch: value tensor of shape [4, 5120] cannot be broadcast to [4, 4096]",
    "```",
]


def _thread(title: str, day: str, *body: str, n: int = 4101, header: str = HEADER) -> list[str]:
    return [header.format(n=n), f"# {title}", "", f"someone · description · {day}", *body, *SCHED_CRASH]


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    assert crash.worker_path is not None
    return crash.worker_path


def test_a_title_naming_eagle3_decides_v1_on_a_day_before_spec_v2(tmp_path: Path) -> None:
    title = "[Bug] Llama-70B EAGLE3 draft breaks PD prefill buffers"
    path = _path(tmp_path, _thread(title, "2025-09-20", "The prefill node dies on the first request."))
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    shown = [e for e in path.evidence if "(the thread's title)" in e.reason]
    assert shown and shown[0].lineno == 2 and title in shown[0].text


def test_the_same_title_on_a_day_both_workers_ship_gives_the_condition(tmp_path: Path) -> None:
    path = _path(tmp_path, _thread("[Bug] Llama-70B EAGLE3 draft breaks PD prefill buffers", "2026-06-10"))
    assert path.value == "unknown" and path.worker_class is None
    assert "EAGLEWorkerV2" in (path.conditional or "") and "EAGLEWorker)" in (path.conditional or "")


def test_a_draft_checkpoint_in_the_title_names_the_family(tmp_path: Path) -> None:
    path = _path(tmp_path, _thread("[Bug] cuda graph capture on org/Qwen3-32B-EAGLE3", "2025-08-02"))
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")


def test_a_line_that_sets_the_algorithm_aside_leaves_the_titles_name(tmp_path: Path) -> None:
    # the baseline sentence sets its own DSPARK apart; the title still names the run's
    lines = _thread("[Bug] DSPARK speculative decoding crashes in top_k_renorm_prob", "2026-07-01",
                    "It serves fine without speculative decoding (dropping the DSPARK flags).")  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "DSparkWorkerV2")


def test_a_pr_title_naming_standalone_decides_its_worker(tmp_path: Path) -> None:
    lines = _thread("[Spec] Fix draft hidden size in STANDALONE speculative decoding", "2025-12-01",
                    header="sgl-project/sglang · pull request #{n} · merged")  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v1", "StandaloneWorker")


def test_a_feature_request_or_comparison_title_decides_nothing(tmp_path: Path) -> None:
    for title in ("[Feature] EAGLE3 for PD prefill", "EAGLE3 slower than the plain server on PD prefill",
                  "PD prefill crashes without EAGLE3"):  # fmt: skip
        path = _path(tmp_path, _thread(title, "2025-09-20"))
        assert path.value == "unknown" and path.worker_class is None and not path.conditional, title


def test_a_launch_command_outranks_the_title(tmp_path: Path) -> None:
    launch = ("python -m sglang.launch_server --model-path org/Llama-70B --speculative-algorithm NGRAM "
              "--speculative-num-draft-tokens 8")  # fmt: skip
    path = _path(tmp_path, _thread("[Bug] EAGLE3 crash on PD prefill", "2025-09-20", launch))
    assert path.worker_class != "EAGLEWorker"


def test_a_title_naming_mtp_alone_decides_no_sglang_class(tmp_path: Path) -> None:
    # SGLang runs MTP as NEXTN (EAGLE workers) or FROZEN_KV_MTP: the title does not say which
    path = _path(tmp_path, _thread("[Bug] DeepSeek MTP crash on PD prefill", "2026-06-10"))
    assert path.worker_class is None


def test_another_frameworks_title_names_no_sglang_worker(tmp_path: Path) -> None:
    vllm_crash = [
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
        "    engine_core.run_busy_loop()",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    lines = ["vllm-project/vllm · issue #4102 · open", "# [Bug]: EAGLE3 draft hangs on H100", "",
             "someone · description · 2025-09-20", *vllm_crash]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.framework != "sglang" and path.worker_class not in ("EAGLEWorker", "EAGLEWorkerV2")


def test_the_release_the_title_names_is_the_runs_beside_older_ones_in_prose(tmp_path: Path) -> None:
    lines = _thread("[Bug] watchdog timeout with HiCache + EAGLE (v0.5.14)", "2026-07-01",
                    "We run EAGLE with HiCache; the eviction fixes from v0.5.12 are already in.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")


def test_a_draft_the_writer_says_the_run_serves_names_the_family(tmp_path: Path) -> None:
    said = "We serve org/Orbit-32B with org/Orbit-32B-EAGLE3 as the draft model."
    path = _path(tmp_path, _thread("[Bug] crash after 200 requests", "2025-09-20", said))
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    shown = [e for e in path.evidence if e.lineno == 5]
    assert shown and said in shown[0].text  # the sentence itself, not a stub of the algorithm


def test_a_draft_in_a_listing_or_a_plan_names_nothing(tmp_path: Path) -> None:
    for said in ("$ ls /models", "Orbit-32B  Orbit-32B-EAGLE3  Orbit-32B-FP8",
                 "We plan to publish org/Orbit-32B-EAGLE3 next month."):  # fmt: skip
        path = _path(tmp_path, _thread("[Bug] crash after 200 requests", "2025-09-20", said))
        assert path.worker_class is None and not path.conditional, said


def test_a_normal_loop_frame_outranks_a_title_saying_spec_v2(tmp_path: Path) -> None:
    # the thread's day bounds the frame's release too: before 0.5.13 the normal loop is v1's
    normal = ["```", "Traceback (most recent call last):",
              '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
              "    scheduler.event_loop_normal()", "RuntimeError: CUDA error: an illegal memory access was encountered",
              "```"]  # fmt: skip
    lines = [HEADER.format(n=4110), "# [Bug] spec v2 (SGLANG_ENABLE_SPEC_V2=1) crash with EAGLE3", "",
             "someone · description · 2025-12-10", *normal]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    assert crash.worker_path is not None and crash.worker_path.worker_class != "EAGLEWorkerV2"


def test_a_standalone_launch_is_not_voted_eagle_by_the_normal_loop(tmp_path: Path) -> None:
    launch = ("python -m sglang.launch_server --model-path org/Orbit-32B --speculative-algorithm STANDALONE "
              "--speculative-draft-model-path org/Orbit-1B")  # fmt: skip
    lines = [HEADER.format(n=4111), "# [Bug] crash at decode", "", "someone · description · 2025-11-02",
             launch, "```", "Traceback (most recent call last):",
             '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
             "    scheduler.event_loop_normal()", "RuntimeError: CUDA error: an illegal memory access was encountered",
             "```"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    assert crash.worker_path is not None and crash.worker_path.worker_class == "StandaloneWorker"
