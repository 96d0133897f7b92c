"""Triton kernel of layers/paged_attention.py: one program per (request, query-row block, KV head).

The program's ``BLOCK_T x GP`` query rows are the ``BLOCK_T`` tokens of its block times the query
heads of one GQA group (padded to a power of two), so every key/value token is loaded once for
the whole group; it walks the request's ``req_to_token`` row in blocks of ``BLOCK_N`` columns up
to ``ncols[b]``, masks with the bool mask ``[B,T,L]`` and keeps an online softmax in float32.
Masked scores are a large finite negative, so a row that sees nothing stays finite.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def paged_attn_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, r2t_ptr, slots_ptr, mask_ptr, ncols_ptr,
    sq_b, sq_t, sq_h, so_b, so_t, so_h, sk_tok, sk_h, sr_row, sm_b, sm_t,
    T, scale,
    G: tl.constexpr, GP: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_N: tl.constexpr,
    D: tl.constexpr, PREC: tl.constexpr,
):  # fmt: skip
    b = tl.program_id(0).to(tl.int64)
    kvh = tl.program_id(2)
    m = tl.arange(0, BLOCK_T * GP)
    t = tl.program_id(1) * BLOCK_T + m // GP
    g = m % GP
    h = kvh * G + g
    live = (t < T) & (g < G)
    d = tl.arange(0, D)
    q_off = b * sq_b + t[:, None] * sq_t + h[:, None] * sq_h + d[None, :]
    q = tl.load(q_ptr + q_off, mask=live[:, None], other=0.0)
    slot = tl.load(slots_ptr + b)
    n = tl.load(ncols_ptr + b)
    acc = tl.zeros([BLOCK_T * GP, D], dtype=tl.float32)
    m_i = tl.full([BLOCK_T * GP], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([BLOCK_T * GP], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_ok = cols < n
        tok = tl.load(r2t_ptr + slot * sr_row + cols, mask=col_ok, other=0).to(tl.int64)
        kv_off = tok[:, None] * sk_tok + kvh * sk_h + d[None, :]
        k = tl.load(k_ptr + kv_off)
        s = tl.dot(q, tl.trans(k), input_precision=PREC) * scale
        vis_off = b * sm_b + t[:, None] * sm_t + cols[None, :]
        vis = tl.load(mask_ptr + vis_off, mask=live[:, None] & col_ok[None, :], other=0)
        s = tl.where(vis != 0, s, -1.0e30)
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + kv_off)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision=PREC)
        m_i = m_new
    out = acc / tl.maximum(l_i, 1e-30)[:, None]
    o_off = b * so_b + t[:, None] * so_t + h[:, None] * so_h + d[None, :]
    tl.store(o_ptr + o_off, out.to(o_ptr.dtype.element_ty), mask=live[:, None])
