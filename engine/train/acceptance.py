"""Offline acceptance measurement: a minimal batched EAGLE loop built only from the public pieces.

Used by train.py to score a trained pair and by tests to show that the numerics make greedy
speculation lossless. It is the reference for the runtime (workers/), not a replacement: no
scheduling, no graphs, every request starts with a prompt of the same length.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from spectrace_engine.kernels.verify import verify_greedy_tree
from spectrace_engine.models.eagle_head import DraftHead
from spectrace_engine.models.llama import KVCache, TargetModel
from spectrace_engine.speculative.build_eagle_tree import (
    build_tree,
    draft_step_inputs,
    extend_ancestors,
    organize,
    resolve_num_draft_tokens,
    select_top_k,
    verify_inputs,
)
from torch import Tensor


@dataclass(frozen=True, slots=True)
class SpecResult:
    tokens: list[list[int]]  # generated tokens per request (prompt excluded)
    emitted_per_step: float  # mean accepted + 1 over all verify steps and requests
    histogram: list[int]  # count of verify steps by tokens accepted (0..steps)


def causal_mask(bs: int, start: Tensor, t: int, max_len: int) -> Tensor:
    """Rows start+i see columns <= start+i: [bs, t, max_len] bool."""
    cols = torch.arange(max_len, device=start.device)
    last = start[:, None] + torch.arange(t, device=start.device)[None, :]
    return cols[None, None, :] <= last[:, :, None]


@torch.no_grad()
def greedy_decode(target: TargetModel, prompts: Tensor, max_new: int) -> Tensor:
    """Plain greedy decoding, one token per step: the ground truth speculation must match."""
    bs, p = prompts.shape
    dev = prompts.device
    kv = target.new_kv_cache(bs, p + max_new + 1)
    slots = torch.arange(bs, device=dev)
    pos = torch.arange(p, device=dev).expand(bs, p)
    logits, _ = target(prompts, pos, slots, pos, causal_mask(bs, slots * 0, p, kv.max_len), kv)
    out = [logits[:, -1].argmax(-1)]
    for i in range(max_new - 1):
        n = torch.full((bs,), p + i, device=dev)
        logits, _ = target(
            out[-1][:, None], n[:, None], slots, n[:, None], causal_mask(bs, n, 1, kv.max_len), kv
        )
        out.append(logits[:, -1].argmax(-1))
    return torch.stack(out, dim=1)


def _draft(
    draft: DraftHead,
    kv: KVCache,
    slots: Tensor,
    n: Tensor,
    first: tuple[Tensor, ...],
    topk: int,
    steps: int,
    num_tokens: int,
    root: Tensor,
):  # type: ignore[no-untyped-def]
    """Top-k x steps drafting from the extend's top-k, then SGLang's selection -> DraftTree."""
    bs = n.shape[0]
    sel = select_top_k(0, *first, None, topk)
    sels = [sel]
    anc = torch.zeros(bs, topk, 0, dtype=torch.long, device=n.device)
    for f in range(steps - 1):
        pos, locs, mask = draft_step_inputs(n, f, anc, topk, steps, kv.max_len)
        logits, hid = draft(
            sel.input_ids.view(bs, topk), sel.hidden.view(bs, topk, -1), pos, slots, locs, mask, kv
        )
        tp, ti = torch.softmax(logits, -1).topk(topk, dim=-1)
        sel = select_top_k(
            f + 1,
            tp.view(bs * topk, topk),
            ti.view(bs * topk, topk),
            hid.view(bs * topk, -1),
            sel.scores,
            topk,
        )
        sels.append(sel)
        anc = extend_ancestors(anc, sel.branch_parent)
    return build_tree(root, *organize(sels, num_tokens), topk)


def _extend(
    draft: DraftHead,
    kv: KVCache,
    slots: Tensor,
    start: Tensor,
    tokens: Tensor,
    feats: Tensor,
    last: Tensor,
    topk: int,
) -> tuple[Tensor, Tensor, Tensor]:
    """Draft extend over rows start.. (rows past `last` are padding); top-k of row `last`."""
    bs, t = tokens.shape
    pos = start[:, None] + torch.arange(t, device=start.device)
    logits, hid = draft(
        tokens.clamp(min=0),
        draft.fuse(feats),
        pos,
        slots,
        pos,
        causal_mask(bs, start, t, kv.max_len),
        kv,
    )
    rows = torch.arange(bs, device=start.device)
    tp, ti = torch.softmax(logits[rows, last], -1).topk(topk, dim=-1)
    return tp, ti, hid[rows, last]


@torch.no_grad()
def speculative_decode(
    target: TargetModel,
    draft: DraftHead,
    prompts: Tensor,
    max_new: int,
    topk: int = 1,
    steps: int = 3,
    num_draft_tokens: int | None = None,
) -> SpecResult:
    bs, p = prompts.shape
    dev = prompts.device
    n_tok = resolve_num_draft_tokens(topk, steps, num_draft_tokens)
    max_len = p + max_new * (steps + 1) + n_tok + topk * steps + 2  # fast rows run ahead
    tkv, dkv = target.new_kv_cache(bs, max_len), draft.new_kv_cache(bs, max_len)
    slots = torch.arange(bs, device=dev)
    zero = torch.zeros(bs, dtype=torch.long, device=dev)
    pos = torch.arange(p, device=dev).expand(bs, p)
    logits, aux = target(prompts, pos, slots, pos, causal_mask(bs, zero, p, max_len), tkv)
    root = logits[:, -1].argmax(-1)
    first = _extend(
        draft,
        dkv,
        slots,
        zero,
        torch.cat([prompts[:, 1:], root[:, None]], 1),
        aux,
        torch.full_like(zero, p - 1),
        topk,
    )
    n = torch.full_like(zero, p)
    out: list[list[int]] = [[int(r)] for r in root]
    hist = [0] * (steps + 1)
    while min(len(o) for o in out) < max_new:
        tree = _draft(draft, dkv, slots, n, first, topk, steps, n_tok, root)
        vpos, vlocs, vmask = verify_inputs(tree, n, max_len)
        logits, aux = target(tree.draft_tokens, vpos, slots, vlocs, vmask, tkv)
        res = verify_greedy_tree(
            tree.draft_tokens,
            tree.retrive_index,
            tree.retrive_next_token,
            tree.retrive_next_sibling,
            logits.argmax(-1),
            steps,
            backend="torch",
        )
        node = res.accept_index - slots[:, None] * n_tok
        j = torch.arange(steps + 1, device=dev)
        valid = res.accept_index >= 0
        tkv.move(slots, n[:, None] + torch.where(valid, node, j), n[:, None] + j)
        feats = aux[slots[:, None], node.clamp(min=0)]
        first = _extend(draft, dkv, slots, n, res.tokens, feats, res.accept_length, topk)
        root = res.tokens[slots, res.accept_length]
        n = n + res.accept_length + 1
        for b, (row, acc) in enumerate(
            zip(res.tokens.tolist(), res.accept_length.tolist(), strict=True)
        ):
            out[b].extend(row[: acc + 1])
            hist[acc] += 1
    steps_total = sum(hist)
    mean = sum((a + 1) * c for a, c in enumerate(hist)) / max(steps_total, 1)
    return SpecResult([o[:max_new] for o in out], mean, hist)
