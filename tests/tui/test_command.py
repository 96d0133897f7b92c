"""``spectrace tui`` refuses unusable inputs with one line on stderr, before any screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spectrace", "tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: d / "missing.log", "missing.log: no such file"),
        (lambda d: (d / "bin.log").write_bytes(b"\x7fELF\x00\x00\x01") and d / "bin.log", "binary"),
        (lambda d: (d / "empty").mkdir() or d / "empty", "has no log files"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, make, expected: str) -> None:
    result = _run(str(make(tmp_path)))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and expected in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_stdin_is_refused_with_one_line() -> None:
    result = _run("-")
    assert result.returncode == 2 and "save stdin to a file first" in result.stderr


def test_without_a_terminal_it_says_so_instead_of_drawing_into_a_pipe(tmp_path: Path) -> None:
    """`spectrace tui log > out.txt` in a script drew escapes into the file and waited for keys
    for ever."""
    log = tmp_path / "server.log"
    log.write_text("[2026-02-27 21:00:17 TP0] Decode batch. #running-req: 1\n")
    result = _run(str(log))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "spectrace: error: tui needs a terminal and stdin is not one; "
        "for a report use spectrace triage\n"
    )
