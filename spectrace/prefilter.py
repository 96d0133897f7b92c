"""Hot literal prefilter over big blocks: which lines are worth parsing at all."""

from __future__ import annotations

import re
from collections import Counter
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
    b'.py", line ',  # a frame line whose start a copy cut off (assemblers/traceback_record.py)
    b"Fatal Python error",
    b"Current thread 0x",
    b"Error",
    b"Exception",
    # rich's boxed traceback (typer, rich, many CLIs): every panel line has its side border,
    # the failing source line its pointer (assemblers/rich_tb.py)
    "│".encode(),
    "❱".encode(),
)


# A literal that opens with a newline holds only at a line's start: its line is the one after
# that newline (an engine's record a copy cut to column 0, where its own headed lines hold the
# words after a prefix and must not be kept for them)
LINE_START = b"\n"
SAMPLE_BYTES = 256 * 1024  # bytes of the first block whose byte counts choose the anchors
# Under this many bytes (a pasted excerpt, a small log) the fallback searches each literal with
# bytes.find instead of building the anchors: their cover and tries cost ~0.1-0.2 s, the search
# of every literal ~0.7 ms per 2 KiB and ~60 ms per 64 KiB (benchmarks/bench_fallback.py).
SMALL_BLOCK = 64 * 1024
# Costs in units of one sre pass over a block whose anchor byte never occurs (~1.1 ms per 4 MiB
# of gen_log; benchmarks/bench_scan.py's machine, 2026-12-03, Python 3.11, minimum of 9). Per
# unit of the anchor byte's share of the input: sre spends ~2-10 ns where the byte occurs and
# ~3 ns more per branch tried there (a branch that starts with another byte fails on one
# compare); a bytes.find (memchr) pass costs ~1/30 of an sre pass, but each place the byte
# occurs then costs a Python step (~0.5 us: find + match).
MIN_TAIL = 3
FIND_PASS = 0.035
STEP = 1800.0
OCCURRENCE = 20.0
BRANCH = 12.0


@dataclass(frozen=True, slots=True)
class Anchor:
    """Lines holding one of ``literals``, found where ``first`` occurs: the pattern is a trie of
    what follows that byte in each literal, each leaf checked by a lookbehind on the whole
    literal, so a match is a line holding a literal (no false hit reaches Python). A rare byte
    is found by ``bytes.find`` and matched in place, a common one by one sre pass."""

    first: bytes
    pattern: re.Pattern[bytes]
    literals: tuple[bytes, ...]
    by_find: bool


def pass_cost(share: float, branches: int) -> tuple[float, bool]:
    """One anchor's cost per block (``share``: how often its byte occurs; ``branches``: the
    distinct bytes that follow it in its literals), and whether bytes.find beats an sre pass."""
    by_find = FIND_PASS + share * STEP
    by_sre = 1.0 + share * (OCCURRENCE + BRANCH * branches)
    return min(by_find, by_sre), by_find < by_sre


def anchors(literals: Iterable[bytes], freq: list[int]) -> dict[int, dict[bytes, int]]:
    """Anchor byte -> {literal: where the byte sits in it}, by a greedy cover: each byte chosen
    is one pass, priced by how often it occurs and how many branches it tries there; a literal
    joins a byte already chosen for the price of its new branch only. A literal is anchored
    where at least ``MIN_TAIL`` of its bytes follow (from its start, when shorter): each leaf's
    lookbehind costs ~50 ns, so it must be reached rarely (``: `` of ``panic: `` is everywhere)."""
    todo = {lit for lit in literals if lit}
    places: dict[int, dict[bytes, int]] = {}  # byte -> {literal: its first place there}
    for lit in sorted(todo):
        for at in range(int(lit.startswith(LINE_START)), max(len(lit) - MIN_TAIL, 0) + 1):
            # (a line-start literal is never anchored on its newline: its match would open on
            # the line above)
            places.setdefault(lit[at], {}).setdefault(lit, at)
    total = max(sum(freq), 1)
    out: dict[int, dict[bytes, int]] = {}
    branches: dict[int, set[int]] = {}  # chosen byte -> the bytes that follow it
    while todo:
        best = min(
            sorted(places),
            key=lambda b: _per_literal(freq[b] / total, places[b], branches.get(b), todo),
        )
        taken = out.setdefault(best, {})
        for lit in todo.intersection(places[best]):
            taken[lit] = places[best][lit]
            branches.setdefault(best, set()).add(_next(lit, taken[lit]))
        todo.difference_update(taken)
    return out


def _per_literal(
    share: float, places: dict[bytes, int], old: set[int] | None, todo: set[bytes]
) -> float:
    new = todo.intersection(places)
    if not new:
        return float("inf")
    more = {_next(lit, places[lit]) for lit in new}.union(old or ())
    cost = pass_cost(share, len(more))[0] - (pass_cost(share, len(old))[0] if old else 0.0)
    return cost / len(new)


def _next(lit: bytes, at: int) -> int:
    return lit[at + 1] if at + 1 < len(lit) else -1


def group_patterns(groups: dict[int, dict[bytes, int]], freq: list[int]) -> list[Anchor]:
    """One literal-prefixed pattern per anchor byte (never a top-level alternation, sre's slow
    path); the line's end is consumed, so one match per line and pattern (a literal may end in
    the line break itself: a figure at its line's end)."""
    total = max(sum(freq), 1)
    out = []
    for first, placed in sorted(groups.items()):
        trie: dict = {}
        for lit, at in placed.items():
            node = trie
            for byte in lit[at + 1 :]:
                node = node.setdefault(byte, {})
            node.setdefault(None, []).append(lit[:at] and lit)  # b"": nothing before to check
        body = _render(trie)
        # (a literal ending in a line break ends the match there: the next line is its own)
        pattern = re.compile(re.escape(bytes([first])) + body + rb"(?:(?<=\n)|[^\n]*)")
        branches = len({_next(lit, at) for lit, at in placed.items()})
        by_find = pass_cost(freq[first] / total, branches)[1]
        out.append(Anchor(bytes([first]), pattern, tuple(sorted(placed, key=len)), by_find))
    return out


def _render(node: dict) -> bytes:
    """A trie as nested alternations; a leaf is a lookbehind on its whole literals."""
    ends = node.get(None, [])
    if b"" in ends:  # a literal with nothing before its anchor ends here: matched already
        return b""
    alts = [
        re.escape(bytes([b])) + _render(node[b]) for b in sorted(k for k in node if k is not None)
    ]
    alts += [b"(?<=" + re.escape(lit) + b")" for lit in sorted(ends)]
    return alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"


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
        if self._anchors is None and end - start <= SMALL_BLOCK:
            return self._find_starts(buf, start, end)
        if self._anchors is None:
            sample = bytes(buf[start : min(end, start + SAMPLE_BYTES)])
            counts = Counter(sample)
            freq = [counts[b] for b in range(256)]
            self._anchors = group_patterns(anchors(self.literals, freq), freq)
        return self._re_starts(buf, start, end)

    def _find_starts(self, buf: bytearray, start: int, end: int) -> list[int]:
        """Each literal found by bytes.find; after a hit, the search goes on from the next line."""
        starts: set[int] = set()
        find, rfind = buf.find, buf.rfind
        for lit in self.literals:
            at = find(lit, start, end)
            while at >= 0:
                starts.add(at + 1 if lit.startswith(LINE_START) else rfind(b"\n", start, at) + 1 or start)
                stop = find(b"\n", at, end)
                at = find(lit, stop + 1, end) if stop >= 0 else -1
        return sorted(starts)

    def _re_starts(self, buf: bytearray, start: int, end: int) -> list[int]:
        """Every match holds a literal, as hyperscan's do; only a window that starts inside a
        line needs its first line checked (a lookbehind may see before the window)."""
        assert self._anchors is not None
        starts: set[int] = set()
        rfind = buf.rfind
        for anchor in self._anchors:
            for m in _matches(anchor, buf, start, end):
                line_start = rfind(b"\n", start, m.start()) + 1 or start
                if line_start == start and not any(
                    lit in buf[start : m.end()] for lit in anchor.literals
                ):
                    continue
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
        for to in ends:  # (the match's last byte may be a literal's own line break)
            starts.add(rfind(b"\n", start, start + to - 1) + 1 or start)
        return sorted(starts)
