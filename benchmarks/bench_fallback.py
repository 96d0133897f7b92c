"""Where the no-hyperscan triage spends its time: the pure-Python prefilter's setup (the greedy
anchor cover and the anchor tries' compile, paid on the first block), its per-block scan, and
the rest of ``analyse()`` (parsing the hit windows, the config lines, linking), each against
``grep -c -E`` over the same literals and file in the same run.

Usage: python benchmarks/bench_fallback.py --file LOG [--reps 5]

Every figure is a median of ``--reps`` runs in this process (hyperscan blocked, as on a platform
without a wheel); ratios are against grep's median measured between them.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.modules["hyperscan"] = None  # type: ignore[assignment]  # the fallback, as without a wheel
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_scan import ere_escape  # noqa: E402

from spectrace import prefilter  # noqa: E402
from spectrace.pipeline import analyse, build_spec  # noqa: E402
from spectrace.read import Reader  # noqa: E402
from spectrace.ruleset import RuleSet  # noqa: E402


def setup_s(literals: tuple[bytes, ...], sample: bytes) -> tuple[float, float]:
    """(greedy cover, tries' compile) seconds for the anchors ``sample`` chooses."""
    counts = Counter(sample)
    freq = [counts[b] for b in range(256)]
    start = time.perf_counter()
    groups = prefilter.anchors(literals, freq)
    mid = time.perf_counter()
    prefilter.group_patterns(groups, freq)
    return mid - start, time.perf_counter() - mid


def first_block_s(log: str) -> float:
    """A fresh prefilter on the first block, as triage runs it: the anchors' setup with the
    search, or (under ``SMALL_BLOCK``) the literal-by-literal search alone."""
    pf = build_spec(RuleSet.load(), ()).prefilter
    block = next(iter(Reader(log).blocks()))
    start = time.perf_counter()
    pf.line_starts(block.buf, block.start, block.end)
    return time.perf_counter() - start


def scan_s(log: str) -> float:
    """The prefilter's scan of every block, its setup paid before the clock starts."""
    pf = build_spec(RuleSet.load(), ()).prefilter
    spent = 0.0
    for n, block in enumerate(Reader(log).blocks()):
        start = time.perf_counter()
        pf.line_starts(block.buf, block.start, block.end)
        spent += time.perf_counter() - start if n else 0.0  # block 0 holds the setup
    return spent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", required=True)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    literals = build_spec(RuleSet.load(), ()).prefilter.literals
    sample = Path(args.file).read_bytes()[: prefilter.SAMPLE_BYTES]
    grep = ["grep", "-c", "-E", "|".join(ere_escape(x.decode()) for x in literals), args.file]
    rows: dict[str, list[float]] = {}
    for _ in range(args.reps):
        start = time.perf_counter()
        subprocess.run(grep, capture_output=True, check=False)
        rows.setdefault("grep -c -E", []).append(time.perf_counter() - start)
        cover, compile_ = setup_s(literals, sample)
        rows.setdefault("setup: greedy cover", []).append(cover)
        rows.setdefault("setup: tries' compile", []).append(compile_)
        rows.setdefault("prefilter, first block", []).append(first_block_s(args.file))
        rows.setdefault("prefilter scan (blocks 2..n)", []).append(scan_s(args.file))
        start = time.perf_counter()
        analyse([args.file])
        rows.setdefault("whole analyse()", []).append(time.perf_counter() - start)
    base = statistics.median(rows["grep -c -E"])
    size = Path(args.file).stat().st_size / 1e6
    print(f"{args.file}: {size:.0f} MB, {len(literals)} literals, medians of {args.reps}")
    for name, times in rows.items():
        med = statistics.median(times)
        print(f"  {name:30s} {med:7.3f} s  {med / base:6.2f}x grep")


if __name__ == "__main__":
    main()
