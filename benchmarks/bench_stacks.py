"""Capture time of `spectrace stacks` on an 8-rank hung tree, against py-spy run the naive ways.

Baselines, measured in the same run on the same tree: one `py-spy dump --pid` per process one
after another, and one `py-spy dump --subprocesses` of the root. Prints medians and ratios.
Usage: python benchmarks/bench_stacks.py [--world 8] [--repeat 5] [--native]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_s

from spectrace.stacks import procfs
from spectrace.stacks.capture import CaptureOptions, capture, find_pyspy

HANG = Path(__file__).resolve().parent.parent / "tests" / "stacks" / "fixtures" / "hang_program.py"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--world", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--native", action="store_true")
    args = parser.parse_args()
    log = Path(tempfile.mkdtemp()) / "server.log"
    proc = subprocess.Popen(
        [sys.executable, str(HANG), "--log", str(log), "--world", str(args.world), "--stuck", "3"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith("READY")
        binary, pids = find_pyspy(), procfs.descendants(proc.pid)
        extra = ["--native"] * args.native
        options = CaptureOptions(samples=1, native=args.native)
        ours = median_s(lambda: capture(proc.pid, options), args.repeat)
        seq = median_s(
            lambda: [
                subprocess.run(
                    [binary, "dump", "--json", "--pid", str(p), *extra], capture_output=True
                )
                for p in pids
            ],
            args.repeat,
        )
        sub = median_s(
            lambda: subprocess.run(
                [binary, "dump", "--json", "--subprocesses", "--pid", str(proc.pid), *extra],
                capture_output=True,
            ),
            args.repeat,
        )
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    print(
        f"{len(pids)} processes ({args.world} ranks), one sample, native={args.native}, median of {args.repeat}"
    )
    print(f"  spectrace capture (parallel, classified): {ours:.3f} s")
    print(
        f"  py-spy per process, sequential:           {seq:.3f} s  (spectrace / this = {ours / seq:.2f})"
    )
    print(
        f"  py-spy --subprocesses of the root:        {sub:.3f} s  (spectrace / this = {ours / sub:.2f})"
    )


if __name__ == "__main__":
    main()
