"""Load context for a crash: the throughput lines just before it, found by looking back, not by parsing all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from spectrace.assemblers.load import LoadSample
from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import LineParser
from spectrace.read import Block

MAX_SAMPLES = 64  # per crash, across ranks


class LoadLookback:
    """Finds load lines before an offset in the current and previous block (bytes kept in memory)."""

    def __init__(self, source: str, literals: Sequence[bytes],
                 parse: Callable[[LogLine], LoadSample | None] | None) -> None:  # fmt: skip
        self._literals = tuple(literals)
        self._parse = parse
        self._parser = LineParser(source)

    def samples(self, block: Block, offset: int, lineno: int) -> list[LoadSample]:
        """Load samples before ``offset`` (absolute), newest first, at most MAX_SAMPLES."""
        if self._parse is None or not self._literals:
            return []
        found: list[LoadSample] = []
        lines_back = 0  # newlines between the sample's line and ``offset``
        for blk in (block, block.prev):
            if blk is None or blk.offset >= offset and blk is not block:
                continue
            hi = min(blk.start + max(offset - blk.offset, 0), blk.end)
            found += self._scan(blk, hi, lineno - lines_back, MAX_SAMPLES - len(found))
            lines_back += blk.buf.count(b"\n", blk.start, hi)
            if len(found) >= MAX_SAMPLES:
                break
        return found

    def _scan(self, blk: Block, hi: int, lineno: int, limit: int) -> list[LoadSample]:
        """Walk back line by line over candidate lines only (rfind per literal)."""
        buf, lo = blk.buf, blk.start
        hits: list[int] = []
        for lit in self._literals:
            pos, n = hi, 0
            while n < limit and (pos := buf.rfind(lit, lo, pos)) >= 0:
                start = buf.rfind(b"\n", lo, pos) + 1 or lo
                hits.append(start)
                pos, n = start, n + 1
        out: list[LoadSample] = []
        counted, line_at = hi, lineno
        for start in sorted(set(hits), reverse=True)[:limit]:
            line_at -= buf.count(b"\n", start, counted)
            counted = start
            end = buf.find(b"\n", start, blk.end)
            raw = bytes(buf[start : end if end >= 0 else blk.end])
            line = self._parser.parse(raw, line_at, blk.offset + start - blk.start)
            sample = self._parse(line)  # type: ignore[misc]
            if sample is not None:
                out.append(replace(sample, lineno=line_at) if sample.lineno != line_at else sample)
        return out


def nearest(samples: Sequence[LoadSample], rank: str | None) -> LoadSample | None:
    """The newest sample on the crash's rank, else the newest on any rank."""
    for sample in samples:
        if sample.rank == rank:
            return sample
    return samples[0] if samples else None
