"""The linker's verdict on an incident: which speculative worker path ran, and why.

Defined apart from the linker so that an Incident can carry it while data still flows one
way (incidents -> linker): the linker imports incidents, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass

from spectrace.assemblers.config import Evidence


@dataclass(frozen=True, slots=True)
class WorkerPath:
    value: str  # "v1" | "v2" | "other" | "unknown"
    worker_class: str | None  # "EAGLEWorker", "EAGLEWorkerV2", "NGRAMWorker", "EagleProposer"...
    evidence: tuple[Evidence, ...]
    conflict: str | None = None  # a sentence when evidence disagrees
