"""Verify step: which drafts the target accepts, and the tokens each request emits.

Public API (bs requests, N nodes per request incl. the root at column 0, S = num_steps)::

    verify_greedy_chain(candidates [bs,N], target_predict [bs,N], backend="triton") -> VerifyOutput
        N = S+1; candidates[:,0] = last verified token, [:,1:] the drafts;
        target_predict = argmax of the target logits at each of the N verify rows.
    verify_greedy_tree(candidates, retrive_index, retrive_next_token, retrive_next_sibling,
                       target_predict, num_steps, backend="triton") -> VerifyOutput
    verify_tree_sampling(candidates, retrive_index, retrive_next_token, retrive_next_sibling,
                         target_probs [bs,N,V] f32, coins [bs,N] f32, inv_exp [bs,V] f32,
                         num_steps, threshold_single=1.0, threshold_acc=1.0,
                         backend="triton") -> VerifyOutput
        SGLang's target-only tree sampling: at the current node with coin u = coins[b, node] try
        the children in order, accumulating p_target(child); accept the first with
        u*threshold_acc <= accumulated mass (or p >= threshold_single). If none is accepted, or the
        path ends, draw the next token from p_target at the last accepted node with the rejected
        children removed: argmax(p * inv_exp) (an exponential race, exactly proportional).
        Thresholds 1.0 are lossless. Chains are trees too (tree.chain_tree).
    sampling_noise(bs, n, vocab, generator=None, device="cpu") -> (coins, inv_exp)
    *_reference functions in verify_ref.py share these signatures minus `backend`.
    warm_up(n, steps, vocab, tree, sampling, device): compile the Triton kernel a run will launch.

VerifyOutput (all int64): accept_index [bs,S+1] flat verify row b*N+node of the root and each
accepted node, -1 padded; accept_length [bs] drafts accepted (bonus excluded; emitted =
accept_length + 1); tokens [bs,S+1] the token following each accepted node, i.e. the accepted drafts
then the bonus/correction token at column accept_length, -1 padded.
Inputs are int64 (tokens and links) / float32, contiguous, on one device; the checking wrapper
raises ValueError naming the argument otherwise. backend="triton" on CPU needs TRITON_INTERPRET=1.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from spectrace_engine.kernels import verify_ref as ref
from torch import Tensor

__all__ = [
    "VerifyOutput",
    "sampling_noise",
    "verify_greedy_chain",
    "verify_greedy_tree",
    "verify_tree_sampling",
    "warm_up",
]


@dataclass(frozen=True, slots=True)
class VerifyOutput:
    accept_index: Tensor
    accept_length: Tensor
    tokens: Tensor


def _check(
    name: str, t: Tensor, dtype: torch.dtype, shape: tuple[int, ...], device: torch.device
) -> None:
    if t.dtype != dtype:
        raise ValueError(f"{name}: expected dtype {dtype}, got {t.dtype}")
    if tuple(t.shape) != shape:
        raise ValueError(f"{name}: expected shape {list(shape)}, got {list(t.shape)}")
    if not t.is_contiguous():
        raise ValueError(f"{name}: must be contiguous (strides {t.stride()})")
    if t.device != device:
        raise ValueError(f"{name}: on {t.device}, expected {device}")


def _check_tree(candidates: Tensor, links: tuple[Tensor, Tensor, Tensor]) -> tuple[int, int]:
    if candidates.dim() != 2:
        raise ValueError(f"candidates: expected [bs, N], got {list(candidates.shape)}")
    bs, n = candidates.shape
    _check("candidates", candidates, torch.long, (bs, n), candidates.device)
    for name, t in zip(
        ("retrive_index", "retrive_next_token", "retrive_next_sibling"), links, strict=False
    ):
        _check(name, t, torch.long, (bs, n), candidates.device)
    return bs, n


def _check_backend(backend: str) -> None:
    if backend not in ("triton", "torch"):
        raise ValueError(f"backend: expected 'triton' or 'torch', got {backend!r}")


def _outputs(bs: int, steps: int, device: torch.device) -> tuple[Tensor, Tensor, Tensor]:
    idx = torch.empty(bs, steps + 1, dtype=torch.long, device=device)
    return idx, torch.empty(bs, dtype=torch.long, device=device), torch.full_like(idx, -1)


def verify_greedy_chain(
    candidates: Tensor, target_predict: Tensor, backend: str = "triton"
) -> VerifyOutput:
    _check_backend(backend)
    bs, n = _check_tree(candidates, ())  # type: ignore[arg-type]
    _check("target_predict", target_predict, torch.long, (bs, n), candidates.device)
    if backend == "torch":
        return VerifyOutput(*ref.greedy_chain_reference(candidates, target_predict))
    from spectrace_engine.kernels.verify_triton import greedy_chain_kernel

    idx, length, tokens = _outputs(bs, n - 1, candidates.device)
    block = max(2, 1 << (n - 1).bit_length())
    greedy_chain_kernel[(bs,)](candidates, target_predict, idx, length, tokens, N=n, BLOCK=block)
    return VerifyOutput(idx, length, tokens)


def verify_greedy_tree(
    candidates: Tensor,
    retrive_index: Tensor,
    retrive_next_token: Tensor,
    retrive_next_sibling: Tensor,
    target_predict: Tensor,
    num_steps: int,
    backend: str = "triton",
) -> VerifyOutput:
    _check_backend(backend)
    links = (retrive_index, retrive_next_token, retrive_next_sibling)
    bs, n = _check_tree(candidates, links)
    _check("target_predict", target_predict, torch.long, (bs, n), candidates.device)
    if backend == "torch":
        return VerifyOutput(
            *ref.greedy_tree_reference(candidates, *links, target_predict, num_steps)
        )
    from spectrace_engine.kernels.verify_triton import greedy_tree_kernel

    idx, length, tokens = _outputs(bs, num_steps, candidates.device)
    greedy_tree_kernel[(bs,)](
        candidates, *links, target_predict, idx, length, tokens, N=n, STEPS=num_steps
    )
    return VerifyOutput(idx, length, tokens)


def verify_tree_sampling(
    candidates: Tensor,
    retrive_index: Tensor,
    retrive_next_token: Tensor,
    retrive_next_sibling: Tensor,
    target_probs: Tensor,
    coins: Tensor,
    inv_exp: Tensor,
    num_steps: int,
    threshold_single: float = 1.0,
    threshold_acc: float = 1.0,
    backend: str = "triton",
) -> VerifyOutput:
    _check_backend(backend)
    links = (retrive_index, retrive_next_token, retrive_next_sibling)
    bs, n = _check_tree(candidates, links)
    if target_probs.dim() != 3:
        raise ValueError(f"target_probs: expected [bs, N, V], got {list(target_probs.shape)}")
    vocab = target_probs.shape[2]
    dev = candidates.device
    _check("target_probs", target_probs, torch.float32, (bs, n, vocab), dev)
    _check("coins", coins, torch.float32, (bs, n), dev)
    _check("inv_exp", inv_exp, torch.float32, (bs, vocab), dev)
    if backend == "torch":
        return VerifyOutput(
            *ref.tree_sampling_reference(
                candidates,
                *links,
                target_probs,
                coins,
                inv_exp,
                num_steps,
                threshold_single,
                threshold_acc,
            )
        )
    from spectrace_engine.kernels.verify_triton import tree_sampling_kernel

    idx, length, tokens = _outputs(bs, num_steps, dev)
    block_v = min(1024, max(16, 1 << (vocab - 1).bit_length()))
    tree_sampling_kernel[(bs,)](
        candidates,
        *links,
        target_probs,
        coins,
        inv_exp,
        idx,
        length,
        tokens,
        float(threshold_single),
        float(threshold_acc),
        N=n,
        STEPS=num_steps,
        V=vocab,
        BLOCK_V=block_v,
    )
    return VerifyOutput(idx, length, tokens)


def sampling_noise(
    bs: int,
    n: int,
    vocab: int,
    generator: torch.Generator | None = None,
    device: torch.device | str = "cpu",
) -> tuple[Tensor, Tensor]:
    """Per-node acceptance coins U[0,1) and per-request 1/Exp(1) race weights for the residual."""
    coins = torch.rand(bs, n, generator=generator, device=device)
    exp = torch.empty(bs, vocab, device=device).exponential_(generator=generator)
    # Exp(1) can come out as exactly 0 (u = 0); 1/0 would make a zero-probability token win
    return coins, 1.0 / exp.clamp_(min=torch.finfo(torch.float32).tiny)


def warm_up(
    n: int, steps: int, vocab: int, tree: bool, sampling: bool, device: torch.device
) -> None:
    """Compile (or load from Triton's disk cache) the one verify kernel a run launches, on a
    root-only tree of one request, so the JIT never lands inside a timed step: compiled on the
    first call, it made whole runs 3-4x slower than the torch reference it beats 4-150x alone."""
    cand = torch.zeros(1, n, dtype=torch.long, device=device)
    none = torch.full_like(cand, -1)
    links = (torch.arange(n, device=device)[None], none, none.clone())
    if sampling:
        probs = torch.full((1, n, vocab), 1.0 / vocab, device=device)
        coins, inv_exp = torch.rand(1, n, device=device), torch.ones(1, vocab, device=device)
        verify_tree_sampling(cand, *links, probs, coins, inv_exp, steps)
    elif tree:
        verify_greedy_tree(cand, *links, cand.clone(), steps)
    else:
        verify_greedy_chain(cand, cand.clone())
    if device.type == "cuda":
        torch.cuda.synchronize(device)
