"""A pull request that adds or enables a method: the classes, files and families its
description and review name are the code it changes, not a run (R23 study 03 and 30, r22 21),
unless the PR shows a run of its own (a test or serve command, a result with figures).

Every line is ours, written in the shapes of saved PR threads."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run
from test_never_wrong_threads import ASCEND_REPO, TRT_REPO, thread

PROBE = ["Traceback (most recent call last):", '  File "/tmp/probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


def test_a_class_the_description_says_it_adds_decides_nothing(tmp_path: Path) -> None:
    lines = thread(ASCEND_REPO, "Add Medusa speculative decoding support for the NPU runner",
                   "2026-01-06", "### What this PR does",
                   "Medusa can improve decoding throughput and reduce latency.",
                   "- Adds `MedusaProposer` and registers it for the `medusa` method",
                   "- New file: `vllm_ascend/spec_decode/medusa_proposer.py`", *PROBE,
                   kind="pull request")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is None or (path.worker_class is None and not path.conditional), path


def test_a_review_diff_of_a_worker_file_in_an_enabling_pr_decides_nothing(tmp_path: Path) -> None:
    lines = thread(TRT_REPO, "[feat] enable LM head TP for MTP under attention DP", "2025-09-02",
                   "tensorrt_llm/_torch/speculative/mtp.py:494", "```diff",
                   "+            padded = hidden_states.view(-1, hidden_states.shape[-1])", "```",
                   "The MTPWorker path may raise a TypeError here.", *PROBE,
                   kind="pull request")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is None or path.worker_class is None, path


def test_an_adding_pr_with_its_result_figures_names_its_run(tmp_path: Path) -> None:
    lines = thread("vllm-project/vllm", "[Config] add qwen as an EAGLE-3 target", "2025-08-06",
                   "## Test Plan", "- Run EAGLE-3 inference with Qwen3-8B and its Eagle3 draft.",
                   "## Test Result", "```", "mean acceptance length: 2.93", "```", *PROBE,
                   kind="pull request")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.family == "EAGLE3", path


def test_a_scheduler_s_lookahead_window_in_a_title_names_no_lookahead_decoding(tmp_path: Path) -> None:
    """'lookahead' is an ordinary word too: beside window/slots/steps it names no method."""
    lines = thread(TRT_REPO, "[Bug] crash with the scheduler's lookahead window set to 0",
                   "2026-03-01", "```", "trtllm-serve acme/Orbit-8B --tp_size 2", "```", *PROBE)  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is None or (path.worker_class is None and not path.conditional), path
