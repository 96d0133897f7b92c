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

    def samples(self, block: Block, offset: int, lineno: int) -> list[LoadSample]:
        """Load samples before ``offset`` (absolute; its line is ``lineno``), newest first."""
        if self._parse is None:
            return []
        self._forget(block)
        found: list[LoadSample] = []
        budget = MAX_BACK
        for blk in (block, block.prev):
            if blk is None or budget <= 0 or (blk is not block and blk.offset >= offset):
                continue
            hi = min(blk.start + max(offset - blk.offset, 0), blk.end)
            lo = max(blk.start, hi - budget)
            found += self._scan(blk, lo, hi, lineno, MAX_SAMPLES - len(found))
            if len(found) >= MAX_SAMPLES or lo > blk.start:
                break
            budget -= hi - lo
            lineno -= blk.buf.count(b"\n", lo, hi)  # now the line at blk.start = prev's end
        return found

    def _forget(self, block: Block) -> None:
        """Parsed samples of blocks no longer in memory are dropped."""
        low = min(b.offset for b in (block, block.prev) if b is not None)
        if any(k < low for k in self._cache):
            self._cache = {k: v for k, v in self._cache.items() if k >= low}

    def _scan(self, blk: Block, lo: int, hi: int, lineno: int, limit: int) -> list[LoadSample]:
        """The newest load lines in ``[lo, hi)``; ``lineno`` is the line starting at ``hi``.

        rfind walks back per literal and stops after ``limit`` hits, so dense Decode lines
        cost a few lines of search and a rare literal at most one pass over ``[lo, hi)``.
        """
        buf = blk.buf
        starts: set[int] = set()
        for lit in self._literals:
            pos, n = hi, 0
            while n < limit and (pos := buf.rfind(lit, lo, pos)) >= 0:
                pos = buf.rfind(b"\n", lo, pos) + 1 or lo
                starts.add(pos)
                n += 1
        out: list[LoadSample] = []
        counted, line_at = hi, lineno
        for start in sorted(starts, reverse=True)[:limit]:
            line_at -= blk.buf.count(b"\n", start, counted)
            counted = start
            sample = self._sample(blk, start, line_at)
            if sample is not None:
                out.append(replace(sample, lineno=line_at) if sample.lineno != line_at else sample)
        return out

    def _sample(self, blk: Block, start: int, lineno: int) -> LoadSample | None:
        key = blk.offset + start - blk.start
        if key not in self._cache:
            end = blk.buf.find(b"\n", start, blk.end)
            raw = bytes(blk.buf[start : end if end >= 0 else blk.end])
            self._cache[key] = self._parse(self._parser.parse(raw, lineno, key))  # type: ignore[misc]
        return self._cache[key]


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
