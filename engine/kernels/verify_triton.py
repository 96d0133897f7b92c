"""Triton verify kernels, one program per request; interpreter-safe (no tl.dot, no atomics).

Scalars are carried as 1-element tensors so loop-carried types stay fixed in compiled mode.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def greedy_chain_kernel(
    cand_ptr, pred_ptr, acc_idx_ptr, acc_len_ptr, tok_ptr, N: tl.constexpr, BLOCK: tl.constexpr
):
    b = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    row = b * N
    draft = tl.load(cand_ptr + row + offs + 1, mask=offs < N - 1, other=-1)
    pred = tl.load(pred_ptr + row + offs, mask=offs < N, other=-1)
    miss = (draft != pred) | (offs >= N - 1)
    acc = tl.min(tl.where(miss, offs, N - 1), axis=0).to(tl.int64)
    ok = offs <= acc
    keep = ok & (offs < N)
    tl.store(acc_idx_ptr + row + offs, tl.where(ok, row + offs, -1), mask=offs < N)
    tl.store(tok_ptr + row + offs, tl.where(keep, pred, -1), mask=offs < N)
    tl.store(acc_len_ptr + b + offs * 0, acc + offs * 0, mask=offs < 1)


@triton.jit
def _load1(ptr, base, idx):
    """Load element `idx` (a [1] tensor, clamped at 0) of the row starting at `base`."""
    return tl.load(ptr + base + tl.where(idx >= 0, idx, 0))


@triton.jit
def greedy_tree_kernel(
    cand_ptr,
    ridx_ptr,
    next_ptr,
    sib_ptr,
    pred_ptr,
    acc_idx_ptr,
    acc_len_ptr,
    tok_ptr,
    N: tl.constexpr,
    STEPS: tl.constexpr,
):
    b = tl.program_id(0).to(tl.int64)
    row = b * N
    out = b * (STEPS + 1)
    one = tl.arange(0, 1)
    cur = tl.zeros([1], tl.int64)
    alive = tl.full([1], 1, tl.int1)
    acc = tl.zeros([1], tl.int64)
    tl.store(acc_idx_ptr + out + one, tl.load(ridx_ptr + row + one))
    tl.store(tok_ptr + out + one, _load1(pred_ptr, row, cur))
    for d in range(1, STEPS + 1):
        want = _load1(pred_ptr, row, cur)
        child = _load1(next_ptr, row, cur)
        chosen = tl.full([1], -1, tl.int64)
        for _ in range(N - 1):
            valid = (child >= 0) & (chosen < 0)
            ok = valid & (_load1(cand_ptr, row, child) == want)
            chosen = tl.where(ok, child, chosen)
            child = tl.where(valid & (ok == 0), _load1(sib_ptr, row, child), -1)
        ok = alive & (chosen >= 0)
        nxt = tl.where(ok, chosen, cur)
        tl.store(acc_idx_ptr + out + d + one, tl.where(ok, _load1(ridx_ptr, row, chosen), -1))
        tl.store(tok_ptr + out + d + one, tl.where(ok, _load1(pred_ptr, row, nxt), -1))
        cur = nxt
        acc += ok.to(tl.int64)
        alive = ok
    tl.store(acc_len_ptr + b + one, acc)


@triton.jit
def tree_sampling_kernel(
    cand_ptr,
    ridx_ptr,
    next_ptr,
    sib_ptr,
    probs_ptr,
    coins_ptr,
    inv_exp_ptr,
    acc_idx_ptr,
    acc_len_ptr,
    tok_ptr,
    thr_single,
    thr_acc,
    N: tl.constexpr,
    STEPS: tl.constexpr,
    V: tl.constexpr,
    BLOCK_V: tl.constexpr,
):
    b = tl.program_id(0).to(tl.int64)
    row = b * N
    out = b * (STEPS + 1)
    one = tl.arange(0, 1)
    cur = tl.zeros([1], tl.int64)
    alive = tl.full([1], 1, tl.int1)
    acc = tl.zeros([1], tl.int64)
    tl.store(acc_idx_ptr + out + one, tl.load(ridx_ptr + row + one))
    for d in range(1, STEPS + 1):
        coin = _load1(coins_ptr, row, cur)
        prow = (row + cur) * V
        child = _load1(next_ptr, row, cur)
        chosen = tl.full([1], -1, tl.int64)
        mass = tl.zeros([1], tl.float32)
        for _ in range(N - 1):
            valid = (child >= 0) & (chosen < 0)
            tok = _load1(cand_ptr, row, child)
            p = tl.load(probs_ptr + prow + tok)
            mass = tl.where(valid, mass + p, mass)
            ok = valid & ((coin * thr_acc <= mass) | (p >= thr_single))
            chosen = tl.where(ok, child, chosen)
            child = tl.where(valid & (ok == 0), _load1(sib_ptr, row, child), -1)
        ok = alive & (chosen >= 0)
        tl.store(acc_idx_ptr + out + d + one, tl.where(ok, _load1(ridx_ptr, row, chosen), -1))
        tl.store(tok_ptr + out + d - 1 + one, _load1(cand_ptr, row, chosen), mask=ok)
        cur = tl.where(ok, chosen, cur)
        acc += ok.to(tl.int64)
        alive = ok
    bonus = _residual_sample(
        cand_ptr, next_ptr, sib_ptr, probs_ptr, inv_exp_ptr, b, row, cur, N, V, BLOCK_V
    )
    tl.store(tok_ptr + out + acc + one * 0, bonus)
    tl.store(acc_len_ptr + b + one, acc)


@triton.jit
def _residual_sample(
    cand_ptr,
    next_ptr,
    sib_ptr,
    probs_ptr,
    inv_exp_ptr,
    b,
    row,
    cur,
    N: tl.constexpr,
    V: tl.constexpr,
    BLOCK_V: tl.constexpr,
):
    """Exponential race over p_target(cur) with the children of cur removed; chunked over V."""
    prow = (row + cur) * V
    best = tl.full([1], -1.0, tl.float32)
    best_i = tl.zeros([1], tl.int64)
    fb = tl.full([1], -1.0, tl.float32)
    fb_i = tl.zeros([1], tl.int64)
    for start in range(0, V, BLOCK_V):
        offs = start + tl.arange(0, BLOCK_V)
        inb = offs < V
        p = tl.load(probs_ptr + prow + offs, mask=inb, other=0.0)
        w = tl.load(inv_exp_ptr + b * V + offs, mask=inb, other=0.0)
        r = p
        child = _load1(next_ptr, row, cur)
        for _ in range(N - 1):
            tok = _load1(cand_ptr, row, child)
            r = tl.where((offs == tok) & (child >= 0), 0.0, r)
            child = tl.where(child >= 0, _load1(sib_ptr, row, child), child)
        race = tl.where(inb, r * w, -1.0)
        plain = tl.where(inb, p * w, -1.0)
        m = tl.max(race, axis=0)
        mi = tl.argmax(race, axis=0).to(tl.int64) + start
        better = m > best
        best_i = tl.where(better, mi, best_i)
        best = tl.where(better, m, best)
        fm = tl.max(plain, axis=0)
        fmi = tl.argmax(plain, axis=0).to(tl.int64) + start
        fbetter = fm > fb
        fb_i = tl.where(fbetter, fmi, fb_i)
        fb = tl.where(fbetter, fm, fb)
    return tl.where(best > 0, best_i, fb_i)
