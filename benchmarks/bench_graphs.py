"""CUDA-graph replay vs eager for the engine's target: decode (1 row/request) and verify (N rows).

    python benchmarks/bench_graphs.py [--model tiny] [--dtype bfloat16] [--json out.json]

Per batch size: eager and replayed step time (CUDA events), their ratio, and the padding cost —
replaying the graph of the next size in SGLang's capture list (1..8, 10..32 step 2, 40..160 step
16) against a graph captured at the exact size. Baselines come from the same run.
"""

from __future__ import annotations

import argparse
import bisect
import json

import torch
from bench_kernels import time_eager, time_graph
from spectrace_engine.models.llama import TargetModel
from spectrace_engine.models.loader import load_pair

CAPTURE = sorted({*range(1, 9), *range(10, 33, 2), *range(40, 161, 16)})
PREFIX, MAX_LEN = 96, 256


def step_fn(target: TargetModel, bs: int, rows: int):  # type: ignore[no-untyped-def]
    """A static-input forward of `rows` tokens per request after a PREFIX-token history."""
    dev = target.embed.weight.device
    kv = target.new_kv_cache(bs, MAX_LEN)
    tokens = torch.randint(4, target.cfg.vocab_size, (bs, rows), device=dev)
    cols = torch.arange(MAX_LEN, device=dev)
    locs = (PREFIX + torch.arange(rows, device=dev)).expand(bs, rows).contiguous()
    mask = (cols[None, None, :] <= locs[:, :, None]).contiguous()
    slots = torch.arange(bs, device=dev)

    def run() -> tuple[torch.Tensor, torch.Tensor]:
        return target(tokens, locs, slots, locs, mask, kv)

    return run


def measure(target: TargetModel, bs: int, rows: int, iters: int) -> dict[str, float]:
    run = step_fn(target, bs, rows)
    eager, graph = time_eager(run, iters), time_graph(run, iters)
    out = {
        "eager_us": round(eager, 1),
        "graph_us": round(graph, 1),
        "graph_speedup": round(eager / graph, 2),
    }
    cap = CAPTURE[bisect.bisect_left(CAPTURE, bs)] if bs <= CAPTURE[-1] else bs
    if cap != bs:
        padded = time_graph(step_fn(target, cap, rows), iters)
        out.update(
            padded_to=cap, padded_us=round(padded, 1), padding_cost=round(padded / graph - 1, 3)
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="tiny")
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--bs", default="1,2,3,4,8,9,11,16,32,33,41,64")
    ap.add_argument("--draft-tokens", type=int, default=16)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("bench_graphs needs a CUDA device")
    target = load_pair(args.model, device="cuda", dtype=getattr(torch, args.dtype)).target
    rows = []
    print(f"{'mode':7} {'bs':>4} {'eager µs':>9} {'graph µs':>9} {'graph x':>8} {'padded':>14}")
    with torch.inference_mode():
        for bs in (int(b) for b in args.bs.split(",")):
            for mode, n in (("decode", 1), ("verify", args.draft_tokens)):
                r = {"mode": mode, "bs": bs, "rows": bs * n, **measure(target, bs, n, args.iters)}
                rows.append(r)
                pad = (
                    f"->{r['padded_to']}: {100 * r['padding_cost']:+.1f}%"
                    if "padded_to" in r
                    else ""
                )
                print(
                    f"{mode:7} {bs:>4} {r['eager_us']:>9.1f} {r['graph_us']:>9.1f} "
                    f"{r['graph_speedup']:>8.2f} {pad:>14}"
                )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
