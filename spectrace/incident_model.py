"""The Incident record: one crash signature across ranks, filled in stage by stage.

incidents.py builds it, incident_causes.py reorders causes on it, the linker fills its worker
path, flags and explanation; keeping the record apart lets each import it without a circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from spectrace.assemblers.crash import ChainLink, Frame
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.native import NativeFrame
from spectrace.assemblers.run_config import FlagValue
from spectrace.assemblers.shapes import ShapeMismatch
from spectrace.explain import Explanation
from spectrace.worker_path import WorkerPath


@dataclass(frozen=True, slots=True)
class Occurrence:
    source: str
    lineno: int
    offset: int
    rank: str | None
    stream: str
    ts: datetime | None
    ts_text: str | None
    quoted: bool = False  # a ``> `` quote in a reply: another writer's crash, not the writer's run


@dataclass(slots=True)
class Incident:
    id: str  # "I1", "I2", ... in order of first occurrence
    signature: str  # stable 16-hex fingerprint
    kind: str  # CrashKind value
    exception_type: str
    message: str
    crash_class: str | None
    severity: str
    root_cause: bool
    caused_by: str | None  # incident id of the root cause, for collateral ones
    ranks: list[str]  # origin rank first
    origin_rank: str | None
    first_seen: Occurrence
    occurrences: list[Occurrence]
    frames: tuple[Frame, ...]
    chain: tuple[ChainLink, ...]
    lines: tuple[str, ...]  # text of the first occurrence
    header: str | None = None
    rule_id: str | None = None
    hints: list[str] = field(default_factory=list)
    shape_mismatch: ShapeMismatch | None = None
    explanation: Explanation | None = None
    worker_path: WorkerPath | None = None
    flags: dict[str, FlagValue] = field(default_factory=dict)
    load: LoadSample | None = None
    collateral: list[str] = field(default_factory=list)  # ids of incidents caused by this one
    known: bool = False  # in the baseline (set by triage)
    native_frames: tuple[NativeFrame, ...] = ()  # C/C++ frames of the first crash (native.py)
    frames_reconstructed: bool = False  # ranks' lines interleaved: frames not attributable line by line
    missing_ranks: list[str] = field(default_factory=list)  # never reached the collective (missing_rank.py)
    interleaved: bool = False  # ranks printed it at once (a storm: incident_storms.py)
    # every member record's own frames, where the ranks' records differ (interleaved ranks cut
    # at different depths): one rank's proposer frames name the worker the others ran too
    rank_frames: tuple[tuple[Occurrence, tuple[Frame, ...]], ...] = ()
    mentioned: str | None = None  # "title" / "sentence": only named in prose (assemblers/mention.py)


RANK_FRAMES = 16  # distinct frame sets kept per incident (8 ranks x a chained pair)


def rank_frames(
    frames: Sequence[tuple[Frame, ...]], occurrences: Sequence[Occurrence]
) -> tuple[tuple[Occurrence, tuple[Frame, ...]], ...]:
    """Each distinct frame set the group's records show, with the record it came from; none
    when every record shows the same frames (the incident's ``frames`` say it all)."""
    out: dict[tuple[Frame, ...], Occurrence] = {}
    for own, where in zip(frames, occurrences, strict=True):
        if own and own not in out and len(out) < RANK_FRAMES:
            out[own] = where
    return tuple((where, own) for own, where in out.items()) if len(out) > 1 else ()
