"""What finding pasted py-spy dumps costs `analyse` on a large log, as ratios in one run.

The dumps are found in the scan's single pass (their marker lines are hot literals). Baseline:
`analyse` of a log from gen_log.py with the dump literals left out of the prefilter (the scan
as it was without any dump search), measured in the same run; then with them, on the same log
and on the log with a 4-rank `py-spy dump` appended near its end. Before the single pass, the
search re-read every log after `analyse`: 0.38x of analyse more on 64 MB (its own read).
Usage: python benchmarks/bench_pasted.py [--size-mb 64] [--repeat 5]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_s

from spectrace import pipeline
from spectrace.pipeline import analyse

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


def without_dump_search(path: str) -> float:
    """``analyse`` with no dump literal in the prefilter: no window is opened for a dump."""
    literals, pipeline.DUMP_LITERALS = pipeline.DUMP_LITERALS, ()
    try:
        return len(analyse([path]).pasted)
    finally:
        pipeline.DUMP_LITERALS = literals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    plain = tmp / "server.log"
    gen = Path(__file__).resolve().parent / "gen_log.py"
    subprocess.run(
        [sys.executable, str(gen), "--size-mb", str(args.size_mb), "--out", str(plain)],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    with_dump = tmp / "dumped.log"
    shutil.copy(plain, with_dump)
    with with_dump.open("a") as fh:
        fh.write(DUMP + "\n")
    assert len(analyse([str(with_dump)]).pasted) == 1 and not without_dump_search(str(with_dump))
    base = median_s(lambda: without_dump_search(str(plain)), args.repeat)
    full = median_s(lambda: analyse([str(plain)]), args.repeat)
    dumped = median_s(lambda: analyse([str(with_dump)]), args.repeat)
    print(f"log {args.size_mb} MB, median of {args.repeat}")
    print(f"analyse without any dump search (baseline): {base:.3f} s")
    print(f"analyse, dumps searched, none in the log:   {full:.3f} s = {full / base:.3f}x")
    print(f"analyse, dumps searched, one at the end:    {dumped:.3f} s = {dumped / base:.3f}x")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
