"""CudaGraphRunner: capture / replay / replay_prepare, one forward mode per runner (SGLang's recipe).

A runner captures one graph per batch-size bucket for ONE forward mode with a fixed number of rows
per request, ``num_tokens_per_bs``: 1 for DECODE, ``speculative_num_draft_tokens`` for the target's
TARGET_VERIFY graphs when speculating (so ``raw_num_token = bs x N``, SGLang's rule; a batch sent
to such a runner is laid out with N rows per request whatever it holds). Replay copies the live
rows into static buffers, neutralises the padded rows (scratch slot, a private column, a
one-column mask), replays the graph of the next size up and slices the outputs. On CPU the same
buffer/pad/slice code runs an eager forward ("emulated"), so every shape bug reproduces without a
GPU.

A DECODE runner (one row per request, the row at the request's position) holds only tokens,
positions and slots, the rows of one static tensor that one stack fills: the column each row
writes is its position and its mask is causal, both derived inside the graph, so a replay makes
two launches (the stack, the padded rows' neutral values) and builds no mask on the host.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import torch
from spectrace_engine.mem_cache.memory_pool import causal_mask
from spectrace_engine.model_executor.forward_batch_info import ForwardBatch, ForwardMode
from torch import Tensor

ForwardFn = Callable[[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor | None], tuple[Tensor, Tensor]]


class GraphEpilogue(Protocol):
    """Work captured after the forward in the same graph (the target's verify: SGLang runs it
    right after the verify forward), with static inputs of its own and per-request outputs."""

    def prepare(self, forward_batch: ForwardBatch, bs: int, gbs: int) -> None: ...

    def __call__(self, views: tuple, out: tuple[Tensor, Tensor]) -> tuple[Tensor, ...]: ...

    def publish(self, forward_batch: ForwardBatch, outs: tuple[Tensor, ...]) -> bool: ...


@dataclass(slots=True)
class StaticBuffers:
    """Flat row buffers (row = one token of one request) plus one slot per request."""

    input_ids: Tensor  # [max_rows]
    positions: Tensor  # [max_rows]
    out_cache_loc: Tensor  # [max_rows]
    req_pool_indices: Tensor  # [max_bs]
    attn_mask: Tensor  # [max_rows, L]
    hidden: Tensor | None  # [max_rows, H] for draft runners
    # one row per request (a DECODE runner): tokens, positions, slots as the rows of one
    # [3, max_bs] tensor (input_ids, positions, req_pool_indices are its rows), filled by one stack
    decode_rows: Tensor | None = None

    @classmethod
    def allocate(
        cls,
        max_bs: int,
        max_rows: int,
        max_len: int,
        hidden_dim: int | None,
        device: torch.device,
        dtype: torch.dtype,
    ) -> StaticBuffers:
        def z(*shape: int, dt: torch.dtype = torch.long) -> Tensor:
            return torch.zeros(*shape, dtype=dt, device=device)

        hidden = z(max_rows, hidden_dim, dt=dtype) if hidden_dim else None
        rows = z(3, max_bs) if max_rows == max_bs and not hidden_dim else None
        ids, pos, slots = (z(max_rows), z(max_rows), z(max_bs)) if rows is None else rows.unbind()
        mask = z(max_rows, max_len, dt=torch.bool)
        return cls(ids, pos, z(max_rows), slots, mask, hidden, rows)


@dataclass(frozen=True, slots=True)
class ReplayInfo:
    graph: str  # "replay" (CUDA graph), "emulated" (CPU, same buffers), "eager" (no buffers)
    graph_key: str
    padded_bs: int
    rows: int
    dirty_rows: int = 0  # padded requests left pointing at a real slot (dirty_padding only)
    epilogue: bool = False  # the graph also ran its epilogue (the target's verify)


@dataclass(slots=True)
class RunnerStats:
    replays: int = 0
    eager: int = 0  # batches this runner could not serve (over the largest size, or disabled)
    live_rows: int = 0
    padded_rows: int = 0
    captured: list[tuple[str, int, int, float]] = field(default_factory=list)


class CudaGraphRunner:
    """Graphs of one ``capture_forward_mode`` for every size in ``capture_bs``."""

    def __init__(
        self,
        name: str,
        forward: ForwardFn,
        capture_forward_mode: ForwardMode,
        num_tokens_per_bs: int,
        capture_bs: tuple[int, ...],
        bufs: StaticBuffers,
        scratch_slot: int,
        enabled: bool,
        neutralise: bool = True,
    ) -> None:
        self.name, self.forward = name, forward
        self.capture_forward_mode, self.num_tokens_per_bs = capture_forward_mode, num_tokens_per_bs
        self.capture_bs = tuple(sorted(capture_bs))
        self.bufs, self.scratch_slot = bufs, scratch_slot
        self.enabled, self.neutralise = enabled, neutralise
        self.device = bufs.input_ids.device
        self.stats = RunnerStats()
        self.graphs: dict[int, tuple[object, tuple[Tensor, ...]]] = {}
        self.epilogue: GraphEpilogue | None = None  # set before capture
        self.derive = capture_forward_mode is ForwardMode.DECODE and bufs.decode_rows is not None
        max_rows, max_len = bufs.attn_mask.shape
        self.max_len = max_len
        self._neutral_rows = torch.zeros(2, max_rows, dtype=torch.long, device=self.device)
        self._neutral_rows[1] = scratch_slot  # padded requests: position 0 of the scratch slot
        # views of static buffers and graph outputs per (graph bs, live bs): the memory never
        # moves, so each is made once (a slice is a torch call, ~5 us of host time per replay)
        self._cut: dict[tuple[int, int], tuple[Tensor, ...]] = {}
        self._prep: dict[tuple[int, int], tuple[Tensor, Tensor, Tensor]] = {}
        self._neutral_locs = torch.arange(max_rows, device=self.device) % max_len
        self._neutral_mask = torch.nn.functional.one_hot(self._neutral_locs, max_len).bool()

    @property
    def max_bs(self) -> int:
        return self.capture_bs[-1] if self.capture_bs else 0

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    def can_run(self, forward_batch: ForwardBatch) -> bool:
        return self.enabled and 0 < forward_batch.batch_size <= self.max_bs

    def padded_bs(self, bs: int) -> int:
        return self.capture_bs[bisect.bisect_left(self.capture_bs, bs)]

    def capture(self, pool: object | None) -> None:
        """Largest size first into one shared pool; a warm-up forward precedes every capture."""
        if not self.enabled:
            return
        t = self.num_tokens_per_bs
        for gbs in reversed(self.capture_bs):
            t0 = time.perf_counter()
            self._fill_neutral(0, gbs * t, 0, gbs)
            views = self._views(gbs)
            self.graphs[gbs] = self._capture_one(views, pool, gbs == self.capture_bs[-1])
            mode = self.capture_forward_mode.value
            self.stats.captured.append((mode, gbs, gbs * t, (time.perf_counter() - t0) * 1e6))

    def _capture_one(
        self, views: tuple, pool: object | None, largest: bool
    ) -> tuple[object, tuple]:
        if not self.is_cuda:
            if largest:  # emulated: one warm-up surfaces shape bugs at start-up
                self._run(views)
            return (None, ())
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):  # the warm-ups also compile the epilogue's Triton kernel
                self._run(views)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, pool=pool):
            out = self._run(views)
        return (graph, out)

    def _run(self, views: tuple) -> tuple[Tensor, ...]:
        """What a graph holds: (a decode's columns and mask,) the forward, then the epilogue."""
        if self.derive:
            tok, pos, slots, _, _, hidden = views
            mask = causal_mask(pos, self.max_len).view(*pos.shape, self.max_len)
            views = (tok, pos, slots, pos, mask, hidden)
        out = self.forward(*views)
        if self.epilogue is None:
            return out
        return (*out, *self.epilogue(views, out))

    def replay(self, forward_batch: ForwardBatch) -> tuple[tuple[Tensor, Tensor], ReplayInfo]:
        bs, t = forward_batch.batch_size, self.num_tokens_per_bs
        gbs = self.padded_bs(bs)
        self.replay_prepare(forward_batch, gbs)
        graph, out = self.graphs[gbs]
        if graph is None:
            live = tuple(o[:bs] for o in self._run(self._views(gbs)))
            kind = "emulated"
        else:
            graph.replay()  # type: ignore[attr-defined]
            live = self._cut.get((gbs, bs)) or self._cut.setdefault(
                (gbs, bs), tuple(o[:bs] for o in out)
            )
            kind = "replay"
        self.stats.replays += 1
        self.stats.live_rows += bs * t
        self.stats.padded_rows += (gbs - bs) * t
        key = f"{self.name}:{self.capture_forward_mode.value}:{gbs}"
        ran = self.epilogue is not None and self.epilogue.publish(forward_batch, live[2:])
        info = ReplayInfo(kind, key, gbs, gbs * t, self._dirty(bs, gbs), bool(ran))
        return (live[0], live[1]), info

    def replay_prepare(self, forward_batch: ForwardBatch, gbs: int) -> None:
        """Copy live rows into the buffers and neutralise the padded ones (rows = bs x N)."""
        raw_bs = forward_batch.batch_size
        raw_num_token = raw_bs * self.num_tokens_per_bs
        b = self.bufs
        fb, rows = forward_batch, b.decode_rows
        # a decode's inputs in two launches; stale tokens of another size (story crash 3) take
        # the copies below and fail in them, with SGLang's replay_prepare error
        if self.derive and rows is not None and fb.input_ids.shape[0] == raw_bs:
            live, pad, neutral = self._prep.get((raw_bs, gbs)) or self._prep.setdefault(
                (raw_bs, gbs),
                (rows[:, :raw_bs], rows[1:, raw_bs:gbs], self._neutral_rows[:, raw_bs:gbs]),
            )
            torch.stack((fb.input_ids, fb.positions, fb.req_pool_indices), out=live)
            if self.neutralise and gbs > raw_bs:
                pad.copy_(neutral)
            if self.epilogue is not None:
                self.epilogue.prepare(forward_batch, raw_bs, gbs)
            return
        if self.neutralise:
            self._fill_neutral(raw_num_token, gbs * self.num_tokens_per_bs, raw_bs, gbs)
        b.input_ids[:raw_num_token].copy_(forward_batch.input_ids)
        b.positions[:raw_num_token].copy_(forward_batch.positions)
        b.out_cache_loc[:raw_num_token].copy_(forward_batch.out_cache_loc)
        b.attn_mask[:raw_num_token].copy_(forward_batch.mask())
        b.req_pool_indices[:raw_bs].copy_(forward_batch.req_pool_indices)
        if b.hidden is not None and forward_batch.hidden is not None:
            b.hidden[:raw_num_token].copy_(forward_batch.hidden)
        if self.epilogue is not None:
            self.epilogue.prepare(forward_batch, raw_bs, gbs)

    def _dirty(self, bs: int, gbs: int) -> int:
        """Padded rows still aimed at a request slot; a host read, only under the fault."""
        if self.neutralise or gbs == bs:
            return 0
        return int((self.bufs.req_pool_indices[bs:gbs] != self.scratch_slot).sum())

    def _fill_neutral(self, lo: int, hi: int, lo_bs: int, hi_bs: int) -> None:
        b = self.bufs
        if hi > lo and self.derive:  # position 0 of the scratch slot: one column, all padding
            b.positions[lo:hi].zero_()
        elif hi > lo:
            b.input_ids[lo:hi].zero_()
            b.positions[lo:hi].zero_()
            b.out_cache_loc[lo:hi].copy_(self._neutral_locs[lo:hi])
            b.attn_mask[lo:hi].copy_(self._neutral_mask[lo:hi])
            if b.hidden is not None:
                b.hidden[lo:hi].zero_()
        if hi_bs > lo_bs:
            b.req_pool_indices[lo_bs:hi_bs].fill_(self.scratch_slot)

    def _views(self, gbs: int) -> tuple:
        b, t = self.bufs, self.num_tokens_per_bs
        rows = gbs * t
        hidden = None if b.hidden is None else b.hidden[:rows].view(gbs, t, -1)
        return (
            b.input_ids[:rows].view(gbs, t),
            b.positions[:rows].view(gbs, t),
            b.req_pool_indices[:gbs],
            b.out_cache_loc[:rows].view(gbs, t),
            b.attn_mask[:rows].view(gbs, t, -1),
            hidden,
        )


def eager_forward(fn: ForwardFn, fb: ForwardBatch) -> tuple[tuple[Tensor, Tensor], ReplayInfo]:
    """A forward without graph buffers: the rows the batch holds, nothing padded."""
    bs, t = fb.batch_size, fb.rows_per_req
    hidden = None if fb.hidden is None else fb.hidden.view(bs, t, -1)
    out = fn(
        fb.input_ids.view(bs, t),
        fb.positions.view(bs, t),
        fb.req_pool_indices,
        fb.out_cache_loc.view(bs, t),
        fb.mask().view(bs, t, -1),
        hidden,
    )
    return out, ReplayInfo("eager", f"{fb.forward_mode.value}:eager", bs, bs * t)


def new_runner(
    name: str,
    forward: ForwardFn,
    mode: ForwardMode,
    tokens_per_bs: int,
    capture_bs: tuple[int, ...],
    max_len: int,
    hidden: int | None,
    device: torch.device,
    dtype: torch.dtype,
    scratch_slot: int,
    enabled: bool,
    neutralise: bool,
) -> CudaGraphRunner:
    """A runner with buffers sized for its largest bucket."""
    top = max(capture_bs)
    bufs = StaticBuffers.allocate(top, top * tokens_per_bs, max_len, hidden, device, dtype)
    return CudaGraphRunner(
        name, forward, mode, tokens_per_bs, capture_bs, bufs, scratch_slot, enabled, neutralise
    )
