"""What SGLang's token-major KV costs the engine: the per-layer read through ``req_to_token``
against the slot-major slice it replaced, and one step's allocator traffic against that read.

    python benchmarks/bench_kv_pool.py [--device cuda] [--repeats 200]

Both reads gather the same ``[bs, kv_heads, L, head_dim]`` keys (the tiny pair's shapes, L = 384
columns per request, tokens scattered by a shuffled table: the worst case) and repeat them as
``attend`` does; the slot-major baseline is rebuilt here, since the engine no longer has it.
Prints medians and ratios measured in this run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
from spectrace_engine.layers.paged_attention import gather_rows
from spectrace_engine.mem_cache.allocator import TokenToKVPoolAllocator

HEADS, DIM, COLS, SLOTS = 2, 32, 384, 48


def median_us(fn, repeats: int, device: torch.device) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        if device.type == "cuda":
            torch.cuda.synchronize()
        t = time.perf_counter()
        fn()
        if device.type == "cuda":
            torch.cuda.synchronize()
        times.append((time.perf_counter() - t) * 1e6)
    return statistics.median(times)


def reads(bs: int, device: torch.device, repeats: int) -> tuple[float, float]:
    slot_major = torch.randn(SLOTS + 1, HEADS, COLS, DIM, device=device)
    token_major = torch.randn(SLOTS * COLS + 1, HEADS, DIM, device=device)
    table = torch.randperm(SLOTS * COLS, device=device).add(1).view(SLOTS, COLS)
    slots = torch.randperm(SLOTS, device=device)[:bs]
    rep = 2  # the tiny pair's query heads per KV head: attend() repeats what it reads
    old = median_us(lambda: slot_major[slots].repeat_interleave(rep, dim=1), repeats, device)
    new = median_us(
        lambda: gather_rows(token_major, table[slots]).repeat_interleave(rep, dim=1),
        repeats,
        device,
    )
    return old, new


def allocator_step(bs: int, device: torch.device, repeats: int) -> float:
    """A v1 tree step's allocator traffic: draft scratch (backup/restore), 16 verify rows per
    request allocated, the rejected 12 freed (and, to stay steady, the kept 4 as at a finish)."""
    alloc = TokenToKVPoolAllocator(SLOTS * COLS, device)

    def step() -> None:
        state = alloc.backup_state()
        alloc.alloc(bs * 8)
        alloc.restore_state(state)
        locs = alloc.alloc(bs * 16)
        assert locs is not None
        alloc.free(locs[: bs * 12])
        alloc.free(locs[bs * 12 :])

    return median_us(step, repeats, device)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeats", type=int, default=200)
    args = ap.parse_args()
    device = torch.device(args.device)
    print("bs  slot-major read µs  token-major read µs  ratio  allocator step µs  / read")
    for bs in (1, 8, 32):
        old, new = reads(bs, device, args.repeats)
        step = allocator_step(bs, device, args.repeats)
        print(
            f"{bs:>2}  {old:>18.1f}  {new:>19.1f}  {new / old:>5.2f}  {step:>17.1f}  {step / new:>6.2f}"
        )


if __name__ == "__main__":
    main()
