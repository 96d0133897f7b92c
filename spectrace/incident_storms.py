"""One failure on N ranks at once is one incident, even when its frames could not be read
line by line.

Ranks that print the same traceback to one stream at the same moment interleave their lines
(line by line, or in 4 KB pipe blocks that cut lines anywhere); the assembler keeps each rank's
record whole where it can (assemblers/storm.py), but a record can still come out with frames
a peer's lines displaced, and then its signature differs from its peers'. The same exception
type and message on different ranks of one input, within STORM_LINES lines and
STORM_SECONDS of the first, is that one storm: it joins the first writer's incident (the
origin), which shows the frames of a record that needed no reconstruction, and says so when
its members' frames disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from spectrace.assemblers.crash import Crash, CrashKind
from spectrace.assemblers.tracebacks import CUT_TYPE
from spectrace.incident_model import Incident

STORM_LINES = 4000  # 8 ranks x ~100-line tracebacks, interleaved, with other writers between
STORM_SECONDS = timedelta(seconds=10)


def storm_joins(crashes: Sequence[Crash], mask: object) -> dict[int, Crash]:
    """crash id -> the storm's first crash, for each later crash of a storm; ``crashes`` in
    time order; ``mask`` parameterises a message (incidents.mask_message)."""
    heads: dict[tuple[str, str, str], tuple[Crash, set[str]]] = {}
    joins: dict[int, Crash] = {}
    for crash in crashes:
        if crash.kind is not CrashKind.TRACEBACK or crash.exception_type == CUT_TYPE or not crash.rank:
            continue
        key = (crash.source, crash.exception_type, mask(crash.message))  # type: ignore[operator]
        head = heads.get(key)
        if head is not None and crash.rank not in head[1] and _near(head[0], crash):
            joins[id(crash)] = head[0]
            head[1].add(crash.rank)
        else:
            heads[key] = (crash, {crash.rank})
    return joins


def _near(head: Crash, crash: Crash) -> bool:
    if not 0 <= crash.lineno - head.lineno <= STORM_LINES:
        return False
    if head.ts is None or crash.ts is None:
        return head.ts is None and crash.ts is None
    return abs(crash.ts - head.ts) <= STORM_SECONDS


def settle_frames(incident: Incident, group: Sequence[Crash]) -> None:
    """The incident shows a coherent record's frames (one no line of which was filled in from
    a peer, the first writer's when it is one) and says when its ranks' frames disagree."""
    coherent = [c for c in group if not c.frames_reconstructed] or list(group)
    best = coherent[0]
    incident.frames, incident.chain = best.frames, best.chain
    tails = {tuple((f.file, f.function) for f in c.frames) for c in group}
    incident.frames_reconstructed = any(c.frames_reconstructed for c in group) or len(tails) > 1
