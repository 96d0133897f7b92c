"""Start-up cost of the CLI: `spectrace triage` on a tiny log, and --help, against `python -c pass`
and `grep` on the same file, all measured here in this run (medians of 9 runs, interleaved).

CPU time (user + system of the child) is printed beside wall time: on a shared 2-core box it
moves far less than wall time. `--imports` adds where the import time goes (`python -X
importtime`, self time summed per package, median of the runs).

Usage: python benchmarks/bench_startup.py [--imports] [LOG]   (default: sample_logs/seed_story/server.log)
"""

from __future__ import annotations

import argparse
import collections
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEAT = 9


def run_once(argv: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def medians(cases: dict[str, list[str]]) -> dict[str, tuple[float, float]]:
    """Median (wall, cpu) of each case; cases interleaved per round, one warm-up round first."""
    for argv in cases.values():
        subprocess.run(argv, capture_output=True, cwd=ROOT)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for _ in range(REPEAT):
        for name, argv in cases.items():
            runs[name].append(run_once(argv))
    return {
        name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
        for name, r in runs.items()
    }


def import_breakdown(argv: list[str]) -> list[tuple[str, float]]:
    """Median self import time per top-level package (spectrace split by subpackage), ms."""
    per_run: list[collections.Counter[str]] = []
    for _ in range(REPEAT):
        err = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], capture_output=True,
                             text=True, cwd=ROOT).stderr  # fmt: skip
        groups: collections.Counter[str] = collections.Counter()
        for line in err.splitlines()[1:]:
            if not line.startswith("import time:"):
                continue
            own, _, name = line.split(":", 1)[1].split("|")
            parts = name.strip().split(".")
            groups[".".join(parts[:2]) if parts[0] == "spectrace" else parts[0]] += int(own)
        per_run.append(groups)
    names = set().union(*per_run)
    med = {n: statistics.median(g[n] for g in per_run) / 1000 for n in names}
    return sorted(med.items(), key=lambda kv: -kv[1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("log", nargs="?", default="sample_logs/seed_story/server.log")
    ap.add_argument("--imports", action="store_true")
    args = ap.parse_args()
    py, grep = sys.executable, shutil.which("grep") or "grep"
    cases = {
        "python -c pass": [py, "-c", "pass"],
        "grep -c Traceback LOG": [grep, "-c", "Traceback", args.log],
        "spectrace triage LOG": [py, "-m", "spectrace", "triage", args.log],
        "spectrace triage -f json LOG": [py, "-m", "spectrace", "triage", "-f", "json", args.log],
        "spectrace --help": [py, "-m", "spectrace", "--help"],
        "spectrace triage --help": [py, "-m", "spectrace", "triage", "--help"],
    }
    med = medians(cases)
    base_wall, base_cpu = med["python -c pass"]
    for name, (wall, cpu) in med.items():
        print(f"{name:30s} wall {wall * 1000:5.0f} ms ({wall / base_wall:4.1f}x python -c pass)"
              f"  cpu {cpu * 1000:5.0f} ms ({cpu / base_cpu:4.1f}x)")  # fmt: skip
    if args.imports:
        top = import_breakdown([py, "-m", "spectrace", "triage", args.log])
        total = sum(ms for _, ms in top)
        print(f"imports of `spectrace triage LOG`: {total:.0f} ms self time in all (importtime)")
        for name, ms in top[:20]:
            print(f"  {ms:6.1f} ms  {name}")


if __name__ == "__main__":
    main()
