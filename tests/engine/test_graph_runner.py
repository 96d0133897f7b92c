"""Graph runner: padding to captured sizes, neutral padded rows, slicing, and the shape errors."""

from __future__ import annotations

import pytest
import torch
from spectrace_engine.model_executor.cuda_graph_runner import (
    GraphRunner,
    RunnerInput,
    StaticBuffers,
)

L = 8
SCRATCH = 15


def toy_forward(tok, pos, slots, locs, mask, hidden):
    """Outputs that expose every input row: token + 100*position, and the slot per row."""
    logits = (tok + 100 * pos).float()[..., None]
    aux = slots[:, None, None].float().expand(tok.shape[0], tok.shape[1], 1)
    return logits, aux


def make_runner(neutralise: bool = True, bs: tuple[int, ...] = (1, 2, 4, 8)) -> GraphRunner:
    bufs = StaticBuffers.allocate(max(bs), max(bs) * 4, L, None, torch.device("cpu"), torch.float32)
    runner = GraphRunner(
        "target",
        toy_forward,
        {"decode": 1, "verify": 4},
        bs,
        bufs,
        SCRATCH,
        enabled=True,
        neutralise=neutralise,
    )
    runner.capture(None)
    return runner


def decode_input(bs: int, per_req: int = 1, tokens: torch.Tensor | None = None) -> RunnerInput:
    ids = torch.arange(bs) + 1 if tokens is None else tokens
    seq = torch.arange(bs) + 2
    mask = torch.arange(L)[None, :] <= seq[:, None]
    return RunnerInput(bs, per_req, ids, seq, seq, torch.arange(bs) + 5, mask)


def test_pads_to_next_captured_size_and_slices_live_rows():
    runner = make_runner()
    (logits, aux), info = runner.run("decode", decode_input(3))
    assert (info.graph, info.padded_bs, info.graph_key) == ("emulated", 4, "target:decode:4")
    assert logits.shape == (3, 1, 1)
    assert logits[:, 0, 0].tolist() == [201.0, 302.0, 403.0]
    assert aux[:, 0, 0].tolist() == [5.0, 6.0, 7.0]


def test_padded_rows_are_neutral():
    runner = make_runner()
    runner.run("decode", decode_input(4))
    runner.run("decode", decode_input(3))
    b = runner.bufs
    assert b.req_pool_indices[3].item() == SCRATCH
    assert b.input_ids[3].item() == 0
    assert b.attn_mask[3].sum().item() == 1  # one private column, never NaN, never shared


def test_dirty_padding_keeps_the_previous_replays_rows():
    runner = make_runner(neutralise=False)
    runner.run("decode", decode_input(4))
    runner.run("decode", decode_input(3))
    assert runner.bufs.req_pool_indices[3].item() == 8  # a real request's slot from before


def test_capture_runs_largest_first():
    sizes = [bs for mode, bs, rows, t in make_runner().stats.captured if mode == "decode"]
    assert sizes == [8, 4, 2, 1]


def test_batches_above_the_largest_capture_run_eagerly():
    runner = make_runner(bs=(1, 2))
    (logits, _), info = runner.run("decode", decode_input(3))
    assert info.graph == "eager" and logits.shape[0] == 3


def test_stale_spec_coefficient_fails_like_the_story():
    """bs 10 live x 16 tokens per request against a 2-row input: a real copy_ error."""
    bufs = StaticBuffers.allocate(16, 16 * 16, L, None, torch.device("cpu"), torch.float32)
    runner = GraphRunner(
        "target",
        toy_forward,
        {"decode": 1, "verify": 16},
        (1, 2, 4, 8, 16),
        bufs,
        SCRATCH,
        enabled=True,
    )
    stale = decode_input(10, per_req=16, tokens=torch.tensor([7, 9]))
    with pytest.raises(RuntimeError) as err:
        runner.run("decode", stale)
    assert str(err.value) == (
        "The size of tensor a (160) must match the size of tensor b (2) "
        "at non-singleton dimension 0"
    )
