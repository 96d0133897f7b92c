"""Hot literal prefilter over big blocks: which lines are worth parsing at all."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
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
    # rich's boxed traceback (typer, rich, many CLIs): every panel line has its side border,
    # the failing source line its pointer (assemblers/rich_tb.py)
    "│".encode(),
    "❱".encode(),
)


SAMPLE_BYTES = 256 * 1024  # bytes of the first block whose byte counts choose the anchors
MIN_ANCHOR = 3
# Costs in units of one sre pass over a block (measured on gen_log, 2026-12-03): a memchr
# pass (bytes.find of one byte) costs about 1/20 of it, and each place the byte occurs then
# costs a Python step, as much as one pass per occurrence every 1,300 bytes; in an sre pass
# each occurrence tries every tail of the group, about 1/5 of a pass per tail tried at
# every byte.
FIND_PASS = 0.05
BYTES_PER_STEP = 1300
TAIL_TRY = 5


@dataclass(frozen=True, slots=True)
class Anchor:
    """Lines holding one of ``literals`` are found where ``first`` occurs: by ``bytes.find``
    and ``pattern.match`` when the byte is rare, else by one sre pass of ``pattern``."""

    first: bytes
    pattern: re.Pattern[bytes]  # first + one of the literals' tails + the rest of the line
    literals: tuple[bytes, ...]
    by_find: bool


def pass_cost(share: float, tails: int) -> tuple[float, bool]:
    """What one anchor byte costs per block (``share``: how often it occurs; ``tails``: how
    many literal tails follow it), and whether bytes.find beats an sre pass."""
    by_find = FIND_PASS + share * BYTES_PER_STEP
    by_sre = 1.0 + share * tails * TAIL_TRY
    return min(by_find, by_sre), by_find < by_sre


def anchors(literals: Iterable[bytes], freq: list[int]) -> dict[bytes, set[bytes]]:
    """Re-anchor literals on few, rare bytes (greedy set cover): each anchor byte is one pass,
    so fewer and rarer bytes mean less work. A literal's tail matches every line the literal
    matches and a few more; each tail maps to the literals it stands for, so a line it finds
    is kept only when it holds one of them."""
    todo = {lit for lit in literals if lit}
    by_byte: dict[int, set[bytes]] = {}  # byte -> literals it can anchor
    for lit in sorted(todo):
        for byte in sorted(set(lit[: max(len(lit) - MIN_ANCHOR, 0) + 1])):
            by_byte.setdefault(byte, set()).add(lit)
    total = max(sum(freq), 1)
    out: dict[bytes, set[bytes]] = {}
    while todo:
        best = min(sorted(by_byte), key=lambda b: _per_literal(freq[b] / total, by_byte[b] & todo))
        for lit in by_byte[best] & todo:
            out.setdefault(lit[lit.find(bytes([best])) :], set()).add(lit)
        todo -= by_byte[best]
    return out


def _per_literal(share: float, covered: set[bytes]) -> float:
    return pass_cost(share, len(covered))[0] / len(covered) if covered else float("inf")


def group_patterns(tails: dict[bytes, set[bytes]], freq: list[int]) -> list[Anchor]:
    """One literal-prefixed pattern per first byte (never a top-level alternation, sre's slow
    path), with the literals a line it finds must hold."""
    groups: dict[int, set[bytes]] = {}
    owners: dict[int, set[bytes]] = {}
    for tail, lits in tails.items():
        groups.setdefault(tail[0], set()).add(tail[1:])
        owners.setdefault(tail[0], set()).update(lits)
    total = max(sum(freq), 1)
    out = []
    for first, rests in sorted(groups.items()):
        head = re.escape(bytes([first]))
        if b"" in rests:  # a one-byte literal covers the whole group
            body = b""
        else:
            body = b"(?:" + b"|".join(re.escape(r) for r in sorted(rests, key=len)) + b")"
        # the line's end is consumed: one match per line and pattern
        pattern = re.compile(head + body + rb"[^\n]*")
        lits = tuple(sorted(owners[first], key=len))
        by_find = pass_cost(freq[first] / total, len(rests))[1]
        out.append(Anchor(bytes([first]), pattern, lits, by_find))
    return out


def _matches(anchor: Anchor, buf: bytearray, start: int, end: int) -> Iterator[re.Match[bytes]]:
    if not anchor.by_find:
        yield from anchor.pattern.finditer(buf, start, end)
        return
    find, match, first = buf.find, anchor.pattern.match, anchor.first
    at = find(first, start, end)
    while at >= 0:
        m = match(buf, at, end)
        if m is not None:
            yield m
            at = m.end()
        else:
            at += 1
        at = find(first, at, end)


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
        self._anchors: list[Anchor] | None = None  # built from the first block

    @property
    def backend(self) -> str:
        return "hyperscan" if self._db is not None else "re"

    def line_starts(self, buf: bytearray, start: int, end: int) -> list[int]:
        if self._db is not None:
            return self._hs_starts(buf, start, end)
        if self._anchors is None:
            sample = bytes(buf[start : min(end, start + SAMPLE_BYTES)])
            freq = [sample.count(bytes([b])) for b in range(256)]
            self._anchors = group_patterns(anchors(self.literals, freq), freq)
        return self._re_starts(buf, start, end)

    def _re_starts(self, buf: bytearray, start: int, end: int) -> list[int]:
        """A tail's line counts only when it holds a literal the tail stands for: the same lines
        hyperscan finds, so a false hit costs one ``in`` test here, not a parsed window."""
        assert self._anchors is not None
        starts: set[int] = set()
        rfind = buf.rfind
        for anchor in self._anchors:
            for m in _matches(anchor, buf, start, end):
                line_start = rfind(b"\n", start, m.start()) + 1 or start
                if line_start not in starts and any(
                    lit in buf[line_start : m.end()] for lit in anchor.literals
                ):
                    starts.add(line_start)
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
