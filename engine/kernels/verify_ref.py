"""Plain PyTorch references of the verify kernels: the semantics the Triton versions must match bit for bit."""

from __future__ import annotations

import torch
from torch import Tensor


def _rows(t: Tensor, idx: Tensor) -> Tensor:
    """t[b, idx[b]] for every request b (idx [bs], clamped to be a valid node)."""
    return torch.gather(t, 1, idx.clamp(min=0)[:, None])[:, 0]


def _emitted(accept_index: Tensor, n: int, follow: Tensor) -> Tensor:
    """Token after each accepted node: follow[b, node] where accept_index >= 0, else -1."""
    node = accept_index - torch.arange(accept_index.shape[0], device=follow.device)[:, None] * n
    tok = torch.gather(follow, 1, node.clamp(min=0))
    return torch.where(accept_index >= 0, tok, torch.full_like(tok, -1))


def greedy_chain_reference(
    candidates: Tensor, target_predict: Tensor
) -> tuple[Tensor, Tensor, Tensor]:
    bs, n = candidates.shape
    match = (candidates[:, 1:] == target_predict[:, :-1]).long()
    accept_length = match.cumprod(dim=1).sum(dim=1)
    j = torch.arange(n, device=candidates.device)
    ok = j[None, :] <= accept_length[:, None]
    flat = torch.arange(bs, device=candidates.device)[:, None] * n + j
    accept_index = torch.where(ok, flat, torch.full_like(flat, -1))
    tokens = torch.where(ok, target_predict, torch.full_like(target_predict, -1))
    return accept_index, accept_length, tokens


def _walk_siblings(
    first: Tensor, candidates: Tensor, next_sibling: Tensor, accept_fn, n: int
) -> Tensor:  # type: ignore[no-untyped-def]
    """Try the children of each request's current node in order; the chosen node or -1."""
    child, chosen = first, torch.full_like(first, -1)
    for _ in range(n - 1):
        valid = (child >= 0) & (chosen < 0)
        c = child.clamp(min=0)
        ok = valid & accept_fn(c, _rows(candidates, c))
        chosen = torch.where(ok, c, chosen)
        child = torch.where(valid & ~ok, _rows(next_sibling, c), torch.full_like(child, -1))
    return chosen


def greedy_tree_reference(
    candidates: Tensor,
    retrive_index: Tensor,
    next_token: Tensor,
    next_sibling: Tensor,
    target_predict: Tensor,
    num_steps: int,
) -> tuple[Tensor, Tensor, Tensor]:
    bs, n = candidates.shape
    cur = torch.zeros(bs, dtype=torch.long, device=candidates.device)
    alive = torch.ones(bs, dtype=torch.bool, device=candidates.device)
    accept_length = torch.zeros_like(cur)
    cols = [retrive_index[:, 0]]
    for _ in range(num_steps):
        want = _rows(target_predict, cur)
        chosen = _walk_siblings(
            _rows(next_token, cur),
            candidates,
            next_sibling,
            lambda c, tok, want=want: tok == want,
            n,
        )
        ok = alive & (chosen >= 0)
        cols.append(torch.where(ok, _rows(retrive_index, chosen), torch.full_like(cur, -1)))
        cur = torch.where(ok, chosen, cur)
        accept_length += ok.long()
        alive = ok
    accept_index = torch.stack(cols, dim=1)
    return accept_index, accept_length, _emitted(accept_index, n, target_predict)


def tree_sampling_reference(
    candidates: Tensor,
    retrive_index: Tensor,
    next_token: Tensor,
    next_sibling: Tensor,
    target_probs: Tensor,
    coins: Tensor,
    inv_exp: Tensor,
    num_steps: int,
    threshold_single: float = 1.0,
    threshold_acc: float = 1.0,
) -> tuple[Tensor, Tensor, Tensor]:
    bs, n = candidates.shape
    dev = candidates.device
    cur = torch.zeros(bs, dtype=torch.long, device=dev)
    alive = torch.ones(bs, dtype=torch.bool, device=dev)
    accept_length = torch.zeros_like(cur)
    cols = [retrive_index[:, 0]]
    follow = torch.full_like(candidates, -1)
    for _ in range(num_steps):
        coin = _rows(coins, cur)
        probs = target_probs[torch.arange(bs, device=dev), cur]  # [bs, V]
        acc = torch.zeros(bs, dtype=torch.float32, device=dev)

        def accept(c: Tensor, tok: Tensor, probs: Tensor = probs, coin: Tensor = coin) -> Tensor:
            nonlocal acc
            p = torch.gather(probs, 1, tok[:, None])[:, 0]
            acc = acc + p
            return (coin * threshold_acc <= acc) | (p >= threshold_single)

        chosen = _walk_siblings(_rows(next_token, cur), candidates, next_sibling, accept, n)
        ok = alive & (chosen >= 0)
        follow.scatter_(
            1, cur[:, None], torch.where(ok, _rows(candidates, chosen), _rows(follow, cur))[:, None]
        )
        cols.append(torch.where(ok, _rows(retrive_index, chosen), torch.full_like(cur, -1)))
        cur = torch.where(ok, chosen, cur)
        accept_length += ok.long()
        alive = ok
    bonus = _residual_sample(candidates, next_token, next_sibling, target_probs, inv_exp, cur)
    follow.scatter_(1, cur[:, None], bonus[:, None])
    accept_index = torch.stack(cols, dim=1)
    return accept_index, accept_length, _emitted(accept_index, n, follow)


def _residual_sample(
    candidates: Tensor,
    next_token: Tensor,
    next_sibling: Tensor,
    target_probs: Tensor,
    inv_exp: Tensor,
    cur: Tensor,
) -> Tensor:
    """Exponential race over the target at `cur` minus its (all rejected) children's tokens."""
    bs, n = candidates.shape
    probs = target_probs[torch.arange(bs, device=cur.device), cur]
    residual = probs.clone()
    child = _rows(next_token, cur)
    for _ in range(n - 1):
        valid = child >= 0
        tok = _rows(candidates, child)
        hit = torch.zeros_like(residual, dtype=torch.bool).scatter_(1, tok[:, None], valid[:, None])
        residual = torch.where(hit, torch.zeros_like(residual), residual)
        child = torch.where(valid, _rows(next_sibling, child), child)
    race = residual * inv_exp
    fallback = probs * inv_exp
    empty = race.amax(dim=1) <= 0
    return torch.where(empty, fallback.argmax(dim=1), race.argmax(dim=1))
