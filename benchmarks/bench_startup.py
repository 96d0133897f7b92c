"""Start-up cost of the CLI: `spectrace triage` on a tiny log, and --help, against `python -c pass`
and `grep` on the same file, all measured here in this run (medians of 7 wall times).

Usage: python benchmarks/bench_startup.py [LOG]   (default: sample_logs/seed_story/server.log)
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEAT = 7


def median_wall(argv: list[str]) -> float:
    """Median wall time of ``REPEAT`` runs (one warm-up first, so the page cache is equal)."""
    subprocess.run(argv, capture_output=True, cwd=ROOT)
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    log = sys.argv[1] if len(sys.argv) > 1 else "sample_logs/seed_story/server.log"
    py = sys.executable
    grep = shutil.which("grep") or "grep"
    python_pass = median_wall([py, "-c", "pass"])
    grep_s = median_wall([grep, "-c", "Traceback", log])
    cases = {
        "spectrace triage LOG": [py, "-m", "spectrace", "triage", log],
        "spectrace triage -f json LOG": [py, "-m", "spectrace", "triage", "-f", "json", log],
        "spectrace --help": [py, "-m", "spectrace", "--help"],
        "spectrace triage --help": [py, "-m", "spectrace", "triage", "--help"],
    }
    print(
        f"python -c pass: {python_pass * 1000:.0f} ms; grep -c Traceback LOG: {grep_s * 1000:.0f} ms"
    )
    for name, argv in cases.items():
        t = median_wall(argv)
        print(
            f"{name:32s} {t * 1000:6.0f} ms  = {t / python_pass:5.1f}x python -c pass, "
            f"{t / grep_s:6.1f}x grep"
        )


if __name__ == "__main__":
    main()
