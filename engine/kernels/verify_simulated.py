"""Simulated acceptance: the verify's accept decision drawn to a stated mean, all compute real.

A target with random weights (the synthetic Llama configs) never agrees with its draft, so its
acceptance says nothing about a trained pair. For load measurements the draft, the verify forward
and the draft extend still run in full; only WHICH drafts count as accepted is drawn: each draft
along the first-child path is accepted with probability ``alpha`` while every earlier one was
(independent acceptance, Leviathan et al.'s model), so the emitted tokens per verify average
``1 + alpha + ... + alpha^S``. ``alpha_for_mean`` solves that for a stated mean. The emitted tokens
are the accepted drafts and then the target's argmax at the last accepted node, as a greedy verify
emits; runs in this mode say so in their log, events and bench rows (docs/engine-bench.md).

A tree needs depth for that mean: with random weights every draft probability is about 1/V, so
a depth-d node's cumulative score (about p^d) falls below every shallower node's and a top-15 tree
of k 4, s 3 never reaches depth 3 (mean 2.46-2.52 for a stated 3.0 on the H200). So the same
simulation shapes the draft's scores (``shaped_scores``) like a calibrated draft's: its first
choice scored ``alpha``, the rate at which it is accepted, the other k-1 sharing ``1 - alpha``.
The draft's tokens, forwards, top-k and tree building are real; only the scores that rank the
candidates are the stated ones.

Everything here is shape-static and sync-free, so it runs inside the captured graphs.
"""

from __future__ import annotations

import torch
from torch import Tensor


def mean_emitted(alpha: float, steps: int) -> float:
    """Expected emitted tokens per verify (bonus included) at per-draft acceptance ``alpha``."""
    return sum(alpha**d for d in range(steps + 1))


def alpha_for_mean(mean: float, steps: int) -> float:
    """The per-draft acceptance giving ``mean`` emitted tokens; mean in [1, steps + 1]."""
    if not 1.0 <= mean <= steps + 1:
        raise ValueError(f"simulated accept length must be in [1, {steps + 1}], got {mean}")
    lo, hi = 0.0, 1.0
    for _ in range(60):  # bisection: mean_emitted rises monotonically in alpha
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mean_emitted(mid, steps) < mean else (lo, mid)
    return (lo + hi) / 2


def score_shape(alpha: float, topk: int, device: torch.device) -> Tensor:
    """[k] scores of a draft's top-k children, best first: ``alpha``, then ``1 - alpha`` shared
    with a gentle fall (distinct values, so the selection has no ties to break)."""
    if topk == 1:
        return torch.tensor([alpha], device=device)
    rest = torch.tensor([0.9**j for j in range(topk - 1)], dtype=torch.float64)
    rest = rest / rest.sum() * (1.0 - alpha)
    return torch.cat([torch.tensor([alpha], dtype=torch.float64), rest]).float().to(device)


def draft_score_shape(
    mean: float | None, steps: int, topk: int, device: torch.device
) -> Tensor | None:
    """The score shape of a simulated run (None: real acceptance, the draft's own scores)."""
    if mean is None:
        return None
    return score_shape(alpha_for_mean(mean, steps), topk, device)


def shaped_scores(topk_p: Tensor, shape: Tensor | None) -> Tensor:
    """The draft's top-k probabilities [rows, k], or the stated shape in their place."""
    if shape is None:
        return topk_p
    return shape.to(topk_p.dtype).expand_as(topk_p).contiguous()


def simulated_accept(
    candidates: Tensor,
    retrive_index: Tensor,
    retrive_next_token: Tensor,
    retrive_next_sibling: Tensor,
    target_predict: Tensor,
    uniforms: Tensor,
    alpha: float,
) -> tuple[Tensor, Tensor, Tensor]:
    """(accept_index [bs,S+1], accept_length [bs], tokens [bs,S+1]) as ``kernels.verify``
    defines them. Draft d is accepted when ``u[:, d] < alpha`` and every earlier one was, along
    the path to the tree's deepest node (a chain's drafts in order), capped at that node's depth:
    a tree's first-child path can end before depth S, and would pull the mean below the stated
    one (2.5 instead of 3.0 for k 4, N 16 on the H200 smoke)."""
    bs, steps = uniforms.shape
    dev = candidates.device
    rows = torch.arange(bs, device=dev)
    path, deepest = _deepest_path(retrive_next_token, retrive_next_sibling, steps)
    drawn = torch.cumprod((uniforms < alpha).long(), dim=1).sum(1)
    length = torch.minimum(drawn, deepest)
    col = torch.arange(steps + 1, device=dev)[None]
    nxt = torch.cat([path[:, 1:], path[:, -1:]], 1)
    at = torch.gather(path, 1, length[:, None])
    tokens = torch.where(col < length[:, None], torch.gather(candidates, 1, nxt), -1)
    bonus = target_predict[rows, at[:, 0]]
    tokens = torch.where(col == length[:, None], bonus[:, None], tokens)
    idx = torch.where(col <= length[:, None], torch.gather(retrive_index, 1, path), -1)
    return idx, length, tokens


def _deepest_path(next_token: Tensor, next_sibling: Tensor, steps: int) -> tuple[Tensor, Tensor]:
    """Node at each depth 0..S on the path to the first deepest node ([bs, S+1], 0 past its
    depth) and that depth [bs]. Parents come from the links: a first child's parent is the node
    pointing at it, a sibling's parent its elder sibling's (nodes are in topological order)."""
    bs, n = next_token.shape
    dev = next_token.device
    nodes = torch.arange(n, device=dev).expand(bs, n)
    parent = torch.full((bs, n + 1), -1, dtype=torch.long, device=dev)  # column n: a sink
    parent.scatter_(1, torch.where(next_token >= 0, next_token, n), nodes.contiguous())
    sib = torch.where(next_sibling >= 0, next_sibling, n)
    for _ in range(n - 2):  # each pass reaches one sibling further along every chain
        parent.scatter_(1, sib, parent[:, :n].clone())
    parent = parent[:, :n]
    depth = torch.zeros(bs, n, dtype=torch.long, device=dev)
    for _ in range(steps):
        depth = torch.where(parent >= 0, torch.gather(depth, 1, parent.clamp(min=0)) + 1, 0)
    cur = torch.argmax(depth * (n + 1) - nodes, dim=1)  # deepest, lowest index first
    deepest = torch.gather(depth, 1, cur[:, None])[:, 0]
    cur_depth, path = deepest.clone(), []
    for d in range(steps, -1, -1):
        here = cur_depth == d
        path.append(torch.where(here, cur, 0))
        up = torch.gather(parent, 1, cur[:, None])[:, 0].clamp(min=0)
        cur, cur_depth = torch.where(here, up, cur), torch.where(here, cur_depth - 1, cur_depth)
    return torch.stack(path[::-1], 1), deepest
