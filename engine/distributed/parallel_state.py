"""Tensor parallelism over torch.distributed (gloo on CPU, NCCL on GPU), one process per rank.

Every rank holds the whole (tiny) model; the LM head is vocab-parallel: each rank keeps the logits
of its vocabulary shard and an all-reduce (sum) reassembles them exactly, so the ranks meet in one
collective per forward, as SGLang's TP ranks do. Timeouts are bounded: a lost or hung peer turns
into an exception on the others within ``dist_timeout_s``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.server_args import FaultConfig
from torch import Tensor


class TPGroup:
    """This rank's view of the group; ``size == 1`` makes every collective a no-op."""

    def __init__(
        self,
        rank: int,
        size: int,
        faults: FaultConfig,
        on_fault: Callable[[str, str], None] | None = None,
    ) -> None:
        self.rank, self.size, self.faults = rank, size, faults
        self.on_fault = on_fault
        self.in_collective = False  # an exception raised now is collateral (a lost peer)
        self._hung = False

    def init(self, port: int, backend: str, timeout_s: float) -> None:
        import torch.distributed as dist

        dist.init_process_group(
            backend,
            init_method=f"tcp://127.0.0.1:{port}",
            rank=self.rank,
            world_size=self.size,
            timeout=timedelta(seconds=timeout_s),
        )

    def all_reduce_logits(self, logits: Tensor, step: int) -> Tensor:
        """Vocab-parallel gather: zero the other shards, sum across ranks (exact)."""
        if self.size == 1:
            return logits
        import torch.distributed as dist

        self._maybe_hang(step)
        vocab = logits.shape[-1]
        shard = (vocab + self.size - 1) // self.size
        cols = torch.arange(vocab, device=logits.device)
        mine = (cols >= self.rank * shard) & (cols < (self.rank + 1) * shard)
        part = torch.where(mine, logits, torch.zeros((), dtype=logits.dtype, device=logits.device))
        self.in_collective = True
        dist.all_reduce(part)
        self.in_collective = False
        return part

    def _maybe_hang(self, step: int) -> None:
        """hang_before_collective: the last rank blocks here once, for a bounded time."""
        f = self.faults
        if (
            not f.on(Fault.HANG_BEFORE_COLLECTIVE)
            or self._hung
            or step < f.fault_step
            or self.rank != self.size - 1
        ):
            return
        self._hung = True
        if self.on_fault is not None:
            self.on_fault(
                Fault.HANG_BEFORE_COLLECTIVE.value,
                f"rank {self.rank} sleeps {f.hang_s:.0f} s before all_reduce",
            )
        time.sleep(f.hang_s)

    def destroy(self) -> None:
        if self.size > 1:
            import torch.distributed as dist

            if dist.is_initialized():
                dist.destroy_process_group()
