"""FeatureStore: the target's features per (request row, cache column), for the draft catch-up.

A speculative server in plain mode (dynamic disable) still has to give the draft every target
feature it did not see, so that speculation can resume with a whole draft KV. Keeping each plain
step's ``[bs, F]`` feature tensor alive until the resume (one new allocation per step, held for
hundreds of steps, a Python tuple per request per step) cost dynamic disable's plain steps 4x a
plain server's host time at c=256 on the H200. Here the features live where the KV does: one
buffer ``[rows, max_len, F]`` addressed like ``req_to_token``, written with one index_put per
step and read only at a catch-up (``draft_len .. kv_len`` of a request's row).
"""

from __future__ import annotations

import torch
from torch import Tensor


class FeatureStore:
    def __init__(
        self, rows: int, max_len: int, dim: int, dtype: torch.dtype, device: torch.device
    ) -> None:
        self.buf = torch.zeros(rows, max_len, dim, dtype=dtype, device=device)

    def write(self, slots: Tensor, cols: Tensor, feats: Tensor) -> None:
        """One feature per request: ``feats[b]`` at column ``cols[b]`` of row ``slots[b]``."""
        self.buf[slots, cols.clamp(max=self.buf.shape[1] - 1)] = feats.to(self.buf.dtype)

    def write_span(self, slot: int, start: int, feats: Tensor) -> None:
        """A run of columns from ``start`` (a prefill's prompt)."""
        self.buf[slot, start : start + feats.shape[0]] = feats.to(self.buf.dtype)

    def read(self, slot: int, start: int, stop: int) -> Tensor:
        """Columns ``start .. stop-1`` of a row, ``[stop - start, F]``."""
        return self.buf[slot, start:stop]
