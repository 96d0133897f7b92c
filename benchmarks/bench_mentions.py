"""What reading worker files named in the text (path_mentions) costs the scan.

The scan keeps every line naming a worker file (``eagle_worker_v2.py`` and 80-odd others) as a
hot literal, and the collector checks those names on every candidate line. This prints whole
triage (``analyse``) with the names against the same analysis with them left out of the spec
(``mention_literals`` returning nothing), on a generated noisy log and on a crash-dense one
(every frame line a candidate), as ratios with / without, interleaved, medians.

Run: ``python benchmarks/bench_mentions.py [--size-mb 20] [--crashes 2000] [--reps 5]``
(no assertions).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

from timing import median_s

from spectrace import pipeline
from spectrace.pipeline import analyse

ROOT = Path(__file__).resolve().parent.parent


def ratio(path: Path, reps: int) -> tuple[float, float]:
    """(median s with the names, median s without) of ``analyse`` on ``path``."""
    with_, without = [], []
    for _ in range(reps):  # interleaved, so load on the box hits both alike
        with_.append(median_s(lambda: analyse([str(path)]), 1))
        with mock.patch.object(pipeline, "mention_literals", lambda: ()):
            without.append(median_s(lambda: analyse([str(path)]), 1))
    return statistics.median(with_), statistics.median(without)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=20)
    parser.add_argument("--crashes", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        noisy, dense = Path(tmp) / "noisy.log", Path(tmp) / "dense"
        subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_log.py"), "--size-mb",
                        str(args.size_mb), "--out", str(noisy)], check=True)  # fmt: skip
        subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_crash_dense.py"), "--out",
                        str(dense), "--crashes", str(args.crashes)], check=True)  # fmt: skip
        logs = (
            [noisy, *sorted(p for p in dense.rglob("*.log"))] if dense.is_dir() else [noisy, dense]
        )
        print("log                          with names s   without s   ratio with/without")
        for log in logs:
            w, wo = ratio(log, args.reps)
            print(f"{log.name:28} {w:13.3f} {wo:11.3f}   {w / wo:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
