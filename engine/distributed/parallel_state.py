"""The tensor-parallel group (SGLang's ``GroupCoordinator``): the collectives the parallel layers call.

One process per rank over torch.distributed (gloo on CPU, NCCL on GPU). The layers meet here once
per row-parallel linear and vocab-parallel embedding (an all-reduce of ``tokens x hidden``) and
once per LM head (an all-gather of the logit shards), as SGLang's ranks do. Each collective
counts its sequence number as torch's ``Work`` does, so a timed-out one writes the line torch's
NCCL watchdog writes, ``WorkNCCL(SeqNum=..., OpType=ALLREDUCE, NumelIn=..., ...)``, with the real
call's numbers; gloo has no watchdog of its own, and with this line a CPU run leaves the evidence a
GPU server leaves (spectrace names the rank that never arrived from it). Timeouts are bounded: a
lost or hung peer turns into an exception on the others within ``dist_timeout_s``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.server_args import FaultConfig
from torch import Tensor

# the c10 log site of torch's watchdog message (ProcessGroupNCCL.cpp, torch 2.5-2.9)
WATCHDOG_SITE = "ProcessGroupNCCL.cpp:632"


class GroupCoordinator:
    """This rank's view of the TP group; ``size == 1`` makes every collective a no-op."""

    def __init__(
        self,
        rank: int = 0,
        size: int = 1,
        faults: FaultConfig | None = None,
        on_fault: Callable[[str, str], None] | None = None,
        watchdog_log: Callable[[str], None] | None = None,
    ) -> None:
        self.rank, self.size = rank, size
        self.faults = faults or FaultConfig()
        self.on_fault, self.watchdog_log = on_fault, watchdog_log
        self.timeout_ms = 0
        self.seq = 0  # collectives issued on the group so far: torch's Work SeqNum
        self.in_collective = False  # an exception raised now is collateral (a lost peer)
        self._hung = False

    def init(self, port: int, backend: str, timeout_s: float) -> None:
        import torch.distributed as dist

        self.timeout_ms = round(timeout_s * 1000)
        dist.init_process_group(
            backend,
            init_method=f"tcp://127.0.0.1:{port}",
            rank=self.rank,
            world_size=self.size,
            timeout=timedelta(seconds=timeout_s),
        )

    def all_reduce(self, x: Tensor) -> Tensor:
        """Sum ``x`` over the ranks, in place (RowParallelLinear, VocabParallelEmbedding)."""
        if self.size == 1:
            return x
        import torch.distributed as dist

        self._collective("ALLREDUCE", x.numel(), x.numel(), lambda: dist.all_reduce(x))
        return x

    def all_gather(self, x: Tensor) -> Tensor:
        """The ranks' shards of the last dimension, concatenated in rank order (ParallelLMHead)."""
        if self.size == 1:
            return x
        import torch.distributed as dist

        x = x.contiguous()
        parts = [torch.empty_like(x) for _ in range(self.size)]
        n = x.numel()
        self._collective("ALLGATHER", n, n * self.size, lambda: dist.all_gather(parts, x))
        return torch.cat(parts, dim=-1)

    def _collective(
        self, op: str, numel_in: int, numel_out: int, call: Callable[[], object]
    ) -> None:
        self.seq += 1
        t0 = time.monotonic()
        self.in_collective = True
        try:
            call()
        except RuntimeError as exc:  # gloo raises DistBackendError (a RuntimeError) on timeout
            if "timed out" in str(exc).lower():
                ran_ms = round((time.monotonic() - t0) * 1000)
                self._watchdog(op, numel_in, numel_out, ran_ms)
            raise
        self.in_collective = False

    def _watchdog(self, op: str, numel_in: int, numel_out: int, ran_ms: int) -> None:
        """torch's ProcessGroupNCCL watchdog line, c10-prefixed, with this collective's numbers."""
        if self.watchdog_log is None:
            return
        now = datetime.now()
        r = self.rank
        self.watchdog_log(
            f"[rank{r}]:[E{now:%m%d %H:%M:%S}.{now.microsecond:06d}000 {WATCHDOG_SITE}] "
            f"[PG ID 0 PG GUID 0(default_pg) Rank {r}] Watchdog caught collective operation "
            f"timeout: WorkNCCL(SeqNum={self.seq}, OpType={op}, NumelIn={numel_in}, "
            f"NumelOut={numel_out}, Timeout(ms)={self.timeout_ms}) ran for {ran_ms} milliseconds "
            "before timing out."
        )

    def maybe_hang(self, step: int) -> None:
        """hang_before_collective: the last rank blocks once, for a bounded time, before the
        first collective of its forward at ``fault_step``."""
        f = self.faults
        if (
            not f.on(Fault.HANG_BEFORE_COLLECTIVE)
            or self._hung
            or step < f.fault_step
            or self.size == 1
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
