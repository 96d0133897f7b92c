"""Batches and spec_info under SGLang's names: ScheduleBatch -> ModelWorkerBatch, Eagle*Input.

spec_info lives on the ScheduleBatch (as in SGLang v1), which is what couples speculation into
batch preparation, graph-runner row counts and token allocation: ``prepare_for_decode`` lays out
``bs x tokens_per_req`` rows whenever a spec_info is attached, so the switch to plain decode must
run ``clear_for_nonspec`` first (the clean-up the story's v1 patch lacked).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import torch
from spectrace_engine.mem_cache.memory_pool import KVPool
from torch import Tensor


class ForwardMode(StrEnum):
    EXTEND = "extend"
    DECODE = "decode"
    TARGET_VERIFY = "verify"
    DRAFT = "draft"
    DRAFT_EXTEND = "draft_extend"


@dataclass(eq=False, slots=True)
class Req:
    """One request; ``kv_len`` tokens are in the target cache, the last output token is the root."""

    rid: int
    prompt: list[int]
    max_new_tokens: int
    slot: int = -1
    output: list[int] = field(default_factory=list)
    draft_len: int = 0  # draft KV columns that hold real (token, feature) rows
    pending: list[Tensor] = field(default_factory=list)  # target features h[draft_len..kv_len-1]
    finish_step: int = -1

    @property
    def kv_len(self) -> int:
        return len(self.prompt) + len(self.output) - 1

    @property
    def tokens(self) -> list[int]:
        return self.prompt + self.output

    @property
    def finished(self) -> bool:
        return len(self.output) >= self.max_new_tokens


def _shape(t: Tensor | None) -> list[int] | None:
    return None if t is None else list(t.shape)


@dataclass(eq=False, slots=True)
class EagleDraftInput:
    """State carried between steps: the draft's top-k for the next root, per request."""

    topk_p: Tensor  # [bs, K]
    topk_index: Tensor  # [bs, K]
    hidden_states: Tensor  # [bs, dim] draft hidden of the last row
    verified_id: Tensor  # [bs] last verified token (the root of the next tree)
    target_hidden: Tensor  # [bs, 3*dim] target feature of position kv_len-1 (for catch-up)
    num_tokens_per_batch: int  # N: rows per request of the verify this input feeds
    accept_length: Tensor | None = None  # [bs] of the verify that produced it

    def tokens_per_req(self) -> int:
        """SGLang's spec token coefficient: rows per request the next forward lays out."""
        return self.num_tokens_per_batch

    def filter_batch(self, keep: Tensor) -> None:
        for name in ("topk_p", "topk_index", "hidden_states", "verified_id", "target_hidden"):
            setattr(self, name, getattr(self, name)[keep])
        if self.accept_length is not None:
            self.accept_length = self.accept_length[keep]

    def merge_batch(self, other: EagleDraftInput) -> None:
        for name in ("topk_p", "topk_index", "hidden_states", "verified_id", "target_hidden"):
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

    def tokens_per_req(self) -> int:
        return self.draft_token_num

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


SpecInfo = EagleDraftInput | EagleVerifyInput


@dataclass(slots=True)
class ModelWorkerBatch:
    """What one forward needs, cut from the ScheduleBatch (SGLang's ModelWorkerBatch)."""

    forward_mode: ForwardMode
    bs: int
    input_ids: Tensor
    req_pool_indices: Tensor
    seq_lens: Tensor
    out_cache_loc: Tensor
    spec_info: SpecInfo | None


@dataclass(eq=False, slots=True)
class ScheduleBatch:
    """The running batch: requests plus device tensors kept in request order."""

    reqs: list[Req]
    device: torch.device
    is_spec_v2: bool = False
    forward_mode: ForwardMode = ForwardMode.DECODE
    spec_info: SpecInfo | None = None
    input_ids: Tensor | None = None
    out_cache_loc: Tensor | None = None
    seq_lens: Tensor = field(init=False)
    req_pool_indices: Tensor = field(init=False)
    output_ids: Tensor = field(init=False)  # [bs] last token per request (the root)

    def __post_init__(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the per-request tensors from host state (after prefill or host-side accept)."""
        dev = self.device
        self.seq_lens = torch.tensor([r.kv_len for r in self.reqs], dtype=torch.long, device=dev)
        self.req_pool_indices = torch.tensor(
            [r.slot for r in self.reqs], dtype=torch.long, device=dev
        )
        self.output_ids = torch.tensor(
            [r.output[-1] if r.output else 0 for r in self.reqs], dtype=torch.long, device=dev
        )

    def batch_size(self) -> int:
        return len(self.reqs)

    def is_empty(self) -> bool:
        return not self.reqs

    def prepare_for_decode(self, pool: KVPool) -> None:
        """Lay out the next forward's rows; with a spec_info attached (v1) they are speculative."""
        self.forward_mode = ForwardMode.DECODE
        if self.spec_info is not None and not self.is_spec_v2:
            per_req = self.spec_info.tokens_per_req()
            self.input_ids = self.spec_info.verified_id
            self.out_cache_loc = pool.alloc_token_slots(self.seq_lens, per_req)
            return
        self.input_ids = self.output_ids
        self.out_cache_loc = pool.alloc_token_slots(self.seq_lens, 1)

    def clear_for_nonspec(self) -> None:
        """The spec -> plain transition: drop spec_info and every speculative row layout."""
        self.spec_info = None
        self.input_ids = None
        self.out_cache_loc = None

    def filter_batch(self, keep: list[int]) -> None:
        self.reqs = [self.reqs[i] for i in keep]
        idx = torch.tensor(keep, dtype=torch.long, device=self.device)
        self.seq_lens = self.seq_lens[idx]
        self.req_pool_indices = self.req_pool_indices[idx]
        self.output_ids = self.output_ids[idx]
        if isinstance(self.spec_info, EagleDraftInput):
            self.spec_info.filter_batch(idx)

    def merge_batch(self, other: ScheduleBatch) -> None:
        """Append newly prefilled requests; a draft input merges only with another one."""
        self.reqs = self.reqs + other.reqs
        self.seq_lens = torch.cat([self.seq_lens, other.seq_lens])
        self.req_pool_indices = torch.cat([self.req_pool_indices, other.req_pool_indices])
        self.output_ids = torch.cat([self.output_ids, other.output_ids])
        if self.spec_info is None:
            self.spec_info = other.spec_info
        elif isinstance(self.spec_info, EagleDraftInput) and isinstance(
            other.spec_info, EagleDraftInput
        ):
            self.spec_info.merge_batch(other.spec_info)

    def get_model_worker_batch(self) -> ModelWorkerBatch:
        assert self.input_ids is not None and self.out_cache_loc is not None
        return ModelWorkerBatch(
            self.forward_mode,
            self.batch_size(),
            self.input_ids,
            self.req_pool_indices,
            self.seq_lens,
            self.out_cache_loc,
            self.spec_info,
        )
