"""Sampling speculation is lossless: at temperature T every worker path emits the target's tokens
in distribution, reproducibly per seed; temperature 0 stays greedy; acceptance falls as T rises.

The distribution test scores each emitted token by its rank under the target's own processed
distribution at its context (softmax(logits / T), top-k, nucleus; recomputed here with a cacheless
forward, independently of the engine's sampler). Under the target every rank r has probability
sorted_p[r], so the expected rank histogram is exact whatever the contexts are, and a Pearson
chi-square (3 degrees of freedom) compares it with the observed one. A sampler that lets the
draft through (accepting its top choice without the target's coin) piles mass on rank 0: the
``leaky`` run below scores above 100, the honest runs below 5, the bound is 16.27 (p = 0.001).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from conftest import Run, on_test_device, read_events
from engine_cases import BASE, CHAIN_V1, CHAIN_V2, PLAIN, TREE
from spectrace_engine.entrypoints.cli import engine_app
from spectrace_engine.layers import sampler as sampling
from spectrace_engine.models.loader import load_pair
from typer.testing import CliRunner

from spectrace.assemblers.load import parse_load_line
from spectrace.dialects.detect import LineParser
from spectrace.errors import UsageError

MANY = "--model tiny --num-requests 128 --concurrency 48 --max-new-tokens 8".split()
HOT = "--temperature 1.5".split()
RANK_BINS = 4  # ranks 0, 1, 2 and 3+ (the pooled expected count of each is >= 70 here)
CHI2_BOUND = 16.27  # chi-square, 3 degrees of freedom, upper 0.1 %
PATHS = {"plain": PLAIN, "v1-chain": CHAIN_V1, "v1-tree": TREE, "v2-chain": CHAIN_V2}


def run_fresh(out: Path, *flags: str) -> Run:
    """A run that bypasses the session cache (reruns and patched samplers must really run)."""
    shutil.rmtree(out, ignore_errors=True)
    res = CliRunner().invoke(engine_app, ["run", "--out", str(out), *on_test_device(flags)])
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return Run(res.exit_code, out, res.output, read_events(out))


def processed(logits: torch.Tensor, t: float, top_p: float, top_k: int) -> torch.Tensor:
    """Target probabilities sorted descending, after temperature, top-k and nucleus."""
    p = torch.softmax(logits.double() / t, -1).sort(-1, descending=True).values
    if top_k > 0:
        p[..., top_k:] = 0.0
    p = p / p.sum(-1, keepdim=True)
    p = torch.where(p.cumsum(-1) - p < top_p, p, torch.zeros_like(p))
    return p / p.sum(-1, keepdim=True)


@torch.no_grad()
def rank_histograms(run: Run, t: float, top_p: float = 1.0, top_k: int = -1):  # type: ignore[no-untyped-def]
    """Observed and expected rank counts of every token a decode/verify step emitted."""
    pair = load_pair("tiny", "cpu", torch.float32)
    observed, expected = torch.zeros(RANK_BINS), torch.zeros(RANK_BINS, dtype=torch.float64)
    outside = 0
    for rid, out in run.outputs().items():
        prompt = pair.prompts[rid % len(pair.prompts)]
        logits, _ = pair.target.forward_train(torch.tensor([prompt + out]))
        step_logits = logits[0, len(prompt) : len(prompt) + len(out) - 1]  # out[0] is prefill's
        probs = processed(step_logits, t, top_p, top_k)
        order = torch.softmax(step_logits.double() / t, -1).argsort(-1, descending=True)
        rank = (order == torch.tensor(out[1:])[:, None]).double().argmax(-1)
        outside += int((probs.gather(1, rank[:, None]) == 0).sum())
        observed += torch.bincount(rank.clamp(max=RANK_BINS - 1), minlength=RANK_BINS)
        expected[: RANK_BINS - 1] += probs[:, : RANK_BINS - 1].sum(0)
        expected[RANK_BINS - 1] += probs[:, RANK_BINS - 1 :].sum()
    return observed.double(), expected, outside


def chi2(observed: torch.Tensor, expected: torch.Tensor) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("path", list(PATHS.values()), ids=list(PATHS))
def test_sampled_tokens_follow_the_target_at_temperature(engine_run, path):
    run = engine_run(*MANY, *path, *HOT)
    assert run.code == 0 and len(run.outputs()) == 128
    observed, expected, outside = rank_histograms(run, 1.5)
    assert observed.sum() == 640  # 128 requests of 6 to 8 tokens, the first from prefill
    assert outside == 0
    assert chi2(observed, expected) < CHI2_BOUND


def test_top_k_and_top_p_cut_the_tail_and_keep_the_distribution(engine_run):
    run = engine_run(*MANY, *TREE, "--temperature", "2.0", "--top-p", "0.8", "--top-k", "6")
    observed, expected, outside = rank_histograms(run, 2.0, 0.8, 6)
    assert outside == 0  # no token outside the nucleus of the top 6, ever
    assert chi2(observed, expected) < CHI2_BOUND


def test_a_draft_that_skips_the_target_coin_is_caught(tmp_path, monkeypatch):
    """Coins of 0 accept every first child: the draft's top choice leaks through unverified."""
    honest = sampling.Sampler.noise

    def leaky(self, bs, n, vocab):  # type: ignore[no-untyped-def]
        coins, inv_exp = honest(self, bs, n, vocab)
        return torch.zeros_like(coins), inv_exp

    monkeypatch.setattr(sampling.Sampler, "noise", leaky)
    run = run_fresh(tmp_path / "leak", *MANY, *CHAIN_V2, *HOT)
    observed, expected, _ = rank_histograms(run, 1.5)
    assert observed[0] > expected[0]
    assert chi2(observed, expected) > 3 * CHI2_BOUND


def test_accept_thresholds_below_one_buy_acceptance_with_exactness(engine_run):
    """SGLang's lossy knobs: more drafts accepted, and the distribution test sees the bias."""
    exact = engine_run(*MANY, *TREE, *HOT)
    lossy = engine_run(*MANY, *TREE, *HOT, "--speculative-accept-threshold-acc", "0.5")
    assert lossy.end()["mean_emitted"] > exact.end()["mean_emitted"] + 0.5
    assert chi2(*rank_histograms(lossy, 1.5)[:2]) > 3 * CHI2_BOUND
    assert "speculative_accept_threshold_acc=0.5," in lossy.log.read_text()


@pytest.mark.parametrize("path", [TREE, CHAIN_V2], ids=["v1-tree", "v2-chain"])
def test_same_seed_same_tokens_other_seed_other_tokens(engine_run, tmp_path, path):
    flags = [*BASE, *path, "--temperature", "1.0", "--random-seed", "7"]
    first = engine_run(*flags)
    again = run_fresh(tmp_path / "again", *flags)
    other = engine_run(*BASE, *path, "--temperature", "1.0", "--random-seed", "8")
    assert first.code == again.code == other.code == 0
    assert again.outputs() == first.outputs()
    assert other.outputs() != first.outputs()


def test_tp2_ranks_sample_what_tp1_samples(engine_run):
    """Every rank draws the same noise over the same all-reduced logits: one output stream.
    Both runs are pinned to the CPU: the TP2 run stays on gloo whatever SPECTRACE_ENGINE_DEVICE
    says (one GPU), and a CUDA generator draws other noise than a CPU one from the same seed."""
    flags = [*BASE, *TREE, "--temperature", "1.2", "--random-seed", "4", "--device", "cpu"]
    one, two = engine_run(*flags), engine_run(*flags, "--tp", "2")
    assert one.code == two.code == 0
    ranks = [{e["rid"]: e["output_ids"] for e in two.of("request_finish", r)} for r in (0, 1)]
    assert ranks[0] == ranks[1] == one.outputs()


def test_temperature_zero_is_plain_greedy_whatever_the_other_knobs(engine_run):
    plain = engine_run(*BASE, *PLAIN)
    for path in (TREE, CHAIN_V2):
        zero = engine_run(
            *BASE, *path, "--temperature", "0", "--top-p", "0.5", "--random-seed", "3"
        )
        assert zero.code == 0 and zero.outputs() == plain.outputs()
    hot = engine_run(*BASE, *TREE, "--temperature", "1.0", "--random-seed", "7")
    assert hot.outputs() != plain.outputs()


def accept_lens(run: Run) -> list[float]:
    """The ``accept len`` of each ``Decode batch`` line, parsed as spectrace triage parses it."""
    parser, out = LineParser(str(run.log)), []
    for no, raw in enumerate(run.log.read_bytes().splitlines(), 1):
        sample = parse_load_line(parser.parse(raw, no, 0))
        if sample is not None and sample.kind == "decode" and sample.accept_len is not None:
            out.append(sample.accept_len)
    return out


def test_accept_len_in_the_log_falls_at_high_temperature(engine_run):
    flags = [*BASE, *CHAIN_V1, "--decode-log-interval", "2"]
    cold, hot = engine_run(*flags), engine_run(*flags, "--temperature", "2.0")
    cold_len, hot_len = accept_lens(cold), accept_lens(hot)
    assert len(cold_len) >= 3 and len(hot_len) >= 3
    assert sum(hot_len) / len(hot_len) < sum(cold_len) / len(cold_len) - 0.5
    assert hot.end()["mean_emitted"] < cold.end()["mean_emitted"]


def test_sampling_params_reach_the_log_and_the_events(engine_run):
    run = engine_run(*BASE, *CHAIN_V2, "--temperature", "0.7", "--top-p", "0.9")
    dump = next(line for line in run.log.read_text().splitlines() if "server_args=" in line)
    assert 'preferred_sampling_params=\'{"temperature": 0.7, "top_p": 0.9, "top_k": -1}\'' in dump
    config = run.of("run_start")[0]["config"]
    assert config["sampling"] == {"temperature": 0.7, "top_p": 0.9, "top_k": -1}
    greedy = engine_run(*BASE, *PLAIN)
    assert "preferred_sampling_params=None" in greedy.log.read_text()


@pytest.mark.parametrize(
    ("flag", "value", "words"),
    [
        ("--temperature", "-1", "--temperature must be >= 0"),
        ("--top-p", "0", "--top-p must be in (0, 1]"),
        ("--top-k", "0", "--top-k must be -1 (off) or >= 1"),
        ("--speculative-accept-threshold-acc", "0", "-acc in (0, 1]"),
    ],
)
def test_bad_sampling_flags_are_usage_errors(tmp_path, flag, value, words):
    """UsageError is what spectrace's CLI prints as one line with exit code 2."""
    res = CliRunner().invoke(engine_app, ["run", "--out", str(tmp_path), *BASE, flag, value])
    assert isinstance(res.exception, UsageError)
    assert words in str(res.exception)


def test_triton_sampling_kernel_emits_the_reference_tokens_in_the_interpreter(engine_run, tmp_path):
    """Same seed, same noise: the Triton tree sampler (TRITON_INTERPRET=1) matches the reference."""
    flags = [*"--model tiny --num-requests 4 --concurrency 4 --max-new-tokens 10".split(), *TREE]
    flags += ["--temperature", "1.5", "--random-seed", "5", "--device", "cpu"]
    reference = engine_run(*flags)
    cmd = [sys.executable, "-m", "spectrace", "engine", "run", "--out", str(tmp_path), *flags]
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    proc = subprocess.run(
        [*cmd, "--verify-backend", "triton"], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    triton = Run(0, tmp_path, proc.stderr, read_events(tmp_path))
    assert triton.end()["mean_emitted"] < 4.0  # rejections happened: the residual draw ran too
    assert triton.outputs() == reference.outputs()


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_v2_sampling_step_never_syncs_the_gpu(tmp_path, monkeypatch):
    """Sampling keeps v2's promise: no host sync inside a step (CUDA's sync debug mode)."""
    from spectrace_engine.speculative.eagle_worker_v2 import EAGLEWorkerV2

    step = EAGLEWorkerV2.forward_batch_generation

    def strict(self, mwb):  # type: ignore[no-untyped-def]
        torch.cuda.set_sync_debug_mode("error")
        try:
            return step(self, mwb)
        finally:
            torch.cuda.set_sync_debug_mode("default")

    monkeypatch.setattr(EAGLEWorkerV2, "forward_batch_generation", strict)
    run = run_fresh(tmp_path / "v2", *BASE, *CHAIN_V2, *HOT, "--device", "cuda")
    assert run.code == 0, run.of("error")
    assert {s["graph"] for s in run.of("step")} == {"replay"}
