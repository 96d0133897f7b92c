"""FutureTokens: a step's results copied to the host behind the device's back (the overlap loop).

The overlap scheduler launches step n before it reads step n-1's tokens, as SGLang's future map
lets it; the copy is launched at the end of a step and waited for only when the scheduler
processes that step's result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from spectrace_engine.observe.host_sync import HostSync
from torch import Tensor


@dataclass(frozen=True, slots=True)
class FutureTokens:
    """Packed per-request rows: accept length, emitted tokens (-1 padded), NaN seen."""

    host: Tensor  # [bs, 1 + W + 1]
    ready: object | None  # a CUDA event recorded after the copy (None on CPU: already done)
    rows: np.ndarray | None = None  # ``host`` as numpy (a PinnedRing's): read with no torch call

    @classmethod
    def launch(cls, tokens: Tensor, accept_length: Tensor, nan_seen: Tensor) -> FutureTokens:
        packed = torch.cat(
            [accept_length[:, None], tokens, nan_seen.long().expand(tokens.shape[0], 1)], 1
        )
        if packed.device.type != "cuda":
            return cls(packed, None)
        host = torch.empty(packed.shape, dtype=packed.dtype, pin_memory=True)
        host.copy_(packed, non_blocking=True)
        ready = torch.cuda.Event()
        ready.record()
        return cls(host, ready)

    def resolve(self, syncs: HostSync) -> tuple[list[list[int]], bool]:
        """Wait for this step's copy only: (rows of [accept, tokens...], NaN seen)."""
        if self.ready is not None:
            syncs.wait(self.ready)
        packed = syncs.tolist(self.host)
        nan = any(row[-1] for row in packed)  # per row, or the step's flag on every row
        return [row[:-1] for row in packed], nan

    def resolve_tokens(self, syncs: HostSync) -> tuple[list[int], bool]:
        """A plain decode's rows ``[0, token, nan]``: (the tokens, NaN seen), one read."""
        if self.ready is not None:
            syncs.wait(self.ready)
        if self.rows is not None:
            return syncs.tolist(self.rows[:, 1]), bool(self.rows[:, 2].any())
        tokens, nan = syncs.tolist(self.host[:, 1:].T)
        return tokens, any(nan)


class PinnedRing:
    """Preallocated pinned rows and their events, reused in turn: a step's packed results reach
    the host in one copy, with no pinned allocation or event creation on the step's path.

    A slot is written again ``depth`` launches later; the overlap loop resolves every step
    before it launches the second one after it, so two slots would do and four leave room.
    """

    def __init__(self, rows: int, cols: int, device: torch.device, depth: int = 4) -> None:
        self.rows, self.cols, self.depth, self.i = rows, cols, depth, 0
        self.cuda = device.type == "cuda"
        self.bufs: list[Tensor] = []
        self.events: list[object] = []
        if self.cuda:
            self._allocate(rows)

    def _allocate(self, rows: int) -> None:
        self.rows = rows
        self.cut: dict[tuple[int, int], tuple[Tensor, np.ndarray]] = {}  # (slot, bs) -> rows
        self.bufs = [
            torch.empty(rows, self.cols, dtype=torch.long, pin_memory=True)
            for _ in range(self.depth)
        ]
        self.events = [torch.cuda.Event() for _ in range(self.depth)]
        self.arrays = [b.numpy() for b in self.bufs]

    def launch(self, packed: Tensor) -> FutureTokens:
        """Copy ``packed`` [bs, cols] (int64) to the host behind the device's back."""
        if not self.cuda:
            return FutureTokens(packed, None)
        if packed.shape[0] > self.rows:  # an eager batch above the largest graph: rare
            self._allocate(packed.shape[0])
        i, self.i, bs = self.i, (self.i + 1) % self.depth, packed.shape[0]
        host, rows = self.cut.get((i, bs)) or self.cut.setdefault(
            (i, bs), (self.bufs[i][:bs], self.arrays[i][:bs])
        )
        host.copy_(packed, non_blocking=True)
        ready = self.events[i]
        ready.record()  # type: ignore[attr-defined]
        return FutureTokens(host, ready, rows)


def to_device(values: list[int], device: torch.device) -> Tensor:
    """Host ints as an int64 device tensor WITHOUT waiting for the device: ``torch.tensor(values,
    device=cuda)`` copies from pageable memory and synchronises the stream, so a copy made while
    a step is in flight waits for that step (measured on an H200: 2-8 ms of host time per step
    at c 1-64 on synth-1b). A pinned buffer and a non-blocking copy keep the overlap; PyTorch's
    pinned allocator does not reuse the buffer before the copy has run."""
    if device.type != "cuda":
        return torch.tensor(values, dtype=torch.long, device=device)
    host = torch.tensor(values, dtype=torch.long, pin_memory=True)  # built pinned: no second copy
    return host.to(device, non_blocking=True)
