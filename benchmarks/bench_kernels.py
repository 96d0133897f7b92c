"""Verify kernels on the GPU: Triton vs the PyTorch reference, eager and inside CUDA graphs.

    python benchmarks/bench_kernels.py [--bs 1,4,16,64,160] [--iters 200] [--json out.json]

Chain greedy (s=3), tree greedy and tree sampling (topk 4, s 3, N 16, vocab 512). Each cell is the
mean time per call from CUDA events; the ratio column is reference / Triton from the same run.
Outputs of both backends are checked bit-identical before timing.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import torch
from spectrace_engine.kernels import verify as V
from spectrace_engine.speculative import build_eagle_tree as T

TOPK, STEPS, N, VOCAB = 4, 3, 16, 512


def time_eager(fn: Callable[[], object], iters: int) -> float:
    """Wall-clock per call in µs, measured on the GPU clock across `iters` back-to-back calls."""
    for _ in range(3):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1000 / iters


def time_graph(fn: Callable[[], object], iters: int) -> float:
    """Per-replay µs of a graph holding one call (inputs are static: the graph reuses them)."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    return time_eager(graph.replay, iters)


def make_inputs(bs: int, seed: int) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    tp, ti = torch.softmax(torch.randn(bs, VOCAB, generator=g), -1).topk(TOPK, -1)
    sels = [T.select_top_k(0, tp, ti, torch.zeros(bs, 4), None, TOPK)]
    for d in range(1, STEPS):
        tp, ti = torch.softmax(torch.randn(bs * TOPK, VOCAB, generator=g), -1).topk(TOPK, -1)
        sels.append(T.select_top_k(d, tp, ti, sels[-1].hidden, sels[-1].scores, TOPK))
    tree = T.build_tree(torch.randint(0, VOCAB, (bs,), generator=g), *T.organize(sels, N), TOPK)
    first = tree.retrive_next_token.clamp(min=0)
    follow = tree.draft_tokens.gather(1, first)
    logits = torch.randn(bs, N, VOCAB, generator=g)
    logits.scatter_add_(2, follow[:, :, None], torch.full((bs, N, 1), 6.0))
    coins, inv_exp = V.sampling_noise(bs, N, VOCAB, generator=g)
    chain_c = torch.randint(0, 4, (bs, STEPS + 1), generator=g)
    chain_p = torch.randint(0, 4, (bs, STEPS + 1), generator=g)
    raw = dict(
        cand=tree.draft_tokens,
        ridx=tree.retrive_index,
        nxt=tree.retrive_next_token,
        sib=tree.retrive_next_sibling,
        pred=follow,
        probs=torch.softmax(logits, -1),
        coins=coins,
        inv_exp=inv_exp,
        chain_c=chain_c,
        chain_p=chain_p,
    )
    return {k: v.cuda().contiguous() for k, v in raw.items()}


def kernels(x: dict[str, torch.Tensor]) -> dict[str, Callable[[str], V.VerifyOutput]]:
    links = (x["cand"], x["ridx"], x["nxt"], x["sib"])
    return {
        "chain_greedy": lambda be: V.verify_greedy_chain(x["chain_c"], x["chain_p"], backend=be),
        "tree_greedy": lambda be: V.verify_greedy_tree(*links, x["pred"], STEPS, backend=be),
        "tree_sampling": lambda be: V.verify_tree_sampling(
            *links, x["probs"], x["coins"], x["inv_exp"], STEPS, backend=be
        ),
    }


def same(a: V.VerifyOutput, b: V.VerifyOutput) -> bool:
    return all(
        torch.equal(p, q)
        for p, q in zip(
            (a.accept_index, a.accept_length, a.tokens),
            (b.accept_index, b.accept_length, b.tokens),
            strict=True,
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bs", default="1,4,16,64,160")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("bench_kernels needs a CUDA device (CPU runs use the test suite instead)")
    rows = []
    print(
        f"{'kernel':14} {'bs':>4} {'ref eager':>10} {'tri eager':>10} {'ref graph':>10} "
        f"{'tri graph':>10} {'graph x':>8} {'eager x':>8}  (µs per call)"
    )
    for bs in (int(b) for b in args.bs.split(",")):
        for name, fn in kernels(make_inputs(bs, bs)).items():
            if not same(fn("torch"), fn("triton")):
                raise SystemExit(f"{name} bs={bs}: Triton output differs from the reference")
            t = {
                f"{be}_{mode}": timer(lambda be=be, fn=fn: fn(be), args.iters)
                for be in ("torch", "triton")
                for mode, timer in (("eager", time_eager), ("graph", time_graph))
            }
            row = {
                "kernel": name,
                "bs": bs,
                **{k: round(v, 2) for k, v in t.items()},
                "graph_speedup": round(t["torch_graph"] / t["triton_graph"], 2),
                "eager_speedup": round(t["torch_eager"] / t["triton_eager"], 2),
            }
            rows.append(row)
            print(
                f"{name:14} {bs:>4} {t['torch_eager']:>10.1f} {t['triton_eager']:>10.1f} "
                f"{t['torch_graph']:>10.1f} {t['triton_graph']:>10.1f} "
                f"{row['graph_speedup']:>8.2f} {row['eager_speedup']:>8.2f}"
            )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
