"""Sampling verify against greedy verify, as ratios measured in one run, per worker path.

    python benchmarks/bench_sampling.py [--device cuda] [--temperature 1.0] [--backend triton]

For plain decode, v1 chain, v1 tree and v2 chain it serves the same closed-loop load at
temperature 0 and at T, and prints throughput, accept length and the T / greedy throughput ratio.
It also checks what must hold on any device: speculation at temperature 0 emits plain greedy's
tokens, and a rerun at T with the same seed repeats its tokens.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from spectrace_engine.bench.load import LoadSpec
from spectrace_engine.entrypoints.cli import build_config
from spectrace_engine.entrypoints.launch import launch

PATHS = {
    "plain": dict(algorithm="NONE", worker="v1"),
    "v1-chain": dict(topk=1, worker="v1"),
    "v1-tree": dict(topk=4, draft_tokens=16, worker="v1"),
    "v2-chain": dict(topk=1, worker="v2"),
}


def serve(out: Path, name: str, load: LoadSpec, **kw: object) -> tuple[dict, dict]:
    """One run: (run_end summary, rid -> output tokens)."""
    cfg, warnings = build_config(model="tiny", steps=3, **kw)  # type: ignore[arg-type]
    res = launch(cfg, load, out / name, warnings)
    if res.exit_code:
        raise SystemExit(f"{name}: the engine crashed: {res.errors}")
    outputs = {}
    for line in res.event_paths[0].read_text().splitlines():
        e = json.loads(line)
        if e["event"] == "request_finish":
            outputs[e["rid"]] = e["output_ids"]
    return res.summary, outputs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--backend", default="torch", help="verify backend: torch | triton")
    ap.add_argument("--num-requests", type=int, default=32)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    args = ap.parse_args()
    load = LoadSpec(args.num_requests, args.concurrency, args.max_new_tokens)
    common = dict(device=args.device, verify_backend=args.backend)
    hot = dict(common, temperature=args.temperature, seed=1)
    print(f"{'path':10} {'greedy tok/s':>12} {'T tok/s':>9} {'T/greedy':>8} "
          f"{'accept greedy':>13} {'accept T':>8}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for name, kw in PATHS.items():  # warm-up: kernel compiles and first-run costs
            for extra in (common, hot):
                serve(out, f"warm-{name}", LoadSpec(2, 2, 8), **extra, **kw)
        baseline: dict | None = None
        for name, kw in PATHS.items():
            cold, cold_out = serve(out, f"{name}-t0", load, **common, **kw)
            warm, warm_out = serve(out, f"{name}-t", load, **hot, **kw)
            _, again = serve(out, f"{name}-again", load, **hot, **kw)
            baseline = baseline or cold_out
            ratio = warm["gen_throughput"] / cold["gen_throughput"]
            print(
                f"{name:10} {cold['gen_throughput']:12.1f} {warm['gen_throughput']:9.1f} "
                f"{ratio:8.2f} {cold['mean_emitted'] or 1.0:13.2f} {warm['mean_emitted'] or 1.0:8.2f}"
            )
            if cold_out != baseline:
                raise SystemExit(f"{name}: temperature 0 differs from plain greedy decoding")
            if again != warm_out:
                raise SystemExit(f"{name}: the same seed gave different tokens")
    print("temperature 0 == plain greedy on every path; same seed -> same tokens at T")


if __name__ == "__main__":
    main()
