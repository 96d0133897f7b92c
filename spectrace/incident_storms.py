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

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from spectrace.assemblers.crash import Crash, CrashKind, Frame
from spectrace.assemblers.tracebacks import CUT_TYPE
from spectrace.incident_model import Incident

STORM_LINES = 4000  # 8 ranks x ~100-line tracebacks, interleaved, with other writers between
STORM_SECONDS = timedelta(seconds=10)
PREFIX = 12  # characters a cut message must share with the whole one
Mask = Callable[[str], str]
Sign = Callable[[Crash], str]


@dataclass(slots=True)
class _Storm:
    head: Crash
    keys: set[tuple[str, str]]  # (type, masked message) of every exception its records raised


def storm_joins(crashes: Sequence[Crash], mask: Mask) -> dict[int, Crash]:
    """crash id -> the storm's first crash, for each later crash of a storm; ``crashes`` in
    time order. A record joins when it raised one of the storm's exceptions (a chain torn by
    interleaving ends at one of its links) or lost its exception line to a peer."""
    storms: list[_Storm] = []
    joins: dict[int, Crash] = {}
    for crash in crashes:
        if crash.kind is CrashKind.FATAL_LINE and crash.rank is None:
            if (within := _inside(storms, crash, mask)) is not None:
                joins[id(crash)] = within.head
            continue
        if crash.kind is not CrashKind.TRACEBACK:
            continue
        keys = _keys(crash, mask)
        storms = [s for s in storms if _near(s.head, crash)]
        # a rank seen already: the second half of its chain, torn off by interleaving; a whole
        # record read line by line joins only a storm it is a copy of (same innermost frames)
        found = next((s for s in storms if (not keys or _shared(keys, s.keys) or _same_site(s.head, crash))
                      and (crash.interleaved or s.head.interleaved or not keys
                           or s.head.frames[-1:] == crash.frames[-1:])), None)  # fmt: skip
        if found is None:
            if crash.rank and keys:  # a piece (no writer, no exception) never starts one
                storms.append(_Storm(crash, keys))
            continue
        joins[id(crash)] = found.head
        found.keys |= keys
    return joins


def _inside(storms: list[_Storm], crash: Crash, mask: Mask) -> _Storm | None:
    """The storm that raised an unstamped exception line printed within its reach: a line of
    one of its records that interleaving left to no record (not a crash of its own)."""
    if crash.ts is not None:
        return None  # a logger's record of its own
    key = {(crash.exception_type, mask(crash.message))}
    return next((s for s in storms if _near(s.head, crash) and _shared(key, s.keys)), None)


def _same_site(head: Crash, crash: Crash) -> bool:
    """Records printed in one storm raising one exception type in one frame: one failure even
    when a pipe block glued another writer's text into one record's message."""
    if not (head.interleaved and crash.interleaved) or crash.exception_type != head.exception_type:
        return False
    return bool(_site(crash.frames)) and _site(crash.frames) == _site(head.frames)


def _site(frames: Sequence[Frame]) -> tuple[tuple[str, str], ...]:
    """Where an exception was raised: the innermost frame's file and function."""
    return tuple((f.file, f.function) for f in frames[-1:])


def _keys(crash: Crash, mask: Mask) -> set[tuple[str, str]]:
    raised = [(link.exception_type, link.message) for link in crash.chain]
    raised.append((crash.exception_type, crash.message))
    return {(t, mask(m)) for t, m in raised if t != CUT_TYPE}


def _shared(keys: set[tuple[str, str]], others: set[tuple[str, str]]) -> bool:
    """One exception both raised; a message a pipe block cut mid-way (``CUDA error: an ill``
    and another rank's text) still starts as the whole one does."""
    if keys & others:
        return True
    return any(t == u and len(os.path.commonprefix([m, n])) >= PREFIX
               for t, m in keys for u, n in others)  # fmt: skip


def _near(head: Crash, crash: Crash) -> bool:
    if head.source != crash.source or not 0 <= crash.lineno - head.lineno <= STORM_LINES:
        return False
    if head.ts is None or crash.ts is None:
        return crash.ts is None  # an unstamped piece of a storm is placed by its line alone
    return abs(crash.ts - head.ts) <= STORM_SECONDS


def storm_signatures(
    crashes: Sequence[Crash], joins: dict[int, Crash], sign: Sign
) -> dict[int, str]:
    """Storm head id -> the signature most of its ranks' records carry (a record whose lines
    a peer displaced, or that lost its exception line, signs differently)."""
    members: dict[int, list[Crash]] = {}
    for crash in crashes:
        if (head := joins.get(id(crash))) is not None:
            members.setdefault(id(head), [head]).append(crash)
    return {head: _majority(group, sign) for head, group in members.items()}


def _majority(group: Sequence[Crash], sign: Sign) -> str:
    # records vote; an unstamped exception line left to no record (``_inside``) has no frames
    records = [c for c in group if c.kind is not CrashKind.FATAL_LINE] or list(group)
    named = [c for c in records if c.exception_type != CUT_TYPE] or records
    longest = max(len(c.chain) for c in named)
    whole = [c for c in named if len(c.chain) == longest]  # a torn chain lost its last links
    votes = Counter(sign(c) for c in whole if not c.frames_reconstructed) or Counter(
        map(sign, whole)
    )
    first = {sig: n for n, sig in reversed(list(enumerate(map(sign, whole))))}
    return max(votes, key=lambda sig: (votes[sig], -first.get(sig, 0)))


def settle_frames(incident: Incident, group: Sequence[Crash], sign: Sign) -> None:
    """A storm's incident reads as the record that carries its signature (one no line of
    which was filled in from a peer, when there is one): its exception, chain and frames;
    origin and first line stay the first writer's. It says when its ranks' frames disagree."""
    fitting = [c for c in group if sign(c) == incident.signature] or list(group)
    coherent = [c for c in fitting if not c.frames_reconstructed] or fitting
    best = max(coherent, key=lambda c: len(c.frames))  # a record a peer tore is the shorter
    incident.exception_type, incident.message = best.exception_type, best.message
    incident.frames, incident.chain = best.frames, best.chain
    incident.crash_class, incident.rule_id = best.crash_class, best.rule_id
    tails = {tuple((f.file, f.function) for f in c.frames) for c in group}
    incident.frames_reconstructed = any(c.frames_reconstructed for c in group) or len(tails) > 1
    incident.interleaved = True


def merge_repeats(incidents: list[Incident], mask: Mask) -> list[Incident]:
    """A failure that stormed twice in one input is one incident even when the two storms'
    frames came out apart: a reconstructed or multi-rank incident joins an earlier one of the
    same exception and message (interleaved frames cannot tell them apart), or of the same
    exception within one storm's reach (a pipe block cut its message to a few letters). Ids
    are given again in order."""
    kept: list[Incident] = []
    for incident in incidents:
        same = next((k for k in kept if _repeats(k, incident, mask)), None)
        if same is None:
            kept.append(incident)
            continue
        same.occurrences += incident.occurrences
        same.ranks += [r for r in incident.ranks if r not in same.ranks]
        same.hints += [h for h in incident.hints if h not in same.hints]
        same.frames_reconstructed = True
    for n, incident in enumerate(kept, 1):
        incident.id = f"I{n}"
    return kept


def _repeats(old: Incident, new: Incident, mask: Mask) -> bool:
    if old.first_seen.source != new.first_seen.source or old.exception_type != new.exception_type:
        return False
    stormy = old.frames_reconstructed or new.frames_reconstructed
    if not (old.interleaved and new.interleaved):
        return False  # only storms' frames are in doubt
    if _shared(
        {(new.exception_type, mask(new.message))}, {(old.exception_type, mask(old.message))}
    ):
        return True
    if stormy and _site(old.frames) and _site(old.frames) == _site(new.frames):
        return True  # raised in one frame both times: a glued block spoiled one message
    first, then = old.first_seen, new.first_seen
    close = 0 <= then.lineno - first.lineno <= STORM_LINES and (
        first.ts is None or then.ts is None or abs(then.ts - first.ts) <= STORM_SECONDS
    )
    return stormy and close
