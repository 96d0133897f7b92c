"""Load context for a crash: the throughput lines just before it, found by looking back, not by parsing all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from spectrace.assemblers.load import LoadSample
from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import LineParser
from spectrace.read import Block

MAX_SAMPLES = 64  # per crash, across ranks
MAX_BACK = 1024 * 1024  # bytes looked back before a crash (about 5,000 lines)


class LoadLookback:
    """Load lines before an offset in the current and previous block (both still in memory)."""

    def __init__(self, source: str, literals: Sequence[bytes],
                 parse: Callable[[LogLine], LoadSample | None] | None) -> None:  # fmt: skip
        self._parse = parse if literals else None
        self._literals = tuple(literals)
        self._parser = LineParser(source)
        self._cache: dict[int, LoadSample | None] = {}  # absolute line offset -> parsed sample
        # literal -> absolute byte span known to hold none of it: crash after crash of a log
        # without load lines searches only the bytes since the last look, not 1 MiB each time
        self._empty: dict[bytes, tuple[int, int]] = {}

    def samples(self, block: Block, offset: int, lineno: int) -> list[LoadSample]:
        """Load samples before ``offset`` (absolute; its line is ``lineno``), newest first."""
        if self._parse is None:
            return []
        self._forget(block)
        found: list[LoadSample] = []
        budget = MAX_BACK
        at: int | _Lazy = lineno  # the line starting at ``hi`` of the block looked at
        for blk in (block, block.prev):
            if blk is None or budget <= 0 or (blk is not block and blk.offset >= offset):
                continue
            hi = min(blk.start + max(offset - blk.offset, 0), blk.end)
            lo = max(blk.start, hi - budget)
            found += self._scan(blk, lo, hi, at, MAX_SAMPLES - len(found))
            if len(found) >= MAX_SAMPLES or lo > blk.start:
                break
            budget -= hi - lo
            at = _Lazy(at, blk, lo, hi)  # the line at blk.start = prev's end, counted if used
        return found

    def _forget(self, block: Block) -> None:
        """Parsed samples of blocks no longer in memory are dropped."""
        low = min(b.offset for b in (block, block.prev) if b is not None)
        if any(k < low for k in self._cache):
            self._cache = {k: v for k, v in self._cache.items() if k >= low}

    def _scan(
        self, blk: Block, lo: int, hi: int, lineno: int | _Lazy, limit: int
    ) -> list[LoadSample]:
        """The newest load lines in ``[lo, hi)``; ``lineno`` is the line starting at ``hi``.

        rfind walks back per literal and stops after ``limit`` hits, so dense Decode lines
        cost a few lines of search and a rare literal at most one pass over ``[lo, hi)``.
        """
        starts: set[int] = set()
        for lit in self._literals:
            starts.update(self._find(blk, lit, lo, hi, limit))
        if not starts:
            return []
        out: list[LoadSample] = []
        counted, line_at = hi, int(lineno)
        for start in sorted(starts, reverse=True)[:limit]:
            line_at -= blk.buf.count(b"\n", start, counted)
            counted = start
            sample = self._sample(blk, start, line_at)
            if sample is not None:
                out.append(replace(sample, lineno=line_at) if sample.lineno != line_at else sample)
        return out

    def _find(self, blk: Block, lit: bytes, lo: int, hi: int, limit: int) -> list[int]:
        """Starts of the newest ``limit`` lines holding ``lit`` in ``[lo, hi)``, skipping the
        part already known to hold none of it."""
        buf, base = blk.buf, blk.offset - blk.start  # buffer index + base = absolute offset
        # no ``lit`` lies inside [known_lo, known_hi); known_hi was a look's ``hi``, a line
        # start, so no literal (one line at most) crosses it
        known_lo, known_hi = self._empty.get(lit, (0, -1))
        skip = known_lo <= lo + base <= known_hi
        stop = min(hi, known_hi - base) if skip else lo
        starts: list[int] = []
        pos = hi
        while len(starts) < limit and (pos := buf.rfind(lit, stop, pos)) >= 0:
            pos = buf.rfind(b"\n", lo, pos) + 1 or lo
            starts.append(pos)
        if not starts:
            self._empty[lit] = (
                (known_lo, max(known_hi, hi + base)) if skip else (lo + base, hi + base)
            )
        return starts

    def _sample(self, blk: Block, start: int, lineno: int) -> LoadSample | None:
        key = blk.offset + start - blk.start
        if key not in self._cache:
            end = blk.buf.find(b"\n", start, blk.end)
            raw = bytes(blk.buf[start : end if end >= 0 else blk.end])
            self._cache[key] = self._parse(self._parser.parse(raw, lineno, key))  # type: ignore[misc]
        return self._cache[key]


class _Lazy:
    """A line number known only after counting the newlines of a span: counted if used."""

    def __init__(self, lineno: int | _Lazy, blk: Block, lo: int, hi: int) -> None:
        self.lineno, self.blk, self.lo, self.hi = lineno, blk, lo, hi

    def __int__(self) -> int:
        return int(self.lineno) - self.blk.buf.count(b"\n", self.lo, self.hi)


def nearest(samples: Sequence[LoadSample], rank: str | None) -> LoadSample | None:
    """The newest sample on the crash's rank, else the newest on any rank."""
    for i, sample in enumerate(samples):
        if sample.rank == rank:
            return _with_batch(sample, samples[i + 1 :])
    return _with_batch(samples[0], samples[1:]) if samples else None


def _with_batch(sample: LoadSample, older: Sequence[LoadSample]) -> LoadSample:
    """vLLM logs one interval in two lines (``Engine 000: ... Running: 10 reqs`` then
    ``SpecDecoding metrics: ...``): a metrics sample takes the running batch of its pair."""
    if sample.running_req is not None or sample.kind != "spec_metrics" or not older:
        return sample
    pair = older[0]
    if pair.kind != "engine_stats" or pair.rank != sample.rank or sample.lineno - pair.lineno > 2:
        return sample
    return replace(
        sample, running_req=pair.running_req, queue_req=pair.queue_req,
        gen_throughput=pair.gen_throughput if sample.gen_throughput is None else sample.gen_throughput,
    )  # fmt: skip
