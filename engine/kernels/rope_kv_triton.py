"""Triton kernel of layers/paged_attention.rope_and_cache: RoPE on q and k, k and v into the cache.

The eager path spends about 22 kernels per layer here (q and k rotated half by half in float32,
cast back, two index_puts): at batch 1 a 28-layer graph is bound by those launches, not by the
weights. One program per (token, head): query heads write the rotated q, KV heads write the
rotated k and the v straight into the cache token ``locs[token]``. Same float32 maths as
``models/llama.apply_rope`` (rotate-half, cos|sin table), so the two paths agree to the bit.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def rope_kv_kernel(
    q_ptr, k_ptr, v_ptr, qo_ptr, kc_ptr, vc_ptr, pos_ptr, loc_ptr, rope_ptr,
    sq_row, sq_h, sk_row, sk_h, sv_row, sv_h, so_row, so_h, sc_tok, sc_h, s_rope,
    H: tl.constexpr, HALF: tl.constexpr,
):  # fmt: skip
    row = tl.program_id(0).to(tl.int64)
    head = tl.program_id(1)
    d = tl.arange(0, HALF)
    pos = tl.load(pos_ptr + row)
    cos = tl.load(rope_ptr + pos * s_rope + d)
    sin = tl.load(rope_ptr + pos * s_rope + HALF + d)
    if head < H:
        src = q_ptr + row * sq_row + head * sq_h
        dst = qo_ptr + row * so_row + head * so_h
    else:
        kvh = head - H
        tok = tl.load(loc_ptr + row)
        src = k_ptr + row * sk_row + kvh * sk_h
        dst = kc_ptr + tok * sc_tok + kvh * sc_h
        vdst = vc_ptr + tok * sc_tok + kvh * sc_h
        vsrc = v_ptr + row * sv_row + kvh * sv_h
        tl.store(vdst + d, tl.load(vsrc + d))
        tl.store(vdst + HALF + d, tl.load(vsrc + HALF + d))
    x1 = tl.load(src + d).to(tl.float32)
    x2 = tl.load(src + HALF + d).to(tl.float32)
    ty = dst.dtype.element_ty
    tl.store(dst + d, (x1 * cos - x2 * sin).to(ty))
    tl.store(dst + HALF + d, (x2 * cos + x1 * sin).to(ty))
