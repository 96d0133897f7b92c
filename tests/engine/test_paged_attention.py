"""The paged-attention kernel equals the gather + SDPA reference (interpreter on CPU, compiled on
GPU): decode rows, a tree verify's own mask, prefill blocks, GQA groups of 2 and 3, a request's
tokens scattered through the pool, and a padded row that sees nothing stays finite."""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from spectrace_engine.layers.paged_attention import (  # noqa: E402
    AttnBatch,
    paged_attention,
    reference_attention,
    rope_and_cache,
    use_triton,
    visible_columns,
)
from spectrace_engine.models.llama import (  # noqa: E402
    KVCache,
    ModelConfig,
    TargetModel,
    apply_rope,
    mask_bias,
    rope_table,
)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def scattered_pool(slots: int, max_len: int, gen: torch.Generator) -> torch.Tensor:
    """Each request's columns point at tokens spread over the whole pool, as the allocator
    hands them out after frees (token 0 is padding)."""
    perm = torch.randperm(slots * max_len, generator=gen) + 1
    return perm.view(slots, max_len).to(DEVICE)


def both(q, kc, vc, r2t, slots, mask):  # type: ignore[no-untyped-def]
    ref = AttnBatch(slots, slots, r2t, mask, None, mask_bias(mask, q.dtype))
    tri = AttnBatch(slots, slots, r2t, mask, visible_columns(mask), None)
    return paged_attention(q, kc, vc, tri), reference_attention(q, kc, vc, ref)


def case(b, t, h, n_kv, d, lens, extra, gen):  # type: ignore[no-untyped-def]
    """q rows at columns ``lens[b] .. lens[b]+t-1``: causal over the prefix plus ``extra``."""
    max_len = 96
    r2t = scattered_pool(b + 1, max_len, gen)
    kc = torch.randn(r2t.numel() + 1, n_kv, d, generator=gen).to(DEVICE)
    vc = torch.randn(r2t.numel() + 1, n_kv, d, generator=gen).to(DEVICE)
    q = torch.randn(b, t, h, d, generator=gen).to(DEVICE)
    mask = torch.zeros(b, t, max_len, dtype=torch.bool)
    for i, n in enumerate(lens):
        mask[i, :, :n] = True
        mask[i, :, n : n + t] = extra
    slots = torch.arange(b, device=DEVICE)
    return q, kc, vc, r2t, slots, mask.to(DEVICE)


@pytest.mark.parametrize("h,n_kv", [(4, 2), (6, 2), (4, 4)])
def test_decode_rows_match_the_reference(h: int, n_kv: int) -> None:
    gen = torch.Generator().manual_seed(h * 10 + n_kv)
    q, kc, vc, r2t, slots, mask = case(
        3, 1, h, n_kv, 16, [5, 70, 1], torch.ones(1, 1, dtype=torch.bool), gen
    )
    got, want = both(q, kc, vc, r2t, slots, mask)
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)


def test_tree_verify_mask_and_prefill_blocks_match() -> None:
    gen = torch.Generator().manual_seed(7)
    tree = torch.tensor(
        [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 1, 0], [1, 0, 1, 0, 1]]
    )
    q, kc, vc, r2t, slots, mask = case(2, 5, 4, 2, 32, [9, 66], tree.bool(), gen)
    got, want = both(q, kc, vc, r2t, slots, mask)
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)
    causal = torch.ones(40, 40).tril().bool()  # a 40-token prefill: three blocks of query rows
    q, kc, vc, r2t, slots, mask = case(2, 40, 4, 2, 16, [0, 0], causal, gen)
    got, want = both(q, kc, vc, r2t, slots, mask)
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)


def test_a_row_that_sees_nothing_stays_finite() -> None:
    gen = torch.Generator().manual_seed(3)
    q, kc, vc, r2t, slots, mask = case(
        2, 1, 4, 2, 16, [4, 0], torch.ones(1, 1, dtype=torch.bool), gen
    )
    mask[1] = False
    got, want = both(q, kc, vc, r2t, slots, mask)
    assert torch.isfinite(got).all()
    torch.testing.assert_close(got[0], want[0], atol=1e-4, rtol=1e-4)


def test_rope_and_cache_write_match_the_eager_ops() -> None:
    """Rotated q returned, rotated k and raw v at the tokens the rows write (bit for bit in the
    interpreter; compiled, the GPU fuses a multiply-add: float32 rounding apart)."""
    gen = torch.Generator().manual_seed(5)
    cfg = ModelConfig(vocab_size=8, dim=64, n_layers=1, n_heads=2, n_kv_heads=1, ffn_dim=8,
                      max_seq_len=64)  # fmt: skip
    rope = rope_table(cfg).to(DEVICE)
    proj = torch.randn(2, 3, 4 * 32, generator=gen).to(DEVICE)  # q heads 2, k 1, v 1: one matmul
    q, k, v = (proj[..., :64].view(2, 3, 2, 32), proj[..., 64:96].view(2, 3, 1, 32),
               proj[..., 96:].view(2, 3, 1, 32))  # fmt: skip
    pos = torch.tensor([[0, 1, 2], [40, 41, 63]], device=DEVICE)
    locs = torch.tensor([[3, 4, 5], [9, 1, 7]], device=DEVICE)
    batch = AttnBatch(locs, locs[:, 0], locs, locs, None, None)
    kc, vc = torch.zeros(10, 1, 32, device=DEVICE), torch.zeros(10, 1, 32, device=DEVICE)
    got_q = rope_and_cache(q, k, v, pos, rope, batch, kc, vc)
    torch.testing.assert_close(got_q, apply_rope(q, rope, pos), atol=1e-6, rtol=1e-6)
    want_k, want_v = torch.zeros_like(kc), torch.zeros_like(vc)
    want_k[locs], want_v[locs] = apply_rope(k, rope, pos), v
    torch.testing.assert_close(kc, want_k, atol=1e-6, rtol=1e-6)
    assert torch.equal(vc, want_v)


def test_model_forward_is_the_same_with_either_backend() -> None:
    """A prefill then a decode of the whole model: logits and the cache agree."""
    cfg = ModelConfig(vocab_size=64, dim=64, n_layers=2, n_heads=4, n_kv_heads=2, ffn_dim=96,
                      max_seq_len=64)  # fmt: skip
    torch.manual_seed(0)
    model = TargetModel(cfg).to(DEVICE).eval()
    outs = []
    for backend in ("torch", "triton"):
        kv = model.new_kv_cache(2, 32)
        kv = KVCache(kv.k, kv.v, kv.req_to_token, backend)
        tok = torch.arange(12, device=DEVICE).view(2, 6) + 3
        pos = torch.arange(6, device=DEVICE).expand(2, 6)
        slots = torch.arange(2, device=DEVICE)
        mask = torch.arange(32, device=DEVICE)[None, None, :] <= pos[..., None]
        with torch.no_grad():
            model(tok, pos, slots, pos, mask, kv)
            one = torch.full((2, 1), 6, device=DEVICE)
            seen = (torch.arange(32, device=DEVICE) <= 6).expand(2, 1, 32)
            logits, aux = model(tok[:, :1], one, slots, one, seen, kv)
        outs.append((logits, aux, kv.k))
    for got, want in zip(outs[1], outs[0], strict=True):
        torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)


def test_backend_choice() -> None:
    assert use_triton("auto", torch.device("cuda"), 64)
    assert not use_triton("auto", torch.device("cpu"), 64)
    assert not use_triton("triton", torch.device("cuda"), 48)  # not a power of two: reference
    with pytest.raises(ValueError, match="attention backend"):
        use_triton("flash", torch.device("cpu"), 64)
