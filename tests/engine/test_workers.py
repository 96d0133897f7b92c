"""Greedy speculation is lossless: every worker path emits exactly the target's greedy tokens."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from engine_cases import BASE, CHAIN_V1, CHAIN_V2, PLAIN, TREE


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
    assert v2 and all(e["host_syncs"] == 0 for e in v2)
    assert all(e["host_syncs"] > 0 for e in v1)


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
