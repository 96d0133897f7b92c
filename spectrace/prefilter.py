"""Hot literal prefilter over big blocks: which lines are worth parsing at all."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

try:  # optional accelerator: flat cost in the number of literals (~2.4 GB/s here)
    import hyperscan as _hs
except ImportError:  # pragma: no cover - depends on the platform wheel
    _hs = None

# Structure every crash record starts with, whatever the rules say.
STRUCTURAL_LITERALS: tuple[bytes, ...] = (
    b"Traceback",
    b'File "',
    b"Fatal Python error",
    b"Current thread 0x",
    b"Error",
    b"Exception",
)


SAMPLE_BYTES = 256 * 1024  # bytes of the first block whose byte counts choose the anchors
MIN_ANCHOR = 3
BYTES_PER_PASS = 560  # one sre pass costs about as much as one hit per this many bytes (measured)


def anchors(literals: Iterable[bytes], freq: list[int]) -> set[bytes]:
    """Re-anchor literals on few, rare first bytes (greedy set cover): each pass of sre costs
    the same, so fewer distinct first bytes means fewer passes; a literal's tail matches
    every line the literal matches (and a few more, which the rules then reject)."""
    todo = {lit for lit in literals if lit}
    out: set[bytes] = set()
    hit_weight = BYTES_PER_PASS / max(sum(freq), 1)
    while todo:
        best = min(range(256), key=lambda b: _cost(b, todo, freq[b] * hit_weight))
        for lit in [lit for lit in todo if _position(lit, best) >= 0]:
            out.add(lit[_position(lit, best) :])
            todo.discard(lit)
    return out


def _position(lit: bytes, byte: int) -> int:
    """First position of ``byte`` that leaves at least MIN_ANCHOR bytes (or the whole literal)."""
    pos = lit.find(bytes([byte]), 0, max(len(lit) - MIN_ANCHOR, 0) + 1)
    return pos


def _cost(byte: int, todo: set[bytes], hits: float) -> float:
    """(one pass + the Python work of its hits) per literal the byte can anchor."""
    covered = sum(1 for lit in todo if _position(lit, byte) >= 0)
    return (1 + hits) / covered if covered else float("inf")


def group_patterns(literals: Iterable[bytes]) -> list[re.Pattern[bytes]]:
    """One literal-prefixed pattern per first byte: sre's fast prefix scan, never an alternation."""
    groups: dict[int, set[bytes]] = {}
    for lit in literals:
        if lit:
            groups.setdefault(lit[0], set()).add(lit[1:])
    patterns = []
    for first, rests in sorted(groups.items()):
        head = re.escape(bytes([first]))
        if b"" in rests:  # a one-byte literal covers the whole group
            body = b""
        else:
            body = b"(?:" + b"|".join(re.escape(r) for r in sorted(rests, key=len)) + b")"
        patterns.append(re.compile(head + body + rb"[^\n]*"))
    return patterns


class Prefilter:
    """Line starts of every line containing a hot literal, in order, without duplicates."""

    def __init__(self, literals: Iterable[bytes], *, use_hyperscan: bool = True) -> None:
        self.literals = tuple(dict.fromkeys(lit for lit in literals if lit))
        self._db: Any = None
        if use_hyperscan and _hs is not None and self.literals:
            self._db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
            self._db.compile(
                expressions=[re.escape(lit) for lit in self.literals],
                ids=list(range(len(self.literals))),
                elements=len(self.literals),
                flags=[0] * len(self.literals),
            )
        self._patterns: list[re.Pattern[bytes]] | None = None  # built from the first block

    @property
    def backend(self) -> str:
        return "hyperscan" if self._db is not None else "re"

    def line_starts(self, buf: bytearray, start: int, end: int) -> list[int]:
        if self._db is not None:
            return self._hs_starts(buf, start, end)
        if self._patterns is None:
            sample = bytes(buf[start : min(end, start + SAMPLE_BYTES)])
            freq = [sample.count(bytes([b])) for b in range(256)]
            self._patterns = group_patterns(anchors(self.literals, freq))
        starts: set[int] = set()
        rfind = buf.rfind
        for pattern in self._patterns:
            for m in pattern.finditer(buf, start, end):
                starts.add(rfind(b"\n", start, m.start()) + 1 or start)
        return sorted(starts)

    def _hs_starts(self, buf: bytearray, start: int, end: int) -> list[int]:
        ends: list[int] = []
        view = memoryview(buf)[start:end]

        def on_match(_id: int, _from: int, to: int, _flags: int, _ctx: Any) -> None:
            ends.append(to)

        try:
            self._db.scan(view, match_event_handler=on_match)
        finally:
            view.release()
        starts: set[int] = set()
        rfind = buf.rfind
        for to in ends:
            starts.add(rfind(b"\n", start, start + to) + 1 or start)
        return sorted(starts)
