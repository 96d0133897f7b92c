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
