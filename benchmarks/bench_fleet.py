"""Fleet triage: one process vs ``--jobs 2`` (vs ``--ray local`` when Ray is installed) on the
generated logs of N nodes, methods interleaved per round, medians and ratios from the same run.

Usage: python benchmarks/bench_fleet.py [--nodes 20] [--size-mb 2] [--reps 3] [--jobs 2] [--dir D]

Logs come from benchmarks/gen_fleet.py (under a temporary directory unless --dir names one
that already holds them). Every method runs as its own ``spectrace triage --format json``
process; the reports must be byte-identical, else the script fails. Also printed: the per-GB
cost of one process (wall and CPU seconds per GB), the figure docs/fleet.md scales from.
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import Measured, measure, median_s

ROOT = Path(__file__).resolve().parent.parent


def methods(jobs: int) -> dict[str, list[str]]:
    found = {"one process": [], f"--jobs {jobs}": ["--jobs", str(jobs)]}
    if importlib.util.find_spec("ray") is not None:
        found["--ray local"] = ["--ray", "local"]
    return found


def run_rounds(logs: Path, reps: int, jobs: int) -> dict[str, list[Measured]]:
    exe = shutil.which("spectrace") or str(Path(sys.executable).with_name("spectrace"))
    runs: dict[str, list[Measured]] = {name: [] for name in methods(jobs)}
    for _ in range(reps):
        for name, extra in methods(jobs).items():
            runs[name].append(measure([exe, "triage", str(logs), "--format", "json", *extra]))
    return runs


def report(runs: dict[str, list[Measured]], total_bytes: int) -> None:
    base = statistics.median(m.wall_s for m in runs["one process"])
    outputs = {m.stdout for ms in runs.values() for m in ms}
    if len(outputs) != 1:
        raise SystemExit("FAIL: the methods' JSON reports differ")
    gb = total_bytes / 1e9
    print(f"{'method':<14} {'wall s (median)':>16} {'cpu s':>8} {'one process / this':>19}")
    for name, ms in runs.items():
        wall = statistics.median(m.wall_s for m in ms)
        cpu = statistics.median(m.cpu_s for m in ms)
        print(f"{name:<14} {wall:16.2f} {cpu:8.2f} {base / wall:19.2f}")
    one = runs["one process"]
    cpu = statistics.median(m.cpu_s for m in one)
    print(f"per GB, one process: {base / gb:.1f} s wall, {cpu / gb:.1f} s CPU; "
          f"reports identical: yes ({len(next(iter(outputs)))} bytes)")  # fmt: skip


def merge_share(logs: Path, reps: int) -> None:
    """The driver's part: pipeline.analyse on scan results already made (what stays serial
    however many workers scan), against the whole one-process analyse, in this process."""
    sys.path.insert(0, str(ROOT))
    from spectrace import pipeline
    from spectrace.fleet.local import ProcessMapper

    paths = [str(p) for p in sorted(logs.rglob("server.log"))]
    made: list[bytes] = []

    def keep(*args: object) -> list:  # scanned once; each merge unpickles, as a driver does
        made[:] = made or [pickle.dumps(ProcessMapper(2)(*args))]
        return pickle.loads(made[0])

    whole = median_s(lambda: pipeline.analyse(paths), reps)
    pipeline.analyse(paths, mapper=keep)
    merge = median_s(lambda: pipeline.analyse(paths, mapper=keep), reps)
    print(f"driver merge alone (unpickle + merge): {merge:.2f} s of {whole:.2f} s in-process analyse "
          f"({merge / whole:.0%}; {1000 * merge / len(paths):.1f} ms per node log)")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20)
    parser.add_argument("--size-mb", type=float, default=2.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_fleet_") as tmp:
        logs = args.dir or Path(tmp)
        if not any(logs.rglob("server.log")):
            subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_fleet.py"), "--out",
                            str(logs), "--nodes", str(args.nodes), "--size-mb",
                            str(args.size_mb)], check=True)  # fmt: skip
        total = sum(p.stat().st_size for p in logs.rglob("server.log"))
        print(f"{len(list(logs.rglob('server.log')))} node logs, {total / 1e6:.0f} MB, "
              f"{args.reps} rounds")  # fmt: skip
        report(run_rounds(logs, args.reps, args.jobs), total)
        merge_share(logs, args.reps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
