"""Every stack format a log shows decides the worker path, each frame shown with its line:
faulthandler dumps, py-spy dumps (a scheduler watchdog's too), the last whole file name of a
cut traceback, native frames naming a decoding layer, worker classes named in a message.

Every line here is written by us in the real shapes (LOG_FORMATS.md); none is pasted."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import run

SITE = "/usr/local/lib/python3.12/dist-packages/sglang/srt"


def only_path(tmp_path: Path, lines: list[str]) -> tuple[str, str | None, list[str]]:
    (crash,) = [i for i in run(tmp_path, lines).incidents if i.root_cause]
    path = crash.worker_path
    assert path is not None
    return path.value, path.worker_class, [e.reason for e in path.evidence if e.points_to]


def test_a_faulthandler_dump_innermost_first_decides_v2(tmp_path: Path) -> None:
    lines = [
        "Fatal Python error: Segmentation fault",
        "",
        "Current thread 0x00007f1d8a1b7480 (most recent call first):",
        f'  File "{SITE}/speculative/eagle_worker_v2.py", line 512 in verify',
        f'  File "{SITE}/speculative/eagle_worker_v2.py", line 301 in forward_batch_generation',
        f'  File "{SITE}/managers/scheduler.py", line 1020 in event_loop_overlap',
    ]
    value, worker, reasons = only_path(tmp_path, lines)
    assert (value, worker) == ("v2", "EAGLEWorkerV2")
    assert reasons[0].startswith("traceback frame in eagle_worker_v2.py")  # innermost first


def test_a_py_spy_dump_in_a_watchdog_report_decides_v1_with_its_line(tmp_path: Path) -> None:
    lines = [
        "[2026-03-01 10:00:00 TP0] Scheduler debug info:",
        "[2026-03-01 10:00:00 TP0] Pyspy dump for PID 4242:",
        "Process 4242: sglang::scheduler_TP0",
        "Python v3.12.3 (/usr/bin/python3.12)",
        "",
        'Thread 4242 (active): "MainThread"',
        "    verify (sglang/srt/speculative/eagle_worker.py:610)",
        "    forward_batch_generation (sglang/srt/speculative/eagle_worker.py:290)",
        "    event_loop_normal (sglang/srt/managers/scheduler.py:1010)",
        "[2026-03-01 10:05:00 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, "
        "self.soft=False)",
    ]
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    first = path.evidence[0]
    assert first.reason.startswith("py-spy frame in eagle_worker.py")
    assert first.text == "verify (sglang/srt/speculative/eagle_worker.py:610)"
    assert first.lineno == 3  # the dump's "Process N:" line


def test_a_traceback_cut_inside_its_last_frame_line_still_names_the_file(tmp_path: Path) -> None:
    lines = [
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_overlap()",
        f'  File "{SITE}/speculative/eagle_worker_v2.py", lin',
    ]
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    cut = path.evidence[0]
    assert cut.reason.startswith("cut traceback frame in eagle_worker_v2.py")
    assert (cut.lineno, cut.text) == (4, f'File "{SITE}/speculative/eagle_worker_v2.py", lin')


def test_a_traceback_cut_right_after_py_names_the_file_but_one_cut_inside_it_names_none(
    tmp_path: Path,
) -> None:
    """``.../eagle_worker.py`` then the end of the copy is a whole name (nothing goes on
    from ``.py``); ``.../eagle_worker`` could be eagle_worker_v2.py and decides nothing."""
    head = [
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
    ]
    (crash,) = run(tmp_path, [*head, f'  File "{SITE}/speculative/eagle_worker.py']).incidents
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert path.evidence[0].reason.startswith("cut traceback frame in eagle_worker.py")
    (crash,) = run(tmp_path, [*head, f'  File "{SITE}/speculative/eagle_worker']).incidents
    assert crash.worker_path is not None and crash.worker_path.value == "unknown"


def test_a_cut_frame_of_a_file_nobody_knows_decides_nothing(tmp_path: Path) -> None:
    lines = [
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/managers/scheduler.py", line 2703, in run_scheduler_process',
        f'  File "{SITE}/layers/logits_processor.py", lin',
    ]
    value, _worker, _reasons = only_path(tmp_path, lines)
    assert value == "unknown"


def test_a_worker_class_named_in_a_message_decides_both_crashes_of_the_paste(
    tmp_path: Path,
) -> None:
    lines = [
        "AttributeError: 'EagleProposer' object has no attribute 'hidden_buf'",
        "",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 939, '
        "in run_engine_core",
        "    engine_core.run_busy_loop()",
    ]
    paths = [i.worker_path for i in run(tmp_path, lines).incidents]
    assert [(p.value, p.worker_class) for p in paths if p] == [("other", "EagleProposer")] * 2
    assert paths[0] is not None and paths[0].evidence[0].reason.startswith(
        "exception message names EagleProposer"
    )


def test_a_class_that_merely_looks_like_a_worker_is_no_evidence(tmp_path: Path) -> None:
    lines = ["[2026-03-01 10:00:00 TP0] RuntimeError: TpModelWorker failed to allocate"]
    for incident in run(tmp_path, lines).incidents:
        assert incident.worker_path is not None and incident.worker_path.value == "unknown"


def test_native_frames_of_trtllm_lookahead_name_the_family(tmp_path: Path) -> None:
    lines = [
        "[TensorRT-LLM][ERROR] Assertion failed: paths > 0 "
        "(/src/cpp/tensorrt_llm/layers/lookaheadDecodingLayer.cpp:212)",
        "1       0x7f3a2c1b2e3d tensorrt_llm::common::throwRuntimeError(char const*, int, "
        "std::string const&) + 77",
        "2       0x7f3a2d44a1b0 tensorrt_llm::layers::LookaheadDecodingLayer<float>::forwardAsync"
        "(int) + 1200",
    ]
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.family, path.framework) == (
        "other", "LookaheadDecodingLayer", "LOOKAHEAD", "trtllm"
    )  # fmt: skip
    assert path.evidence[0].reason.startswith("native frame names LookaheadDecodingLayer")


def test_the_target_graph_runner_alone_does_not_make_a_run_speculative(tmp_path: Path) -> None:
    """A plain (non-speculative) server also runs cuda_graph_runner.py and event_loop_normal:
    neither may put it on EAGLEWorker."""
    lines = [
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/managers/scheduler.py", line 1010, in event_loop_normal',
        "    result = self.run_batch(batch)",
        f'  File "{SITE}/model_executor/cuda_graph_runner.py", line 871, in replay_prepare',
        "    self.input_ids[:n].copy_(ids)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    value, worker, _ = only_path(tmp_path, lines)
    assert (value, worker) == ("unknown", None)


def test_a_faulthandler_thread_dump_pasted_beside_a_crash_names_the_worker(
    tmp_path: Path,
) -> None:
    """A dump_traceback (SIGUSR1) of the scheduler, no Fatal Python error: not a crash of its
    own, but its frames say which worker the process was running."""
    lines = [
        "[2026-03-01 10:00:00 TP0] scheduler stalled, dumping stacks",
        "Thread 0x00007f1b2c3fd640 (most recent call first):",
        f'  File "{SITE}/speculative/eagle_worker_v2.py", line 640 in verify',
        f'  File "{SITE}/managers/scheduler.py", line 1080 in event_loop_overlap',
        "",
        "[2026-03-01 10:05:00 TP0] RuntimeError: NCCL communicator was aborted on rank 0",
    ]
    crash = next(i for i in run(tmp_path, lines).incidents if i.root_cause)
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    assert path.evidence[0].reason.startswith("faulthandler frame in eagle_worker_v2.py")
