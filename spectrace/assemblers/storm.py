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

import re
from collections.abc import Iterable
from typing import Protocol, TypeVar

from spectrace.assemblers.crash import CrashKind
from spectrace.assemblers.tb_lines import CHAIN_MARKERS, parse_exception, starts_traceback
from spectrace.dialects.base import LogLine

_DIGITS = re.compile(r"\d+")
MAX_SKIP = 1 << 30  # a record may have lost any number of lines to its peers


class _Open(Protocol):
    """What the router reads of an open traceback record."""

    kind: CrashKind
    first: LogLine
    body: list[str]
    last_lineno: int
    loose: bool  # it took a line that names no writer (tagged records are no storm's)

    @property
    def after(self) -> bool: ...


R = TypeVar("R", bound=_Open)


def storm_fit(records: Iterable[R], line: LogLine) -> tuple[R, tuple[str, ...]] | None:
    """The record an untagged line belongs to when several records print one traceback, and
    the template lines that record must be given first (it fell behind: repeated frames sent
    its lines elsewhere); None when there is no storm (the stream decides, as for any line)."""
    if not line.inferred or not line.text.strip():
        return None  # a blank line is in every traceback: its stream decides
    peers = [
        r for r in records
        if r.kind is CrashKind.TRACEBACK and r.first.group is None and r.body
        and r.first.rank is not None and (r.loose or len(r.body) == 1)
    ]  # fmt: skip  (a storm is ranks: records that name none are one writer's, in turn)
    if len(peers) < 2:
        return None
    leads: dict[str, R] = {}
    size: dict[str, int] = {}
    for r in peers:
        key = r.body[0]
        size[key] = size.get(key, 0) + 1
        if key not in leads or len(r.body) > len(leads[key].body):
            leads[key] = r
    text, best, rank = line.text, None, (MAX_SKIP, 0, 0)
    if not _body_like(text) and all(r.first.stream != line.stream for r in peers):
        return None  # another writer's line (the launcher's, a shell's ``Killed``)
    for r in peers:
        lead, pos = leads[r.body[0]].body, len(r.body)
        if size[r.body[0]] < 2:
            continue
        for skip in range(len(lead) - pos):
            if _same(lead[pos + skip], text):
                if (skip, pos, r.last_lineno) < rank:
                    best, rank = r, (skip, pos, r.last_lineno)
                break
    if best is not None:
        pos = len(best.body)
        return best, tuple(leads[best.body[0]].body[pos : pos + rank[0]])
    storms = [key for key, n in size.items() if n > 1]
    if len(storms) != 1:
        return None
    front = len(leads[storms[0]].body)
    ahead = [r for r in peers if r.body[0] == storms[0] and len(r.body) == front]
    leader = min(ahead, key=lambda r: r.last_lineno)
    if leader.after and not text.lstrip().startswith('File "'):
        return leader, ()  # its message goes on (a CUDA error's advice lines)
    return (leader, ()) if _body_like(text) and not leader.after else None


def _same(expected: str, text: str) -> bool:
    """The same printed line, up to numbers that differ by rank (``GPU 3``, ``rank 5``); a
    frame's line number is the code's, the same on every rank (and tells layers apart)."""
    if expected == text:
        return True
    frame = text.lstrip().startswith('File "')
    return not frame and _DIGITS.sub("", expected) == _DIGITS.sub("", text)


def _body_like(text: str) -> bool:
    """A line only a traceback prints: a frame or code line, an exception, a chain marker."""
    stripped = text.strip()
    return (
        (text[:1].isspace() and bool(stripped))
        or stripped in CHAIN_MARKERS
        or starts_traceback(text)
        or parse_exception(text) is not None
    )
