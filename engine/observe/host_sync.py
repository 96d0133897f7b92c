"""Device -> host reads, counted where they happen: the engine's only way to read a tensor's values.

Every ``.tolist()``/``.item()``/``bool()`` of a device tensor the runtime needs goes through one
``HostSync``, so a step's event carries the reads it really made (v1 reads accept lengths inside
the step, v2 only at the step boundary) instead of a figure written down per worker.
"""

from __future__ import annotations

import time
from typing import Any

from spectrace_engine.observe.host_time import HostClock
from torch import Tensor


class HostSync:
    """A per-rank counter of device -> host reads (``n`` only grows) and the rank's host clock,
    which every read and event wait charges with the time it blocked."""

    __slots__ = ("n", "clock")

    def __init__(self) -> None:
        self.n = 0
        self.clock = HostClock()

    def tolist(self, t: Tensor) -> Any:
        self.n += 1
        t0 = time.perf_counter_ns()
        out = t.tolist()
        self.clock.wait_ns += time.perf_counter_ns() - t0
        return out

    def item(self, t: Tensor) -> Any:
        self.n += 1
        t0 = time.perf_counter_ns()
        out = t.item()
        self.clock.wait_ns += time.perf_counter_ns() - t0
        return out

    def any(self, t: Tensor) -> bool:
        """``bool(t.any())``: one read, e.g. the sampler's NaN check."""
        self.n += 1
        t0 = time.perf_counter_ns()
        out = bool(t.any())
        self.clock.wait_ns += time.perf_counter_ns() - t0
        return out

    def wait(self, event: Any) -> None:
        """Block on a CUDA event (no read, so not counted in ``n``); the time is the device's."""
        t0 = time.perf_counter_ns()
        event.synchronize()
        self.clock.wait_ns += time.perf_counter_ns() - t0
