"""Watch a log for a stall: when it stops growing while the server lives, capture its stacks."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from spectrace.errors import UsageError
from spectrace.stacks import procfs
from spectrace.stacks.capture import CaptureOptions, NoSuchProcessError, capture
from spectrace.stacks.model import Capture


class WatchResult(Enum):
    STALLED = "stalled"  # the log went quiet for --stall seconds; a capture was taken
    EXITED = "exited"  # the process ended first: nothing to diagnose
    TIMED_OUT = "timed_out"  # --max-time passed without a stall


@dataclass(frozen=True, slots=True)
class WatchOutcome:
    result: WatchResult
    quiet_for: float  # seconds without log growth when the watch ended
    watched_for: float
    capture: Capture | None = None


@dataclass(frozen=True, slots=True)
class WatchSpec:
    log: Path
    pid: int
    stall: float
    max_time: float | None = None

    def check(self) -> None:
        if self.stall <= 0:
            raise UsageError(f"--stall must be positive seconds, not {self.stall:g}")
        if self.max_time is not None and self.max_time <= 0:
            raise UsageError(f"--max-time must be positive seconds, not {self.max_time:g}")
        if not procfs.exists(self.pid):
            raise NoSuchProcessError(f"no process with PID {self.pid}")


def _signature(log: Path) -> tuple[int, int] | None:
    """(size, mtime_ns): any change, growth or rotation, counts as the log writing."""
    try:
        st = log.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def watch(
    spec: WatchSpec,
    options: CaptureOptions,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> WatchOutcome:
    """Poll the log a few times per stall period; bounded by the process's life and --max-time."""
    spec.check()
    poll = min(1.0, spec.stall / 4)
    start = last_change = clock()
    seen = _signature(spec.log)
    while procfs.alive(spec.pid):
        now = clock()
        current = _signature(spec.log)
        if current != seen:
            seen, last_change = current, now
        if now - last_change >= spec.stall:
            snap = capture(spec.pid, options)
            return WatchOutcome(WatchResult.STALLED, now - last_change, now - start, snap)
        if spec.max_time is not None and now - start >= spec.max_time:
            return WatchOutcome(WatchResult.TIMED_OUT, now - last_change, now - start)
        sleep(poll)
    now = clock()
    return WatchOutcome(WatchResult.EXITED, now - last_change, now - start)
