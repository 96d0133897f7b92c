"""A pull request or comment shows its run by what it measured or verified, told in words
(``assemblers/run_results``): "Verified with the integration test on 1x H100", "Tested with X
on 8x H200, using vLLM 0.24.0", "the hang reproduced at c>=16", "acceptance metrics read from
vLLM's Prometheus endpoint". What was not done, only asked for, or expected shows nothing.

Every line is ours, written in the shapes of saved PR threads (rounds 37-39: feature PRs with
stated runs were the largest sealed loss of session 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, roots, run
from spectrace.assemblers.run_results import result_line
from spectrace.assemblers.run_shown import run_line

PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip


def thread(header: str, title: str, day: str, *body: str, post: str = "description") -> list[str]:
    """A saved thread: header, title, one post of ``body``, then the probe crash."""
    return [header, f"# {title}", "", f"dev-a · {post} · {day}", *body, "", *PROBE]


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


def _none(path) -> bool:
    return path is None or (path.worker_class is None and not path.conditional)


# --- runs told by their outcome -------------------------------------------------------------


def test_an_engine_pr_verified_on_hardware_names_the_mode_it_ran(tmp_path: Path) -> None:
    lines = thread("NVIDIA/TensorRT-LLM · pull request #7001 · merged · Python",
                   "[None][feat] AutoDeploy: Eagle3 two-model speculative decoding", "2025-12-10",
                   "## Description", "Wires an Eagle3 draft into AutoDeploy as a separate drafter.",
                   "", "## Test Coverage", "Verified with the new integration test on 1x H100.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.conditional and "ModelDrafter" in path.conditional, path


def test_a_cookbook_pr_saying_the_method_was_verified_gives_the_era_condition(tmp_path: Path) -> None:
    lines = thread("sgl-project/sglang · pull request #7002 · merged · Python",
                   "[AMD] Mark EAGLE verified on MI300X in the GLM cookbook", "2026-06-25",
                   "## Motivation", "The cookbook left MI300X without the EAGLE flags.",
                   "EAGLE speculative decoding has since been verified on gfx942.")  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_results_comment_sourced_from_vllm_metrics_names_vllm_s_runner(tmp_path: Path) -> None:
    lines = thread("acme/draft-lab · pull request #7003 · merged · Python",
                   "Added sliding window attention for eagle3 drafts", "2026-07-02",
                   "## Acceptance length vs context length",
                   "Ten prompts per length, greedy. Acceptance metrics scraped from vLLM's Prometheus endpoint.",
                   "", "| Context | Eagle3 | Eagle3-SW |", "|---|---|---|", "| 2k | 2.29 | 1.58 |",
                   post="comment")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.conditional and "EagleProposer" in path.conditional, path


@pytest.mark.parametrize("said", [
    "Tested with our MTP checkpoint on 8x H200, using vLLM 0.24.0.",
    "We validated it end to end on 2x H100 with vLLM 0.24.0 and MTP.",
    "Benchmarked on 8x H200 (vLLM 0.24.0, MTP): 58.6% acceptance.",
])  # fmt: skip
def test_a_trainer_pr_s_validation_in_words_shows_its_mtp_run(tmp_path: Path, said: str) -> None:
    lines = thread("acme/rl-loop · pull request #7004 · merged · Python",
                   "Support online MTP draft weight updates", "2026-07-14",
                   "## Why", "The built-in MTP draft goes stale after each optimizer step.",
                   "", "## Validation", said)  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.conditional and "EagleProposer" in path.conditional, path


# --- never wrong: what was not done, asked, or expected -------------------------------------


@pytest.mark.parametrize("said", [
    "This still needs to be verified on 1x H100.",
    "Not yet tested on H100; CI only.",
    "Can someone verify this on an H100?",
    "Once verified on H100 we will flip the default.",
    "With these settings you should expect an acceptance length of about 3.0.",
    "Target: 1.8x speedup at batch 1.",
])  # fmt: skip
def test_an_adding_pr_that_ran_nothing_stays_without_a_path(tmp_path: Path, said: str) -> None:
    lines = thread("NVIDIA/TensorRT-LLM · pull request #7005 · open · Python",
                   "[None][feat] AutoDeploy: Eagle3 two-model speculative decoding", "2025-12-10",
                   "## Description", "Wires an Eagle3 draft into AutoDeploy as a separate drafter.",
                   "", "## Test Coverage", said)  # fmt: skip
    assert _none(_path(tmp_path, lines))


@pytest.mark.parametrize("text", [
    "Verified with the new integration test on 1x H100.",
    "The hang reproduced at c>=16 for the (4,1,5) config.",
    "EAGLE speculative decoding has since been verified on gfx942.",
    "Acceptance metrics scraped from vLLM's Prometheus endpoint.",
    "speculative enabled, target + draft update: 58.6% acceptance, 1.5x speedup",
    "GSM8K accuracy: 0.93 with the one-model path",
])  # fmt: skip
def test_a_check_done_or_a_measured_number_is_a_run_line(text: str) -> None:
    assert result_line(text) and run_line(text)


@pytest.mark.parametrize("text", [
    "- [ ] needs to be verified on B200",
    "unverified on gfx942",
    "Has anyone tested this on MI300X?",
    "We have not reproduced it on H100.",
    "Expected speedup: 2x once the kernel lands",
    "### How was this patch tested?",
])  # fmt: skip
def test_a_check_undone_asked_or_expected_is_no_run_line(text: str) -> None:
    assert not result_line(text)
