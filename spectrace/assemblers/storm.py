"""Routing the untagged lines of a crash storm: ranks printing one traceback at once.

When N ranks print the same traceback to one stream line by line, their continuation lines
carry no rank and arrive in any order. Which rank wrote a line cannot be known, but it need
not be: the records print the same text, so the record most ahead (the leader) is a template,
and a line the template holds at a record's position is that record's next line. Repeated frames (a model's layers) can send
a line to the wrong peer; the record that lost it catches up when its next line is a little
further on in the template, and is given the lines it lost (its frames are then
reconstructed, and it says so). A line no
record expects is new text: the leader's. Blank lines are left out of the comparison (every record has them, and one
taken by the wrong record would shift it against the template). Each record then ends with its own exception line,
a chain keeps its links, and a storm is N complete records, not N torn ones.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import replace
from typing import Any, NamedTuple, Protocol, TypeVar

from spectrace.assemblers.crash import CrashKind
from spectrace.assemblers.faultdump import FATAL
from spectrace.assemblers.tb_lines import (
    CHAIN_MARKERS,
    CUT_MIN,
    TB_START,
    parse_exception,
    starts_traceback,
    tb_start,
)
from spectrace.dialects.base import LogLine
from spectrace.dialects.sglang import SGLangDialect

_SGLANG = SGLangDialect()
SCHEDULER_TB = f"Scheduler hit an exception: {TB_START}"  # sglang's scheduler logs a crash so
CUT_LINE = 24  # characters an exception line cut by a pipe block keeps of the whole one
GLUE_TRIES = 3  # brackets looked at from the line's end for a header glued in
_DIGITS = re.compile(r"\d+")
MAX_SKIP = 1 << 30  # a record may have lost any number of lines to its peers
MESSAGE_TAIL = 8  # lines at a record's end an exception line and its advice lines are in
GLUED_MIN = 8  # characters a peer's cut line glued after a cut exception line must show
NEAR = 3  # a line this close ahead of a record is its own, before it is the leader's new one


class _Open(Protocol):
    """What the router reads of an open traceback record."""

    kind: CrashKind
    first: LogLine
    body: list[str]
    last_lineno: int
    loose: bool  # it took a line that names no writer (tagged records are no storm's)
    reconstructed: bool  # it was given lines its peers took

    @property
    def after(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def between_links(self) -> bool: ...


R = TypeVar("R", bound=_Open)


class Fit(NamedTuple):
    """Where a storm's untagged line goes: its record (None: a late copy of a line a record
    was given already, nobody's), the template lines that record lost to its peers (given
    first), and the line as that record printed it."""

    record: Any
    lost: tuple[str, ...]
    text: str


def storm_fit(
    storm: list[R] | None, line: LogLine, last: R | None = None, cut: bool = False
) -> Fit | None:
    """The record an untagged line belongs to when several records print one traceback, and
    the template lines that record must be given first (it fell behind: repeated frames sent
    its lines elsewhere); None when there is no storm (the stream decides, as for any line).
    ``last`` took the line before: a pipe block is one writer's, so the line that record
    expects next is its own (repeated frames would otherwise go to a peer that expects them).
    ``cut``: the line ended where another writer's text began; a record it starts the
    expected line of reads that line whole. ``storm``: ``find_storm`` of the open records
    (the assembler keeps it until a record opens, closes or changes what it is)."""
    if (found := _template(storm, line)) is None:
        return None
    storm, lead = found
    text = line.text
    if cut and (begun := _begun(storm, lead, text)) is not None:
        return begun
    if last is not None and any(r is last for r in storm) and _expects(last, lead, text):
        return Fit(last, (), text)
    if (best := _next_is(storm, lead, text)) is not None:
        return _caught_up(best, lead, text)
    if (best := _expecting(storm, lead, text, NEAR)) is not None:
        return _caught_up(best, lead, text)  # one or two of its lines went to a peer
    if (linked := _link_taker(storm, text)) is not None:
        return Fit(linked, (), text)
    raised = not text[:1].isspace() and parse_exception(text) is not None
    if raised and _rest_of_cut(storm, text):
        return Fit(None, (), text)  # its start was read whole from the template already
    if raised and (best := _expecting(storm, lead, text, len(lead))) is not None:
        return _caught_up(best, lead, text)  # an exception line is a lagging record's, no repeat
    if raised and _owed(storm, lead, text):
        return Fit(None, (), text)
    live = [r for r in storm if not r.finished] or storm  # an ended record takes no new text
    leader = _leader(live)
    frame = text.lstrip().startswith('File "')
    if (leader.after and not frame) or (not leader.after and _body_like(text)):
        return Fit(leader, (), text)  # new text: the leader's (a CUDA error's advice lines too)
    if (best := _expecting(storm, lead, text, len(lead))) is not None:
        return _caught_up(best, lead, text)  # a record fell behind: its lines went to peers
    return None


def _owed(storm: list[R], lead: list[str], text: str) -> bool:
    """An exception line every record is past, after a record was given lines it fell behind
    on: the line that record was given a copy of arrives late (nobody's new exception)."""
    if not any(r.reconstructed for r in storm):
        return False
    behind = min(len(r.body) for r in storm)
    return any(_same(expected, text) for expected in lead[:behind])


def _leader(records: list[R]) -> R:
    """The record furthest ahead: new text is its; of several as far, the one fed longest
    ago (ranks take turns)."""
    top = max(len(r.body) for r in records)
    return min((r for r in records if len(r.body) == top), key=lambda r: r.last_lineno)


def _link_taker(storm: list[R], text: str) -> R | None:
    """A chain marker no template places is new text of a record whose exception is in; the
    next link's ``Traceback`` line, of a record that read the marker."""
    stripped = text.strip()
    if stripped in CHAIN_MARKERS:
        able = [r for r in storm if r.after or r.finished]
    elif stripped == TB_START:
        able = [r for r in storm if r.between_links]
    else:
        return None
    return _leader(able) if able else None


def _caught_up(record: R, lead: list[str], text: str) -> Fit:
    """The record, the lines it lost, and its line whole: a line a pipe block cut short reads
    as the template's (and the record says it was reconstructed). A line that goes on
    differently stays as printed: which of the two is another writer's text, no one knows."""
    pos = len(record.body)
    if pos < len(lead) and lead[pos] == text:
        return Fit(record, (), text)  # the common case: its next line, as printed
    skip = _skip(lead, pos, text)
    whole = lead[pos + skip] if pos + skip < len(lead) else text
    cut = whole.startswith(text) or _glued(lead, whole, text)
    return Fit(record, tuple(lead[pos : pos + skip]), whole if cut else text)


def _glued(lead: list[str], whole: str, text: str) -> bool:
    """``text`` is ``whole`` cut by a pipe block, then the end of another line of the same
    traceback (``CUDA `` + ``ne 604, in forward``, a peer's frame line cut at its start):
    the rest is a peer's, and the line is the template's."""
    common = len(os.path.commonprefix([whole, text]))
    rest = text[common:]
    if common < CUT_LINE or len(rest) < GLUED_MIN:
        return False
    return any(line.endswith(rest) and line != text for line in lead)


def _rest_of_cut(storm: list[R], text: str) -> bool:
    """``error: an illegal memory access ...`` starting a block: the end of an exception line
    a pipe block cut, which a record of the storm already holds whole."""
    return len(text) >= CUT_MIN and any(
        line.endswith(text) and len(line) > len(text) and not line[0].isspace()
        for r in storm for line in r.body[-MESSAGE_TAIL:]
    )  # fmt: skip


def find_storm(records: Collection[R]) -> list[R] | None:
    """The open records that print one traceback at once: ranked writers (records that name
    none are one writer's, in turn) fed untagged lines, with the same first line; None when
    there are none, or two such groups (the streams must decide)."""
    families: dict[str, list[R]] = {}
    for r in records:
        body = r.body
        if body and r.kind is CrashKind.TRACEBACK and r.first.group is None \
                and r.first.rank is not None and (r.loose or len(body) == 1):  # fmt: skip
            if (family := families.get(body[0])) is None:
                families[body[0]] = [r]
            else:
                family.append(r)
    storms = [f for f in families.values() if len(f) > 1]
    return storms[0] if len(storms) == 1 else None


def _expects(record: R, lead: list[str], text: str) -> bool:
    pos = len(record.body)
    return pos < len(lead) and lead[pos] == text


def _template(storm: list[R] | None, line: LogLine) -> tuple[list[R], list[str]] | None:
    """The storm an untagged line may belong to, and its template: the body furthest ahead."""
    if storm is None or not line.inferred or not line.text.strip():
        return None  # no storm (or two at once), a blank line: the streams decide
    if not _body_like(line.text) and all(r.first.stream != line.stream for r in storm):
        return None  # another writer's line (the launcher's, a shell's ``Killed``)
    return storm, max((r.body for r in storm), key=len)


def _begun(storm: list[R], lead: list[str], text: str) -> Fit | None:
    """The record least advanced whose next line begins with ``text``, given that line whole."""
    found = [(len(r.body), r.last_lineno, n) for n, r in enumerate(storm)
             if len(r.body) < len(lead) and lead[len(r.body)].startswith(text)]  # fmt: skip
    return Fit(storm[min(found)[2]], (), lead[min(found)[0]]) if found else None


def _next_is(storm: list[R], lead: list[str], text: str) -> R | None:
    """The record least advanced whose next line is ``text`` (the common case, kept quick)."""
    best, key = None, (len(lead), 0)
    for r in storm:
        pos = len(r.body)
        if pos < key[0] or (pos == key[0] and best is not None and r.last_lineno < key[1]):
            if pos < len(lead) and _same(lead[pos], text):
                best, key = r, (pos, r.last_lineno)
    return best


def _expecting(storm: list[R], lead: list[str], text: str, within: int) -> R | None:
    """The record least advanced whose next line (or one of its next ``within``) is ``text``."""
    found = [(_skip(lead, len(r.body), text, within), len(r.body), r.last_lineno, n)
             for n, r in enumerate(storm)]  # fmt: skip
    found = [f for f in found if f[0] < within]
    return storm[min(found)[3]] if found else None


def _skip(lead: list[str], pos: int, text: str, within: int = MAX_SKIP) -> int:
    """Template lines from ``pos`` before ``text``; ``within`` or more when not there."""
    for skip, expected in enumerate(lead[pos : pos + within]):
        if _same(expected, text):
            return skip
    return within


def _same(expected: str, text: str) -> bool:
    """The same printed line, up to numbers that differ by rank (``GPU 3``, ``rank 5``); a
    frame's line number is the code's, the same on every rank (and tells layers apart)."""
    if expected == text:
        return True
    if text.lstrip().startswith('File "'):
        return False
    if _DIGITS.sub("", expected) == _DIGITS.sub("", text):
        return True
    # an exception line a pipe block cut (its rest is another rank's text) still begins so
    common = os.path.commonprefix([expected, text])
    return len(common) >= CUT_LINE and ": " in common and not common[0].isspace()


def _body_like(text: str) -> bool:
    """A line only a traceback prints: a frame or code line, an exception, a chain marker."""
    stripped = text.strip()
    return (
        (text[:1].isspace() and bool(stripped))
        or stripped in CHAIN_MARKERS
        or starts_traceback(text)
        or parse_exception(text) is not None
    )


def unglued(line: LogLine) -> tuple[LogLine, ...]:
    """A line another writer's output landed in: a pipe block that ended mid-line, then a
    rank's ``[stamp TP7] Scheduler hit an exception: Traceback ...`` (that rank's record
    starts there, even when the next block cut its header short; the header's cut-off rest,
    at the start of a later line, is nothing), or faulthandler writing ``Fatal Python
    error:`` straight to fd 2 (the dump is not the writer's whose line it cut: its rank is
    unknown until a death notice names it). Returns the pieces to read in turn: the cut line
    a rank's header landed in stays its writer's (an exception line missing its end is still
    that record's exception)."""
    text = line.text
    at = text.find(FATAL)
    if at > 0:
        return (replace(line, text=text[at:], rank=None),)
    if not line.inferred:
        return (line,)
    idx = tb_start(text)
    if idx > 0 and SCHEDULER_TB[: -len(TB_START)].endswith(text[:idx]):
        return (replace(line, text=""),)  # the rest of a header a pipe block cut
    pos = len(text)
    for _ in range(GLUE_TRIES):
        if (pos := text.rfind("[", 0, pos)) <= 0:
            break
        head = _SGLANG.parse(text[pos:])
        if head is None or not head.rank:
            continue
        rest = head.text
        if tb_start(rest) < 0 and len(rest) >= CUT_MIN and SCHEDULER_TB.startswith(rest):
            rest = SCHEDULER_TB
        if tb_start(rest) >= 0:
            header = replace(line, text=rest, stream=head.stream, rank=head.rank, ts=head.ts,
                             ts_text=head.ts_text, headed=True, inferred=False)  # fmt: skip
            cut = text[:pos]
            return (replace(line, text=cut), header) if cut.strip() else (header,)
        break
    return (line,)
