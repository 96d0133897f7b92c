"""How requests reach the scheduler (SGLang's io_struct.py holds its request structs): a source
the scheduler polls each iteration, and the picklable description each rank builds it from, so
the load client lives outside the runtime (bench/) and is passed in by the entry point."""

from __future__ import annotations

from typing import Protocol

from spectrace_engine.managers.schedule_batch import Req


class RequestSource(Protocol):
    """Where requests come from (SGLang's scheduler receives them from the tokenizer manager)."""

    finished: int

    @property
    def total(self) -> int: ...

    def arrivals(self, it: int) -> list[Req]: ...

    def on_finish(self, req: Req, it: int) -> None: ...

    def done(self) -> bool: ...


class SourceSpec(Protocol):
    """What the entry point hands each rank: a picklable description that builds the source."""

    def make_source(self, prompts: list[list[int]]) -> RequestSource: ...

    def describe(self) -> dict[str, object]: ...
