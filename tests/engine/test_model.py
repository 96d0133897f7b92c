"""Target model and draft head numerics: what lossless greedy speculation relies on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch
from spectrace_engine.models import loader
from spectrace_engine.models.eagle_head import HEADS, DraftHead
from spectrace_engine.models.llama import ModelConfig, TargetModel
from spectrace_engine.train.acceptance import causal_mask, greedy_decode, speculative_decode

from spectrace.errors import InputError

CFG = ModelConfig(
    vocab_size=64, dim=32, n_layers=4, n_heads=4, n_kv_heads=2, ffn_dim=64, max_seq_len=128
)


@pytest.fixture(scope="module")
def pair() -> tuple[TargetModel, DraftHead]:
    torch.manual_seed(0)
    target = TargetModel(CFG).eval()
    return target, DraftHead(CFG, target).eval()


@pytest.fixture(scope="module")
def tiny() -> loader.ModelPair:
    return loader.load_pair("tiny")


@torch.no_grad()
def test_one_multi_token_forward_equals_token_by_token_decode(pair) -> None:  # type: ignore[no-untyped-def]
    target, _ = pair
    toks = torch.randint(0, 64, (2, 12))
    pos = torch.arange(12).expand(2, 12)
    slots = torch.tensor([2, 0])
    kv = target.new_kv_cache(3, 32)
    whole, aux = target(toks, pos, slots, pos, causal_mask(2, slots * 0, 12, 32), kv)
    kv2 = target.new_kv_cache(3, 32)
    steps = [
        target(
            toks[:, t : t + 1],
            pos[:, t : t + 1],
            slots,
            pos[:, t : t + 1],
            causal_mask(2, pos[:, t], 1, 32),
            kv2,
        )[0]
        for t in range(12)
    ]
    one_by_one = torch.cat(steps, 1)
    assert torch.equal(whole.argmax(-1), one_by_one.argmax(-1))
    torch.testing.assert_close(whole, one_by_one, rtol=1e-4, atol=1e-4)
    assert aux.shape == (2, 12, 3 * CFG.dim)
    assert kv.k[:, kv.req_to_token[1]].abs().sum() == 0  # slot 1's tokens untouched
    torch.testing.assert_close(kv.k, kv2.k, rtol=1e-5, atol=1e-5)


@torch.no_grad()
@pytest.mark.parametrize("algorithm", sorted(HEADS))
def test_training_forwards_match_cached_forwards(algorithm) -> None:
    """What the target and the head train on (forward_train, forward_ttt) is what they compute
    in the engine (cached forwards), for the features each head's algorithm captures."""
    torch.manual_seed(0)
    target = TargetModel(CFG).eval()
    head = HEADS[algorithm](CFG, target).eval()
    target.capture_aux_hidden_states = algorithm == "EAGLE3"
    toks = torch.randint(0, 64, (2, 10))
    pos = torch.arange(10).expand(2, 10)
    slots = torch.tensor([0, 1])
    mask = causal_mask(2, slots * 0, 10, 16)
    logits, feats = target(toks, pos, slots, pos, mask, target.new_kv_cache(2, 16))
    t_logits, t_feats = target.forward_train(toks)
    torch.testing.assert_close(logits, t_logits, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(feats, t_feats, rtol=1e-4, atol=1e-4)
    assert feats.shape[-1] == head.feature_dim
    fused = head.fuse(feats)
    d_logits, _ = head(toks, fused, pos, slots, pos, mask, head.new_kv_cache(2, 16))
    ttt = head.forward_ttt(torch.cat([toks, toks[:, :1]], 1), fused, 2)
    torch.testing.assert_close(ttt[0], d_logits, rtol=1e-4, atol=1e-4)


@torch.no_grad()
def test_padded_rows_stay_finite_and_harmless(pair) -> None:  # type: ignore[no-untyped-def]
    target, _ = pair
    kv = target.new_kv_cache(2, 8)
    toks = torch.tensor([[5], [0]])
    pos = torch.zeros(2, 1, dtype=torch.long)
    mask = torch.zeros(2, 1, 8, dtype=torch.bool)
    mask[0, 0, 0] = True  # row 1 is padding: attends to nothing
    logits, _ = target(toks, pos, torch.tensor([0, 1]), pos, mask, kv)
    assert torch.isfinite(logits).all() and torch.isfinite(kv.k).all()
    alone, _ = target(
        toks[:1], pos[:1], torch.tensor([0]), pos[:1], mask[:1], target.new_kv_cache(1, 8)
    )
    torch.testing.assert_close(logits[:1], alone)


def test_kv_move_compacts_accepted_columns(pair) -> None:  # type: ignore[no-untyped-def]
    target, _ = pair
    kv = target.new_kv_cache(2, 6)
    row = kv.req_to_token[1]
    kv.k[:, row, :, 0] = torch.arange(6).float()[:, None]
    kv.move(torch.tensor([1]), torch.tensor([[3, 5]]), torch.tensor([[1, 2]]))
    assert kv.k[0, row, 0, 0].tolist() == [0, 3, 5, 3, 4, 5]
    assert kv.k[:, kv.req_to_token[0]].abs().sum() == 0


@torch.no_grad()
def test_rows_read_their_tokens_through_req_to_token(pair) -> None:  # type: ignore[no-untyped-def]
    """The same tokens behind a shuffled table give the same logits (the allocator's free list
    hands tokens out in any order)."""
    target, _ = pair
    toks = torch.randint(0, 64, (2, 8))
    pos = torch.arange(8).expand(2, 8)
    slots = torch.tensor([0, 1])
    mask = causal_mask(2, slots * 0, 8, 8)
    ordered, _ = target(toks, pos, slots, pos, mask, target.new_kv_cache(2, 8))
    table = torch.randperm(16).add(1).view(2, 8)
    shuffled = target.new_kv_cache(2, 8, size=16, req_to_token=table)
    logits, _ = target(toks, pos, slots, pos, mask, shuffled)
    torch.testing.assert_close(logits, ordered, rtol=1e-5, atol=1e-5)
    assert shuffled.k[:, 0].abs().sum() == 0  # token 0 (padding) was never written


def test_bf16_cast_keeps_rope_in_float32(pair) -> None:  # type: ignore[no-untyped-def]
    target = TargetModel(CFG).to(torch.bfloat16)
    assert target.embed.weight.dtype == torch.bfloat16 and target.rope.dtype == torch.float32
    assert CFG.capture_layers == (1, 2, 3)


def test_shipped_pair_loads_with_checksums(tiny: loader.ModelPair) -> None:
    assert tiny.target.cfg.vocab_size == 512 and len(tiny.prompts) == 32
    assert set(tiny.sha256) == {"tiny.target.safetensors", "tiny.draft.safetensors"}
    text = tiny.tokenizer.decode(tiny.prompts[0][1:6])
    assert tiny.tokenizer.encode(text) == tiny.prompts[0][1:6]


def test_corrupt_or_missing_weights_give_one_line_error(tmp_path: Path) -> None:
    for f in loader.WEIGHTS_DIR.glob("tiny.*"):
        shutil.copy(f, tmp_path / f.name)
    shutil.copy(loader.WEIGHTS_DIR / "SHA256SUMS.json", tmp_path / "SHA256SUMS.json")
    loader.read_pair_files("tiny", tmp_path)
    blob = (tmp_path / "tiny.draft.safetensors").read_bytes()
    (tmp_path / "tiny.draft.safetensors").write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
    with pytest.raises(InputError, match="checksum mismatch for .*tiny.draft.safetensors"):
        loader.read_pair_files("tiny", tmp_path)
    (tmp_path / "tiny.target.safetensors").unlink()
    with pytest.raises(loader.WeightsError, match="engine weights missing") as err:
        loader.read_pair_files("tiny", tmp_path)
    assert "\n" not in str(err.value)
    with pytest.raises(loader.WeightsError, match="unknown model pair"):
        loader.load_pair("huge")
    assert json.loads((loader.WEIGHTS_DIR / "SHA256SUMS.json").read_text())


def test_greedy_speculation_is_lossless_and_pays_on_tiny(tiny: loader.ModelPair) -> None:
    prompts = torch.tensor(tiny.prompts[:4])
    plain = greedy_decode(tiny.target, prompts, 24).tolist()
    chain = speculative_decode(tiny.target, tiny.draft, prompts, 24, topk=1, steps=3)
    tree = speculative_decode(
        tiny.target, tiny.draft, prompts, 24, topk=4, steps=3, num_draft_tokens=16
    )
    assert chain.tokens == plain and tree.tokens == plain
    assert chain.emitted_per_step >= 2.0
    assert tree.emitted_per_step >= chain.emitted_per_step


def test_high_entropy_pair_makes_speculation_lose() -> None:
    hi = loader.load_pair("tiny-hi-entropy")
    prompts = torch.tensor(hi.prompts[:4])
    res = speculative_decode(hi.target, hi.draft, prompts, 24, topk=1, steps=3)
    assert res.tokens == greedy_decode(hi.target, prompts, 24).tolist()
    assert res.emitted_per_step < 1.3


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_greedy_speculation_is_lossless_on_cuda() -> None:
    pair = loader.load_pair("tiny", device="cuda")
    prompts = torch.tensor(pair.prompts[:8], device="cuda")
    plain = greedy_decode(pair.target, prompts, 32).tolist()
    for kw in ({"topk": 1, "steps": 3}, {"topk": 4, "steps": 3, "num_draft_tokens": 16}):
        res = speculative_decode(pair.target, pair.draft, prompts, 32, **kw)
        assert res.tokens == plain
