"""Simulated acceptance: the verify's accept decision drawn to a stated mean, all compute real.

A target with random weights (the synthetic Llama configs) never agrees with its draft, so its
acceptance says nothing about a trained pair. For load measurements the draft, the verify forward
and the draft extend still run in full; only WHICH drafts count as accepted is drawn: each draft
along the first-child path is accepted with probability ``alpha`` while every earlier one was
(independent acceptance, Leviathan et al.'s model), so the emitted tokens per verify average
``1 + alpha + ... + alpha^S``. ``alpha_for_mean`` solves that for a stated mean. The emitted tokens
are the accepted drafts and then the target's argmax at the last accepted node, as a greedy verify
emits; runs in this mode say so in their log, events and bench rows (docs/engine-bench.md).

Everything here is shape-static and sync-free, so it runs inside the captured verify graph.
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


def simulated_accept(
    candidates: Tensor,
    retrive_index: Tensor,
    retrive_next_token: Tensor,
    target_predict: Tensor,
    uniforms: Tensor,
    alpha: float,
) -> tuple[Tensor, Tensor, Tensor]:
    """(accept_index [bs,S+1], accept_length [bs], tokens [bs,S+1]) as ``kernels.verify``
    defines them, with ``uniforms`` [bs, S] in [0, 1) deciding draft d by ``u[:, d] < alpha``."""
    bs, steps = uniforms.shape
    rows = torch.arange(bs, device=candidates.device)
    node = torch.zeros(bs, dtype=torch.long, device=candidates.device)
    alive = torch.ones(bs, dtype=torch.bool, device=candidates.device)
    idx = [retrive_index[rows, node]]
    toks = []
    length = torch.zeros(bs, dtype=torch.long, device=candidates.device)
    for d in range(steps):
        child = retrive_next_token[rows, node]
        ok = alive & (child >= 0) & (uniforms[:, d] < alpha)
        nxt = torch.where(ok, child, node)
        toks.append(torch.where(ok, candidates[rows, nxt], target_predict[rows, node]))
        idx.append(torch.where(ok, retrive_index[rows, nxt], -1))
        length += ok.long()
        alive, node = ok, nxt
    tokens = torch.stack([*toks, target_predict[rows, node]], 1)
    col = torch.arange(steps + 1, device=candidates.device)
    tokens = torch.where(col[None] <= length[:, None], tokens, -1)
    return torch.stack(idx, 1), length, tokens
