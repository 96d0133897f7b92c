"""Bucketed CUDA-graph capture/replay over typed static buffers (nano-vllm's recipe, SGLang's names).

One runner per model and forward family: the target runner serves ``decode`` (1 row per request)
and ``verify`` (N rows) from ONE set of buffers sized ``max_bs x N``, as SGLang's target runner
does; the draft and draft-extend runners have their own. Replay copies the live rows into the
buffers, fills padded rows with neutral values (scratch slot, a private column, a one-column
mask), replays the graph captured for the next size up, and slices the outputs. On CPU the very
same buffer/pad/slice code runs with an eager forward ("emulated"), so every shape bug reproduces
without a GPU.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import Tensor

ForwardFn = Callable[[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor | None], tuple[Tensor, Tensor]]


@dataclass(slots=True)
class StaticBuffers:
    """Flat row buffers (row = one token of one request) plus one slot per request."""

    input_ids: Tensor  # [max_rows]
    positions: Tensor  # [max_rows]
    out_cache_loc: Tensor  # [max_rows]
    req_pool_indices: Tensor  # [max_bs]
    attn_mask: Tensor  # [max_rows, L]
    hidden: Tensor | None  # [max_rows, H] for draft runners

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
        return cls(
            z(max_rows),
            z(max_rows),
            z(max_rows),
            z(max_bs),
            z(max_rows, max_len, dt=torch.bool),
            hidden,
        )


@dataclass(slots=True)
class RunnerInput:
    """Live rows of one forward; ``tokens_per_req`` is the caller's row coefficient."""

    bs: int
    tokens_per_req: int
    input_ids: Tensor
    positions: Tensor
    out_cache_loc: Tensor
    req_pool_indices: Tensor
    attn_mask: Tensor
    hidden: Tensor | None = None


@dataclass(frozen=True, slots=True)
class ReplayInfo:
    graph: str  # "replay" (CUDA graph), "emulated" (CPU, same buffers), "eager" (no buffers)
    graph_key: str
    padded_bs: int
    rows: int
    dirty_rows: int = 0  # padded requests left pointing at a real slot (dirty_padding only)


@dataclass(slots=True)
class RunnerStats:
    replays: int = 0
    eager: int = 0
    live_rows: int = 0
    padded_rows: int = 0
    captured: list[tuple[str, int, int, float]] = field(default_factory=list)


class GraphRunner:
    """Capture sizes ``capture_bs`` for every mode; pad, replay and slice at run time."""

    def __init__(
        self,
        name: str,
        forward: ForwardFn,
        modes: dict[str, int],
        capture_bs: tuple[int, ...],
        bufs: StaticBuffers,
        scratch_slot: int,
        enabled: bool,
        neutralise: bool = True,
    ) -> None:
        self.name, self.forward, self.modes = name, forward, modes
        self.capture_bs = tuple(sorted(capture_bs))
        self.bufs, self.scratch_slot = bufs, scratch_slot
        self.enabled, self.neutralise = enabled, neutralise
        self.device = bufs.input_ids.device
        self.stats = RunnerStats()
        self.graphs: dict[tuple[str, int], tuple[object, tuple[Tensor, Tensor]]] = {}
        max_rows, max_len = bufs.attn_mask.shape
        self._neutral_locs = torch.arange(max_rows, device=self.device) % max_len
        self._neutral_mask = torch.nn.functional.one_hot(self._neutral_locs, max_len).bool()

    @property
    def max_bs(self) -> int:
        return self.capture_bs[-1] if self.capture_bs else 0

    def padded_bs(self, bs: int) -> int:
        return self.capture_bs[bisect.bisect_left(self.capture_bs, bs)]

    def capture(self, pool: object | None) -> None:
        """Largest size first into one shared pool; a warm-up forward precedes every capture."""
        if not self.enabled:
            return
        for gbs in reversed(self.capture_bs):
            for mode, t in self.modes.items():
                t0 = time.perf_counter()
                self._fill_neutral(0, gbs * t, 0, gbs)
                views = self._views(gbs, t)
                largest = gbs == self.capture_bs[-1]
                self.graphs[(mode, gbs)] = self._capture_one(views, pool, largest)
                self.stats.captured.append((mode, gbs, gbs * t, (time.perf_counter() - t0) * 1e6))

    def _capture_one(
        self, views: tuple, pool: object | None, largest: bool
    ) -> tuple[object, tuple]:
        if self.device.type != "cuda":
            if largest:  # emulated: one warm-up per mode surfaces shape bugs at start-up
                self.forward(*views)
            return (None, ())
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):
                self.forward(*views)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, pool=pool):
            out = self.forward(*views)
        return (graph, out)

    def run(self, mode: str, inp: RunnerInput) -> tuple[tuple[Tensor, Tensor], ReplayInfo]:
        t = self.modes[mode]
        if not self.enabled or inp.bs > self.max_bs:
            return self._run_eager(mode, t, inp)
        gbs = self.padded_bs(inp.bs)
        self.replay_prepare(inp, gbs, t)
        graph, out = self.graphs[(mode, gbs)]
        if graph is None:
            out = self.forward(*self._views(gbs, t))
            kind = "emulated"
        else:
            graph.replay()  # type: ignore[attr-defined]
            kind = "replay"
        self.stats.replays += 1
        self.stats.live_rows += inp.bs * t
        self.stats.padded_rows += (gbs - inp.bs) * t
        info = ReplayInfo(kind, f"{self.name}:{mode}:{gbs}", gbs, gbs * t, self._dirty(inp.bs, gbs))
        return (out[0][: inp.bs], out[1][: inp.bs]), info

    def replay_prepare(self, inp: RunnerInput, gbs: int, t: int) -> None:
        """Copy live rows into the buffers and neutralise the padded ones."""
        raw_rows = inp.bs * inp.tokens_per_req
        b = self.bufs
        if self.neutralise:
            self._fill_neutral(raw_rows, gbs * t, inp.bs, gbs)
        b.input_ids[:raw_rows].copy_(inp.input_ids)
        b.positions[:raw_rows].copy_(inp.positions)
        b.out_cache_loc[:raw_rows].copy_(inp.out_cache_loc)
        b.attn_mask[:raw_rows].copy_(inp.attn_mask)
        b.req_pool_indices[: inp.bs].copy_(inp.req_pool_indices)
        if b.hidden is not None and inp.hidden is not None:
            b.hidden[:raw_rows].copy_(inp.hidden)

    def _dirty(self, bs: int, gbs: int) -> int:
        """Count padded rows still aimed at a request slot; a host read, only under the fault."""
        if self.neutralise or gbs == bs:
            return 0
        return int((self.bufs.req_pool_indices[bs:gbs] != self.scratch_slot).sum())

    def _fill_neutral(self, lo: int, hi: int, lo_bs: int, hi_bs: int) -> None:
        b = self.bufs
        if hi > lo:
            b.input_ids[lo:hi].zero_()
            b.positions[lo:hi].zero_()
            b.out_cache_loc[lo:hi].copy_(self._neutral_locs[lo:hi])
            b.attn_mask[lo:hi].copy_(self._neutral_mask[lo:hi])
            if b.hidden is not None:
                b.hidden[lo:hi].zero_()
        if hi_bs > lo_bs:
            b.req_pool_indices[lo_bs:hi_bs].fill_(self.scratch_slot)

    def _views(self, gbs: int, t: int) -> tuple:
        b, rows = self.bufs, gbs * t
        hidden = None if b.hidden is None else b.hidden[:rows].view(gbs, t, -1)
        return (
            b.input_ids[:rows].view(gbs, t),
            b.positions[:rows].view(gbs, t),
            b.req_pool_indices[:gbs],
            b.out_cache_loc[:rows].view(gbs, t),
            b.attn_mask[:rows].view(gbs, t, -1),
            hidden,
        )

    def _run_eager(
        self, mode: str, t: int, inp: RunnerInput
    ) -> tuple[tuple[Tensor, Tensor], ReplayInfo]:
        bs = inp.bs
        hidden = None if inp.hidden is None else inp.hidden.view(bs, t, -1)
        out = self.forward(
            inp.input_ids.view(bs, t),
            inp.positions.view(bs, t),
            inp.req_pool_indices,
            inp.out_cache_loc.view(bs, t),
            inp.attn_mask.view(bs, t, -1),
            hidden,
        )
        self.stats.eager += 1
        self.stats.live_rows += bs * t
        return out, ReplayInfo("eager", f"{self.name}:{mode}:eager", bs, bs * t)
