"""sglang's ``Exit code: -9`` under ``Rank N scheduler is dead.`` says how the scheduler died."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import Analysis, analyse

DEAD = "[2026-03-04 09:12:40] Rank 0 scheduler is dead. Please check if there are relevant logs."
EXIT = "[2026-03-04 09:12:41] Exit code: -9"
PARENT = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/entrypoints/engine.py", '
    "line 812, in _launch_subprocesses",
    "    data = scheduler_pipe_readers[i].recv()",
    '  File "/usr/lib/python3.12/multiprocessing/connection.py", line 395, in _recv',
    "    raise EOFError",
    "EOFError",
]


def run(tmp_path: Path, lines: list[str]) -> Analysis:
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)])


def test_the_exit_code_joins_the_death_over_the_parents_traceback(tmp_path: Path) -> None:
    (dead,) = run(tmp_path, [DEAD, EXIT, *PARENT]).incidents
    assert (dead.exception_type, dead.crash_class) == ("SchedulerDead", "scheduler_dead")
    assert dead.message == (
        "Rank 0 scheduler is dead. Please check if there are relevant logs. Exit code: -9"
    )


def test_the_exit_code_joins_a_death_without_traceback(tmp_path: Path) -> None:
    (dead,) = run(tmp_path, [DEAD, EXIT, "[2026-03-04 09:12:45] Shutting down"]).incidents
    assert dead.exception_type == "SchedulerDead" and dead.message.endswith("Exit code: -9")
    assert dead.first_seen.lineno == 1


def test_an_exit_code_under_another_line_is_not_joined(tmp_path: Path) -> None:
    other = "[2026-03-04 09:12:40] Subprocess scheduler_0 (pid=12345) crashed with exit code -9. "
    a = run(tmp_path, [other + "Triggering SIGQUIT for cleanup...", EXIT])
    assert all("Exit code" not in i.message for i in a.incidents)
    assert run(tmp_path, [EXIT]).incidents == []
