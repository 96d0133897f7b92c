"""The draft's graphs: the whole multi-step draft in ONE graph (SGLang's EAGLEDraftCudaGraphRunner,
which captures ``draft_forward`` with all its steps), and the draft extend after a verify
(``steps + 1`` rows per request, a CudaGraphRunner of mode DRAFT_EXTEND).

The multi-step graph takes the draft input (top-k, hidden state, root) with the KV lengths and
slots, and returns the verify input: the tree's tokens, positions, mask and retrieve links, so
everything between the draft extend and the target's verify replays as one launch.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass, fields

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.model_executor.cuda_graph_runner import (
    CudaGraphRunner,
    ForwardFn,
    RunnerStats,
    new_runner,
)
from spectrace_engine.model_executor.forward_batch_info import ForwardMode
from spectrace_engine.server_args import EngineConfig
from torch import Tensor

DraftFn = Callable[..., tuple[Tensor, ...]]


@dataclass(slots=True)
class DraftBuffers:
    """Per-request inputs of one multi-step draft."""

    topk_p: Tensor  # [max_bs, K]
    topk_index: Tensor  # [max_bs, K]
    hidden_states: Tensor  # [max_bs, dim]
    verified_id: Tensor  # [max_bs]
    seq_lens: Tensor  # [max_bs]
    req_pool_indices: Tensor  # [max_bs]


class EAGLEDraftCudaGraphRunner:
    """capture / replay / replay_prepare of ``draft(...) -> verify input`` per batch size."""

    name = "draft"
    capture_forward_mode = ForwardMode.DRAFT

    def __init__(
        self,
        draft_fn: DraftFn,
        capture_bs: tuple[int, ...],
        topk: int,
        hidden_dim: int,
        scratch_slot: int,
        device: torch.device,
        dtype: torch.dtype,
        enabled: bool,
    ) -> None:
        self.draft_fn, self.capture_bs = draft_fn, tuple(sorted(capture_bs))
        self.scratch_slot, self.device, self.enabled = scratch_slot, device, enabled
        top = self.capture_bs[-1]

        def z(*shape: int, dt: torch.dtype = torch.long) -> Tensor:
            return torch.zeros(*shape, dtype=dt, device=device)

        self.bufs = DraftBuffers(
            torch.full((top, topk), 1.0 / topk, dtype=torch.float32, device=device),
            z(top, topk),
            z(top, hidden_dim, dt=dtype),
            z(top),
            z(top),
            torch.full((top,), scratch_slot, dtype=torch.long, device=device),
        )
        self.stats = RunnerStats()
        self.graphs: dict[int, tuple[object, tuple[Tensor, ...]]] = {}

    @property
    def max_bs(self) -> int:
        return self.capture_bs[-1]

    def can_run(self, bs: int) -> bool:
        return self.enabled and 0 < bs <= self.max_bs

    def _views(self, gbs: int) -> tuple[Tensor, ...]:
        return tuple(getattr(self.bufs, f.name)[:gbs] for f in fields(self.bufs))

    def capture(self, pool: object | None) -> None:
        if not self.enabled:
            return
        for gbs in reversed(self.capture_bs):
            t0 = time.perf_counter()
            if self.device.type != "cuda":
                if gbs == self.max_bs:  # emulated: one warm-up surfaces shape bugs at start-up
                    self.draft_fn(*self._views(gbs))
                self.graphs[gbs] = (None, ())
            else:
                self.graphs[gbs] = self._capture_cuda(gbs, pool)
            dt = (time.perf_counter() - t0) * 1e6
            self.stats.captured.append((self.capture_forward_mode.value, gbs, gbs, dt))

    def _capture_cuda(self, gbs: int, pool: object | None) -> tuple[object, tuple[Tensor, ...]]:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):
                self.draft_fn(*self._views(gbs))
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, pool=pool):
            out = self.draft_fn(*self._views(gbs))
        return graph, out

    def replay(self, inputs: tuple[Tensor, ...]) -> tuple[tuple[Tensor, ...], str]:
        """Outputs sliced to the live requests (row outputs are ``bs x N`` long)."""
        bs = inputs[0].shape[0]
        gbs = self.capture_bs[bisect.bisect_left(self.capture_bs, bs)]
        self.replay_prepare(inputs, gbs)
        graph, out = self.graphs[gbs]
        if graph is None:
            out, kind = self.draft_fn(*self._views(gbs)), "emulated"
        else:
            graph.replay()  # type: ignore[attr-defined]
            kind = "replay"
        self.stats.replays += 1
        self.stats.live_rows += bs
        self.stats.padded_rows += gbs - bs
        return tuple(t[: bs * (t.shape[0] // gbs)] for t in out), kind

    def replay_prepare(self, inputs: tuple[Tensor, ...], gbs: int) -> None:
        """Copy the live requests in; padded requests draft from column 0 of the scratch slot."""
        bs = inputs[0].shape[0]
        for f, src in zip(fields(self.bufs), inputs, strict=True):
            getattr(self.bufs, f.name)[:bs].copy_(src)
        if gbs > bs:
            self.bufs.seq_lens[bs:gbs].zero_()
            self.bufs.req_pool_indices[bs:gbs].fill_(self.scratch_slot)


def draft_extend_graph_runner(
    cfg: EngineConfig,
    forward: ForwardFn,
    hidden_dim: int,
    max_len: int,
    scratch_slot: int,
    device: torch.device,
    dtype: torch.dtype,
) -> CudaGraphRunner:
    """The draft extend after a verify: ``steps + 1`` rows per request."""
    return new_runner(
        "draft_extend", forward, ForwardMode.DRAFT_EXTEND, cfg.spec.num_steps + 1, cfg.graph_bs,
        max_len, hidden_dim, device, dtype, scratch_slot,
        enabled=not cfg.disable_cuda_graph, neutralise=not cfg.faults.on(Fault.DIRTY_PADDING),
    )  # fmt: skip
