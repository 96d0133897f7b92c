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


def spy_runner(mode: ForwardMode, tokens_per_bs: int) -> tuple[CudaGraphRunner, dict]:
    """A runner whose forward keeps the inputs it was handed (what a graph would read)."""
    seen: dict = {}

    def spy(tok, pos, slots, locs, mask, hidden):
        seen.update(tok=tok.clone(), pos=pos.clone(), slots=slots.clone(), locs=locs.clone())
        seen["mask"] = mask.clone()
        return toy_forward(tok, pos, slots, locs, mask, hidden)

    runner = new_runner(
        "target", spy, mode, tokens_per_bs, (1, 2, 4, 8), L, None, CPU, torch.float32, SCRATCH,
        enabled=True, neutralise=True,
    )  # fmt: skip
    runner.capture(None)
    return runner, seen


def test_decode_graphs_derive_columns_and_causal_mask_from_positions():
    runner, seen = spy_runner(ForwardMode.DECODE, 1)
    batch = decode_batch(3)
    batch.out_cache_loc = torch.full((3,), 99)  # never read: a decode writes at its position
    runner.replay(batch)
    assert seen["locs"][:3, 0].tolist() == [2, 3, 4]
    assert seen["mask"][:3, 0].sum(-1).tolist() == [3, 4, 5]  # columns 0..position
    assert torch.equal(seen["mask"][:3, 0], batch.mask())


def test_padded_rows_are_neutral():
    """A padded decode request sits on the scratch slot at position 0: it writes and sees that
    slot's column 0 only (the padding token), never a live request's."""
    runner, seen = spy_runner(ForwardMode.DECODE, 1)
    runner.replay(decode_batch(4))
    runner.replay(decode_batch(3))
    assert seen["slots"][3].item() == SCRATCH
    assert (seen["pos"][3, 0].item(), seen["locs"][3, 0].item()) == (0, 0)
    assert seen["mask"][3, 0].tolist() == [True] + [False] * (L - 1)


def test_padded_verify_rows_get_a_private_column():
    runner, seen = spy_runner(ForwardMode.TARGET_VERIFY, 2)
    bs, rows = 3, 6
    pos = torch.arange(rows) + 2
    mask = torch.arange(L)[None, :] <= pos[:, None]
    batch = ForwardBatch(
        ForwardMode.TARGET_VERIFY, bs, torch.arange(rows) + 1, pos, pos, torch.arange(bs) + 5, mask
    )
    runner.replay(batch)
    assert seen["slots"][3].item() == SCRATCH and seen["tok"][3].tolist() == [0, 0]
    assert seen["mask"][3].sum(-1).tolist() == [1, 1]  # one column per row, never NaN
    assert seen["locs"][3].tolist() == [6, 7]  # private: no two padded rows share one


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
