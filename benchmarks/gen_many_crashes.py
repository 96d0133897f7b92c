"""Write an SGLang-style log holding N distinct tracebacks (the "huge incident count" case).

Usage: python benchmarks/gen_many_crashes.py --crashes N --out FILE [--repeat R]

Each crash is a ``Scheduler hit an exception`` traceback from a different function, so every
one is its own incident; ``--repeat`` writes each R times (on different ranks), so the
incidents also carry several occurrences. Deterministic: the same arguments give the same file.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta
from pathlib import Path

SITE = "/usr/local/lib/python3.12/dist-packages"
START = datetime(2026, 2, 27, 21, 0, 0)
EXCEPTIONS = ("RuntimeError", "ValueError", "AssertionError", "KeyError", "IndexError")


def crash_lines(n: int, rank: int, ts: datetime) -> list[str]:
    """One traceback whose innermost frame (and so signature) is unique to ``n``."""
    stamp = ts.strftime("%Y-%m-%d %H:%M:%S")
    exc = EXCEPTIONS[n % len(EXCEPTIONS)]
    return [
        f"[{stamp} TP{rank}] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/sglang/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        f'  File "{SITE}/sglang/srt/managers/scheduler.py", line 1010, in event_loop_normal',
        "    result = self.run_batch(batch)",
        f'  File "{SITE}/sglang/srt/layers/op_{n}.py", line {100 + n % 900}, in forward_op_{n}',
        f"    return kernel_{n}(x)",
        f"{exc}: op {n} failed on a batch of {8 + n % 56} requests",
        "",
    ]


def write(path: Path, crashes: int, repeat: int) -> int:
    """The log; returns how many lines were written."""
    lines = [f"[{START:%Y-%m-%d %H:%M:%S}] server_args=ServerArgs(model_path='m', tp_size=8)"]
    for n in range(crashes):
        for r in range(repeat):
            ts = START + timedelta(seconds=n)
            lines.extend(crash_lines(n, (n + r) % 8, ts))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crashes", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    count = write(args.out, args.crashes, args.repeat)
    print(f"{args.out}: {args.crashes} distinct crashes x{args.repeat}, {count} lines")


if __name__ == "__main__":
    main()
