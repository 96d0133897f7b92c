"""Greedy speculation is lossless: every worker path emits exactly the target's greedy tokens."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import torch
from engine_cases import BASE, CHAIN_V1, CHAIN_V2, PLAIN, TREE
from spectrace_engine.entrypoints.cli import engine_app
from typer.testing import CliRunner

from spectrace.errors import UsageError


@pytest.mark.parametrize("path", [CHAIN_V1, TREE, CHAIN_V2], ids=["v1-chain", "v1-tree", "v2"])
def test_speculation_matches_plain_greedy(engine_run, path):
    plain = engine_run(*BASE, *PLAIN)
    spec = engine_run(*BASE, *path)
    assert plain.code == 0 and spec.code == 0
    assert len(plain.outputs()) == 6
    assert spec.outputs() == plain.outputs()


def test_workers_really_speculate_and_accept(engine_run):
    """The tiny pair is trained for it: chains accept drafts, the tree accepts more."""
    chain = engine_run(*BASE, *CHAIN_V1).end()
    tree = engine_run(*BASE, *TREE).end()
    assert chain["spec_steps"] == chain["steps"]
    assert chain["mean_emitted"] >= 1.5
    assert tree["mean_emitted"] >= chain["mean_emitted"]


def test_worker_path_recorded_as_sglang_would_choose(engine_run):
    v1, v2 = engine_run(*BASE, *TREE), engine_run(*BASE, *CHAIN_V2)
    start1, start2 = v1.of("run_start")[0], v2.of("run_start")[0]
    assert (start1["worker_class"], start1["disable_overlap_schedule"]) == ("EAGLEWorker", True)
    assert (start2["worker_class"], start2["disable_overlap_schedule"]) == ("EAGLEWorkerV2", False)
    assert "disable_overlap_schedule=True" in v1.log.read_text()
    assert "disable_overlap_schedule=False" in v2.log.read_text()


def test_v2_reads_nothing_on_the_host_inside_a_step(engine_run):
    """v2 resolves accept lengths after the step; v1 reads them inside it."""
    v2 = [e for e in engine_run(*BASE, *CHAIN_V2).of("step") if e["mode"] == "verify"]
    v1 = [e for e in engine_run(*BASE, *CHAIN_V1).of("step") if e["mode"] == "verify"]
    assert v2 and all((e["host_syncs"], e["resolve_syncs"]) == (0, 1) for e in v2)
    assert v1 and all(e["host_syncs"] >= 2 and e["resolve_syncs"] == 0 for e in v1)


def test_verify_rows_are_bs_times_draft_tokens(engine_run):
    steps = [e for e in engine_run(*BASE, *TREE).of("step") if e["mode"] == "verify"]
    assert steps
    for e in steps:
        assert e["spec_info"]["shapes"]["draft_token"] == [e["bs"] * 16]
        assert e["rows"] == e["padded_bs"] * 16
        assert all(0 <= a <= 3 for a in e["accepted"])


@pytest.mark.parametrize("path", [TREE, CHAIN_V2], ids=["v1-tree", "v2-chain"])
def test_triton_verify_kernels_agree_in_the_interpreter(engine_run, tmp_path, path):
    """The Triton verify kernels (TRITON_INTERPRET=1) emit the same tokens as plain decoding."""
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "spectrace",
            "engine",
            "run",
            "--out",
            str(tmp_path),
            *BASE,
            *path,
            "--verify-backend",
            "triton",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    outputs = {e["rid"]: e["output_ids"] for e in events if e["event"] == "request_finish"}
    assert outputs == engine_run(*BASE, *PLAIN).outputs()


def test_server_args_warnings_are_sglangs_bare_lines(engine_run):
    """v1 is chosen the way the story's server chose it, and the log says so verbatim."""
    lines = engine_run(*BASE, *TREE).log.read_text().splitlines()
    assert lines[:3] == [
        "Max running requests is reset to 48 for speculative decoding. You can override this by "
        "explicitly setting --max-running-requests.",
        "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative "
        "algorithm. You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental overlap "
        "scheduler. ",
        "Mixed chunked prefill is disabled because of using eagle speculative decoding.",
    ]
    assert lines[3].split("] ", 1)[1].startswith("server_args=ServerArgs(model_path='")


def test_topk_one_adjusts_draft_tokens_with_sglangs_warning(engine_run):
    run = engine_run(*BASE, *CHAIN_V2, "--speculative-num-draft-tokens", "8")
    text = run.log.read_text()
    assert (
        "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when "
        "speculative_eagle_topk == 1\n"
    ) in text
    assert "speculative_num_draft_tokens=4," in text
    assert run.of("run_start")[0]["config"]["spec"]["num_draft_tokens"] == 4


def test_spec_v2_env_var_selects_v2_without_the_flag(monkeypatch):
    from spectrace_engine.entrypoints.cli import build_config

    monkeypatch.setenv("SGLANG_ENABLE_SPEC_V2", "True")
    kw = dict(model="tiny", algorithm="EAGLE", topk=1)  # the rest: the CLI defaults
    cfg, warnings = build_config(**kw)
    assert cfg.worker_class == "EAGLEWorkerV2" and not cfg.disable_overlap_schedule
    assert (
        "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is "
        "turned on." in warnings
    )
    monkeypatch.setenv("SGLANG_ENABLE_SPEC_V2", "false")
    assert build_config(**kw)[0].worker_class == "EAGLEWorker"


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_v2_step_never_syncs_the_gpu(engine_run, monkeypatch):
    """CUDA's sync debug mode turns any host sync inside a v2 step into an error."""
    from spectrace_engine.speculative.eagle_worker_v2 import EAGLEWorkerV2

    step = EAGLEWorkerV2.forward_batch_generation

    def strict(self, mwb):
        torch.cuda.set_sync_debug_mode("error")
        try:
            return step(self, mwb)
        finally:
            torch.cuda.set_sync_debug_mode("default")

    monkeypatch.setattr(EAGLEWorkerV2, "forward_batch_generation", strict)
    run = engine_run(*BASE, *CHAIN_V2, "--device", "cuda")
    assert run.code == 0, run.of("error")
    assert run.outputs() == engine_run(*BASE, *PLAIN, "--device", "cuda").outputs()


@pytest.mark.parametrize(
    ("env", "kw", "worker_class", "overlap", "warning"),
    [
        ("", dict(algorithm="NONE"), "TpModelWorker", True, None),
        ("", dict(algorithm="NONE", disable_overlap_schedule=True), "TpModelWorker", False, None),
        ("True", dict(algorithm="EAGLE3"), "EAGLEWorkerV2", True, "Spec v2 is enabled"),
        ("True", dict(algorithm="EAGLE", disable_overlap_schedule=True), "EAGLEWorker", False,
         "Overlap scheduler is disabled"),
        ("", dict(algorithm="EAGLE3"), "EAGLEWorker", False, "Overlap scheduler is disabled"),
    ],
)  # fmt: skip
def test_worker_and_loop_follow_sglangs_flags(monkeypatch, env, kw, worker_class, overlap, warning):
    from spectrace_engine.entrypoints.cli import build_config

    monkeypatch.setenv("SGLANG_ENABLE_SPEC_V2", env)
    cfg, warnings = build_config(model="tiny", topk=1, **kw)
    assert (cfg.worker_class, not cfg.disable_overlap_schedule) == (worker_class, overlap)
    if warning is None:
        assert warnings == []
    else:
        assert any(w.startswith(warning) for w in warnings)


def test_plain_server_runs_the_overlap_loop_and_logs_no_spec_lines(engine_run):
    run = engine_run(*BASE, *PLAIN)
    start = run.of("run_start")[0]
    assert (start["worker_class"], start["disable_overlap_schedule"]) == ("TpModelWorker", False)
    text = run.log.read_text()
    assert "disable_overlap_schedule=False" in text and "Overlap scheduler is disabled" not in text
    assert "draft cpu graph" not in text and "accept len" not in text


def test_verify_backend_auto_is_triton_on_cuda_and_torch_on_cpu(engine_run):
    """The default backend is the compiled kernel where it compiles, compiled before serving."""
    run = engine_run(*BASE, *TREE)
    cuda = run.of("run_start")[0]["config"]["device"] == "cuda"
    assert run.of("run_start")[0]["config"]["verify_backend"] == ("triton" if cuda else "torch")
    assert ("Verify kernel ready (triton, tree greedy)" in run.log.read_text()) == cuda
    res = CliRunner().invoke(engine_app, ["run", "--out", "x", "--verify-backend", "cuda"])
    assert isinstance(res.exception, UsageError) and "auto, torch or triton" in str(res.exception)
