"""A closed-loop benchmark client in scheduler time: deterministic arrivals, so runs reproduce.

``concurrency`` clients each send a request, wait for it to finish, think for ``think_steps``
scheduler iterations and send the next, until ``num_requests`` were sent. A step load starts with
``start_clients`` clients and adds the rest at iteration ``ramp_step`` (clients connecting late,
the way the story's burst of 10 met a batch of 2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from spectrace_engine.managers.schedule_batch import Req


@dataclass(frozen=True, slots=True)
class LoadSpec:
    num_requests: int = 8
    concurrency: int = 4
    max_new_tokens: int = 24
    start_clients: int | None = None  # None = all clients start at once
    ramp_step: int = 0
    think_steps: int = 1
    length_spread: float = 0.5  # outputs range over [(1 - spread) * max, max], like real traces

    def max_new_for(self, rid: int) -> int:
        """A deterministic, varied output budget, so requests finish at different steps."""
        lo = max(1, round(self.max_new_tokens * (1.0 - self.length_spread)))
        return lo + (rid * 7) % (self.max_new_tokens - lo + 1)

    def make_source(self, prompts: list[list[int]]) -> ClosedLoopLoad:
        """The scheduler's request source for this load (the engine builds it per rank)."""
        return ClosedLoopLoad(self, prompts)

    def describe(self) -> dict[str, object]:
        return dataclasses.asdict(self)

    def problems(self) -> list[str]:
        out = []
        if self.num_requests < 1 or self.concurrency < 1 or self.max_new_tokens < 1:
            out.append("--num-requests, --concurrency and --max-new-tokens must be at least 1")
        if self.start_clients is not None and not 1 <= self.start_clients <= self.concurrency:
            out.append("--ramp-clients must be between 1 and --concurrency")
        return out


class ClosedLoopLoad:
    """Issues requests to the scheduler as clients become ready."""

    def __init__(self, spec: LoadSpec, prompts: list[list[int]]) -> None:
        self.spec, self.prompts = spec, prompts
        start = spec.concurrency if spec.start_clients is None else spec.start_clients
        self._ready_at = [0 if c < start else spec.ramp_step for c in range(spec.concurrency)]
        self._client_of: dict[int, int] = {}
        self.issued = 0
        self.finished = 0

    @property
    def total(self) -> int:
        return self.spec.num_requests

    def arrivals(self, it: int) -> list[Req]:
        """Requests whose client is ready at iteration ``it``."""
        out = []
        for c, ready in enumerate(self._ready_at):
            if ready < 0 or ready > it or self.issued >= self.spec.num_requests:
                continue
            rid = self.issued
            self.issued += 1
            self._ready_at[c] = -1  # busy until its request finishes
            self._client_of[rid] = c
            prompt = list(self.prompts[rid % len(self.prompts)])
            out.append(Req(rid, prompt, self.spec.max_new_for(rid)))
        return out

    def on_finish(self, req: Req, it: int) -> None:
        self.finished += 1
        self._ready_at[self._client_of.pop(req.rid)] = it + 1 + self.spec.think_steps

    def done(self) -> bool:
        return self.finished >= self.spec.num_requests
