"""Search and filter at scan speed: a literal prefilter over raw byte chunks, then the user's
pattern on the candidate lines only.

The triage scan reads GB/s because it looks for literals in undecoded bytes and parses only
the lines that hold one; search and filter do the same. A query's required literal (the text
itself, or the longest literal run a regex must contain) is found with hyperscan when it is
installed, else with ``bytes.find`` (case-sensitive) or a bytes regex; only those lines are
decoded and matched with the user's pattern. A regex with no usable literal is run over each
decoded chunk as a whole (one C call per match, not one per line). User patterns are compiled
with ``regex`` and run with a timeout, so ``(a+)+$`` ends the search with one line instead of
freezing the screen. No textual import: the benchmark and tests use it on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from spectrace.line_index import MAX_LINE_BYTES, LineIndex, decode_line
from spectrace.tui.linestyle import plain

if TYPE_CHECKING:
    import regex

# regex (~23 ms) and hyperscan are imported on the first search, not before the first frame.

LINE_TIMEOUT_S = 0.5  # one line: a catastrophic pattern says so instead of freezing anything
CHUNK_TIMEOUT_S = 3.0  # one decoded chunk (about 8 MiB) searched as a whole
MIN_LITERAL = 3  # shorter literals match too many lines to be worth a prefilter
DENSE = 16  # a literal on more than 1 line in 16: the pattern over the whole chunk is faster


Chunk = tuple[int, int, int, bytes]  # first line, stop line, byte offset, raw bytes


_REWRITTEN = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")  # escapes, redraws: shown otherwise


class PatternTimeout(Exception):
    """The user's pattern ran past its timeout (catastrophic backtracking)."""


@dataclass(frozen=True, slots=True)
class Query:
    """What the user typed, compiled with ``regex``; ``literal`` every match must contain."""

    pattern: regex.Pattern[str]
    text: str
    exclude: bool = False
    literal: bytes | None = None
    caseless: bool = False
    exact: bool = False  # a plain-text query whose literal is all of it: a hit is a match

    def matches(self, text: str) -> bool:
        """The pattern on one displayed line, within the timeout."""
        if "\x1b" in text or not text.isprintable():
            text = plain(text)
        try:
            return self.pattern.search(text, timeout=LINE_TIMEOUT_S) is not None
        except TimeoutError as exc:
            raise PatternTimeout(self.text) from exc


@cache
def _hyperscan() -> Any:
    """The same optional accelerator as spectrace.prefilter, or None."""
    try:
        import hyperscan
    except ImportError:  # pragma: no cover - depends on the platform wheel
        return None
    return hyperscan


def compile_query(text: str, *, use_regex: bool, exclude: bool = False) -> Query | str:
    """The compiled query, or the one-line reason it is not a valid regex."""
    import regex

    try:
        pattern = regex.compile(
            text if use_regex else regex.escape(text), 0 if use_regex else regex.IGNORECASE
        )
    except (regex.error, OverflowError, RecursionError) as exc:
        return f"bad regex: {exc}"
    if not use_regex:
        literal = _usable(text, caseless=True)
        return Query(pattern, text, exclude, literal, True, literal == text.encode("utf-8"))
    caseless = bool(pattern.flags & regex.IGNORECASE)
    return Query(pattern, text, exclude, _usable(required_literal(text), caseless), caseless)


def required_literal(text: str) -> str:
    """The longest run of literal characters a regex's every match holds ("" if none known).

    Read with the stdlib parser: top-level literals only (not inside a branch, group or
    repeat); a pattern the stdlib cannot parse (``regex``-only syntax) gets no prefilter.
    """
    try:
        from re import _parser  # type: ignore[attr-defined]

        items = list(_parser.parse(text))
    except (re.error, ImportError, RecursionError, OverflowError):
        return ""
    best, run = "", []
    for op, arg in items:
        if str(op) == "LITERAL":
            run.append(chr(arg))
            continue
        best = max(best, "".join(run), key=len)
        run = []
    return max(best, "".join(run), key=len)


def _usable(literal: str, caseless: bool) -> bytes | None:
    """The literal as bytes if a prefilter can use it: long enough, ASCII when caseless
    (byte-level case folding is ASCII only), else its longest ASCII piece."""
    if caseless and not literal.isascii():
        literal = max(re.split(r"[^\x00-\x7f]+", literal), key=len)
    return literal.encode("utf-8") if len(literal) >= MIN_LITERAL else None


class LiteralFinder:
    """Byte offsets of a literal's hits in raw chunks, at memchr or hyperscan speed."""

    def __init__(self, literal: bytes, caseless: bool) -> None:
        self.literal = literal
        self._db: Any = None
        self._bytes_re: re.Pattern[bytes] | None = None
        self._hs = _hs = _hyperscan()
        if _hs is not None:
            self._db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
            flags = _hs.HS_FLAG_CASELESS if caseless else 0
            self._db.compile(expressions=[re.escape(literal)], ids=[0], elements=1, flags=[flags])
        elif caseless:
            self._bytes_re = re.compile(re.escape(literal), re.IGNORECASE)

    def hits(self, data: bytes, limit: int) -> list[int] | None:
        """Offsets inside ``data`` where a hit starts or ends (one is enough to name its line);
        None past ``limit`` hits: the caller then runs the pattern over the chunk instead."""
        found: list[int] = []
        if self._db is not None:

            def on_match(_id: int, _from: int, to: int, _flags: int, _ctx: Any) -> bool:
                found.append(to - 1)
                return len(found) > limit  # True stops the scan

            try:
                self._db.scan(data, match_event_handler=on_match)
            except self._hs.ScanTerminated:  # our own stop past the limit
                pass
        elif self._bytes_re is not None:
            for m in self._bytes_re.finditer(data):
                found.append(m.start())
                if len(found) > limit:
                    break
        else:
            find, pos = data.find, data.find(self.literal)
            while pos != -1 and len(found) <= limit:
                found.append(pos)
                pos = find(b"\n", pos)  # the rest of this line cannot add a line
                pos = find(self.literal, pos + 1) if pos != -1 else -1
        return None if len(found) > limit else found


def candidate_lines(index: LineIndex, finder: LiteralFinder, chunk: Chunk) -> list[int] | None:
    """Lines of the chunk holding the literal, in order; None when more than 1 in DENSE do."""
    lo, hi, base, data = chunk
    hits = finder.hits(data, (hi - lo) // DENSE + 1)
    if hits is None:
        return None
    lines: list[int] = []
    for pos in hits:
        line = index.line_at(base + pos, lo, hi)
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def _line_text(index: LineIndex, line: int, base: int, data: bytes) -> str:
    start, end = index.span(line)
    return decode_line(data[start - base : end - base], end - start)[0]


class Matcher:
    """One query over raw chunks: prefilter on its literal, then the pattern on candidates."""

    def __init__(self, query: Query) -> None:
        self.query = query
        self._finder = LiteralFinder(query.literal, query.caseless) if query.literal else None

    def lines(self, index: LineIndex, chunk: Chunk) -> list[int]:
        """Lines of one raw chunk whose displayed text the query matches, in order."""
        _lo, _hi, base, data = chunk
        found = candidate_lines(index, self._finder, chunk) if self._finder is not None else None
        if found is not None:  # a rare literal: decode only its lines
            return [n for n in found if self._confirmed(index, n, base, data)]
        return _whole_chunk(index, self.query, chunk)

    def _confirmed(self, index: LineIndex, line: int, base: int, data: bytes) -> bool:
        """A candidate line matches as shown: a plain-text hit on a line shown as it is stored
        (no escapes, redraws or cut) needs no second look."""
        start, end = index.span(line)
        raw = data[start - base : end - base]
        if self.query.exact and end - start <= MAX_LINE_BYTES and not _REWRITTEN.search(raw):
            return True
        return self.query.matches(decode_line(raw, end - start)[0])


def _whole_chunk(index: LineIndex, query: Query, chunk: Chunk) -> list[int]:
    """No literal to prefilter on: the pattern runs over the decoded chunk, one call a match,
    and each hit is checked on its own line (a match must not span lines)."""
    import regex

    lo, _hi, base, data = chunk
    text = data.decode("utf-8", "replace")
    wide = regex.compile(query.pattern.pattern, query.pattern.flags | regex.MULTILINE)
    found: list[int] = []
    pos, line, counted = 0, lo, 0
    while True:
        try:
            m = wide.search(text, pos, timeout=CHUNK_TIMEOUT_S)
        except TimeoutError as exc:
            raise PatternTimeout(query.text) from exc
        if m is None:
            return found
        start = text.rfind("\n", 0, m.start()) + 1
        line += text.count("\n", counted, start)
        counted = start
        end = text.find("\n", m.start())
        end = len(text) if end == -1 else end
        if query.matches(_line_text(index, line, base, data)):
            found.append(line)
        pos = end + 1
        if pos >= len(text):
            return found


@dataclass(frozen=True, slots=True)
class Progress:
    """One chunk scanned: the lines it covered and the hits among them."""

    lo: int
    hi: int
    hits: list[int]


def scan_lines(
    index: LineIndex,
    query: Query,
    lo: int,
    hi: int,
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[Progress]:
    """Matching lines of [lo, hi), a chunk at a time; stops early when ``cancelled``."""
    matcher = Matcher(query)
    for chunk in index.raw_chunks(lo, hi):
        if cancelled():
            return
        yield Progress(chunk[0], chunk[1], matcher.lines(index, chunk))
