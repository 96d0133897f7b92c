"""The verify, captured in the target's TARGET_VERIFY graph right after the forward.

Launched eagerly after the replay, the verify's few small kernels (argmax, the Triton walk, the
sampling's softmax) cost more host time than the GPU time they take: the v2 chain at c=64 ran at
0.55x of the torch reference that way (benchmarks/results/2026-12-03-h200-verify-backends.md).
Here the target's verify runner replays forward + verify as one graph: the tree links (and the
draws of a sampling or simulated verify) are copied into static buffers with the other inputs,
and the graph's outputs are the VerifyOutput and a per-request NaN flag, handed to the batch's
EagleVerifyInput (``graph_verify``) so both workers read them where they called ``verify``.
Padded requests get a root-only tree (no children), so their rows never walk into live ones.

Not attached (the verify then runs after the replay, as before) with ``--verify-outside-graph``
(the baseline the bench compares with), with TP > 1, where the graph
holds one vocabulary shard of the logits and the all-reduce follows the replay, and under the
``nan_logits`` fault, which poisons the logits after the replay.
"""

from __future__ import annotations

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.kernels.verify import VerifyOutput
from spectrace_engine.layers.sampler import Sampler
from spectrace_engine.model_executor.forward_batch_info import ForwardBatch
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.eagle_info import (
    EagleVerifyInput,
    VerifyNoise,
    draw_noise,
    verify_logits,
)
from torch import Tensor


class VerifyGraphEpilogue:
    """Static buffers for the verify's inputs, and the verify as the graph captures it."""

    def __init__(
        self, cfg: EngineConfig, sampler: Sampler, max_bs: int, vocab: int, device: torch.device
    ) -> None:
        s = cfg.spec
        self.spec, self.sampler, self.backend = s, sampler, cfg.verify_backend
        self.n, self.vocab = s.num_draft_tokens, vocab
        self.links = torch.full((3, max_bs, self.n), -1, dtype=torch.long, device=device)
        self.links[0].zero_()  # retrive_index of a padded request: its own row 0, never read on
        self.noise = _noise_buffers(cfg, max_bs, vocab, device)

    def prepare(self, fb: ForwardBatch, bs: int, gbs: int) -> None:
        """Copy the live requests' links and fresh draws; padded requests keep a root-only tree."""
        vi = fb.spec_info
        if not isinstance(vi, EagleVerifyInput):
            return  # a stale draft input on a plain step (story faults): nothing to verify
        for buf, src in zip(self.links, vi.links(), strict=True):
            buf[:bs].copy_(src)
        if gbs > bs:
            self.links[0, bs:gbs].zero_()
            self.links[1:, bs:gbs].fill_(-1)
        fresh = draw_noise(self.sampler, self.spec, bs, self.n, self.vocab)
        for buf, src in zip(_fields(self.noise), _fields(fresh), strict=True):
            if buf is not None and src is not None:
                buf[:bs].copy_(src)

    def __call__(self, views: tuple, out: tuple[Tensor, Tensor]) -> tuple[Tensor, ...]:
        """Captured after the forward: (accept_index, accept_length, tokens, nan) per request."""
        cand, logits = views[0], out[0]
        gbs = cand.shape[0]
        links = (self.links[0, :gbs], self.links[1, :gbs], self.links[2, :gbs])
        noise = VerifyNoise(*(None if t is None else t[:gbs] for t in _fields(self.noise)))
        res = verify_logits(cand, links, logits, self.sampler, self.spec, self.backend, noise)
        nan = torch.isnan(logits).flatten(1).any(1)
        return res.accept_index, res.accept_length, res.tokens, nan

    def publish(self, fb: ForwardBatch, outs: tuple[Tensor, ...]) -> bool:
        """Hand the live rows' results to the verify input (copies: the next replay rewrites the
        graph's outputs while v2's overlap may still hold these). False: nothing was verified."""
        vi = fb.spec_info
        if not isinstance(vi, EagleVerifyInput):
            return False
        idx, length, tokens, nan = (t.clone() for t in outs)
        vi.graph_verify = (VerifyOutput(idx, length, tokens), nan.any())
        return True


def _noise_buffers(cfg: EngineConfig, max_bs: int, vocab: int, device: torch.device) -> VerifyNoise:
    """Buffers shaped as ``draw_noise``'s draws (drawing here would shift the run's RNG stream),
    neutral until filled: a uniform of 1 accepts nothing."""
    s = cfg.spec
    if s.simulate_accept_len is not None:
        return VerifyNoise(uniforms=torch.ones(max_bs, s.num_steps, device=device))
    if cfg.sampling.greedy:
        return VerifyNoise()
    n = s.num_draft_tokens
    return VerifyNoise(
        torch.zeros(max_bs, n, device=device), torch.ones(max_bs, vocab, device=device)
    )


def _fields(noise: VerifyNoise) -> tuple[Tensor | None, Tensor | None, Tensor | None]:
    return (noise.coins, noise.inv_exp, noise.uniforms)


def verify_epilogue(
    cfg: EngineConfig, sampler: Sampler, vocab: int, device: torch.device
) -> VerifyGraphEpilogue | None:
    """The epilogue for the target's verify graphs, or None where the verify must stay outside."""
    if not cfg.verify_in_graph or not cfg.spec.enabled or cfg.disable_cuda_graph:
        return None
    if cfg.tp_size > 1:
        return None
    if cfg.faults.on(Fault.NAN_LOGITS):
        return None
    return VerifyGraphEpilogue(cfg, sampler, max(cfg.graph_bs), vocab, device)
