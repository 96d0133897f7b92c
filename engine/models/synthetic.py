"""Llama-shaped synthetic pairs with random weights, made on the device from a seed.

The shipped pairs are tiny (a step costs launches, not weights or FLOPs), so they cannot show
where speculation stops paying: that needs a target whose c=64 x 16-row verify is compute-bound.
These configs have the shapes of Llama 3.2 1B and 3B (GQA 8 KV heads, tied 128k vocabulary,
SwiGLU) and an EAGLE-3 head over the full vocabulary; the weights are drawn from ``torch``'s
default initialisers under ``torch.manual_seed(seed)`` directly on the device, so nothing is
downloaded or carried. A random target has no real acceptance: run them with
``--simulate-accept-len`` (kernels/verify_simulated.py), which the run labels as simulated.
"""

from __future__ import annotations

import torch
from spectrace_engine.models.eagle_head import DraftHead, DraftHeadBase
from spectrace_engine.models.llama import ModelConfig, TargetModel
from spectrace_engine.models.weights import ModelPair

_LLAMA = dict(vocab_size=128256, n_kv_heads=8, max_seq_len=4096, rope_theta=500000.0)
SYNTHETIC: dict[str, ModelConfig] = {
    "synth-1b": ModelConfig(dim=2048, n_layers=16, n_heads=32, ffn_dim=8192, **_LLAMA),  # type: ignore[arg-type]
    "synth-3b": ModelConfig(dim=3072, n_layers=28, n_heads=24, ffn_dim=8192, **_LLAMA),  # type: ignore[arg-type]
}
PROMPTS, PROMPT_LEN = 32, 24


class SyntheticTokenizer:
    """Ids shown as ``t<id>``: the outputs of a random model are not text."""

    eos_token_id = 2

    def __init__(self, vocab_size: int) -> None:
        self.vocab_size = vocab_size

    def encode(self, text: str) -> list[int]:
        return [
            int(w[1:]) for w in text.split() if w[1:].isdigit() and int(w[1:]) < self.vocab_size
        ]

    def decode(self, ids: list[int]) -> str:
        return " ".join(f"t{i}" for i in ids)


def load_synthetic_pair(
    name: str,
    device: torch.device | str,
    dtype: torch.dtype,
    seed: int = 0,
    head: type[DraftHeadBase] = DraftHead,
) -> ModelPair:
    """Target and head (EAGLE-3, or EAGLE) built on ``device`` from ``seed``, cast to ``dtype``."""
    cfg = SYNTHETIC[name]
    torch.manual_seed(seed)
    with torch.device(device):
        target = TargetModel(cfg)
        target.capture_aux_hidden_states = head is DraftHead
        draft = head(cfg, target)
    target.to(dtype=dtype).eval().requires_grad_(False)
    draft.to(dtype=dtype).eval().requires_grad_(False)
    gen = torch.Generator().manual_seed(seed)
    prompts = torch.randint(3, cfg.vocab_size, (PROMPTS, PROMPT_LEN), generator=gen).tolist()
    params = sum(p.numel() for p in target.parameters())
    sums = {f"{name}.random": f"seed {seed}, {params / 1e9:.2f}B target parameters, no file"}
    return ModelPair(target, draft, SyntheticTokenizer(cfg.vocab_size), prompts, name, sums)
