"""Where a decode step's host time goes: laps of one clock, by category, blocking reads apart.

The scheduler and the workers call ``lap(category)`` at their boundaries, so every nanosecond of
the serving loop lands in exactly one category, with no gaps and no double counting. Time spent
blocked on the device (``HostSync.wait``: reading a step's tokens, v1's accept lengths) is
subtracted from the lap it fell in and summed as ``wait``: it is the GPU's time, not host
overhead. ``per_step_ms`` divides by the decode steps processed; prefill is reported apart (it is
not a decode step's cost). A lap costs one ``perf_counter_ns`` (~50 ns).
"""

from __future__ import annotations

import time

# prepare: batch -> worker batch -> forward batch; forward: buffer copies + graph launch of the
# target; verify: token choice (verify kernels outside a graph, the sampler, result handling);
# accept: emitted tokens appended on the host; kv: slots, lengths, retire/filter; events: step
# events and their context; logging: the Decode batch lines.
CATEGORIES = (
    "schedule", "prepare", "forward", "draft", "verify", "accept", "kv", "events", "logging",
)  # fmt: skip
PHASE_CATEGORY = {
    "decode": "forward",
    "sample": "verify",
    "draft": "draft",
    "verify_forward": "forward",
    "verify_kernel": "verify",
    "commit": "accept",
    "draft_extend": "draft",
}


class HostClock:
    """Nanoseconds per category since the clock started; ``wait`` and ``prefill`` kept apart."""

    __slots__ = ("ns", "wait_ns", "_t", "_w")

    def __init__(self) -> None:
        self.ns = dict.fromkeys((*CATEGORIES, "prefill", "wait"), 0)
        self.wait_ns = 0  # grown by HostSync while it blocks
        self._t, self._w = time.perf_counter_ns(), 0

    def restart(self) -> None:
        """Start counting now (serving begins): set-up and graph capture are no step's cost."""
        self._t, self._w = time.perf_counter_ns(), self.wait_ns

    def lap(self, category: str) -> None:
        """Charge the time since the last lap to ``category``, less what was spent blocked."""
        now, waited = time.perf_counter_ns(), self.wait_ns - self._w
        self.ns[category] += now - self._t - waited
        self.ns["wait"] += waited
        self._t, self._w = now, self.wait_ns

    def per_step_ms(self, steps: int) -> dict[str, float]:
        """ms per decode step by category, ``host`` (their sum), ``wait`` and ``prefill``."""
        if steps <= 0:
            return {}
        out = {c: self.ns[c] / steps / 1e6 for c in (*CATEGORIES, "wait", "prefill")}
        out["host"] = sum(out[c] for c in CATEGORIES)
        return {k: round(v, 4) for k, v in out.items()}
