"""What reading worker files named in the text (path_mentions) costs the scan.

The scan keeps every line naming a worker file (``eagle_worker_v2.py`` and 80-odd others) as a
hot literal, and the collector checks those names on every candidate line. This prints whole
triage (``analyse``) with the names against the same analysis with them left out of the spec
(``mention_literals`` returning nothing), on a generated noisy log and on a crash-dense one
(every frame line a candidate), and on one whose every traceback runs through
eagle_worker.py (the names' worst case), as ratios with / without, interleaved, medians.

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


def write_worker_dense(path: Path, crashes: int) -> None:
    """A server failing every request inside the EAGLE worker: every frame line names
    eagle_worker.py, as the traceback assembler (not the name reader) must read it."""
    site = "/usr/local/lib/python3.12/dist-packages/sglang/srt"
    with path.open("w", encoding="utf-8") as out:
        for i in range(crashes):
            stamp = f"2026-04-01 10:{(i // 60) % 60:02d}:{i % 60:02d}"
            out.write(
                f"[{stamp} TP0] Error in request {i}: Traceback (most recent call last):\n"
                f'  File "{site}/managers/scheduler.py", line 1010, in event_loop_normal\n'
                "    result = self.run_batch(batch)\n"
                f'  File "{site}/speculative/eagle_worker.py", line 610, in verify\n'
                f"    x = y[{i}]\n"
                f"IndexError: index {i} is out of bounds for dimension 0 with size 8\n"
            )


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
        worker = Path(tmp) / "worker_dense.log"
        write_worker_dense(worker, args.crashes * 10)
        logs = (
            [noisy, *sorted(p for p in dense.rglob("*.log"))] if dense.is_dir() else [noisy, dense]
        )
        logs.append(worker)
        print("log                          with names s   without s   ratio with/without")
        for log in logs:
            w, wo = ratio(log, args.reps)
            print(f"{log.name:28} {w:13.3f} {wo:11.3f}   {w / wo:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
