"""Where a serving step's device time goes, by kernel: one engine run under torch.profiler.

Prints the top kernels by CUDA time and the run's steps, so a kernel's share of a step reads off
directly (``cuda ms / steps``). The profiler slows the host, not the kernels. On the lent H200:
``python3 benchmarks/profile_step.py --model synth-1b --concurrency 128 --algorithm NONE``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import torch
from spectrace_engine.bench.load import LoadSpec
from spectrace_engine.entrypoints.cli import build_config
from spectrace_engine.entrypoints.launch import launch


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="synth-1b")
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--algorithm", default="NONE")
    ap.add_argument("--topk", type=int, default=1)
    ap.add_argument("--draft-tokens", type=int, default=None)
    ap.add_argument("--worker", default=None)
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--context-length", type=int, default=384)
    ap.add_argument("--requests", type=int, default=0, help="default: one per client")
    ap.add_argument("--top", type=int, default=22)
    a = ap.parse_args()
    kw = dict(model=a.model, algorithm=a.algorithm, topk=a.topk, draft_tokens=a.draft_tokens,
              worker=a.worker, device="cuda", dtype="bfloat16", max_running=a.concurrency,
              context_length=a.context_length)  # fmt: skip
    if a.algorithm != "NONE":
        kw["simulate_accept_len"] = 3.0
    cfg, warnings = build_config(**kw)
    n = a.requests or a.concurrency
    out = Path(tempfile.mkdtemp())
    launch(cfg, LoadSpec(2, 1, 8), out / "warm", warnings)  # compile, cuBLAS start-up
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        res = launch(cfg, LoadSpec(n, a.concurrency, a.max_new_tokens), out / "run", warnings)
    s = res.summary
    steps = int(s.get("steps") or 1)
    print(f"{a.model} {a.algorithm} c={a.concurrency}: {s.get('gen_throughput')} tok/s, "
          f"{steps} steps, {1000 * s['serve_s'] / steps:.3f} ms/step, host {s.get('host_ms_per_step')}")  # fmt: skip
    try:
        table = prof.key_averages().table(
            sort_by="device_time_total", row_limit=a.top, max_name_column_width=60
        )
    except (AttributeError, KeyError, ValueError):  # older torch names it cuda_time_total
        table = prof.key_averages().table(sort_by="cuda_time_total", row_limit=a.top)
    print(table)


if __name__ == "__main__":
    main()
