"""TokenToKVPoolAllocator: SGLang's free list of KV token indices (page size 1).

The KV pool holds ``size + 1`` token rows; index 0 is the padding slot that padded graph rows write
to, so the free list starts as ``1..size``. ``alloc`` hands out the head of the list or returns
``None`` when it is short (the caller decides: the scheduler retracts, an allocation inside a step
raises SGLang's "out of memory" error); ``free`` appends, so indices come back in a different order
than they left, as in a real server. The list lives on the device: allocating slices it with a
host-known length and freeing concatenates, so neither reads a device value on the host.
"""

from __future__ import annotations

import torch
from torch import Tensor


class TokenToKVPoolAllocator:
    """Indices into the token-major KV buffers; ``available_size`` is the pool's free room."""

    def __init__(self, size: int, device: torch.device) -> None:
        self.size, self.device = size, device
        self.clear()

    def clear(self) -> None:
        self.free_pages = torch.arange(1, self.size + 1, dtype=torch.int64, device=self.device)

    def available_size(self) -> int:
        return len(self.free_pages)

    def alloc(self, need_size: int) -> Tensor | None:
        if need_size > len(self.free_pages):
            return None
        select_index = self.free_pages[:need_size]
        self.free_pages = self.free_pages[need_size:]
        return select_index

    def free(self, free_index: Tensor) -> None:
        if free_index.numel() == 0:
            return
        if free_index.dtype != torch.int64:
            free_index = free_index.to(torch.int64)
        self.free_pages = torch.cat((self.free_pages, free_index))

    def backup_state(self) -> Tensor:
        return self.free_pages

    def restore_state(self, state: Tensor) -> None:
        """Hand back everything allocated since ``backup_state`` (the draft's scratch tokens)."""
        self.free_pages = state
