"""A crash's own SGLang files bound its release: a file the tables saw only up to 0.5.3
(``build_eagle_tree.py``) puts the run in the era where only the v1 worker exists, so the
normal event loop decides v1 instead of a conditional."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import run

SITE = "/usr/local/lib/python3.10/dist-packages/sglang/srt"


def _crash(*inner: tuple[str, int, str], day: str = "2026-02-10") -> list[str]:
    lines = [f"[{day} 08:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):"]
    frames = [("managers/scheduler.py", 2100, "event_loop_normal"),
              ("managers/scheduler.py", 1200, "run_batch"), *inner]  # fmt: skip
    for file, line, func in frames:
        lines += [f'  File "{SITE}/{file}", line {line}, in {func}', "    step()"]
    return [*lines, "NameError: name 'draft_tokens' is not defined"]


def test_a_file_gone_after_0_5_3_pins_the_v1_era(tmp_path: Path) -> None:
    lines = _crash(("speculative/eagle_utils.py", 300, "create"),
                   ("speculative/build_eagle_tree.py", 80, "build_tree_kernel_efficient"))  # fmt: skip
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")


def test_files_every_release_holds_leave_the_loop_conditional(tmp_path: Path) -> None:
    # dated after the newest release the table knows: the date bounds nothing
    lines = _crash(("speculative/eagle_utils.py", 300, "create"), day="2026-11-20")
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None and path.value == "unknown"
    assert path.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"


def test_another_rank_traceback_through_the_worker_names_it(tmp_path: Path) -> None:
    # TP0 stopped in a generic module; TP1's later traceback of the same run went through the
    # worker (one server runs one worker on every rank)
    lines = ["[2026-02-10 08:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
             f'  File "{SITE}/managers/scheduler.py", line 2100, in run_scheduler_process',
             "    scheduler.run()",
             '  File "/usr/lib/python3/dist-packages/torch/nn/modules/module.py", line 1700, in _call_impl',
             "    return forward_call(*args)",
             "RuntimeError: CUDA error: an illegal memory access was encountered",
             "[2026-02-10 08:00:30 TP1] Scheduler hit an exception: Traceback (most recent call last):",
             f'  File "{SITE}/speculative/eagle_worker_v2.py", line 600, in forward_batch_generation',
             "    self.verify(batch)",
             "AssertionError: bad verify shape"]  # fmt: skip
    incidents = run(tmp_path, lines).incidents
    first = next(i for i in incidents if i.exception_type == "RuntimeError")
    path = first.worker_path
    assert path is not None
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    reason = path.evidence[0].reason
    assert reason.startswith("peer traceback frame in ") and "eagle_worker_v2.py" in reason
