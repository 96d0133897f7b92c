"""The one place the stages are wired: inputs -> scan -> records -> incidents -> linked analysis."""

from __future__ import annotations

from dataclasses import dataclass, field

from spectrace.assemblers.config import Evidence, RunConfig
from spectrace.assemblers.load import LoadSample
from spectrace.incidents import Incident
from spectrace.linker import WorkerPath


@dataclass(frozen=True, slots=True)
class FileSummary:
    path: str
    lines: int
    bytes: int
    dialects: dict[str, int]  # dialect name -> lines attributed (on parsed lines)
    issues: tuple[str, ...] = ()  # non-fatal read problems: "truncated gzip at byte N", ...


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # "missing_marker" | "hang" | "path_conflict" | "read_issue"
    message: str
    detail: str | None = None
    worker_path: WorkerPath | None = None
    evidence: tuple[Evidence, ...] = ()


@dataclass(slots=True)
class Analysis:
    files: list[FileSummary]
    incidents: list[Incident]
    findings: list[Finding]
    config: RunConfig
    load: list[LoadSample] = field(default_factory=list)  # bounded sample for charts
