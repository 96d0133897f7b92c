"""One input -> crashes, config lines, markers and counts: prefilter blocks, parse only hit windows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from spectrace.assemblers.crash import Crash
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.assemblers.load import LoadSample
from spectrace.collect import Collector
from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import MAX_LINE, LineParser
from spectrace.dialects.flattened import split_flattened
from spectrace.dialects.redraws import split_redraws
from spectrace.dialects.termwrap import Wrap, frame_tail, wrap_of
from spectrace.linecount import NUMPY_INPUT_MIN, LineCounter
from spectrace.lookback import LoadLookback
from spectrace.prefilter import Prefilter
from spectrace.read import Block, Reader
from spectrace.stacks.pasted import DumpScanner, PastedDump

CONTEXT_LINES = 32  # how far back a hit looks for the header its headerless line belongs to
LEAD_LINES = 4  # lines parsed before each hit: a "WorkerProc hit an exception." header line
MAX_LOOKBACKS = 1000  # distinct crash signatures per range that get load context


@dataclass(slots=True)
class ScanResult:
    source: str
    lines: int = 0
    bytes: int = 0
    dialects: Counter[str] = field(default_factory=Counter)
    issues: list[str] = field(default_factory=list)
    crashes: list[Crash] = field(default_factory=list)
    config_lines: list[LogLine] = field(default_factory=list)
    carried: set[tuple[str, int]] = field(default_factory=set)  # Collector.carried
    markers: set[str] = field(default_factory=set)
    load: list[list[LoadSample]] = field(default_factory=list)  # per crash, newest first
    parsed_to: int = 0  # byte offset up to which lines were parsed (past ``stop`` when extended)
    pasted: list[PastedDump] = field(default_factory=list)  # py-spy/faulthandler dumps in the text


@dataclass(frozen=True, slots=True)
class ScanSpec:
    """What to look for; shared by every input of one analysis."""

    matcher: FatalMatcher
    prefilter: Prefilter
    markers: tuple[str, ...] = ()
    config_literals: tuple[bytes, ...] = ()
    load_literals: tuple[bytes, ...] = ()
    parse_load: Callable[[LogLine], LoadSample | None] | None = None
    # crashes of one signature share their load context: only the first (per range) looks back
    signature: Callable[[Crash], str] | None = None


class _Window:
    """Parses lines of one block from a position while the collector has something open."""

    def __init__(self, parser: LineParser, coll: Collector, result: ScanResult,
                 count: LineCounter) -> None:  # fmt: skip
        self.parser, self.coll, self.result = parser, coll, result
        self.dumps = DumpScanner(result.source)
        self.count = count
        self.block: Block | None = None
        self.hits: set[int] = set()  # line starts in the block that hold a hot literal
        self.counted, self.lineno = 0, 0  # newline-counted position and its line number
        self.wrap: Wrap | None = None  # the width a terminal copy wrapped the block at

    def start(self, block: Block, first_lineno: int) -> None:
        self.block, self.counted, self.lineno = block, block.start, first_lineno
        self.wrap = wrap_of(block.buf, block.start, block.end)

    @property
    def open(self) -> bool:
        """Something started needs the next lines: a record, a pending line or a pasted dump."""
        return self.coll.open or self.parser.pending or self.dumps.open

    def lineno_at(self, pos: int) -> int:
        assert self.block is not None
        self.lineno += self.count(self.block.buf, self.counted, pos)
        self.counted = pos
        return self.lineno

    def run(self, pos: int, through: int = -1) -> int:
        """Parse from ``pos`` through the line at ``through``, then on while anything is open."""
        block = self.block
        assert block is not None
        buf, end = block.buf, block.end
        while pos < end:
            nl = buf.find(b"\n", pos, end)
            stop = nl if nl >= 0 else end
            raw = bytes(buf[pos:stop])  # normalise keeps the start (or a redraw's tail)
            if stop - pos > MAX_LINE:
                raw = raw.replace(b"\x00", b"")  # a hole (copytruncate): the Reader says so
                if len(raw) > MAX_LINE:
                    self._note_long(pos)
            lineno = self.lineno_at(pos)
            # a terminal copy's pieces of one line, a frame whose function went to the next
            # line: joined back (termwrap)
            joined_to = stop
            if self.wrap is not None and self.wrap.full(raw):
                raw, joined_to = self.wrap.join(buf, raw, stop, end)
            elif raw[-2:].rstrip().endswith(b","):
                raw, joined_to = frame_tail(buf, raw, stop, end)
            joined, stop = joined_to != stop, joined_to
            # a paste that lost its newlines, or records a progress bar drew over: one per record;
            # the k-th record of one line is placed k bytes into it, so records stay apart
            parts = (p for r in split_redraws(raw) for p in split_flattened(r))
            for k, part in enumerate(parts):
                line = self.parser.parse(part, lineno, block.offset + pos - block.start + k)
                # rules, config and markers need a hot literal; a joined CRI record may hold
                # it early, and colour codes may split one the prefilter looked for
                candidate = pos in self.hits or line.lineno != lineno or b"\x1b" in raw or joined
                self.coll.feed(line, candidate=candidate)
                self.dumps.feed(line, candidate)
            pos = stop + 1
            if pos > through and not self.open:
                break
        pos = min(pos, end)
        self.result.parsed_to = max(self.result.parsed_to, block.offset + pos - block.start)
        return pos

    def context(self, pos: int) -> None:
        """Before a skipped-to hit: parse back to the nearest headed line so headerless lines attach."""
        assert self.block is not None
        buf, lo = self.block.buf, self.block.start
        hi = pos - 1
        for _ in range(CONTEXT_LINES):
            if hi <= lo:
                return
            start = buf.rfind(b"\n", lo, hi) + 1 or lo
            if self.parser.remember(bytes(buf[start:hi])):
                return
            hi = start - 1

    def _note_long(self, pos: int) -> None:
        issue = f"line {self.lineno_at(pos)} is longer than {MAX_LINE} characters; kept its start (or last redraw)"
        if len(self.result.issues) < 20:
            self.result.issues.append(issue)


def scan_range(
    path: str,
    spec: ScanSpec,
    *,
    start: int = 0,
    stop: int | None = None,
    on_crash: Callable[[Crash], None] | None = None,
    on_block: Callable[[int], None] | None = None,
) -> ScanResult:
    """Scan ``[start, stop)`` of one input (line-aligned); records open at ``stop`` are finished.

    Line numbers count from ``start``; ``lines`` counts only lines that begin before ``stop``.
    """
    reader = Reader(path, start=start, stop=stop)
    result = ScanResult(reader.name)
    config = tuple(lit.decode("utf-8", "replace") for lit in spec.config_literals)
    coll = Collector(spec.matcher, markers=spec.markers, config_literals=config)
    lookback = LoadLookback(reader.name, spec.load_literals, spec.parse_load)
    # gzip: the size on disk is ~5-15x smaller than the text it holds
    count = LineCounter(use_numpy=reader.size * (8 if reader.gzip else 1) >= NUMPY_INPUT_MIN)
    window = _Window(LineParser(reader.name), coll, result, count)
    emitted, rule_issues, lineno = 0, len(spec.matcher.issues), 1
    seen: set[str] = set()  # crash signatures already given their load context
    block: Block | None = None
    try:
        for block in reader.blocks():
            if block.beyond and not window.open:
                break
            _scan_block(block, lineno, spec.prefilter, window)
            lineno = window.lineno_at(block.end)
            if not block.beyond:
                result.lines = lineno - 1 + _unterminated(block)
                result.bytes = block.offset + block.end - block.start - start
            emitted = _drain(coll, emitted, block, lookback, result, on_crash, spec, seen)
            if on_block is not None:
                on_block(reader.position())
        coll.close()
        _drain(coll, emitted, block, lookback, result, on_crash, spec, seen)
    finally:
        reader.close()
    result.issues = reader.issues + result.issues + spec.matcher.issues[rule_issues:]
    result.dialects, result.config_lines, result.carried = coll.dialects, coll.config_lines, coll.carried
    result.markers = coll.markers_found
    result.pasted = window.dumps.result()
    return result


def _scan_block(block: Block, first_lineno: int, prefilter: Prefilter, window: _Window) -> None:
    """Continue what is open, then parse a window around every hit (beyond ``stop``: only the former)."""
    window.start(block, first_lineno)
    hits = prefilter.line_starts(block.buf, block.start, block.end)
    window.hits = set(hits)
    pos = block.start
    if window.open:
        pos = window.run(pos)
    if block.beyond:
        return
    for hit in hits:
        if hit < pos:
            continue
        start = hit
        if hit > pos:
            window.coll.gap()
            start = _back_lines(block.buf, max(pos, block.start), hit, LEAD_LINES)
            window.context(start)
        pos = window.run(start, hit)


def _back_lines(buf: bytearray, lo: int, pos: int, n: int) -> int:
    """The start of the line ``n`` lines before the one at ``pos``, not before ``lo``."""
    for _ in range(n):
        if pos <= lo:
            return lo
        pos = buf.rfind(b"\n", lo, pos - 1) + 1 or lo
    return max(pos, lo)


def _unterminated(block: Block) -> int:
    """A last line without a newline still counts as a line."""
    end = block.end
    return 1 if end > block.start and block.buf[end - 1] != 0x0A else 0


def _drain(
    coll: Collector,
    emitted: int,
    block: Block | None,
    lookback: LoadLookback,
    result: ScanResult,
    on_crash: Callable[[Crash], None] | None,
    spec: ScanSpec,
    seen: set[str],
) -> int:
    """Hand new crashes on, each with the load lines just before it (while its bytes are in memory)."""
    for crash in coll.crashes[emitted:]:
        key = spec.signature(crash) if spec.signature is not None else None
        first = key is None or key not in seen
        if key is not None:
            seen.add(key)
        look = block is not None and first and len(seen) <= MAX_LOOKBACKS
        result.crashes.append(crash)
        result.load.append(lookback.samples(block, crash.offset, crash.lineno) if look else [])
        if on_crash is not None:
            on_crash(crash)
    return len(coll.crashes)
