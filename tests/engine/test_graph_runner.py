"""CudaGraphRunner: padding to captured sizes, neutral padded rows, slicing, and the shape errors."""

from __future__ import annotations

import traceback

import pytest
import torch
from spectrace_engine.model_executor.cuda_graph_runner import (
    CudaGraphRunner,
    eager_forward,
    new_runner,
)
from spectrace_engine.model_executor.forward_batch_info import ForwardBatch, ForwardMode

L = 8
SCRATCH = 15
CPU = torch.device("cpu")


def toy_forward(tok, pos, slots, locs, mask, hidden):
    """Outputs that expose every input row: token + 100*position, and the slot per row."""
    logits = (tok + 100 * pos).float()[..., None]
    aux = slots[:, None, None].float().expand(tok.shape[0], tok.shape[1], 1)
    return logits, aux


def make_runner(
    neutralise: bool = True,
    bs: tuple[int, ...] = (1, 2, 4, 8),
    mode: ForwardMode = ForwardMode.DECODE,
    tokens_per_bs: int = 1,
) -> CudaGraphRunner:
    runner = new_runner(
        "target", toy_forward, mode, tokens_per_bs, bs, L, None, CPU, torch.float32, SCRATCH,
        enabled=True, neutralise=neutralise,
    )  # fmt: skip
    runner.capture(None)
    return runner


def decode_batch(bs: int, tokens: torch.Tensor | None = None) -> ForwardBatch:
    ids = torch.arange(bs) + 1 if tokens is None else tokens
    seq = torch.arange(bs) + 2
    mask = torch.arange(L)[None, :] <= seq[:, None]
    return ForwardBatch(ForwardMode.DECODE, bs, ids, seq, seq, torch.arange(bs) + 5, mask)


def test_pads_to_next_captured_size_and_slices_live_rows():
    runner = make_runner()
    (logits, aux), info = runner.replay(decode_batch(3))
    assert (info.graph, info.padded_bs, info.graph_key) == ("emulated", 4, "target:decode:4")
    assert logits.shape == (3, 1, 1)
    assert logits[:, 0, 0].tolist() == [201.0, 302.0, 403.0]
    assert aux[:, 0, 0].tolist() == [5.0, 6.0, 7.0]


def test_padded_rows_are_neutral():
    runner = make_runner()
    runner.replay(decode_batch(4))
    runner.replay(decode_batch(3))
    b = runner.bufs
    assert b.req_pool_indices[3].item() == SCRATCH
    assert b.input_ids[3].item() == 0
    assert b.attn_mask[3].sum().item() == 1  # one private column, never NaN, never shared


def test_dirty_padding_keeps_the_previous_replays_rows():
    runner = make_runner(neutralise=False)
    runner.replay(decode_batch(4))
    runner.replay(decode_batch(3))
    assert runner.bufs.req_pool_indices[3].item() == 8  # a real request's slot from before


def test_capture_runs_largest_first_one_mode_per_runner():
    captured = make_runner().stats.captured
    assert [bs for _, bs, _, _ in captured] == [8, 4, 2, 1]
    assert {mode for mode, _, _, _ in captured} == {"decode"}


def test_batches_above_the_largest_capture_cannot_replay_and_run_eagerly():
    runner = make_runner(bs=(1, 2))
    batch = decode_batch(3)
    assert not runner.can_run(batch)
    (logits, _), info = eager_forward(toy_forward, batch)
    assert info.graph == "eager" and logits.shape[0] == 3


def test_a_decode_batch_on_verify_graphs_fails_like_the_story():
    """TARGET_VERIFY graphs lay out bs x N rows (10 x 16) whatever the batch holds: a 2-row
    input from a stale draft input is a real copy_ error in replay_prepare."""
    runner = make_runner(bs=(1, 2, 4, 8, 16), mode=ForwardMode.TARGET_VERIFY, tokens_per_bs=16)
    with pytest.raises(RuntimeError) as err:
        runner.replay(decode_batch(10, tokens=torch.tensor([7, 9])))
    assert str(err.value) == (
        "The size of tensor a (160) must match the size of tensor b (2) "
        "at non-singleton dimension 0"
    )
    frames = [f.name for f in traceback.extract_tb(err.value.__traceback__)]
    assert frames[-2:] == ["replay", "replay_prepare"]
