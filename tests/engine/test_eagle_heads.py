"""EAGLE and EAGLE-3 differ for real: what the target hands over and what the head does with it.

EAGLE-3's head (SGLang's llama_eagle3.py) fuses the hidden states of three target blocks; EAGLE's
(llama_eagle.py) reads the last hidden state, the one the target's LM head reads, next to the
token embedding. Checked on the shipped pair and on what the heads receive inside engine runs.
"""

from __future__ import annotations

import torch
from engine_cases import BASE, CHAIN_V1
from spectrace_engine.entrypoints.cli import engine_app
from spectrace_engine.models.eagle_head import HEADS
from spectrace_engine.models.loader import load_pair
from typer.testing import CliRunner

from spectrace.errors import UsageError


@torch.no_grad()
def test_eagle_reads_the_last_hidden_state_the_lm_head_reads() -> None:
    pair = load_pair("tiny", algorithm="EAGLE")
    toks = torch.tensor(pair.prompts[:2])
    logits, feats = pair.target.forward_train(toks)
    assert feats.shape == (*toks.shape, pair.target.cfg.dim)
    torch.testing.assert_close(pair.target.lm_head(feats).float(), logits)
    head = pair.draft
    assert head.fuse(feats) is feats  # nothing to fuse: one layer's state
    assert head.fc.in_features == feats.shape[-1] + head.embed.weight.shape[-1]  # embed ++ feature


@torch.no_grad()
def test_eagle3_fuses_three_blocks_that_are_not_the_last_state() -> None:
    pair = load_pair("tiny", algorithm="EAGLE3")
    toks = torch.tensor(pair.prompts[:2])
    logits, feats = pair.target.forward_train(toks)
    dim = pair.target.cfg.dim
    assert feats.shape[-1] == len(pair.target.cfg.capture_layers) * dim == pair.draft.feature_dim
    assert pair.draft.fuse(feats).shape[-1] == dim
    high = feats[..., -dim:]  # the top captured block, before the final norm
    assert not torch.allclose(pair.target.lm_head(high).float(), logits)


def feature_widths(tmp_path, monkeypatch, algorithm: str) -> set[int]:  # type: ignore[no-untyped-def]
    """Run the engine (tp 1 runs in this process) and record what its head is handed."""
    cls, seen = HEADS[algorithm], set()
    fuse = cls.fuse

    def spy(self, target_feature):  # type: ignore[no-untyped-def]
        seen.add(target_feature.shape[-1])
        return fuse(self, target_feature)

    monkeypatch.setattr(cls, "fuse", spy)
    out = tmp_path / algorithm
    flags = [*BASE, *CHAIN_V1, "--speculative-algorithm", algorithm]
    res = CliRunner().invoke(engine_app, ["run", "--out", str(out), *flags])
    assert res.exit_code == 0, res.output
    assert f"type={cls.architecture}," in (out / "engine.log").read_text()
    return seen


def test_an_eagle3_run_hands_its_head_three_times_what_an_eagle_run_does(
    tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    eagle = feature_widths(tmp_path, monkeypatch, "EAGLE")
    eagle3 = feature_widths(tmp_path, monkeypatch, "EAGLE3")
    assert len(eagle) == len(eagle3) == 1
    assert eagle3 == {3 * w for w in eagle}


def test_a_pair_without_an_eagle_head_is_a_usage_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """smollm2 ships an EAGLE-3 head only: asking for EAGLE stops before any rank starts."""
    args = ["run", "--out", str(tmp_path), "--model", "smollm2", "--speculative-algorithm", "EAGLE"]
    res = CliRunner().invoke(engine_app, args)
    assert isinstance(res.exception, UsageError) and "EAGLE-3 head only" in str(res.exception)
    assert not (tmp_path / "engine.log").exists()
