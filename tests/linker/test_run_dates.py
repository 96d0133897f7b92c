"""A crash stamped days before the only start-up line in the text is not that run's: a reply
pastes today's run beside an older log, and the older crash must not take today's flags (its
day may even predate the algorithm they set). A day of slack covers clocks in other zones."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

DUMP = ("[{day} 10:00:00] server_args=ServerArgs(model_path='org/llama-8b', tp_size=1, "
        "speculative_algorithm='EAGLE3', speculative_eagle_topk=1, disable_overlap_schedule=False)")  # fmt: skip


def _crash(stamp: str, loop: str = "run_scheduler_process") -> list[str]:
    return [
        f"[{stamp} TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "/opt/py/sglang/srt/managers/scheduler.py", line 2611, in {loop}',
        "    scheduler.run_event_loop()",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]


def _paths(tmp_path: Path, lines: list[str]) -> dict[str, tuple[str, str | None]]:
    out = {}
    for crash in roots(run(tmp_path, lines)):
        path, first = crash.worker_path, crash.first_seen
        assert path is not None and first.ts is not None
        out[first.ts.date().isoformat()] = (path.value, path.worker_class)
    return out


def test_an_older_log_beside_a_run_takes_none_of_its_flags(tmp_path: Path) -> None:
    lines = [DUMP.format(day="2026-05-02"), *_crash("2026-05-02 11:05:00"),
             "", "An older log with the same crash:",
             *_crash("2024-11-10 09:00:01", "event_loop_normal")]  # fmt: skip
    got = _paths(tmp_path, lines)
    assert got["2026-05-02"][0] in ("v1", "v2")  # the run's own crash keeps its flags
    assert got["2024-11-10"] == ("unknown", None)


@pytest.mark.parametrize("stamp", ["2026-05-02 18:00:00", "2026-05-01 22:00:00"])
def test_a_crash_of_the_run_keeps_its_flags(tmp_path: Path, stamp: str) -> None:
    """After the start-up, or hours before it (a clock in another zone): the run's crash."""
    (got,) = _paths(tmp_path, [DUMP.format(day="2026-05-02"), *_crash(stamp)]).values()
    assert got[0] in ("v1", "v2") and got[1] is not None
