"""Session 37 (FIXT): texts whose only "evidence" is code being changed or described.

A fix pull request whose before/after results are bare pictures, one that quotes an option's
form (its value left out) or an example of what recipes use, and a bug report found by auditing
the source tree with a templated error line show no run: no class, no condition.
The same texts with the run's own lines (a traceback, a launch, a log record, a screenshot of the error
named as such) keep their path. Each test writes its own lines in the shape of the text class
it covers and asserts what a user sees (the worker path's class, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, probed_path, roots, run, store_thread
from spectrace.assemblers.run_prose import fix_evidence

_IMG = '<img width="{w}" height="{h}" alt="image" src="https://example.invalid/{n}.png" />'


def _img(n: int) -> str:
    return _IMG.format(w=900 + n, h=120 + n, n=n)


# --- a fix PR whose results are bare pictures and whose words reason about code ---

SGL_PICTURES = store_thread("sgl-project/sglang", "pull request", 30112, "[AMD] fix eagle3 draft length on ROCm graphs",
                            "2026-04-02", [
    "## Motivation", "",
    "The ROCm EAGLE3 graph runner reused the verify lengths of the previous step, so the draft "
    "step saw stale lengths.", "",
    "## Modifications", "", "Refresh the draft lengths before each replay of the graph.", "",
    "## Accuracy Tests", "before:", _img(1), "", "after:", _img(2), "",
    "## Benchmarking and Profiling", "", "before:", _img(3), "after:", _img(4)])  # fmt: skip

VLLM_PICTURES = store_thread("vllm-project/vllm", "pull request", 51234,
                             "[Bugfix][Spec Decode] Fix MTP draft positions after preemption", "2026-08-11", [
    "## Purpose", "",
    "After a request is preempted and resumed, the MTP proposer kept the positions of the old "
    "schedule. This PR recomputes them from the scheduler output.", "",
    "## Test Result", "", "Before", "", "![image](https://example.invalid/b.png)", "",
    "After", "", "![image](https://example.invalid/a.png)"])  # fmt: skip

TRT_PICTURES = store_thread("NVIDIA/TensorRT-LLM", "pull request", 14021,
                            "[None][fix] Fix Eagle3 one-model acceptance with overlap scheduler", "2026-05-19", [
    "## Description", "",
    "The one-model Eagle3 path read the draft tokens of the wrong iteration when the overlap "
    "scheduler was enabled. The fix takes them from the current batch state.", "",
    "## Test Coverage", "", "| before | after |", "|---|---|", f"| {_img(5)} | {_img(6)} |"])  # fmt: skip


@pytest.mark.parametrize("lines", [SGL_PICTURES, VLLM_PICTURES, TRT_PICTURES], ids=["sglang", "vllm", "trtllm"])
def test_a_fix_pr_whose_results_are_bare_pictures_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# the same fix PRs with the run's own lines pasted: the path stays
_SGL_LAUNCH = ["", "Reproduced with:", "```",
               "python3 -m sglang.launch_server --model-path acme/Orbit-70B --tp 8 --speculative-algorithm EAGLE3 "
               "--speculative-draft-model-path acme/Orbit-70B-eagle3 --speculative-num-steps 3 "
               "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "```"]  # fmt: skip
_VLLM_LAUNCH = ["", "Repro:", "```",
                "vllm serve acme/Orbit-70B --tensor-parallel-size 4 --speculative-config "
                "'{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'", "```"]  # fmt: skip


def test_a_pictured_fix_pr_with_its_launch_keeps_its_path(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*SGL_PICTURES, *_SGL_LAUNCH])
    assert path.conditional or path.worker_class in ("EAGLEWorker", "EAGLEWorkerV2"), path
    assert "EAGLEWorker" in (path.conditional or path.worker_class or "")
    launch = len(SGL_PICTURES) + 4  # the launch line's number (1-based) in the written log
    assert any(e.lineno == launch for e in path.evidence), path.evidence


def test_a_pictured_vllm_fix_pr_with_its_launch_keeps_its_path(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*VLLM_PICTURES, *_VLLM_LAUNCH])
    said = path.conditional or path.worker_class or ""
    assert "EagleProposer" in said or "MTPSpeculator" in said, path
    launch = len(VLLM_PICTURES) + 4
    assert any(e.lineno == launch for e in path.evidence), path.evidence


def test_a_pictured_fix_pr_with_its_traceback_keeps_its_path(tmp_path: Path) -> None:
    frames = ["", "Crash seen on the unfixed branch:", "```", "Traceback (most recent call last):",
              '  File "/opt/sgl/python/sglang/srt/speculative/eagle_worker.py", line 300, in forward_batch_generation',
              "    self.draft(batch)",
              "RuntimeError: shape mismatch in draft lengths", "```"]  # fmt: skip
    for crash in roots(run(tmp_path, [*SGL_PICTURES, *frames])):
        path = crash.worker_path
        assert path is not None and (path.worker_class or path.conditional), path
        assert "EAGLEWorker" in (path.worker_class or path.conditional or ""), path


@pytest.mark.parametrize("line", [
    '<img width="800" alt="error log" src="https://example.invalid/e.png" />',
    "![traceback](https://example.invalid/t.png)",
    '<img alt="OOM at capture" src="https://example.invalid/o.png">',
])  # fmt: skip
def test_a_screenshot_named_as_the_runs_output_is_fix_evidence(line: str) -> None:
    assert fix_evidence(line)


@pytest.mark.parametrize("line", [
    _img(7), "![image](https://example.invalid/x.png)", "![chart](https://example.invalid/c.png)",
    "[![Review](https://example.invalid/badge.svg)](https://example.invalid/r)",
])  # fmt: skip
def test_a_bare_picture_is_no_fix_evidence(line: str) -> None:
    assert not fix_evidence(line)


# --- a fix PR quoting an option's form (its value left out) or an example of what recipes use ---

VLLM_SCHEMA = store_thread("vllm-project/vllm", "pull request", 55001,
                           "[Bugfix][Spec Decode] Respect the draft's kv_cache_dtype on the V2 runner", "2026-09-03", [
    "## Purpose", "",
    "`--speculative-config '{\"kv_cache_dtype\": ...}'` never reaches the draft on Model Runner V2.", "",
    "The drafter builds its config from the target's, so the override is lost for `eagle`, `mtp` and "
    "`dflash`.", "",
    "Recipes for MTP set it routinely, e.g.",
    "`--speculative-config '{\"method\":\"mtp\",\"kv_cache_dtype\":\"fp8\", ...}'`.", "",
    "## Test Plan", "", "- unit test for the draft config builder"])  # fmt: skip

SGL_SCHEMA = store_thread("sgl-project/sglang", "pull request", 33007,
                          "[Fix] Honour the draft attention backend in the multi-layer worker", "2026-07-21", [
    "## Motivation", "",
    "`--speculative-draft-attention-backend <BACKEND>` is dropped when the multi-layer EAGLE worker "
    "builds its draft runner.", "",
    "Deployments pass it with NEXTN, such as",
    "    --speculative-algorithm NEXTN --speculative-draft-attention-backend fa3", "",
    "## Modifications", "", "Forward the option to the draft model runner."])  # fmt: skip

VLLM_QUANT_SCHEMA = store_thread("vllm-project/vllm", "pull request", 55100,
                          "[Bugfix] Keep the draft's quantization override for EAGLE3", "2026-10-02", [
    "## Purpose", "",
    "`--speculative-config {...}` accepts a `quantization` member that the EAGLE3 path ignores.", "",
    "Published configs use it, such as",
    "`--speculative-config '{\"method\": \"eagle3\", \"quantization\": \"fp8\", ...}'`", "",
    "## Test Plan", "", "Unit tests only."])  # fmt: skip


@pytest.mark.parametrize("lines", [VLLM_SCHEMA, SGL_SCHEMA, VLLM_QUANT_SCHEMA], ids=["vllm-mtp", "sglang-nextn", "vllm-eagle3"])
def test_a_fix_pr_quoting_an_options_form_and_an_example_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_a_fix_pr_whose_writer_launched_the_quoted_config_keeps_its_path(tmp_path: Path) -> None:
    told = ["", "We launched `vllm serve acme/Orbit-70B --speculative-config "
            "'{\"method\":\"mtp\",\"num_speculative_tokens\":2,\"kv_cache_dtype\":\"fp8\"}'` and the draft "
            "still allocated a bf16 cache (log: `draft kv cache dtype: bfloat16`)."]  # fmt: skip
    path = probed_path(tmp_path, [*VLLM_SCHEMA, *told])
    said = path.conditional or path.worker_class or ""
    assert "EagleProposer" in said or "MTPSpeculator" in said, path


# --- a bug report found by auditing the source tree, its error a template ---

def _audit(repo: str, number: int, title: str, day: str, said: list[str], error: str) -> list[str]:
    return store_thread(repo, "issue", number, title, day, [
        "### Describe the bug", "", *said, "",
        "Any model served through one of the workers without it dies on its first step with:", "",
        "```", error, "```"])  # fmt: skip


SGL_AUDIT = _audit("sgl-project/sglang", 41002,
                   "[Bug] Spec-v2 workers disagree on the verify() signature, 3 of 6 lack the new argument", "2026-10-05", [
    "The scheduler now passes `hidden_override` to every spec-v2 worker.", "",
    "Audit of `python/sglang/srt/speculative/` on main:", "",
    "| worker file | takes `hidden_override` |", "|---|---|",
    "| `eagle_worker_v2.py` | yes |", "| `multi_layer_eagle_worker_v2.py` | no |", "| `ngram_worker.py` | no |"],
    "TypeError: <Worker>.verify() got an unexpected keyword argument 'hidden_override'")  # fmt: skip

VLLM_AUDIT = _audit("vllm-project/vllm", 56010,
                    "[Bug]: EAGLE3 proposer on Model Runner V2 misses the new num_rejected argument", "2026-10-09", [
    "We audited the proposers' source on main after the sampler change:", "",
    "- `eagle.py`: takes it", "- `dflash.py`: missing", "- `medusa.py`: missing"],
    "TypeError: <Proposer>.propose() got an unexpected keyword argument 'num_rejected'")  # fmt: skip

SGL_GREP_AUDIT = _audit("sgl-project/sglang", 41100,
                   "[Bug] DSPARK and DFLASH v2 workers skip the draft cache reset", "2026-10-12", [
    "Grepping the codebase for `reset_draft_cache` shows only the EAGLE v2 worker calls it;",
    "`dspark_worker_v2.py` and `dflash_worker_v2.py` never do."],
    "AssertionError: <Worker> draft cache not reset before verify")  # fmt: skip


@pytest.mark.parametrize("lines", [SGL_AUDIT, VLLM_AUDIT, SGL_GREP_AUDIT], ids=["sglang-table", "vllm-list", "sglang-grep"])
def test_a_source_audits_templated_error_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    crashes = roots(run(tmp_path, lines))
    assert crashes
    for crash in crashes:
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


def test_the_same_error_met_by_the_writers_run_keeps_a_path(tmp_path: Path) -> None:
    lines = store_thread("sgl-project/sglang", "issue", 41200, "[Bug] NEXTN multi-layer worker crashes on verify",
                         "2026-10-06", [
        "### Describe the bug", "",
        "I launched `python3 -m sglang.launch_server --model-path acme/Orbit-70B --speculative-algorithm NEXTN "
        "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --tp 8` on 0.5.19 "
        "and it crashes on the first step:", "",
        "```", "Traceback (most recent call last):",
        '  File "/sgl/python/sglang/srt/managers/scheduler.py", line 1200, in run_batch',
        "    out = self.model_worker.forward_batch_generation(batch, hidden_override=h)",
        "TypeError: MultiLayerEagleWorkerV2.forward_batch_generation() got an unexpected keyword argument "
        "'hidden_override'", "```"])  # fmt: skip
    for crash in roots(run(tmp_path, lines)):
        path = crash.worker_path
        assert path is not None and (path.worker_class or path.conditional), path
