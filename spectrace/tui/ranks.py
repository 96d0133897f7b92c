"""Which lines are one rank's: its tagged lines, and the untagged lines of its tracebacks.

Eight ranks printing at once interleave, and a traceback's body lines carry no rank tag, so
"the last tagged line's rank" hands TP7's ``RuntimeError`` to whichever rank printed just
before it. The core's traceback assembler already knows whose lines they are; ``crash_owners``
reads that back from its crash records, and only lines no crash claims fall back to the last
tagged line. Tagged lines are found the way search finds text: the rank's tag as it appears in
the log (``" TP3] "``, ``"[rank3]"``) over raw byte chunks, so a rank view of a 512 MB log costs
a memchr pass plus one check per line of that rank, not a parse of every line. The rank names
shown are the server's (``rank7`` is ``TP7`` in a TP-only run), by spectrace.rank_layout.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spectrace.dialects.detect import LineParser
from spectrace.line_index import LineIndex, decode_line

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis

# Untagged lines that continue the message above (traceback body, exception line, blank);
# other untagged lines (NCCL INFO, prints) belong to no rank.
CONTINUATION = re.compile(
    r"\s|$|Traceback \(|During handling|The above exception|[\w.]+(?:Error|Exception|Interrupt|Exit)\b"
)
# The SGLang header's rank tags as spectrace.dialects.sglang reads them (a test keeps them equal).
SGLANG_RANK = re.compile(
    r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?((?: (?:DP|PP|ATTN_CP|MOE_DP|TP|EP)\d+)*)\] "
    r"(?!(?:INFO|WARNING|ERROR|DEBUG|CRITICAL|TRACE):\s)"
)
# What lines that may continue a traceback hold (a newline then a blank starts one), found in
# one prefilter pass and checked by CONTINUATION.
_CONTINUED = (b"\n ", b"\n\t", b"\n\n", b"\n\r", b"Traceback (", b"During handling",
              b"The above exception", b"Error", b"Exception", b"Interrupt", b"Exit")  # fmt: skip
_SGLANG_TAG = re.compile(rb" [A-Z_]+\d+(?: [A-Z_]+\d+)*\] ")
_STAMP = rb"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?"
SNIFF_LINES = 5000
WALK_BACK = 4096  # untagged lines looked through for the tag a continuation inherits
MAX_OWNED = 5000  # crashes whose lines are claimed (a crash-dense log: the first ones)


@dataclass(frozen=True, slots=True)
class Rank:
    """One rank as the picker lists it: the server's name, the names the log uses for it."""

    name: str
    aliases: frozenset[str]
    tags: tuple[bytes, ...]  # how a tagged line spells it, e.g. b" TP3] "


def rank_of(text: str, parser: LineParser, line: int) -> tuple[bool, str | None]:
    """(tagged, rank) of one line: a header or a rank prefix makes it tagged."""
    m = SGLANG_RANK.match(text)  # most big logs: one regex, not the full parser
    if m is not None:
        return True, m.group(1).strip() or None
    parsed = parser.parse(text.encode("utf-8", "replace"), line + 1, 0)
    return parsed.headed or parsed.rank is not None, parsed.rank


def server_name(raw: str, analysis: Analysis | None) -> str:
    """``rank7`` -> ``TP7`` by the run's layout; a name the server printed stays as it is."""
    if analysis is None or not re.fullmatch(r"\[?\s*rank\s*\d+\]?", raw, re.IGNORECASE):
        return raw
    from spectrace.rank_layout import RankLayout

    layout = RankLayout.from_flags(analysis.config.flags)
    number = layout.torch_rank(raw)
    named = layout.server_name(number) if number is not None and layout.world_size > 1 else None
    return named or raw


def _tag(text: str, raw: str) -> bytes | None:
    """The rank as the line spells it, one character either side (``" TP3] "``)."""
    at = text.find(raw, 0, 200)
    if at < 0:
        return None
    return text[max(at - 1, 0) : at + len(raw) + 2].encode("utf-8", "replace")


def ranks_seen(indexes: Sequence[LineIndex], analysis: Analysis | None) -> list[Rank]:
    """Every rank of the first lines and of the core's incidents, each once, in rank order."""
    from spectrace.incidents import rank_key  # the core loads after the first frame

    aliases: dict[str, set[str]] = {}
    tags: dict[str, set[bytes]] = {}
    for n, ix in enumerate(indexes):
        parser = LineParser(str(n))
        for line in range(min(ix.line_count, SNIFF_LINES)):
            text = ix.line(line)[0]
            raw = rank_of(text, parser, line)[1]
            if raw is not None:
                name = server_name(raw, analysis)
                aliases.setdefault(name, set()).add(raw)
                if (tag := _tag(text, raw)) is not None:
                    tags.setdefault(name, set()).add(tag)
    for inc in analysis.incidents if analysis is not None else ():
        for raw in inc.ranks:
            aliases.setdefault(server_name(raw, analysis), set()).add(raw)
    return [
        Rank(name, frozenset(aliases[name]), tuple(sorted(tags.get(name, ()))))
        for name in sorted(aliases, key=rank_key)
    ]


def crash_owners(index: LineIndex, file_crashes: Iterable[Crash]) -> dict[int, str]:
    """0-based untagged lines inside crash records -> the crash's rank, as the assembler read
    them: a record's lines are matched in order over its span, other ranks' lines skipped."""
    owners: dict[int, str] = {}
    parser = LineParser("owners")
    for n, crash in enumerate(file_crashes):
        if n >= MAX_OWNED:
            break
        if crash.rank is None or not crash.lines:
            continue
        want = iter(crash.lines[1:])  # the first line is tagged: it carries its own rank
        expected = next(want, None)
        for line in range(crash.lineno, min(crash.end_lineno, index.line_count)):
            if expected is None:
                break
            text = index.line(line)[0]
            if text.rstrip().endswith(expected.rstrip()) and not rank_of(text, parser, line)[0]:
                owners[line] = crash.rank
                expected = next(want, None)
    return owners


class RankLines:
    """The lines of one rank in a file, found chunk by chunk (see the module docstring)."""

    def __init__(self, index: LineIndex, rank: Rank, owners: dict[int, str]) -> None:
        self.index = index
        self.rank = rank
        self.owners = owners
        self._parser = LineParser("rank")
        self._inherited: dict[int, str | None] = {}
        from spectrace.prefilter import Prefilter  # hyperscan: loaded with the first rank view

        self._tags = Prefilter(rank.tags)
        self._starts = Prefilter(_CONTINUED)
        heads = [t for t in rank.tags if _SGLANG_TAG.fullmatch(t)]
        self._head = (
            re.compile(_STAMP + b"(?:" + b"|".join(map(re.escape, heads)) + b")") if heads else None
        )

    def chunk(self, lo: int, hi: int, base: int, data: bytes) -> list[int]:
        """Lines of [lo, hi) (raw ``data`` from byte ``base``) that are this rank's, in order."""
        found = set(self._tagged(lo, hi, base, data))
        for line in self._continuations(lo, hi, base, data):
            if self._owner(line) in self.rank.aliases:
                found.add(line)
        for line, owner in self.owners.items():
            if lo <= line < hi and owner in self.rank.aliases:
                found.add(line)
        return sorted(found)

    def _tagged(self, lo: int, hi: int, base: int, data: bytes) -> Iterator[int]:
        """Lines that spell the rank's tag; an SGLang header is checked on the raw bytes."""
        head = self._head
        for start in self._tags.line_starts(data, 0, len(data)):  # type: ignore[arg-type]
            line = self.index.line_at(base + start, lo, hi)
            if head is not None and head.match(data, start):
                yield line
            elif (
                rank_of(_text(self.index, line, base, data), self._parser, line)[1]
                in self.rank.aliases
            ):
                yield line

    def _continuations(self, lo: int, hi: int, base: int, data: bytes) -> Iterator[int]:
        """Untagged lines shaped like a traceback's continuation, not claimed by a crash."""
        starts = self._starts.line_starts(data, 0, len(data))  # type: ignore[arg-type]
        for line in sorted({self.index.line_at(base + s, lo, hi) for s in starts} | {lo}):
            if line in self.owners or not lo <= line < hi:
                continue
            text = _text(self.index, line, base, data)
            if CONTINUATION.match(text) and not rank_of(text, self._parser, line)[0]:
                yield line

    def _owner(self, line: int) -> str | None:
        """A crash's claim, else the rank of the nearest tagged line above (lines that neither
        continue nor carry a tag, such as NCCL INFO, are looked through)."""
        if line in self.owners:
            return self.owners[line]
        if line in self._inherited:
            return self._inherited[line]
        seen, owner = [], None
        for above in range(line - 1, max(line - WALK_BACK, 0) - 1, -1):
            if above in self._inherited:
                owner = self._inherited[above]
                break
            text = self.index.line(above)[0]
            tagged, rank = rank_of(text, self._parser, above)
            if tagged:
                owner = rank
                break
            if CONTINUATION.match(text):
                seen.append(above)
        for n in (line, *seen):
            self._inherited[n] = owner
        return owner


def _text(index: LineIndex, line: int, base: int, data: bytes) -> str:
    start, end = index.span(line)
    return decode_line(data[start - base : end - base], end - start)[0]


def lines_of(
    index: LineIndex,
    rank: Rank,
    owners: dict[int, str],
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[tuple[int, int, list[int]]]:
    """(lo, hi, rank lines) a chunk at a time over the whole file."""
    finder = RankLines(index, rank, owners)
    for lo, hi, base, data in index.raw_chunks(0, index.line_count):
        if cancelled():
            return
        yield lo, hi, finder.chunk(lo, hi, base, data)


def count_lines(
    indexes: Sequence[LineIndex], ranks: Sequence[Rank], cancelled: Callable[[], bool]
) -> dict[str, int] | None:
    """Tagged lines of each rank (the picker's counts), one hyperscan pass over the files
    (``bytes.count`` per tag without it); None when cancelled."""
    from spectrace.tui.find import _hyperscan

    tags = [(rank.name, tag) for rank in ranks for tag in rank.tags]
    counts = dict.fromkeys((rank.name for rank in ranks), 0)
    hs = _hyperscan()
    db = None
    if hs is not None and tags:
        db = hs.Database(mode=hs.HS_MODE_BLOCK)
        db.compile(expressions=[re.escape(t) for _, t in tags], ids=list(range(len(tags))),
                   elements=len(tags), flags=[0] * len(tags))  # fmt: skip
    hits = [0] * len(tags)

    def on_match(tag: int, *_: object) -> None:
        hits[tag] += 1

    for index in indexes:
        for _lo, _hi, _base, data in index.raw_chunks(0, index.line_count):
            if cancelled():
                return None
            if db is not None:
                db.scan(data, match_event_handler=on_match)
            else:
                for n, (_, tag) in enumerate(tags):
                    hits[n] += data.count(tag)
    for (name, _), n in zip(tags, hits, strict=True):
        counts[name] += n
    return counts
