"""EagleDraftInput and EagleVerifyInput: the spec_info a batch carries between and inside steps.

EagleDraftInput is the draft's top-k for each request's next root (kept on the batch between
steps); EagleVerifyInput is one draft tree flattened to ``bs x N`` target rows, and its
``verify`` matches the target's logits against the tree (greedy, or SGLang's target-only
rejection sampling at a temperature).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import torch
from spectrace_engine.kernels.verify import (
    VerifyOutput,
    verify_greedy_chain,
    verify_greedy_tree,
    verify_tree_sampling,
)
from spectrace_engine.kernels.verify_simulated import alpha_for_mean, simulated_accept
from spectrace_engine.layers.sampler import Sampler
from spectrace_engine.server_args import SpecConfig
from torch import Tensor


def _shape(t: Tensor | None) -> list[int] | None:
    return None if t is None else list(t.shape)


@dataclass(eq=False, slots=True)
class EagleDraftInput:
    """State carried between steps: the draft's top-k for the next root, per request."""

    topk_p: Tensor  # [bs, K]
    topk_index: Tensor  # [bs, K]
    hidden_states: Tensor  # [bs, dim] draft hidden of the last row
    verified_id: Tensor  # [bs] last verified token (the root of the next tree)
    target_hidden: Tensor  # [bs, F] target feature of position kv_len-1 (for catch-up)
    num_tokens_per_batch: int  # N: rows per request of the verify this input feeds
    accept_length: Tensor | None = None  # [bs] of the verify that produced it

    _FIELDS = ("topk_p", "topk_index", "hidden_states", "verified_id", "target_hidden")

    def filter_batch(self, keep: Tensor) -> None:
        for name in self._FIELDS:
            setattr(self, name, getattr(self, name)[keep])
        if self.accept_length is not None:
            self.accept_length = self.accept_length[keep]

    def merge_batch(self, other: EagleDraftInput) -> None:
        for name in self._FIELDS:
            setattr(self, name, torch.cat([getattr(self, name), getattr(other, name)]))
        self.accept_length = None

    def shapes(self) -> dict[str, object]:
        return {
            "kind": "draft_input",
            "tokens_per_req": self.num_tokens_per_batch,
            "shapes": {
                "topk_p": _shape(self.topk_p),
                "topk_index": _shape(self.topk_index),
                "hidden_states": _shape(self.hidden_states),
                "verified_id": _shape(self.verified_id),
                "target_hidden": _shape(self.target_hidden),  # EAGLE: dim; EAGLE-3: 3 x dim
            },
        }


@dataclass(eq=False, slots=True)
class EagleVerifyInput:
    """One verify: the tree flattened to ``bs x N`` target rows (SGLang field names)."""

    draft_token: Tensor  # [bs*N], column 0 of each request = the root
    positions: Tensor  # [bs*N]
    custom_mask: Tensor  # [bs*N, L] bool over the request's cache row
    retrive_index: Tensor  # [bs, N]
    retrive_next_token: Tensor  # [bs, N]
    retrive_next_sibling: Tensor  # [bs, N]
    draft_token_num: int
    spec_steps: int
    topk: int
    # (VerifyOutput, NaN flag) computed inside the target's verify graph (eagle_verify_cuda_graph)
    graph_verify: tuple[VerifyOutput, Tensor] | None = None

    def shapes(self) -> dict[str, object]:
        return {
            "kind": "verify_input",
            "tokens_per_req": self.draft_token_num,
            "shapes": {
                "draft_token": _shape(self.draft_token),
                "positions": _shape(self.positions),
                "custom_mask": _shape(self.custom_mask),
                "retrive_index": _shape(self.retrive_index),
            },
        }

    def links(self) -> tuple[Tensor, Tensor, Tensor]:
        return (self.retrive_index, self.retrive_next_token, self.retrive_next_sibling)

    def verify(
        self, logits: Tensor, sampler: Sampler, spec: SpecConfig, backend: str
    ) -> VerifyOutput:
        """The verify's result: the one computed inside the target's verify graph when it ran
        there (``graph_verify``), else computed now from the returned logits."""
        if self.graph_verify is not None:
            return self.graph_verify[0]
        tokens = self.draft_token.view(-1, self.draft_token_num)
        bs, n = tokens.shape
        noise = draw_noise(sampler, spec, bs, n, logits.shape[-1])
        return verify_logits(tokens, self.links(), logits, sampler, spec, backend, noise)

    def nan_seen(self, logits: Tensor) -> Tensor:
        """A device flag: NaN anywhere in the verify logits (computed in the graph when it ran)."""
        if self.graph_verify is not None:
            return self.graph_verify[1]
        return torch.isnan(logits).any()


@dataclass(frozen=True, slots=True)
class VerifyNoise:
    """The random draws of one verify, made on the host's stream before it (outside any graph,
    from the sampler's one seeded generator, so a graph replay and an eager verify agree)."""

    coins: Tensor | None = None  # [bs, N] sampling: one coin per tree node
    inv_exp: Tensor | None = None  # [bs, V] sampling: race weights of each correction
    uniforms: Tensor | None = None  # [bs, S] simulated acceptance: one draw per draft depth


def draw_noise(sampler: Sampler, spec: SpecConfig, bs: int, n: int, vocab: int) -> VerifyNoise:
    if spec.simulate_accept_len is not None:
        u = torch.rand(bs, spec.num_steps, generator=sampler.generator, device=sampler.device)
        return VerifyNoise(uniforms=u)
    if sampler.greedy:
        return VerifyNoise()
    return VerifyNoise(*sampler.noise(bs, n, vocab))


@lru_cache(maxsize=16)
def _alpha(mean: float, steps: int) -> float:
    return alpha_for_mean(mean, steps)


def verify_logits(
    tokens: Tensor,
    links: tuple[Tensor, Tensor, Tensor],
    logits: Tensor,
    sampler: Sampler,
    spec: SpecConfig,
    backend: str,
    noise: VerifyNoise,
) -> VerifyOutput:
    """Greedy: match drafts against the target's argmax. Else SGLang's target-only rejection
    sampling (``tree_speculative_sampling_target_only``), lossless at any temperature. With
    simulated acceptance, the accept decision is drawn (``kernels.verify_simulated``).
    Sync-free and shape-static: the target's verify graph captures it (eagle_verify_cuda_graph).

    Sampling walks the tree with one coin per node: a child is accepted with exactly its target
    probability (given its elder siblings were rejected); on rejection or at a leaf the
    correction is drawn from the target minus the rejected children. Whatever the draft
    proposed, each emitted token follows the target at T, so the draft keeps SGLang's
    deterministic top-k and its probabilities only rank the candidates (chains included).
    Accept thresholds below 1 trade that exactness for acceptance, as in SGLang."""
    steps = spec.num_steps
    if noise.uniforms is not None:
        alpha = _alpha(float(spec.simulate_accept_len), steps)  # type: ignore[arg-type]
        idx, length, toks = simulated_accept(
            tokens, *links, logits.argmax(-1), noise.uniforms, alpha
        )
        return VerifyOutput(idx, length, toks)
    if noise.coins is not None and noise.inv_exp is not None:
        probs = sampler.probs(logits).contiguous()  # [bs, N, V]
        return verify_tree_sampling(
            tokens,
            *links,
            probs,
            noise.coins,
            noise.inv_exp,
            steps,
            spec.accept_threshold_single,
            spec.accept_threshold_acc,
            backend=backend,
        )
    predict = logits.argmax(-1)
    if spec.eagle_topk == 1:
        return verify_greedy_chain(tokens, predict, backend=backend)
    return verify_greedy_tree(tokens, *links, predict, steps, backend=backend)


SpecInfo = EagleDraftInput | EagleVerifyInput
