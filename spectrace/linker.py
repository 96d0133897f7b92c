"""Incident + run config -> the worker path that really ran, the flags that decided it."""

from __future__ import annotations

from dataclasses import dataclass

from spectrace.assemblers.config import Evidence


@dataclass(frozen=True, slots=True)
class WorkerPath:
    value: str  # "v1" | "v2" | "other" | "unknown"
    worker_class: str | None  # "EAGLEWorker", "EAGLEWorkerV2", "NGRAMWorker", "EagleProposer"...
    evidence: tuple[Evidence, ...]
    conflict: str | None = None  # a sentence when evidence disagrees
