"""KV memory as SGLang keeps it: a ReqToTokenPool, a token allocator and token-major KV buffers.

A request owns a row of ``req_to_token`` (SGLang's ReqToTokenPool); column ``c`` of that row holds
the KV token index of its ``c``-th cache column, handed out by the TokenToKVPoolAllocator. The
forward addresses KV by (request row, column) and resolves the tokens through the table
(``KVCache.resolve``), as SGLang's attention backends read KV through ``req_to_token``; so whoever
lays out rows assigns their freshly allocated ``out_cache_loc`` into the table first
(``assign_req_to_token_pool``). Columns past what a request owns point at token 0, the padding
slot, which the last (scratch) row points at everywhere: padded graph rows write there.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from spectrace_engine.mem_cache.allocator import TokenToKVPoolAllocator
from spectrace_engine.mem_cache.feature_store import FeatureStore
from spectrace_engine.models.llama import KVCache
from torch import Tensor


class ReqToTokenPool:
    """Rows of token indices, one per running request, plus the scratch row (all padding)."""

    def __init__(self, size: int, max_context_len: int, device: torch.device) -> None:
        self.size = size
        self.req_to_token = torch.zeros(size + 1, max_context_len, dtype=torch.long, device=device)
        self.free_slots = list(range(size))

    def available_size(self) -> int:
        return len(self.free_slots)

    def alloc(self, need_size: int) -> list[int] | None:
        if need_size > len(self.free_slots):
            return None
        select, self.free_slots = self.free_slots[:need_size], self.free_slots[need_size:]
        for slot in select:
            self.req_to_token[slot].zero_()  # a previous owner's tokens must not leak in
        return select

    def free(self, slot: int) -> None:
        self.free_slots.append(slot)


class KVPool:
    """The target and draft KV buffers over one ReqToTokenPool and one allocator (SGLang shares
    both between the target and the draft model runners)."""

    def __init__(
        self,
        target: KVCache,
        draft: KVCache | None,
        req_to_token_pool: ReqToTokenPool,
        allocator: TokenToKVPoolAllocator,
        log_error: Callable[[str], object] | None = None,
        features: FeatureStore | None = None,
    ) -> None:
        self.target, self.draft, self.log_error = target, draft, log_error
        self.features = features  # speculating: the target features the draft catches up on
        self.req_to_token_pool, self.allocator = req_to_token_pool, allocator
        self.req_to_token = req_to_token_pool.req_to_token
        self.max_len = self.req_to_token.shape[1]
        self.scratch_slot = req_to_token_pool.size

    @property
    def capacity_tokens(self) -> int:
        return self.allocator.size

    def release(self, slot: int, allocated: int) -> None:
        """A finished or retracted request gives back its tokens and its row."""
        if allocated:  # free's cat copies the row before the zero_ below (stream order)
            self.allocator.free(self.req_to_token[slot, :allocated])
        self.req_to_token[slot].zero_()
        self.req_to_token_pool.free(slot)


def available_and_evictable_str(pool: KVPool) -> str:
    available = pool.allocator.available_size()
    return f"Available tokens: {available} (available_size={available} + evictable_size=0)\n"


def alloc_token_slots(
    pool: KVPool, num_tokens: int, backup_state: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """SGLang's ``alloc_token_slots`` (page size 1): the allocator's indices, or SGLang's
    out-of-memory RuntimeError when the free list is short (there is no prefix cache to evict),
    logged first as SGLang's ``logger.error`` does (into the run's log)."""
    state = pool.allocator.backup_state() if backup_state else None
    out_cache_loc = pool.allocator.alloc(num_tokens)
    if out_cache_loc is None:
        error_msg = (
            "Out of memory. Try to lower your batch size.\n"
            f"Try to allocate {num_tokens} tokens.\n"
            f"{available_and_evictable_str(pool)}"
        )
        if pool.log_error is not None:
            pool.log_error(error_msg)
        raise RuntimeError(error_msg)
    return (out_cache_loc, state) if backup_state else out_cache_loc  # type: ignore[return-value]


def assign_req_to_token_pool(
    pool: KVPool, req_pool_indices: Tensor, start: Tensor, width: int, out_cache_loc: Tensor
) -> None:
    """Columns ``start .. start+width-1`` of each row get ``width`` allocated tokens (device only)."""
    cols = start[:, None] + torch.arange(width, device=start.device)
    pool.req_to_token[req_pool_indices[:, None], cols] = out_cache_loc.view(-1, width)


def release_columns(pool: KVPool, req_pool_indices: Tensor, start: Tensor, width: int) -> None:
    """Point columns ``start ..`` back at the padding token once their tokens are given back."""
    cols = (start[:, None] + torch.arange(width, device=start.device)).clamp(max=pool.max_len - 1)
    pool.req_to_token[req_pool_indices[:, None], cols] = 0


def causal_mask(cache_locs: Tensor, max_len: int) -> Tensor:
    """``[rows, L]`` bool: each row sees every column up to and including its own."""
    cols = torch.arange(max_len, device=cache_locs.device)
    return cols[None, :] <= cache_locs.reshape(-1)[:, None]


def extend_inputs(
    lengths: list[int], starts: list[int], device: torch.device, max_len: int
) -> tuple[Tensor, Tensor, Tensor]:
    """Positions/columns/mask ``[B,T]``, ``[B,T]``, ``[B,T,L]`` for rows starting at ``starts``.

    Rows past a request's length are padding: they write columns beyond its valid prefix, which
    are rewritten before anything attends to them.
    """
    t = max(lengths)
    start = torch.tensor(starts, dtype=torch.long, device=device)[:, None]
    cols = (start + torch.arange(t, device=device)).clamp(max=max_len - 1)
    mask = causal_mask(cols, max_len).view(len(lengths), t, max_len)
    return cols.clone(), cols, mask
