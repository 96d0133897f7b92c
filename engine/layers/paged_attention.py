"""Attention over the paged KV cache: a Triton kernel that reads only the columns a row can see.

The reference path gathers every request's whole ``L``-column row of keys and values per layer,
repeats it for every query head of its KV group and runs SDPA with an additive ``[B,1,T,L]``
mask: at c=128 on a 1B target that cost several times the weights' HBM time per step
(benchmarks/results/2026-12-03-h200-load-story.md). The kernel here does what SGLang's Triton
decode/extend backends do instead: one program per (request, block of query rows, KV head)
walks the request's ``req_to_token`` row only up to the last column any of its rows may see,
loads each key/value token once for every query head of its GQA group (no repeat), applies
the bool mask (causal, or the verify tree's) in registers and keeps an online softmax. Decode,
verify and prefill all go through it, captured in the graphs like the rest of the forward.

``backend``: ``auto`` is the kernel on CUDA and the reference elsewhere; ``triton`` on CPU runs
Triton's interpreter (``TRITON_INTERPRET=1`` before ``triton.language`` is first imported, which
is why nothing here imports triton before the first call), which is how the CPU tests compare
the two. A fully masked row (a padded graph row) averages whatever it reads, as
the reference does: finite garbage, never NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor

BACKENDS = ("auto", "torch", "triton")


@dataclass(frozen=True, slots=True)
class AttnBatch:
    """What every layer of one forward reads to attend: built once per forward.

    ``locs`` [B,T] token indices the rows write; ``slots`` [B] request rows of ``req_to_token``
    [slots, L]; ``mask`` [B,T,L] bool; ``ncols`` [B] the columns the kernel walks (one past the
    last column any row of the request may see); ``bias`` the reference's additive mask, only
    when the reference runs.
    """

    locs: Tensor
    slots: Tensor
    req_to_token: Tensor
    mask: Tensor
    ncols: Tensor | None
    bias: Tensor | None


def use_triton(backend: str, device: torch.device, head_dim: int) -> bool:
    if backend not in BACKENDS:
        raise ValueError(f"attention backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    pow2 = head_dim >= 32 and head_dim & (head_dim - 1) == 0  # the rope kernel's half: >= 16
    if backend == "auto":
        return device.type == "cuda" and pow2
    return backend == "triton" and pow2


def visible_columns(mask: Tensor) -> Tensor:
    """``[B]``: one past the last column any row of each request may attend (0 if none)."""
    cols = torch.arange(1, mask.shape[-1] + 1, device=mask.device)
    return torch.where(mask.any(dim=1), cols, 0).amax(dim=-1)


def reference_attention(q: Tensor, kc: Tensor, vc: Tensor, batch: AttnBatch) -> Tensor:
    """Gather whole rows, repeat for GQA, SDPA with the additive mask: ``[B,T,H,D]``."""
    rows = batch.req_to_token[batch.slots]
    return sdpa(q, gather_rows(kc, rows), gather_rows(vc, rows), batch.bias)


def sdpa(q: Tensor, k: Tensor, v: Tensor, bias: Tensor | None) -> Tensor:
    """q ``[B,T,H,D]``, k/v ``[B,Hkv,S,D]`` repeated over each KV group, bias ``[B,1,T,S]``
    -> ``[B,T,H,D]`` (the reference, and training's uncached attention)."""
    rep = q.shape[2] // k.shape[1]
    if rep > 1:
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
    out = F.scaled_dot_product_attention(q.transpose(1, 2), k, v, attn_mask=bias)
    return out.transpose(1, 2)


def gather_rows(cache: Tensor, rows: Tensor) -> Tensor:
    """``[B, Hkv, L, D]`` keys or values of the tokens ``rows [B, L]`` (one flat index_select:
    on CPU several times faster than a 2-D advanced index over scattered tokens)."""
    picked = cache.index_select(0, rows.flatten()).view(*rows.shape, *cache.shape[1:])
    return picked.transpose(1, 2)


def rope_and_cache(
    q: Tensor, k: Tensor, v: Tensor, positions: Tensor, rope: Tensor, batch: AttnBatch,
    kc: Tensor, vc: Tensor,
) -> Tensor:  # fmt: skip
    """q ``[B,T,H,D]``, k/v ``[B,T,Hkv,D]`` (views of the projections): RoPE on q and k, k and
    v written at tokens ``batch.locs`` of one layer's cache; returns the rotated q ``[B,T,H,D]``.
    One kernel (kernels/rope_kv_triton.py) for what the eager path does in about 22."""
    from spectrace_engine.kernels.rope_kv_triton import rope_kv_kernel  # see top

    b, t, h, d = q.shape
    n_kv = k.shape[2]
    rows = b * t
    q3, k3, v3 = q.reshape(rows, h, d), k.reshape(rows, n_kv, d), v.reshape(rows, n_kv, d)
    out = torch.empty((rows, h, d), dtype=q.dtype, device=q.device)
    rope_kv_kernel[(rows, h + n_kv)](
        q3, k3, v3, out, kc, vc, positions.reshape(rows), batch.locs.reshape(rows), rope,
        q3.stride(0), q3.stride(1), k3.stride(0), k3.stride(1), v3.stride(0), v3.stride(1),
        out.stride(0), out.stride(1), kc.stride(0), kc.stride(1), rope.stride(0),
        H=h, HALF=d // 2,
    )  # fmt: skip
    return out.view(b, t, h, d)


def paged_attention(q: Tensor, kc: Tensor, vc: Tensor, batch: AttnBatch) -> Tensor:
    """q ``[B,T,H,D]``, kc/vc ``[tokens, Hkv, D]`` -> ``[B,T,H,D]`` through the Triton kernel."""
    b, t, h, d = q.shape
    n_kv = kc.shape[1]
    group = h // n_kv
    gp = pow2_at_least(group)
    block_t = min(max(pow2_at_least(t), -(-16 // gp)), max(1, 64 // gp))  # rows: 16..64
    out = torch.empty_like(q)
    mask = batch.mask.contiguous().view(torch.uint8)
    prec = "ieee" if q.dtype == torch.float32 else "tf32"  # a float32 model: no tf32 rounding
    grid = (b, -(-t // block_t), n_kv)
    from spectrace_engine.kernels.paged_attention_triton import paged_attn_kernel  # see top

    paged_attn_kernel[grid](
        q, kc, vc, out, batch.req_to_token, batch.slots, mask, batch.ncols,
        q.stride(0), q.stride(1), q.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        kc.stride(0), kc.stride(1), batch.req_to_token.stride(0),
        mask.stride(0), mask.stride(1),
        t, d**-0.5,
        G=group, GP=gp, BLOCK_T=block_t, BLOCK_N=64, D=d, PREC=prec,
    )  # fmt: skip
    return out


def pow2_at_least(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()
