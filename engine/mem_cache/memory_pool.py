"""KV pool: request slots (one cache row each) and the column layouts of decode and extend rows.

The caches are slot-major (``[layers, slots, heads, max_len, dim]``): a request owns one row and a
token's "slot" in SGLang's sense is the column ``kv_len + i`` of that row, which is what
``alloc_token_slots`` hands out. The last row is a scratch slot that padded graph rows write to.
"""

from __future__ import annotations

import torch
from spectrace_engine.models.llama import KVCache
from torch import Tensor


class KVPool:
    """Owns the target and draft caches and the free list of request slots."""

    def __init__(self, target: KVCache, draft: KVCache | None, max_running: int) -> None:
        self.target, self.draft = target, draft
        self.max_len = target.max_len
        self.scratch_slot = max_running  # caches are allocated with max_running + 1 rows
        self._free = list(range(max_running - 1, -1, -1))

    @property
    def capacity_tokens(self) -> int:
        return self.scratch_slot * self.max_len

    def alloc_slot(self) -> int:
        if not self._free:
            raise RuntimeError("No free request slot in the KV pool.")
        return self._free.pop()

    def free_slot(self, slot: int) -> None:
        self._free.append(slot)

    def backup_state(self) -> tuple[int, ...]:
        return tuple(self._free)

    def restore_state(self, state: tuple[int, ...]) -> None:
        self._free = list(state)


def alloc_token_slots(
    pool: KVPool, seq_lens: Tensor, per_req: int, backup_state: bool = False
) -> Tensor | tuple[Tensor, tuple[int, ...]]:
    """Flat ``[bs*per_req]`` cache columns ``seq_len + i``, computed on the device with no read
    back (the scheduler retires a request before its row could overflow). As SGLang's, it returns
    ``(out_cache_loc, state)`` with ``backup_state`` so scratch rows (draft tokens) can be
    released with ``pool.restore_state(state)``."""
    cols = (seq_lens[:, None] + torch.arange(per_req, device=seq_lens.device)).flatten()
    return (cols, pool.backup_state()) if backup_state else cols


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
