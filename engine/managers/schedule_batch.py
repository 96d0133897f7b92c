"""Req, ScheduleBatch -> ModelWorkerBatch: the scheduler's running batch and what a forward gets.

spec_info lives on the ScheduleBatch (as in SGLang v1), which is what couples speculation into
batch preparation, graph choice and token allocation: ``prepare_for_decode`` leaves the rows to the
EAGLE worker while a spec_info is attached, and a batch that carries one is laid out as
``bs x N`` by the target's TARGET_VERIFY graphs. So the switch to plain decode must run
``clear_for_nonspec`` first (the clean-up the story's v1 patch lacked).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from spectrace_engine.mem_cache.memory_pool import KVPool, alloc_token_slots
from spectrace_engine.model_executor.forward_batch_info import ForwardMode
from spectrace_engine.speculative.eagle_info import EagleDraftInput, SpecInfo
from spectrace_engine.speculative.spec_info import SpeculativeAlgorithm
from torch import Tensor


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


@dataclass(slots=True)
class ModelWorkerBatch:
    """What one forward needs, cut from the ScheduleBatch (SGLang's ModelWorkerBatch)."""

    forward_mode: ForwardMode
    bs: int
    input_ids: Tensor
    req_pool_indices: Tensor
    seq_lens: Tensor
    out_cache_loc: Tensor | None  # None: a spec worker lays out its own rows
    spec_info: SpecInfo | None
    spec_algorithm: SpeculativeAlgorithm = SpeculativeAlgorithm.NONE


@dataclass(eq=False, slots=True)
class ScheduleBatch:
    """The running batch: requests plus device tensors kept in request order."""

    reqs: list[Req]
    device: torch.device
    pool: KVPool
    spec_algorithm: SpeculativeAlgorithm = SpeculativeAlgorithm.NONE
    forward_mode: ForwardMode = ForwardMode.DECODE
    spec_info: SpecInfo | None = None
    input_ids: Tensor | None = None
    out_cache_loc: Tensor | None = None
    seq_lens: Tensor = field(init=False)
    req_pool_indices: Tensor = field(init=False)
    output_ids: Tensor = field(init=False)  # [bs] last token per request (the root)

    def __post_init__(self) -> None:
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

    def prepare_for_decode(self) -> None:
        """Lay out a plain decode's rows; a batch carrying spec_info is the EAGLE worker's to lay
        out (SGLang returns early for EAGLE here), so its inputs stay the draft input's roots."""
        self.forward_mode = ForwardMode.DECODE
        if isinstance(self.spec_info, EagleDraftInput):
            self.input_ids = self.spec_info.verified_id
            return
        self.input_ids = self.output_ids
        self.out_cache_loc = alloc_token_slots(self.pool, self.seq_lens, 1)  # type: ignore[assignment]

    def clear_for_nonspec(self, unpack_alloc: bool = False) -> None:
        """The spec -> plain hook: drop spec_info, reset the inputs to the last tokens and lay
        out one KV slot per request. ``unpack_alloc`` is story crash 2: the call copied from the
        speculative path unpacks two values from an allocation made without ``backup_state``."""
        self.spec_algorithm = SpeculativeAlgorithm.NONE
        self.spec_info = None
        self.input_ids = self.output_ids
        if unpack_alloc:
            self.out_cache_loc, _ = alloc_token_slots(self.pool, self.seq_lens, 1)
        else:
            self.out_cache_loc = alloc_token_slots(self.pool, self.seq_lens, 1)  # type: ignore[assignment]

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
        assert self.input_ids is not None
        return ModelWorkerBatch(
            self.forward_mode,
            self.batch_size(),
            self.input_ids,
            self.req_pool_indices,
            self.seq_lens,
            self.out_cache_loc,
            self.spec_info,
            self.spec_algorithm,
        )
