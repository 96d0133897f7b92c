"""Prefill through the captured buckets gives what the eager prefill gives: logits, features and
the KV it writes (CUDA); on CPU the same inputs are built, equal to extend_inputs'."""

from __future__ import annotations

import pytest
import torch
from spectrace_engine.mem_cache.memory_pool import extend_inputs
from spectrace_engine.model_executor.prefill_graph import PrefillGraphs
from spectrace_engine.models.llama import ModelConfig, TargetModel

CFG = ModelConfig(vocab_size=96, dim=64, n_layers=2, n_heads=4, n_kv_heads=2, ffn_dim=96,
                  max_seq_len=64)  # fmt: skip
PROMPTS = [[5, 6, 7, 8, 9], [11, 12, 13], [20, 21, 22, 23, 24, 25, 26]]


def graphs_for(model: TargetModel, kv, device: torch.device, enabled: bool) -> PrefillGraphs:  # type: ignore[no-untyped-def]
    fn = lambda tok, pos, slots, locs, mask, hidden: model(tok, pos, slots, locs, mask, kv)  # noqa: E731
    return PrefillGraphs(fn, device, kv.max_len, kv.slots - 1, None, enabled)


def test_inputs_are_extend_inputs() -> None:
    g = graphs_for(
        TargetModel(CFG), TargetModel(CFG).new_kv_cache(4, 32), torch.device("cpu"), True
    )
    assert not g.enabled  # graphs are CUDA's; the CPU path is the eager one
    starts = [0, 4, 9]
    ids = torch.zeros(3, 7, dtype=torch.long)
    _, pos, _, cols, mask = g.inputs(ids, torch.tensor(starts), torch.arange(3))
    want = extend_inputs([5, 3, 7], starts, torch.device("cpu"), 32)
    for got, exp in zip((pos, cols, mask), want, strict=True):
        assert torch.equal(got, exp)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_graphed_prefill_matches_eager() -> None:
    dev = torch.device("cuda")
    torch.manual_seed(0)
    model = TargetModel(CFG).to(dev).eval()
    outs = []
    for enabled in (False, True):
        kv = model.new_kv_cache(4, 32)
        g = graphs_for(model, kv, dev, enabled)
        with torch.inference_mode():
            g.capture(torch.cuda.graph_pool_handle(), 8)
            logits, feats = g.run(PROMPTS, [0, 0, 0], torch.arange(3, device=dev), None)
            outs.append((logits.clone(), feats, kv.k[:, kv.req_to_token[:3, :7]].clone()))
        assert (g.replays, g.eager) == ((1, 0) if enabled else (0, 1))
    for got, want in zip(outs[1], outs[0], strict=True):
        torch.testing.assert_close(got, want, atol=2e-5, rtol=2e-5)
