"""Peak memory of the JSON report of a huge incident count: built whole, or streamed.

Usage: python benchmarks/bench_json_report.py [--crashes 20000] [--reps 3]

A log of N distinct tracebacks (gen_many_crashes.py) is analysed in a fresh process per method
and run; then nothing more (the baseline), the whole document built and written (the old
path, `build_document` + `write`), or the report streamed (`write_report`: each incident's
document built, written and dropped). Prints median wall time and peak RSS, the report's own
memory (peak minus the baseline's), and checks both reports have the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_many_crashes import write  # noqa: E402

CHILD = """
import resource, sys, time
from spectrace import triage
from spectrace.pipeline import analyse
from spectrace.reports.json import build_document, write, write_report
method, log, out = sys.argv[1:4]
start = time.perf_counter()
analysis = analyse([log])
verdict = triage.judge(analysis)
with open(out, "w", encoding="utf-8") as fh:
    if method == "built":
        write(build_document(analysis, verdict), fh)
    elif method == "streamed":
        write_report(analysis, verdict, fh)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
METHODS = ("analyse only", "built", "streamed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crashes", type=int, default=20_000)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "many.log"
        write(log, args.crashes, 1)
        runs: dict[str, list[tuple[float, int]]] = {m: [] for m in METHODS}
        digests: dict[str, str] = {}
        for _ in range(args.reps):  # methods interleaved per round
            for method in METHODS:
                out = Path(tmp) / "report.json"
                done = subprocess.run([sys.executable, "-c", CHILD, method, str(log), str(out)],
                                      capture_output=True, text=True, check=True)  # fmt: skip
                seconds, kb = done.stdout.split()
                runs[method].append((float(seconds), int(kb)))
                digests[method] = hashlib.sha256(out.read_bytes()).hexdigest()
                size = out.stat().st_size
    med = {m: (statistics.median(s for s, _ in r), statistics.median(k for _, k in r))
           for m, r in runs.items()}  # fmt: skip
    base_s, base_kb = med["analyse only"]
    print(
        f"{args.crashes} distinct tracebacks, JSON report {size / 1e6:.1f} MB, median of {args.reps}"
    )
    for method, (s, kb) in med.items():
        extra = (kb - base_kb) / 1024
        print(f"  {method:13s} {s:6.2f} s ({s / base_s:4.2f}x)  peak RSS {kb / 1024:5.0f} MiB "
              f"({kb / base_kb:4.2f}x), the report's own {extra:5.0f} MiB")  # fmt: skip
    built, streamed = med["built"][1] - base_kb, med["streamed"][1] - base_kb
    print(f"  report memory streamed / built: {max(streamed, 0) / max(built, 1):.3f}x")
    print(f"  same bytes: {digests['built'] == digests['streamed']}")


if __name__ == "__main__":
    main()
