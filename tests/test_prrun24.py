"""Pull requests, comments and bare bodies that report their own runs (issue 11, session 24,
PRRUN), against texts in the same words that show none.

A PR body shows its run where the author says the check was done on a rig ("Verified locally on
MI300X", even under "## Test plan"), names the rig in a section of its own tests ("## Accuracy
Tests" / "| Hardware | Ascend 910B * 8 |", "## Results" / "4×H200, greedy"), or tells its
team's production incident ("We encountered this crash in production"). A legend ("`1.00` = no
speculation") and code's properties ("the kernel is plain CUDA C++") say no run is plain. A
sentence opening with inline-code flags is prose ("`--x` without `--y` could fall back to ..."),
not a command. SGLang's `--speculative-adaptive` runs only in the EAGLE workers; a bare nightly
tag (`nightly-dev-cu13-YYYYMMDD-<sha>`) names its day; a family word may run into CJK text
("MTP2叠加"). Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, assert_verdict, probed_path, roots, run

from spectrace.assemblers.launch_span import code_flags
from spectrace.assemblers.quotes import plain_run
from spectrace.assemblers.run_prose import told_run
from spectrace.assemblers.run_results import done_check, rig_row
from spectrace.assemblers.sections import heading_tested
from spectrace.assemblers.sglang_version import nightly_day, other_release
from spectrace.dialects.base import LogLine
from spectrace.path_base import _sentence_words
from spectrace.path_terms import term_matches


def _line(text: str) -> LogLine:
    return LogLine("t.md", 1, 0, text, text, "plain", "")


# ---- a fix PR's test plan holding the author's check on a rig --------------------------------

NGRAM_PR = [
    "[AMD] kernels: enable NGRAM speculative decoding on ROCm (build the tree-mask op) · Pull Request #41777 · sgl-project/sglang",
    "https://github.com/sgl-project/sglang/pull/41777", "",
    "dev-rocm commented on Jul 14, 2026", "## Summary", "",
    "Enables NGRAM speculative decoding on ROCm by compiling the missing op into the ROCm kernels.", "",
    "### Root cause",
    "`srt/speculative/ngram_worker.py:_prepare_for_speculative_decoding` calls an op that was CUDA-only.", "",
    "On ROCm this raised, at the first speculative step:", "```",
    "AttributeError: '_OpNamespace' 'sgl_kernel' object has no attribute 'build_tree_mask_indices'",
    "```", "which killed the scheduler, so every NGRAM run on ROCm dies at once.", "",
    "### Fix", "- Add the op's source to the ROCm build.", "",
    "The kernel is plain CUDA C++ and hipifies cleanly.", "",
    "## Test plan", "",
]


def _decided(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the most decided WorkerPath
    """The most decided worker path of the root causes (the text's own crash and a probe's)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]


def test_a_test_plan_with_the_authors_check_on_a_rig_is_the_run(tmp_path: Path) -> None:
    path = _decided(tmp_path, [*NGRAM_PR, "Verified locally on **MI300X (gfx942)**, ROCm 6.4"])
    assert_verdict(path, "other", "NGRAMWorker")


@pytest.mark.parametrize("plan", [
    "- [ ] Verify on MI300X (gfx942)",  # an open box
    "Will verify on MI300X once the runner is back.",  # planned
    "Not yet verified on MI300X.",  # not done
])  # fmt: skip
def test_a_test_plan_with_no_check_done_stays_a_pr_adding_the_method(tmp_path: Path, plan: str) -> None:
    assert_no_path(tmp_path, [*NGRAM_PR, plan])


@pytest.mark.parametrize(("text", "done"), [
    ("Verified locally on MI355X (gfx950), ROCm 7", True),
    ("Tested on 8x H200 with the fix applied.", True),
    ("- [x] Verified on B300 with EAGLE3", True),
    ("Verified locally.", False),  # no rig
    ("Should be verified on H100.", False),
    ("- [ ] Tested on 8x H200", False),
    ("Not tested on H100 yet.", False),
])  # fmt: skip
def test_a_done_check_names_a_rig_and_is_done(text: str, done: bool) -> None:
    assert done_check(text) is done


@pytest.mark.parametrize(("text", "plain"), [
    ("The kernel is plain CUDA C++ and hipifies cleanly.", False),
    ("The sampler is plain PyTorch.", False),
    ("My server is plain.", True),
    ("Not for us, my server is plain and crashes anyway:", True),
    ("It was plain vLLM, no spec config.", True),
    ("gpt-oss-120b, 2×H100, greedy. Values are tokens / forward (`1.00` = no speculation, `8.00` = max).", False),
    ("Same crash with no speculative decoding.", True),
    ("ROCm without `--speculative-algorithm` is unchanged.", False),  # which runs the code touches
    ("Same crash without `--speculative-algorithm`.", True),
])  # fmt: skip
def test_what_code_is_and_a_figures_legend_say_no_run_is_plain(text: str, plain: bool) -> None:
    assert plain_run(_line(text)) is plain


# ---- a results section naming its rig --------------------------------------------------------

TRT_FEATURE = [
    "[None][feat] Support per-aux norms for Eagle3 drafts by dev-t · Pull Request #15001 · NVIDIA/TensorRT-LLM",
    "https://github.com/NVIDIA/TensorRT-LLM/pull/15001", "", "Merged", "",
    "## Description", "",
    "Adds support for EAGLE-3.1 draft checkpoints (post-norm and per-aux norms).", "",
    "The change is additive and keeps existing drafters as they were.", "",
]
TRT_RESULTS = [
    "## Results", "",
    "llama-3.3-70b, 4×H200, `max_draft_len: 5`, greedy. Values are **tokens / forward** "
    "(`1.00` = no speculation, `6.00` = max).", "",
    "| prompt | baseline draft low / high | **EAGLE3.1 draft low / high** |", "|---|---|---|",
    "| qa_short | 2.10 / 2.30 | 2.60 / 2.90 |",
]


def test_a_feature_prs_results_on_a_rig_are_its_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*TRT_FEATURE, *TRT_RESULTS])
    assert_verdict(path, "unknown", "Eagle3OneModelWorker|ModelDrafter")


def test_the_same_feature_pr_with_no_results_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, TRT_FEATURE)


NPU_PR = [
    "sgl-project/sglang · pull request #40001 · merged · Python", "# [NPU] Adaptive speculation on NPU graphs", "",
    "dev-npu · description · 2026-06-02", "## Motivation", "",
    "This extends the earlier adaptive-speculation change to the NPU graphs.", "",
    "## Modifications", "", "- Both EAGLE worker implementations get the same change.", "",
]
NPU_TABLE = ["### Environment", "", "| Item | Value |", "|---|---|", "| Hardware | Ascend 910B * 8 |",
             "| TP Size | 8 |", "| Speculative Algorithm | EAGLE |", "| Speculative Steps | 3 |"]  # fmt: skip


def test_a_rig_row_in_the_prs_accuracy_tests_is_its_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*NPU_PR, "## Accuracy Tests", "", *NPU_TABLE])
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_the_same_table_under_requirements_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [*NPU_PR, "## Requirements", "", *NPU_TABLE])


@pytest.mark.parametrize(("text", "rig"), [
    ("| Hardware | Ascend 910B * 8 |", True),
    ("GPU: 2x H100", True),
    ("gpt-oss-120b, 2×H100, `max_draft_len: 7`, greedy.", True),
    ("| TP Size | 8 |", False),
    ("Hardware: should work on any H100.", False),
    ("The H100 kernel path is unchanged.", False),  # a chip, no counted rig, no rig key
    ("MTP has not been tested on 8x B200 yet.", False),
])  # fmt: skip
def test_a_rig_row_names_the_rig(text: str, rig: bool) -> None:
    assert rig_row(text) is rig


@pytest.mark.parametrize(("heading", "before", "tested"), [
    ("## Accuracy Tests", False, True),
    ("## Test Results", False, True),
    ("### Environment", True, True),  # under a tests heading
    ("### Environment", False, False),  # an issue form's environment
    ("## Modifications", True, False),
    ("plain text line", True, True),  # no heading: the state goes on
])  # fmt: skip
def test_a_section_of_the_texts_own_tests(heading: str, before: bool, tested: bool) -> None:
    assert heading_tested(heading, before) is tested


# ---- a production incident told in a fix PR -------------------------------------------------

TRT_FIX = [
    "NVIDIA/TensorRT-LLM · pull request #13001 · merged · Python",
    "# [None][fix] Warn instead of asserting on unsupported logprobs in the spec sampler", "",
    "dev-u · description · 2026-04-02", "## Summary",
    "- Requests asking for logprobs with speculative decoding hit an `AssertionError` in the sampler base.",
    "- Replace the assertions with warnings.", "", "### Background",
]


def test_a_production_incident_in_a_fix_pr_is_its_run(tmp_path: Path) -> None:
    lines = [*TRT_FIX, "We encountered this crash in production when serving a 480B coder model with MTP "
             "speculative decoding; clients sending logprobs=True killed the engine."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "MTPEagleWorker|MTPWorker")


def test_a_crash_that_could_happen_in_production_is_no_run(tmp_path: Path) -> None:
    lines = [*TRT_FIX, "This crash could be encountered in production if a client sends logprobs=True "
             "to an MTP server."]  # fmt: skip
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("text", "told"), [
    ("Our MTP serving cluster encountered this crash in production.", True),
    ("I ran into the same hang in production last week.", True),
    ("The assertion was first encountered in production.", True),
    ("This could be encountered in production.", False),
    ("The assertion could be hit in production whenever a client asks for logprobs.", False),
    ("We hit the crash in production twice.", True),
    ("Reproduced twice (2/2 boots) on the 2026-07-08 nightly.", True),
    ("Reproduced 3 times on our H200 node.", True),
    ("Not reproduced twice in a row.", False),
    ("If you see this in production, restart the server.", False),
])  # fmt: skip
def test_told_production_incidents(text: str, told: bool) -> None:
    assert told_run(text) is told


def test_a_runbook_naming_production_crashes_and_options_shows_no_run(tmp_path: Path) -> None:
    lines = ["# Runbook: MTP server restarts", "",
             "If you encounter this crash in production while serving with MTP speculative decoding, restart the",
             "engine and collect the scheduler log. The assertion could be hit in production whenever a client",
             "asks for logprobs.", "", "Checks before the restart:",
             "- `--speculative-algorithm NEXTN` should be in the launch command.",
             "- The `--speculative-adaptive` option is not supported with this recipe."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# ---- a sentence that opens with inline-code flags is prose --------------------------------------

@pytest.mark.parametrize(("text", "flags"), [
    # what the flags could make the code do: none is a run's
    ("`--speculative-algorithm EAGLE3` without `--speculative-draft-model-path` could fall back to "
     "loading the target as the draft.", ""),
    ("`--speculative-algorithm NGRAM` crashes at the first speculative step.", "--speculative-algorithm NGRAM"),
    ("`--speculative-algorithm NGRAM` (with `--attention-backend triton`) dies on ROCm.",
     "--speculative-algorithm NGRAM --attention-backend triton"),
    ("`--tp 2` `--speculative-algorithm EAGLE`", None),  # a flag line in code marks
    ("Nothing quoted here.", None),
])  # fmt: skip
def test_flags_quoted_in_a_sentence(text: str, flags: str | None) -> None:
    assert code_flags(_line(text)) == flags


def test_a_fix_prs_motivation_quoting_flags_sets_none(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #40500 · open · Python", "# Require a draft path for EAGLE3", "",
             "dev-v · description · 2026-08-20", "## Motivation", "",
             "`--speculative-algorithm EAGLE3` without `--speculative-draft-model-path` could fall back to loading "
             "the target checkpoint as the draft model.", ""]  # fmt: skip
    analysis = run(tmp_path, [*lines, *PROBE])
    (crash,) = roots(analysis)
    said = " ".join(e.text for e in (crash.worker_path.evidence if crash.worker_path else ()))
    assert "launch command" not in said


# ---- adaptive speculation is the EAGLE workers', and a nightly tag names its day ------------------

ADAPTIVE = [
    "## Describe the bug", "",
    "Enabling `--speculative-adaptive` crashes the server during startup on all TP ranks:", "", "```",
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/sglang/srt/model_executor/graph_shared_output.py", line 56, in get_rows',
    "    assert rows <= self.max_rows",
    "AssertionError: shared logits buffer holds 64 rows but caller needs 128", "```", "",
]


def test_an_adaptive_crash_on_a_dated_nightly_is_the_v2_eagle_worker(tmp_path: Path) -> None:
    lines = [*ADAPTIVE, "Reproduced twice (2/2 boots) on the 2026-07-02 nightly (`nightly-dev-cu13-20260702-a1b2c3d4`)."]
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    assert_verdict(crash.worker_path, "v2", "EAGLEWorkerV2")


def test_an_adaptive_crash_with_no_day_is_the_eagle_era_condition(tmp_path: Path) -> None:
    (crash,) = roots(run(tmp_path, [*ADAPTIVE, "Reproduced 3 times on our H200 node."]))
    assert crash.worker_path is not None
    assert_verdict(crash.worker_path, "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_adaptive_named_in_a_pr_adding_code_shows_no_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #40600 · open · Python", "# [Spec] Size the logits buffer for adaptive steps",
             "", "dev-w · description · 2026-07-09", "## Modifications", "",
             "- Size the shared buffer from the largest `--speculative-adaptive` candidate."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_the_adaptive_options_name_the_eagle_family() -> None:
    for text in ("run with `--speculative-adaptive`", "--speculative-adaptive-config cfg.json"):
        assert [t.families for t in term_matches(text)] == [("EAGLE",)]


@pytest.mark.parametrize(("text", "day"), [
    ("on the 2026-07-08 nightly (`nightly-dev-cu13-20260708-b3632494`)", "2026-07-08"),
    ("image lmsysorg/sglang:nightly-dev-20250915-abcdef0", "2025-09-15"),
    ("the nightly-dev branch", None),
    ("my-nightly-dev-cu13-20260708-b3632494", None),  # inside another name
])  # fmt: skip
def test_a_nightly_tag_names_its_day(text: str, day: str | None) -> None:
    found = nightly_day(text)
    assert (found.isoformat() if found else None) == day


@pytest.mark.parametrize(("text", "other"), [
    ("Reproduced twice (2/2 boots) on the 2026-07-08 nightly, sglang 0.5.16.", False),
    ("Reproduces on 0.5.9 too.", True),
    ("I could not reproduce on v0.5.9.", True),
])  # fmt: skip
def test_a_writers_count_of_reproductions_is_the_runs_release(text: str, other: bool) -> None:
    assert other_release(text) is other


# ---- a family word running into CJK text ------------------------------------------------------

@pytest.mark.parametrize(("text", "families"), [
    ("[Bug]: GLM5 w4a8权重 MTP3叠加flashcomm 采信率问题", ["MTP"]),
    ("开MTP后吞吐下降", ["MTP"]),
    ("eagle3.py", []),  # a file
    ("MTP_layer", []),  # inside an identifier
    ("MTPを無効にするとクラッシュする", []),  # named as off (ja)
    ("MTP를 끄면 서버가 죽습니다", []),  # named as off (ko)
    ("禁用MTP后仍然崩溃", []),  # named as off (zh)
])  # fmt: skip
def test_a_family_word_glued_to_cjk_text(text: str, families: list[str]) -> None:
    assert [family for family, guard in _sentence_words(text) if guard is None] == families


def test_a_plugin_issue_with_a_glued_family_word_is_the_plugins_mtp(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm-ascend · issue #9901 · closed · C++",
             "labels: bug, mtp/speculative-decode", "# [Bug]: GLM5 w8a8权重 MTP2叠加某特性 接受率下降", "",
             "(APIServer pid=1201) INFO 06-02 10:11:12 [metrics.py:101] SpecDecoding metrics: Mean acceptance length: "
             "2.10, Accepted: 210 tokens, Drafted: 400 tokens, Per-position acceptance rate: 0.700, 0.400, "
             "Avg Draft acceptance rate: 52.5%", "",
             "user-x · comment · 2026-06-03", "环境: vllm 0.20.2, vllm-ascend main"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    said = f"{path.worker_class or ''} {path.conditional or ''}"
    assert "Ascend" in said and "MTP" not in (path.worker_class or "").replace("Ascend", ""), path
