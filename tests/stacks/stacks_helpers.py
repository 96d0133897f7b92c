"""Helpers for the stacks tests: real hung process trees (killed by their own group id), the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HANG_PROGRAM = Path(__file__).parent / "fixtures" / "hang_program.py"
READY_TIMEOUT = 40.0


@dataclass(frozen=True)
class HungServer:
    proc: subprocess.Popen[str]
    log: Path
    rank_pids: tuple[int, ...]

    @property
    def pid(self) -> int:
        return self.proc.pid


def start_hung(tmp: Path, *args: str) -> HungServer:
    """Launch hang_program.py in its own process group and wait until every rank is in place."""
    log = tmp / "server.log"
    proc = subprocess.Popen(
        [sys.executable, str(HANG_PROGRAM), "--log", str(log), *args],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + READY_TIMEOUT
    assert proc.stdout is not None
    line = proc.stdout.readline()  # blocks until READY (or EOF if the program died)
    if not line.startswith("READY") or time.monotonic() > deadline:
        stop(proc)
        raise AssertionError(f"hang_program did not get ready: {line!r}")
    return HungServer(proc, log, tuple(int(p) for p in line.split()[1:]))


def stop(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the group this test created, nothing else
    except ProcessLookupError:
        pass
    proc.wait(timeout=10)


def spectrace(
    *args: str, timeout: float = 60, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess: exit codes and stderr lines as a user sees them."""
    return subprocess.run(
        [sys.executable, "-m", "spectrace", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ, COLUMNS="200"),
        **kwargs,
    )  # type: ignore[call-overload]


def stacks_json(*args: str) -> dict[str, object]:
    result = spectrace("stacks", *args, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def attach_or_denied(pid: int) -> bool:
    """True when py-spy may attach here. Where the kernel forbids it (Yama ptrace_scope, no
    CAP_SYS_PTRACE), check the user gets the one-line ptrace error instead, and return False."""
    result = spectrace("stacks", str(pid), "--samples", "1", "--no-threads")
    if result.returncode == 0:
        return True
    assert result.returncode == 2 and "ptrace permission denied" in result.stderr, result.stderr
    return False
