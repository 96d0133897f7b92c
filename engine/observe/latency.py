"""Per-request latency in wall time: arrival -> first token (TTFT), arrival -> finish, per token.

A request *arrives* when the closed-loop client hands it to the scheduler, gets its *first token*
when the prefill's argmax reaches the host, and *finishes* when the scheduler retires it (on v2,
after the step that produced its last token was resolved). TPOT is the decode part of the latency
spread over the tokens after the first: ``(e2e - ttft) / (n_out - 1)``, as vLLM and SGLang report.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

METRICS = ("ttft_ms", "latency_ms", "tpot_ms")


@dataclass(slots=True)
class _Clock:
    arrive_ns: int
    first_ns: int | None = None


@dataclass(frozen=True, slots=True)
class RequestLatency:
    """One finished request's three numbers (ms); tpot is None for a one-token answer."""

    ttft_ms: float
    latency_ms: float
    tpot_ms: float | None

    def fields(self) -> dict[str, float | None]:
        return {"ttft_ms": self.ttft_ms, "latency_ms": self.latency_ms, "tpot_ms": self.tpot_ms}


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile (q in 1..99) by linear interpolation between closest ranks, numpy's
    default: ``statistics.quantiles``' inclusive method; one value is every percentile."""
    if not values:
        raise ValueError("percentile of no values")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class LatencyBook:
    """Stamps arrivals, first tokens and finishes by request id; summarises at the end."""

    def __init__(self) -> None:
        self._open: dict[int, _Clock] = {}
        self.done: list[RequestLatency] = []

    def arrive(self, rid: int) -> None:
        self._open[rid] = _Clock(time.perf_counter_ns())

    def first_token(self, rid: int) -> None:
        clock = self._open.get(rid)
        if clock is not None and clock.first_ns is None:
            clock.first_ns = time.perf_counter_ns()

    def finish(self, rid: int, n_out: int) -> RequestLatency | None:
        """Close a request; None when it was never stamped (nothing to report)."""
        clock = self._open.pop(rid, None)
        if clock is None:
            return None
        now = time.perf_counter_ns()
        first = clock.first_ns if clock.first_ns is not None else now
        ttft = (first - clock.arrive_ns) / 1e6
        e2e = (now - clock.arrive_ns) / 1e6
        tpot = (e2e - ttft) / (n_out - 1) if n_out > 1 else None
        rec = RequestLatency(
            round(ttft, 3), round(e2e, 3), None if tpot is None else round(tpot, 4)
        )
        self.done.append(rec)
        return rec

    def summary(self) -> dict[str, Any]:
        """``<metric>_mean|_p50|_p99`` over finished requests (None when there are none)."""
        out: dict[str, Any] = {}
        for metric in METRICS:
            vals = [v for r in self.done if (v := getattr(r, metric)) is not None]
            out[f"{metric}_mean"] = round(sum(vals) / len(vals), 3) if vals else None
            for q in (50, 99):
                out[f"{metric}_p{q}"] = round(percentile(vals, q), 3) if vals else None
        return out
