"""What looking for pasted py-spy dumps adds to `analyse` on a large log, as ratios in one run.

Baseline: `analyse` of a log from gen_log.py (no dump), minus the dump search, measured in the
same run. Then the same log with a 4-rank `py-spy dump` appended near its end (the parse runs
from the first dump line on). Prints medians and ratios.
Usage: python benchmarks/bench_pasted.py [--size-mb 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_s

from spectrace.pipeline import analyse
from spectrace.stacks.pasted import find_dumps

DUMP = "\n".join(
    line
    for pid in range(4100, 4104)
    for line in (
        f"Process {pid}: sglang::scheduler_TP{pid - 4100}",
        "Python v3.11.10 (/usr/bin/python3.11)",
        "",
        f'Thread {pid} (idle): "MainThread"',
        "    all_reduce (torch/distributed/distributed_c10d.py:2806)",
        "    event_loop_normal (sglang/srt/managers/scheduler.py:980)",
    )
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    plain = tmp / "server.log"
    gen = Path(__file__).resolve().parent / "gen_log.py"
    subprocess.run(
        [sys.executable, str(gen), "--size-mb", str(args.size_mb), "--out", str(plain)], check=True
    )
    with_dump = tmp / "dumped.log"
    shutil.copy(plain, with_dump)
    with with_dump.open("a") as fh:
        fh.write(DUMP + "\n")
    full = median_s(lambda: analyse([str(plain)]), args.repeat)
    sniff = median_s(lambda: find_dumps(str(plain)), args.repeat)
    parse = median_s(lambda: find_dumps(str(with_dump)), args.repeat)
    print(f"log {args.size_mb} MB: analyse {full:.3f} s (includes the dump search)")
    print(f"dump search, no dump in the log: {sniff:.4f} s = {sniff / full:.3f} of analyse")
    print(f"dump search, a dump at the end:  {parse:.4f} s = {parse / full:.3f} of analyse")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
