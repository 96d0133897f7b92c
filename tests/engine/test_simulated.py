"""Simulated acceptance (issue 13 item 3): accept lengths drawn to a stated mean, the compute real,
and every record of the run saying so. The synthetic pair runs here at a toy size (its real
shapes are 1-3B parameters, for the GPU)."""

from __future__ import annotations

import json

import pytest
import torch
from spectrace_engine.entrypoints.cli import engine_app
from spectrace_engine.kernels.verify_simulated import (
    alpha_for_mean,
    mean_emitted,
    score_shape,
    simulated_accept,
)
from spectrace_engine.models import synthetic
from spectrace_engine.models.llama import ModelConfig
from spectrace_engine.speculative.build_eagle_tree import chain_tree, from_parents
from typer.testing import CliRunner

from spectrace.errors import UsageError

TOY = ModelConfig(vocab_size=300, dim=64, n_layers=4, n_heads=4, n_kv_heads=2, ffn_dim=128,
                  max_seq_len=512)  # fmt: skip


@pytest.mark.parametrize("mean", [1.0, 1.7, 2.5, 4.0])
def test_alpha_gives_the_stated_mean(mean):
    assert mean_emitted(alpha_for_mean(mean, 3), 3) == pytest.approx(mean, abs=1e-9)


def test_out_of_range_mean_is_refused():
    with pytest.raises(ValueError, match=r"\[1, 4\]"):
        alpha_for_mean(4.5, 3)


def test_chain_draws_average_the_mean_and_emit_drafts_then_the_target_token():
    g = torch.Generator().manual_seed(0)
    bs, steps = 20000, 3
    drafts = torch.randint(10, 100, (bs, steps), generator=g)
    tree = chain_tree(torch.zeros(bs, dtype=torch.long), drafts)
    predict = torch.randint(100, 200, (bs, steps + 1), generator=g)
    u = torch.rand(bs, steps, generator=g)
    idx, length, tokens = simulated_accept(
        tree.draft_tokens, tree.retrive_index, tree.retrive_next_token,
        tree.retrive_next_sibling, predict, u, alpha_for_mean(2.5, steps),
    )  # fmt: skip
    assert (length + 1).float().mean().item() == pytest.approx(2.5, abs=0.03)
    b = int((length == 2).nonzero()[0])
    assert tokens[b].tolist() == [*drafts[b, :2].tolist(), predict[b, 2].item(), -1]
    assert idx[b].tolist() == [b * 4, b * 4 + 1, b * 4 + 2, -1]


def test_tree_follows_the_path_to_its_deepest_node_and_stops_there():
    # root 0 -> 1, 2; 2 -> 3 (1 is a leaf, so the first-child path would end at depth 1);
    # depth 3 has no node: at most 2 accepted of 3 steps, along 0 -> 2 -> 3
    tokens = torch.tensor([[5, 11, 12, 13]])
    tree = from_parents(tokens, torch.tensor([[-1, 0, 0, 2]]))
    predict = torch.tensor([[50, 51, 52, 53]])
    idx, length, out = simulated_accept(
        tree.draft_tokens, tree.retrive_index, tree.retrive_next_token,
        tree.retrive_next_sibling, predict, torch.zeros(1, 3), 1.0,
    )  # fmt: skip
    assert length.tolist() == [2]
    assert out.tolist() == [[12, 13, 53, -1]]
    assert idx.tolist() == [[0, 2, 3, -1]]
    _, length, out = simulated_accept(
        tree.draft_tokens, tree.retrive_index, tree.retrive_next_token,
        tree.retrive_next_sibling, predict, torch.tensor([[0.0, 0.9, 0.0]]), 0.5,
    )  # fmt: skip
    assert length.tolist() == [1] and out.tolist() == [[12, 52, -1, -1]]


@pytest.mark.parametrize("shape", ["chain", "tree"])
def test_a_simulated_run_hits_the_mean_and_says_it_is_simulated(tmp_path, monkeypatch, shape):
    monkeypatch.setitem(synthetic.SYNTHETIC, "synth-1b", TOY)
    flags = (
        ["--worker", "v2"]
        if shape == "chain"
        else [
            "--worker",
            "v1",
            "--speculative-eagle-topk",
            "4",
            "--speculative-num-draft-tokens",
            "8",
        ]
    )
    res = CliRunner().invoke(engine_app, [
        "run", "--out", str(tmp_path), "--model", "synth-1b", "--num-requests", "8",
        "--concurrency", "4", "--max-new-tokens", "40", "--simulate-accept-len", "2.5", *flags])  # fmt: skip
    assert res.exit_code == 0, res.output
    events = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    start = next(e for e in events if e["event"] == "run_start")
    end = next(e for e in events if e["event"] == "run_end")
    assert start["simulated_accept_len"] == 2.5
    assert end["mean_emitted"] == pytest.approx(2.5, abs=0.4)
    assert "SIMULATED acceptance" in (tmp_path / "engine.log").read_text()


def test_score_shape_is_a_calibrated_drafts():
    shape = score_shape(0.8, 4, torch.device("cpu"))
    assert shape[0].item() == pytest.approx(0.8) and shape.sum().item() == pytest.approx(1.0)
    assert (shape[1:] < shape[:-1]).all()  # best first, no ties for the selection to break


def test_a_simulated_tree_reaches_the_stated_mean(tmp_path, monkeypatch):
    """k 4, s 3, N 16 at 3.0 (the load story's tree): with the draft's own scores on random
    weights the top-15 tree stops at depth 2 and the mean at ~2.5; shaped scores give it the
    depth, so the mean is the stated one."""
    monkeypatch.setitem(synthetic.SYNTHETIC, "synth-1b", TOY)
    res = CliRunner().invoke(engine_app, [
        "run", "--out", str(tmp_path), "--model", "synth-1b", "--num-requests", "12",
        "--concurrency", "6", "--max-new-tokens", "60", "--simulate-accept-len", "3.0",
        "--worker", "v1", "--speculative-eagle-topk", "4", "--speculative-num-steps", "3",
        "--speculative-num-draft-tokens", "16"])  # fmt: skip
    assert res.exit_code == 0, res.output
    events = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    end = next(e for e in events if e["event"] == "run_end")
    assert end["mean_emitted"] == pytest.approx(3.0, abs=0.2)


def test_simulation_needs_greedy_and_a_reachable_mean(tmp_path):
    base = ["run", "--out", str(tmp_path), "--simulate-accept-len"]
    res = CliRunner().invoke(engine_app, [*base, "5", "--worker", "v2"])
    assert isinstance(res.exception, UsageError) and "[1, 4]" in str(res.exception)
    res = CliRunner().invoke(engine_app, [*base, "2", "--temperature", "0.7"])
    assert isinstance(res.exception, UsageError) and "greedy" in str(res.exception)
