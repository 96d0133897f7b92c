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
from spectrace_engine.managers.overlap_utils import to_device
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
    kv_allocated_len: int = 0  # columns of its req_to_token row holding allocated tokens
    output: list[int] = field(default_factory=list)
    # draft KV columns that hold real (token, feature) rows; the target features of columns
    # draft_len..kv_len-1 wait in the pool's FeatureStore for the catch-up
    draft_len: int = 0
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

    def reset_for_retract(self) -> None:
        """Back to the queue with its output kept: the next prefill re-reads prompt + output."""
        self.slot, self.kv_allocated_len, self.draft_len = -1, 0, 0


def alloc_for_extend(pool: KVPool, reqs: list[Req]) -> None:
    """A row per request and a token per prefilled position (prompt, plus the output of a
    retracted request), written into the rows (SGLang's prepare_for_extend allocation)."""
    slots = pool.req_to_token_pool.alloc(len(reqs))
    if slots is None:
        raise RuntimeError(
            "alloc_req_slots runs out of memory. "
            "Please set a smaller number for `--max-running-requests`."
        )
    lengths = [len(r.tokens) for r in reqs]
    out_cache_loc = alloc_token_slots(pool, sum(lengths))
    pt = 0
    for r, slot, n in zip(reqs, slots, lengths, strict=True):
        pool.req_to_token[slot, :n] = out_cache_loc[pt : pt + n]  # type: ignore[index]
        r.slot, r.kv_allocated_len, pt = slot, n, pt + n


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
    out_cache_loc: Tensor | None = None  # the KV columns the step writes (tokens: req_to_token)
    alloc_len_per_decode: int = 0  # v2: tokens reserved ahead per decode (0: allocate exactly)
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
        """Lay out a plain decode's rows and allocate their tokens. A batch carrying spec_info is
        the EAGLE worker's to lay out (SGLang returns early for EAGLE here): v1 allocates in the
        worker; v2's draft input over-allocates here (``EagleDraftInput.prepare_for_decode``)."""
        self.forward_mode = ForwardMode.DECODE
        if self.alloc_len_per_decode:
            self.over_allocate()
        if isinstance(self.spec_info, EagleDraftInput):
            self.input_ids = self.spec_info.verified_id
            return
        self.input_ids = self.output_ids
        if not self.alloc_len_per_decode:
            locs = alloc_token_slots(self.pool, self.batch_size())
            # assign_req_to_token_pool at width 1: one index_put, no column grid to build
            self.pool.req_to_token[self.req_pool_indices, self.seq_lens] = locs
            for r in self.reqs:
                r.kv_allocated_len += 1
        self.out_cache_loc = self.seq_lens

    def over_allocate(self) -> None:
        """SGLang v2: keep ``2 x alloc_len_per_decode`` tokens allocated past the committed
        length, so the step in flight and this one both fit without a host read."""
        need = [self.decode_tokens_needed(r) for r in self.reqs]
        if not sum(need):
            return
        locs = alloc_token_slots(self.pool, sum(need))
        rows = [r.slot for r, n in zip(self.reqs, need, strict=True) for _ in range(n)]
        cols = [
            c
            for r, n in zip(self.reqs, need, strict=True)
            for c in range(r.kv_allocated_len, r.kv_allocated_len + n)
        ]
        dev = self.device
        self.pool.req_to_token[to_device(rows, dev), to_device(cols, dev)] = locs  # type: ignore[index]
        for r, n in zip(self.reqs, need, strict=True):
            r.kv_allocated_len += n

    def decode_tokens_needed(self, r: Req) -> int:
        """Tokens the next decode step must allocate for ``r`` (the scheduler's memory check)."""
        if self.alloc_len_per_decode:
            return max(0, r.kv_len + 2 * self.alloc_len_per_decode - r.kv_allocated_len)
        return 1

    def clear_for_nonspec(self, unpack_alloc: bool = False) -> None:
        """The spec -> plain hook: drop spec_info and reset the inputs to the last tokens (the
        plain step's ``prepare_for_decode`` allocates its KV slot). ``unpack_alloc`` is story
        crash 2: the clean-up allocates with the speculative path's call, unpacking two values
        from an allocation made without ``backup_state``."""
        self.spec_algorithm = SpeculativeAlgorithm.NONE
        self.spec_info = None
        self.input_ids = self.output_ids
        if unpack_alloc:
            self.out_cache_loc, _ = alloc_token_slots(self.pool, self.batch_size())

    def filter_batch(self, keep: list[int]) -> None:
        self.reqs = [self.reqs[i] for i in keep]
        idx = to_device(keep, self.device)  # no stream sync: the step in flight runs on
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
