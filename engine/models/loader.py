"""Load a shipped target/draft pair with checksum verification: the engine's only way to get weights.

Public API::

    PAIRS = ("tiny", "tiny-hi-entropy", "smollm2")
    load_pair(name="tiny", device="cpu", dtype=torch.float32, tp=None, algorithm="EAGLE3")
        -> ModelPair
        tp (a GroupCoordinator): each rank keeps its shard of every split weight
        algorithm: "EAGLE" loads the EAGLE head (<name>.eagle.draft.safetensors) and makes the
        target hand over its last hidden state; anything else the EAGLE-3 head and its features
    ModelPair(target, draft, tokenizer, prompts, name, sha256)
        tokenizer: .encode(str) -> list[int], .decode(list[int]) -> str, .eos_token_id
        prompts: token-id lists for demos/benches (tiny: 32 Markov prompts of 24 tokens;
        tiny-hi-entropy: same weights-format pair whose speculation does not pay).
    WeightsError (a spectrace InputError): missing or corrupt weights, one line.

Weights live in spectrace_engine/weights/<name>.{target,draft}.safetensors with the config in the
file metadata and every file's sha256 in weights/SHA256SUMS.json, checked before use.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import load_file
from spectrace_engine.distributed.parallel_state import GroupCoordinator
from spectrace_engine.models.corpus import MarkovSource, MarkovTokenizer
from spectrace_engine.models.eagle_head import HEADS, DraftHead, DraftHeadBase
from spectrace_engine.models.llama import ModelConfig, TargetModel
from spectrace_engine.models.smollm import load_smollm_pair
from spectrace_engine.models.synthetic import SYNTHETIC, load_synthetic_pair
from spectrace_engine.models.weights import WEIGHTS_DIR, ModelPair, WeightsError, verified_file
from torch import Tensor, nn

PAIRS = ("tiny", "tiny-hi-entropy", "smollm2", *SYNTHETIC)


def tp_problem(name: str, tp_size: int) -> str | None:
    """Why ``name`` cannot split over ``tp_size`` ranks (heads and MLP units must divide), or None."""
    if tp_size == 1:
        return None
    if name == "smollm2":  # read from its GGUF only at load: 9 query heads, 3 KV heads
        return "smollm2 (9 query heads, 3 KV heads) does not split over tensor-parallel ranks"
    if name in SYNTHETIC:
        cfg = SYNTHETIC[name]
    else:
        path, _ = verified_file(f"{name}.target.safetensors")
        with safe_open(str(path), framework="pt") as f:
            meta = json.loads(f.metadata()["spectrace"])["config"]
        cfg = ModelConfig(**{**meta, "aux_layers": tuple(meta["aux_layers"])})
    for what, n in (
        ("query heads", cfg.n_heads),
        ("KV heads", cfg.n_kv_heads),
        ("MLP units", cfg.ffn_dim),
    ):
        if n % tp_size:
            return f"{name}'s {n} {what} do not split over --tp {tp_size}"
    return None


def head_file(name: str, algorithm: str) -> str:
    """The EAGLE-3 head is ``<name>.draft``, the EAGLE head ``<name>.eagle.draft``."""
    return (
        f"{name}.eagle.draft.safetensors" if algorithm == "EAGLE" else f"{name}.draft.safetensors"
    )


def read_pair_files(
    name: str, weights_dir: Path = WEIGHTS_DIR, algorithm: str = "EAGLE3"
) -> tuple[dict, dict, dict, dict]:
    """(target state, draft state, metadata, sha256 map) for a shipped pair."""
    tpath, tsha = verified_file(f"{name}.target.safetensors", weights_dir)
    dpath, dsha = verified_file(head_file(name, algorithm), weights_dir)
    try:
        with safe_open(str(tpath), framework="pt") as f:
            meta = json.loads(f.metadata()["spectrace"])
        tstate, dstate = load_file(str(tpath)), load_file(str(dpath))
    except (OSError, KeyError, ValueError, RuntimeError) as exc:
        raise WeightsError(f"corrupt weights for pair {name!r}: {exc}") from None
    return tstate, dstate, meta, {tpath.name: tsha, dpath.name: dsha}


def load_weights(module: nn.Module, state: dict[str, Tensor]) -> tuple[list[str], list[str]]:
    """Copy each full checkpoint tensor through its parameter's ``weight_loader`` (this rank's
    shard under TP, as SGLang and nano-vllm load); returns (missing, unexpected) names."""
    params = dict(module.named_parameters(remove_duplicate=False))
    unexpected = [k for k in state if k not in params]
    with torch.no_grad():
        for name, full in state.items():
            if name in params:
                param = params[name]
                getattr(param, "weight_loader", default_weight_loader)(param, full)
    return [k for k in params if k not in state], unexpected


def default_weight_loader(param: Tensor, full: Tensor) -> None:
    if param.shape != full.shape:
        raise ValueError(f"checkpoint tensor {tuple(full.shape)} does not fit {tuple(param.shape)}")
    param.data.copy_(full)


def build_models(
    cfg: ModelConfig,
    tstate: dict,
    dstate: dict,
    tp: GroupCoordinator | None = None,
    head: type[DraftHeadBase] = DraftHead,
) -> tuple[TargetModel, DraftHeadBase]:
    try:
        target = TargetModel(cfg, tp)
        target.capture_aux_hidden_states = head is DraftHead
        missing, unexpected = load_weights(target, tstate)
        draft = head(cfg, target)
        dmissing, dunexpected = load_weights(draft, dstate)
    except ValueError as exc:  # a size that does not split over the ranks, a misfit tensor
        raise WeightsError(f"weights do not fit tp size {tp.size if tp else 1}: {exc}") from None
    tied = {"lm_head.weight"} if cfg.tie_embeddings else set()
    if unexpected or set(missing) - tied:
        raise WeightsError(
            f"target weights do not fit the config: missing {missing}, unexpected {unexpected}"
        )
    if dunexpected or any(not k.startswith(("embed.", "lm_head.")) for k in dmissing):
        raise WeightsError(
            f"draft weights do not fit the head: missing {dmissing}, unexpected {dunexpected}"
        )
    return target, draft


def load_pair(
    name: str = "tiny",
    device: torch.device | str = "cpu",
    dtype: torch.dtype = torch.float32,
    tp: GroupCoordinator | None = None,
    algorithm: str = "EAGLE3",
) -> ModelPair:
    if name not in PAIRS:
        raise WeightsError(f"unknown model pair {name!r}; choose one of {', '.join(PAIRS)}")
    problem = tp_problem(name, tp.size if tp is not None else 1)
    if problem is not None:
        raise WeightsError(problem)
    head = HEADS["EAGLE" if algorithm == "EAGLE" else "EAGLE3"]
    if name == "smollm2":
        if head is not DraftHead:
            raise WeightsError(
                "smollm2 ships an EAGLE-3 head only: use --speculative-algorithm EAGLE3"
            )
        return load_smollm_pair(device, dtype)
    if name in SYNTHETIC:  # random weights made on the device from a seed
        return load_synthetic_pair(name, device, dtype, head=head)
    tstate, dstate, meta, sums = read_pair_files(name, algorithm=head.algorithm)
    cfg = ModelConfig(**{**meta["config"], "aux_layers": tuple(meta["config"]["aux_layers"])})
    target, draft = build_models(cfg, tstate, dstate, tp, head)
    target.to(device=device, dtype=dtype).eval().requires_grad_(False)
    draft.to(device=device, dtype=dtype).eval().requires_grad_(False)
    source = MarkovSource(**meta["source"])
    prompts = source.prompts(32, 24, seed=meta.get("prompt_seed", 1234))
    return ModelPair(target, draft, MarkovTokenizer(cfg.vocab_size), prompts, name, sums)
