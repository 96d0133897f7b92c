"""Whole-run throughput with the torch reference verify against Triton, from two `engine bench`
sweeps of the same configs and levels (benchmarks/h200_verify.sh makes them on the H200).

    python benchmarks/verify_backends.py torch-rows.jsonl triton-rows.jsonl [--csv OUT.csv]

Prints one line per (config, concurrency): tok/s of each backend, the ratio triton / torch, and
the step time of each; --csv writes every row of both sweeps (verify_backend is a column) plus
the ratio of its pair.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

KEEP = ("config", "concurrency", "verify_backend", "status", "gen_throughput", "accept_len",
        "step_ms", "ttft_ms_p50", "tpot_ms_p50", "x_floor", "steps", "device", "dtype")  # fmt: skip


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def paired(torch_rows: list[dict], triton_rows: list[dict]) -> list[tuple[dict, dict | None]]:
    """Each torch row with the Triton row of the same config and level (None if it never ran)."""
    key = {(r["config"], r["concurrency"]): r for r in triton_rows}
    return [(r, key.get((r["config"], r["concurrency"]))) for r in torch_rows]


def ratio(a: dict, b: dict | None) -> float | None:
    if b is None or not a.get("gen_throughput") or b.get("gen_throughput") is None:
        return None
    return b["gen_throughput"] / a["gen_throughput"]


def fmt(row: dict | None, key: str) -> str:
    if row is None or row.get(key) is None:
        return "-"
    return f"{row[key]:.1f}" if key == "gen_throughput" else f"{row[key]:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("torch_rows", type=Path)
    ap.add_argument("triton_rows", type=Path)
    ap.add_argument("--csv", type=Path, default=None)
    args = ap.parse_args()
    pairs = paired(read_rows(args.torch_rows), read_rows(args.triton_rows))
    print(f"{'config':10} {'c':>3} {'torch tok/s':>12} {'triton tok/s':>13} {'x':>6} "
          f"{'torch step ms':>14} {'triton step ms':>15}")  # fmt: skip
    out = []
    for a, b in pairs:
        x = ratio(a, b)
        print(f"{a['config']:10} {a['concurrency']:>3} {fmt(a, 'gen_throughput'):>12} "
              f"{fmt(b, 'gen_throughput'):>13} {'-' if x is None else f'{x:.2f}':>6} "
              f"{fmt(a, 'step_ms'):>14} {fmt(b, 'step_ms'):>15}")  # fmt: skip
        for r in (a, b):
            if r is not None:
                out.append({**{k: r.get(k) for k in KEEP}, "triton_over_torch": x})
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=[*KEEP, "triton_over_torch"])
            w.writeheader()
            w.writerows(out)


if __name__ == "__main__":
    main()
