"""Shared log and event files: a short os.write is finished, never a message cut in half."""

from __future__ import annotations

import os

import pytest
from spectrace_engine.observe import append


def test_a_short_write_is_finished(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    real = os.write
    calls: list[int] = []

    def short(fd: int, data: bytes) -> int:  # the kernel takes at most 7 bytes per call
        calls.append(len(data))
        return real(fd, bytes(data[:7]))

    monkeypatch.setattr(append.os, "write", short)
    path = tmp_path / "server.log"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    line = b"[2026-02-27 21:00:18 TP7] Decode batch, #running-req: 10\n"
    append.write_all(fd, line)
    os.close(fd)
    assert path.read_bytes() == line and len(calls) == -(-len(line) // 7)


def test_a_write_that_makes_no_progress_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(append.os, "write", lambda fd, data: 0)
    with pytest.raises(OSError, match="no progress"):
        append.write_all(1, b"x")
