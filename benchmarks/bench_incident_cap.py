"""Huge incident counts: time, peak memory and output size of `spectrace triage` on a log of N
distinct tracebacks, the capped text report (default) against showing all (--max-incidents 0,
what every run printed before), and the JSON report; ratios are against the all-shown run here.

Usage: python benchmarks/bench_incident_cap.py [--crashes N]   (default 5000; 20,000 takes ~1 min)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_many_crashes import write  # noqa: E402

# A child measured on its own: its peak RSS is RUSAGE_CHILDREN of a fresh wrapper process.
WRAPPER = (
    "import resource, subprocess, sys; "
    "subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'wb')); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def measure(argv: list[str], out: Path) -> tuple[float, int, int]:
    """(seconds, peak RSS in KB, bytes written to stdout) of one run."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(out), *argv], capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    return seconds, int(done.stdout.strip()), out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crashes", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "many.log"
        write(log, args.crashes, 1)
        base = [sys.executable, "-m", "spectrace", "triage", str(log)]
        cases = {
            "text, all shown (--max-incidents 0)": [*base, "--max-incidents", "0"],
            "text, default cap (50)": base,
            "json (every incident)": [*base, "-f", "json"],
            "json --max-incidents 50": [*base, "-f", "json", "--max-incidents", "50"],
        }
        results = {name: measure(argv, Path(tmp) / "out") for name, argv in cases.items()}
    ref_s, ref_kb, ref_bytes = results["text, all shown (--max-incidents 0)"]
    print(f"{args.crashes} distinct tracebacks; ratios against the all-shown text report")
    for name, (s, kb, size) in results.items():
        print(
            f"{name:38s} {s:6.1f} s ({s / ref_s:4.2f}x)  {kb / 1024:6.0f} MB ({kb / ref_kb:4.2f}x)"
            f"  {size / 1e6:7.2f} MB out ({size / ref_bytes:6.4f}x)"
        )


if __name__ == "__main__":
    main()
