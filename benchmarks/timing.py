"""The one timer the benchmark scripts share: a median, so one slow run on a busy box is ignored."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass


def median_s(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median wall time of ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass(frozen=True, slots=True)
class Measured:
    """One command run: wall and CPU seconds, peak RSS, exit code, stdout."""

    wall_s: float
    cpu_s: float  # user + system: steadier than wall time on a shared box
    peak_mib: float  # the process and its waited-for children
    returncode: int
    stdout: bytes


def measure(cmd: list[str]) -> Measured:
    """Run ``cmd`` once with stderr dropped, taking its resource usage from wait4."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Measured(
        wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode, out
    )
