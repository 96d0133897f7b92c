"""EagleDraftInput and EagleVerifyInput: the spec_info a batch carries between and inside steps.

EagleDraftInput is the draft's top-k for each request's next root (kept on the batch between
steps); EagleVerifyInput is one draft tree flattened to ``bs x N`` target rows, and its
``verify`` matches the target's logits against the tree (greedy, or SGLang's target-only
rejection sampling at a temperature).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from spectrace_engine.kernels.verify import (
    VerifyOutput,
    verify_greedy_chain,
    verify_greedy_tree,
    verify_tree_sampling,
)
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

    def verify(
        self, logits: Tensor, sampler: Sampler, spec: SpecConfig, backend: str
    ) -> VerifyOutput:
        """Greedy: match drafts against the target's argmax. Else SGLang's target-only rejection
        sampling (``tree_speculative_sampling_target_only``), lossless at any temperature."""
        tokens = self.draft_token.view(-1, self.draft_token_num)
        if not sampler.greedy:
            return self.verify_sampling(tokens, logits, sampler, spec, backend)
        predict = logits.argmax(-1)
        if self.topk == 1:
            return verify_greedy_chain(tokens, predict, backend=backend)
        return verify_greedy_tree(
            tokens,
            self.retrive_index,
            self.retrive_next_token,
            self.retrive_next_sibling,
            predict,
            self.spec_steps,
            backend=backend,
        )

    def verify_sampling(
        self, tokens: Tensor, logits: Tensor, sampler: Sampler, spec: SpecConfig, backend: str
    ) -> VerifyOutput:
        """Walk the tree with one coin per node: a child is accepted with exactly its target
        probability (given its elder siblings were rejected); on rejection or at a leaf the
        correction is drawn from the target minus the rejected children. Whatever the draft
        proposed, each emitted token follows the target at T, so the draft keeps SGLang's
        deterministic top-k and its probabilities only rank the candidates (chains included).
        Accept thresholds below 1 trade that exactness for acceptance, as in SGLang."""
        probs = sampler.probs(logits).contiguous()  # [bs, N, V]
        bs, n, vocab = probs.shape
        coins, inv_exp = sampler.noise(bs, n, vocab)
        return verify_tree_sampling(
            tokens,
            self.retrive_index,
            self.retrive_next_token,
            self.retrive_next_sibling,
            probs,
            coins,
            inv_exp,
            self.spec_steps,
            spec.accept_threshold_single,
            spec.accept_threshold_acc,
            backend=backend,
        )


SpecInfo = EagleDraftInput | EagleVerifyInput
