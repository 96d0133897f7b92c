"""What reading rich's boxed tracebacks costs where there are none: the prefilter with and
without its two literals (``│``, ``❱``) on a generated log, and ``analyse()`` of crash-dense
logs with ``RichView`` as shipped against one that passes every line through.

Usage: python benchmarks/bench_rich_view.py [--size-mb 100] [--crashes 3000] [--reps 3]

Each pair runs interleaved in this process, rounds alternating; medians are reported with
their ratio (1.0: no cost).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_crash_dense import write  # noqa: E402

from spectrace.assemblers import rich_tb  # noqa: E402
from spectrace.pipeline import analyse, build_spec  # noqa: E402
from spectrace.prefilter import Prefilter  # noqa: E402
from spectrace.read import Reader  # noqa: E402
from spectrace.ruleset import RuleSet  # noqa: E402

RICH_LITERALS = ("│".encode(), "❱".encode())


def _prefilter(path: Path, literals: tuple[bytes, ...], hyperscan: bool) -> tuple[float, int]:
    pf, spent, hits = Prefilter(literals, use_hyperscan=hyperscan), 0.0, 0
    for block in Reader(str(path)).blocks():
        start = time.perf_counter()
        hits += len(pf.line_starts(block.buf, block.start, block.end))
        spent += time.perf_counter() - start
    return spent, hits


def _pass_through(self: rich_tb.RichView, line):  # noqa: ANN001, ANN202
    return (line,)


def _analyse(path: Path, view) -> float:  # noqa: ANN001
    rich_tb.RichView.view = view
    start = time.perf_counter()
    analyse([str(path)])
    return time.perf_counter() - start


def _pair(label: str, reps: int, first, second) -> None:  # noqa: ANN001
    a, b = [], []
    for _ in range(reps):
        a.append(first())
        b.append(second())
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{label}: {ma:.3f} s against {mb:.3f} s, ratio {ma / mb:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=100)
    ap.add_argument("--crashes", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_rich_"))
    log = tmp / "gen.log"
    from gen_log import main as gen_log  # writes the log the scan benchmarks use

    sys.argv = ["gen_log", "--size-mb", str(args.size_mb), "--out", str(log)]
    gen_log()
    lits = build_spec(RuleSet.load(), ()).prefilter.literals
    without = tuple(lit for lit in lits if lit not in RICH_LITERALS)
    for hs in (True, False):
        name = "hyperscan" if hs else "re fallback"
        _pair(f"prefilter ({name}) with / without the rich literals", args.reps,
              lambda: _prefilter(log, lits, hs)[0], lambda: _prefilter(log, without, hs)[0])  # fmt: skip
    real = rich_tb.RichView.view
    for shape in ("plain", "vllm"):
        dense = tmp / f"{shape}.log"
        write(dense, shape, args.crashes)
        _pair(f"analyse {shape} ({args.crashes} crashes) RichView / pass-through", args.reps,
              lambda: _analyse(dense, real), lambda: _analyse(dense, _pass_through))  # fmt: skip
    rich_tb.RichView.view = real


if __name__ == "__main__":
    main()
