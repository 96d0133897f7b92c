"""Prefill through CUDA graphs, one per padded (requests, tokens) bucket, captured at start-up.

An eager prefill of a 1B target is some 800 kernel launches from Python, 7-8 ms of host time
for a few dozen tokens of device work; in a closed loop at c=128 a request finishes (and a new
one is prefilled) nearly every decode step, so eager prefill was most of a speculative step
(benchmarks/results/2026-12-03-h200-load-story.md). SGLang pads decode batches to captured
sizes; this pads prefill batches the same way: the requests to the next captured count (the
padded ones write the scratch slot, whose row points at the padding token), their rows to the
captured length (the padded columns of a real request point at the padding token too, as the
row past its allocation does), and the graph derives positions, columns and the causal mask from
each request's start column inside itself. A batch over the largest bucket, or longer than the
captured length (a retracted request's prompt and output, a long catch-up), runs eagerly with
the same inputs, so both paths give the same tokens.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable

import torch
from spectrace_engine.mem_cache.memory_pool import causal_mask
from torch import Tensor

PrefillFn = Callable[[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor | None], tuple[Tensor, Tensor]]
PREFILL_BS = (1, 2, 4, 8, 16)


class PrefillGraphs:
    """``run(tokens, starts, slots, hidden)`` -> the forward's two outputs ``[B, T, ...]``: the
    first a view of the graph's buffer (valid until the next replay: logits are read at once),
    the second a copy (features outlive the step: the draft catch-up reads them later)."""

    def __init__(
        self,
        forward: PrefillFn,
        device: torch.device,
        max_len: int,
        scratch_slot: int,
        hidden: tuple[int, torch.dtype] | None,
        enabled: bool,
    ) -> None:
        self.forward, self.device, self.hidden = forward, device, hidden
        self.max_len, self.scratch_slot = max_len, scratch_slot
        self.enabled = enabled and device.type == "cuda"
        self.tokens = 0  # the captured row length (0: nothing captured)
        self.graphs: dict[int, tuple[torch.cuda.CUDAGraph, tuple[Tensor, ...], tuple]] = {}
        self.replays = self.eager = 0
        self.captured: list[tuple[int, int, float]] = []  # (bs, tokens, capture µs)

    def inputs(self, ids: Tensor, start: Tensor, slots: Tensor) -> tuple[Tensor, ...]:
        """Positions = columns (from each start), the causal mask: what the forward reads."""
        cols = (start[:, None] + torch.arange(ids.shape[1], device=ids.device)).clamp(
            max=self.max_len - 1
        )
        mask = causal_mask(cols, self.max_len).view(*ids.shape, self.max_len)
        return ids, cols, slots, cols, mask

    def capture(self, pool: object, tokens: int) -> None:
        """One graph per bucket of ``PREFILL_BS`` at ``tokens`` rows, largest first."""
        if not self.enabled or tokens < 1:
            return
        self.tokens = tokens
        for bs in reversed(PREFILL_BS):
            t0 = time.perf_counter()
            z = lambda *s, dt=torch.long: torch.zeros(*s, dtype=dt, device=self.device)  # noqa: E731
            ids, start = z(bs, tokens), z(bs)
            slots = torch.full((bs,), self.scratch_slot, dtype=torch.long, device=self.device)
            hidden = z(bs, tokens, self.hidden[0], dt=self.hidden[1]) if self.hidden else None
            static = (ids, start, slots, hidden)
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(2):
                    self.forward(*self.inputs(ids, start, slots), hidden)
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, pool=pool):
                out = self.forward(*self.inputs(ids, start, slots), hidden)
            self.graphs[bs] = (graph, static, out)
            self.captured.append((bs, tokens, (time.perf_counter() - t0) * 1e6))

    def run(
        self, tokens: list[list[int]], starts: list[int], slots: Tensor, hidden: Tensor | None
    ) -> tuple[Tensor, Tensor]:
        """Outputs for rows ``[:B, :T]`` (T = the longest request); ``hidden`` [B, T, H]."""
        b, t = len(tokens), max(len(x) for x in tokens)
        i = bisect.bisect_left(PREFILL_BS, b)
        graphed = self.graphs and t <= self.tokens and i < len(PREFILL_BS)
        gb, gt = (PREFILL_BS[i], self.tokens) if graphed else (b, t)
        host = torch.zeros(gb, gt, dtype=torch.long)
        for row, x in enumerate(tokens):
            host[row, : len(x)] = torch.tensor(x, dtype=torch.long)
        ids = upload(host, self.device)
        start = upload(torch.tensor(starts + [0] * (gb - b), dtype=torch.long), self.device)
        if not graphed:
            self.eager += 1
            return self.forward(*self.inputs(ids, start, slots), hidden)
        graph, (s_ids, s_start, s_slots, s_hidden), out = self.graphs[gb]
        s_ids.copy_(ids)
        s_start.copy_(start)
        s_slots.fill_(self.scratch_slot)
        s_slots[:b].copy_(slots)
        if s_hidden is not None and hidden is not None:
            s_hidden.zero_()
            s_hidden[:b, :t].copy_(hidden)
        graph.replay()
        self.replays += 1
        return out[0][:b, :t], out[1][:b, :t].clone()


def upload(host: Tensor, device: torch.device) -> Tensor:
    """A host tensor on the device without a stream sync (pinned, non-blocking; see
    managers/overlap_utils.to_device): a prefill launched while a decode step is in flight must
    not wait for it."""
    if device.type != "cuda":
        return host.to(device)
    return host.pin_memory().to(device, non_blocking=True)
