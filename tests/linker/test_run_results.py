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
    "The TensorRT-LLM build failed with EAGLE enabled.",
    "SGLang import failed on the node.",
])  # fmt: skip
def test_a_check_undone_asked_or_expected_is_no_run_line(text: str) -> None:
    assert not result_line(text)


def test_an_engine_pr_s_benchmark_on_named_gpus_shows_its_run(tmp_path: Path) -> None:
    lines = thread("NVIDIA/TensorRT-LLM · pull request #7006 · merged · Python",
                   "[None][feat] Support DFlash in one-model spec dec", "2026-04-07",
                   "## Description", "The PR brings DFlash to the one-model flow.",
                   "In the mtbench testing on Qwen3-8B on 8xB200, the perf of DFlash is lower than PARD.")  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "DFlashWorker")


def test_a_reviewer_s_own_verification_shows_the_pr_s_run(tmp_path: Path) -> None:
    lines = thread("acme/rl-loop · pull request #7007 · open · Python",
                   "Support online MTP draft weight updates", "2026-07-14",
                   "I verified the colocated setup only (TP8, vLLM 0.24.0); the NCCL path is next.",
                   post="comment")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.conditional and "EagleProposer" in path.conditional, path


@pytest.mark.parametrize("said", [
    "In the tests with MTP we skip the fp8 case.",
    "In the benchmark on 8xB200 we will compare DFlash with PARD.",
    "I have not verified the colocated setup.",
    "Could someone with an H200 verify the colocated setup?",
])  # fmt: skip
def test_a_plan_or_undone_check_in_an_adding_pr_stays_without_a_path(tmp_path: Path, said: str) -> None:
    lines = thread("NVIDIA/TensorRT-LLM · pull request #7008 · open · Python",
                   "[None][feat] Support DFlash in one-model spec dec", "2026-04-07",
                   "## Description", "The PR brings DFlash to the one-model flow.", said)  # fmt: skip
    assert _none(_path(tmp_path, lines))


# --- a title fixing a failure adds no method (path_named's "PR adding the method" guard) -------


def test_a_plugin_fix_pr_for_a_crash_when_enabling_the_method_names_its_run(tmp_path: Path) -> None:
    lines = thread("vllm-project/vllm-ascend · pull request #7009 · open · C++",
                   "[bugfix] Fix crash when enabling FC2 and multi-step speculative decoding", "2026-03-30",
                   "### What this PR does / why we need it?",
                   "Fix the decode node crash with FlashComm2 and Eagle multi-step speculation enabled.",
                   "### How was this patch tested?", "- vLLM version: v0.18.0")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and "AscendEagleProposer" in (path.worker_class or path.conditional or ""), path


def test_a_bug_fix_pr_implementing_support_with_its_sweep_names_its_run(tmp_path: Path) -> None:
    lines = thread("vllm-project/vllm · pull request #7010 · merged · Python",
                   "[Bug Fix] [ModelX] Implement EAGLE3 support on ROCm for ModelX", "2026-06-13",
                   "EAGLE3 with a ModelX draft head fails at engine init on ROCm.",
                   "I have ran a sweep and validated GSM8K on MI355X.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and "EagleProposer" in (path.worker_class or path.conditional or ""), path


def test_a_guard_only_fix_title_still_adds_nothing_without_a_run(tmp_path: Path) -> None:
    lines = thread("vllm-project/vllm · pull request #7011 · open · Python",
                   "[Bugfix] Better error message when enabling EAGLE3 on ROCm for ModelX", "2026-06-13",
                   "Raises a clear error instead of an assertion deep in the model runner.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


# --- a third-party tracker: the engine's own failure told in the past tense -------------------


def test_a_trainer_issue_saying_the_vllm_server_crashed_names_its_run(tmp_path: Path) -> None:
    lines = thread("acme/rl-loop · issue #812 · open · Python",
                   "[Bug] rollout engine crashes with EAGLE3 after the first weight sync", "2026-05-10",
                   "Our rollouts run on vLLM 0.24.0. After the first weight sync, the vLLM server crashed"
                   " while EAGLE3 was on.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and "EagleProposer" in (path.worker_class or path.conditional or ""), path


@pytest.mark.parametrize("said", [
    "Today vLLM crashes when EAGLE3 is combined with pipeline parallelism, so this proposes a guard.",
    "If the vLLM server crashed with EAGLE3, the wrapper should restart it.",
    "The vLLM server never crashed with EAGLE3 in our tests.",
])  # fmt: skip
def test_an_engine_failure_said_in_general_or_as_a_condition_shows_no_run(tmp_path: Path, said: str) -> None:
    lines = thread("acme/serve-wrapper · issue #96 · open · Python",
                   "Restart policy for the rollout engine with EAGLE3", "2026-05-10", said)  # fmt: skip
    assert _none(_path(tmp_path, lines))


# --- numbers another source gives are that source's run ----------------------------------------


@pytest.mark.parametrize("said", [
    "For reference, SGLang reports an acceptance length of 3.2 and a 1.9x speedup with the same draft.",
    "The model card says the draft reaches a 62% acceptance rate and 1.6x speedup.",
    "According to the paper, the draft gets 3.1 accepted tokens per step and 2.4x speedup.",
])  # fmt: skip
def test_an_adding_pr_quoting_another_source_s_numbers_stays_without_a_path(tmp_path: Path, said: str) -> None:
    lines = thread("vllm-project/vllm · pull request #7012 · open · Python",
                   "[Spec Decode] Add EAGLE3 support for ModelY", "2026-06-03",
                   "## Purpose", "Adds the aux hidden state outputs to ModelY for an EAGLE3 draft.", said)  # fmt: skip
    assert _none(_path(tmp_path, lines))


# --- a question asking why an outcome the writer saw happens reports their run ----------------


@pytest.mark.parametrize("title", [
    "[Usage]: Why does the acceptance rate of the second token drop so much with a two-layer Eagle3 draft?",
    "[Question] Why is the Eagle3 acceptance length so low on long prompts?",
])  # fmt: skip
def test_a_why_question_about_an_observed_outcome_names_its_run(tmp_path: Path, title: str) -> None:
    lines = ["vllm-project/vllm · issue #7013 · open · Python", "labels: usage", f"# {title}", "",
             "dev-a · description · 2026-01-29", "### Your current environment", "```",
             "PyTorch version              : 2.9.0+cu128", "GPU 0: NVIDIA GeForce RTX 4090", "```",
             "", *PROBE]  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "EagleProposer")


@pytest.mark.parametrize("title", [
    "[Usage]: Why does vLLM not support Eagle3 drafts with two layers?",
    "[Usage]: Why is a separate Eagle3 draft needed for each target?",
    "[Usage]: How do I get a higher Eagle3 acceptance rate?",
    "[Feature]: Why not make the Eagle3 acceptance rate drop less on long prompts?",
    "[Usage]: Why does the Eagle3 acceptance rate drop in the blog's chart at temperature 1.0?",
    "[Usage]: Why is the Eagle3 acceptance length in the paper so low at batch 64?",
])  # fmt: skip
def test_a_question_about_code_or_usage_stays_apart(tmp_path: Path, title: str) -> None:
    lines = ["vllm-project/vllm · issue #7014 · open · Python", "labels: usage", f"# {title}", "",
             "dev-a · description · 2026-01-29", "### Your current environment", "```",
             "PyTorch version              : 2.9.0+cu128", "```", "", *PROBE]  # fmt: skip
    assert _none(_path(tmp_path, lines))


# --- a run line naming only another engine than the tracker's is that engine's run -------------


def test_a_wish_on_vllm_s_tracker_whose_check_ran_on_sglang_stays_without_a_path(tmp_path: Path) -> None:
    lines = thread("vllm-project/vllm · issue #7015 · open · Python", "Support EAGLE3 drafts for ModelZ",
                   "2026-06-01", "ModelZ has an EAGLE3 draft on the hub. I tested the draft on SGLang and it"
                   " gets a 2.1x speedup there; vLLM rejects it.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_check_naming_the_tracker_s_own_engine_still_shows_the_run(tmp_path: Path) -> None:
    lines = thread("vllm-project/vllm-ascend · issue #7016 · open · Python",
                   "[Bug]: Eagle3 acceptance collapses on two cards", "2026-06-01",
                   "I tested the Eagle3 draft with vLLM 0.18.0 on two 910B cards and acceptance falls to 1.1.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and "AscendEagleProposer" in (path.worker_class or path.conditional or ""), path
