"""The one timer the benchmark scripts share: a median, so one slow run on a busy box is ignored."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_s(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median wall time of ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
