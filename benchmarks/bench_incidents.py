"""Grouping and reporting cost for many crashes, as a ratio to sorting the same crashes.

Run: python benchmarks/bench_incidents.py [N]. The baseline (sorting N crashes by time) is
measured in the same run, so the ratios do not depend on the machine.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from synthetic import nccl_crash, seed_analysis, shape_crash  # noqa: E402
from timing import median_s  # noqa: E402

from spectrace import triage  # noqa: E402
from spectrace.incidents import build_incidents  # noqa: E402
from spectrace.reports import Format, render  # noqa: E402
from spectrace.reports.json import build_document  # noqa: E402


def crashes(n: int) -> list:
    """n crashes: 1 in 8 a shape mismatch on one of 64 ranks, the rest NCCL timeouts; 50 kinds."""
    out = []
    for k in range(n):
        rank = f"TP{k % 64}"
        if k % 8 == 0:
            out.append(replace(shape_crash(rank, k % 60, k), exception_type=f"E{k % 50}"))
        else:
            out.append(nccl_crash(rank, k % 60, k, seq=k))
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    data = crashes(n)
    base = median_s(lambda: sorted(data, key=lambda c: (c.ts, c.source, c.offset)))
    group = median_s(lambda: build_incidents(data))
    analysis = seed_analysis()
    analysis.incidents = build_incidents(data)
    document = build_document(analysis, triage.judge(analysis))
    doc = median_s(lambda: build_document(analysis, triage.judge(analysis)))
    print(f"{n} crashes -> {len(analysis.incidents)} incidents")
    print(f"sort baseline          {base * 1e3:8.1f} ms  1.0x")
    print(
        f"build_incidents        {group * 1e3:8.1f} ms  {group / base:.1f}x  ({group / n * 1e6:.1f} us/crash)"
    )
    print(f"build_document         {doc * 1e3:8.1f} ms  {doc / base:.1f}x")
    for fmt in Format:
        cost = median_s(lambda fmt=fmt: render(document, fmt), repeat=3)
        print(f"render {fmt.value:<15} {cost * 1e3:8.1f} ms  {cost / base:.1f}x")


if __name__ == "__main__":
    main()
