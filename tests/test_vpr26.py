"""Pull requests and issues that show their own run by the blocks they hold, against ones that
only tell the conditions of a bug (issue 11, session 26, VPR).

The boundary is structural. A pull request shows its own run in a section of its own tests
(a rig, a container image, a list item giving a figure, a table row with figures, a caption
over measurements), in a server's own log records (vLLM's banner with its release, after the
log prefix), or in a repro line that introduces the block of outcomes below it. A fix PR whose
thread holds none of that only restates, outside its tests, the bug it fixes and the
conditions it needs: no path. A fork of vLLM's tree that names vLLM's model runners runs
vLLM's runners. A comparison list naming both arms on one line ("without ... vs. with ...") is
no plain run, even where one pair errors. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, assert_verdict, roots, run

from spectrace.assemblers.run_prose import told_run
from spectrace.assemblers.run_results import heading_tested, row_under_tests
from spectrace.worker_path import WorkerPath


def probed(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path of the root causes (the text's own and a probe's)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]


def _named(path: WorkerPath) -> str:
    return f"{path.worker_class or ''} {path.conditional or ''}"


# ---- a fix PR telling only the conditions of the bug it fixes ------------------------------

def _fix_pr(purpose: list[str], tests: list[str] | None = None) -> list[str]:
    head = ["vllm-project/vllm · pull request #71234 · open · Python",
            "# [Bugfix] Drop stale draft slots before the grammar bitmask is applied", "",
            "qzhang · description · 2026-08-11", "## Purpose",
            "Fixes [#70990](https://github.com/vllm-project/vllm/issues/70990).", ""]
    return [*head, *purpose, *(tests or [])]


CONDITIONS = [
    # three wordings of "the bug appears under these settings", each read as a result sentence
    ["With MTP drafting, JSON-schema decoding and a thinking model all enabled, requests "
     "intermittently fail with a 500 from the grammar backend.",
     "The drafted tokens straddle the reasoning end marker, so the matcher sees a token it never allowed."],
    ["Once EAGLE3 is paired with `guided_json`, streamed tool calls randomly crash the request "
     "(the grammar rejects a newline token).",
     "The spec-decode path forwards every accepted token to the matcher without the skip list."],
    ["Under ngram speculation plus structured outputs the engine occasionally hangs for a minute "
     "before it aborts the request.", "We now trim the batch before advancing the FSM."],
]


@pytest.mark.parametrize("purpose", CONDITIONS)
def test_fix_pr_telling_only_the_conditions_of_its_bug_gets_no_path(tmp_path: Path, purpose: list[str]) -> None:
    assert_no_path(tmp_path, _fix_pr(purpose))


TESTS_SHOWN = [
    ["## Test Result", "- Image: `acme-lab/vllm:mtp-grammar-fix-cu129` on one node", "- 200/200 tool calls parsed"],
    ["## Test Result", "Replayed the failing workload against the patched server.", "",
     "| run | TPOT (ms) | output tok/s |", "|---|---|---|", "| before | 44.0 | 690 |", "| after | 43.1 | 702 |"],
    ["### How was this patch tested?", "Replayed 200 tool-call requests.", "#### Throughput results",
     "- decode tok/s before: 812", "- decode tok/s after: 809"],
    ["### How was this patch tested?", "Qwen3-30B-A3B, one node.", "#### Acceptance rate comparison",
     "- patched: 0.71", "- unpatched: 0.70"],
]


@pytest.mark.parametrize("tests", TESTS_SHOWN)
def test_the_same_fix_pr_with_its_own_test_results_keeps_its_run(tmp_path: Path, tests: list[str]) -> None:
    path = probed(tmp_path, _fix_pr(CONDITIONS[0], ["", *tests]))
    assert "EagleProposer" in _named(path), path


def test_a_test_section_with_only_plans_or_prose_shows_nothing(tmp_path: Path) -> None:
    planned = ["## Test Plan", "- [ ] rerun the tool-call suite: TBD", "Will post numbers once CI is green."]
    assert_no_path(tmp_path, _fix_pr(CONDITIONS[0], ["", *planned]))


@pytest.mark.parametrize(("text", "shown"), [
    ("- GSM8K accuracy: 0.912", True),
    ("* **TPOT**: 41.2 ms", True),
    ("- Built on `ghcr.io/acme/vllm:nightly-cu128`", True),
    ("| k=3 | 2.41 | 1.9x |", True),
    ("#### Acceptance length numbers", True),
    ("- AIME25: 0.73", True),  # a dataset named AIME is no aim
    ("- target speedup: 2.0", False),  # a goal
    ("- see vllm/v1/spec_decode/eagle.py:214", False),  # a source location, no image
    ("| Prompt | Output |", False),  # a header
    ("#### Benchmark command", False),  # a caption naming no metric
])
def test_rows_under_a_tests_section(text: str, shown: bool) -> None:
    assert row_under_tests(text) is shown


@pytest.mark.parametrize(("heading", "tested"), [
    ("### How was this patch tested?", True), ("## Validation", True), ("## Test Result", True),
    ("#### TPOT comparison before and after", True),  # a caption over the tests' own figures
    ("## Purpose", False), ("## Root cause", False),
])
def test_tests_headings(heading: str, tested: bool) -> None:
    assert heading_tested(heading, False) is tested


# ---- a server's own release record in a PR's log block ------------------------------------

def _deploy_pr(log: list[str]) -> list[str]:
    return ["rigfolk/quad-a6000 · pull request #412 · merged · Shell",
            "# feat(gemma-27b): pin the sampler preset, keep the drafter", "",
            "[turn 1 by tbrandt, continued]", "```",
            "[launcher] speculative: mtp x2",
            "[launcher] prefix cache on",
            *log, "```"]


BANNERS = [
    ["(APIServer pid=7) INFO 10-04 08:11:52 [api_utils.py:345]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.27.1",
     "(APIServer pid=7) INFO 10-04 08:11:52 [api_utils.py:273] non-default args: {'model_tag': '/m/gemma'"],
    ["INFO 10-04 08:11:57 [core.py:93] Initializing a V1 LLM engine (v0.26.0) with config: model='/m/gemma'"],
]


@pytest.mark.parametrize("log", BANNERS)
def test_a_servers_own_release_record_shows_the_prs_run(tmp_path: Path, log: list[str]) -> None:
    path = probed(tmp_path, _deploy_pr(log))
    assert_verdict(path, "unknown", "EagleProposer|MTPSpeculator")


def test_the_same_pr_without_the_servers_records_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _deploy_pr([]))


def test_a_docs_page_listing_the_banner_without_a_log_prefix_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _deploy_pr(["Expect the banner to end in `version 0.27.1` once the server is up."]))


# ---- a fork of vLLM's tree naming vLLM's runners; a repro introducing its outcomes ---------

def _fork_pr(line: str, repo: str = "orchard-ai/vllm") -> list[str]:
    return [f"{repo} · pull request #88 · open · Python",
            "# Runner v2: keep the draft KV block table in sync after preemption", "",
            "mhale · description · 2026-09-20", "## What changed", "",
            "Preempted requests kept a stale draft block table on resume.", "",
            line, "", "| Batch | Outcome |", "|---|---|", "| 16 | garbled after resume |", "| 8 | fine |"]


@pytest.mark.parametrize("line", [
    "The corruption reproduces with GLM-5 TP8, DFlash drafting at depth 4 and the V2 model runner:",
    "It reproduces on our 8-GPU box running DFlash on MRV2, 2k-token chunks:",
])
def test_a_fork_pr_repro_introducing_its_outcomes_is_a_dflash_run_on_mrv2(tmp_path: Path, line: str) -> None:
    assert told_run(line)
    path = probed(tmp_path, _fork_pr(line))
    assert "DFlashSpeculator" in _named(path) and "DFlashProposer" not in _named(path), path


def test_where_a_bug_can_occur_is_no_repro(tmp_path: Path) -> None:
    line = "The corruption reproduces on any setup where DFlash drafting meets the V2 model runner."
    assert not told_run(line)
    assert_no_path(tmp_path, _fork_pr(line))


def test_a_deployment_repository_is_no_fork_of_the_tree(tmp_path: Path) -> None:
    line = "The corruption reproduces with GLM-5 TP8, DFlash drafting at depth 4 and the V2 model runner:"
    path = probed(tmp_path, _fork_pr(line, repo="orchard-ai/vllm-recipes"))
    assert "DFlashProposer" not in _named(path), path  # not put on V1 by a fork's name


# ---- a comparison list naming both arms on one line ----------------------------------------

def test_a_comparison_line_with_both_arms_is_no_plain_run(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · pull request #30011 · merged · Python",
             "# [Bugfix][Spec Decode] Fix draft KV dtype for EAGLE3 on an FP8 target", "",
             "[turn 0 by rkumar, continued]", "We compared three setups:",
             "1: MI300X + without speculative decoding + FP8 vs. MI300X + with speculative decoding + FP8",
             "2: H100 + without speculative decoding + Triton vs. H100 + with speculative decoding + Triton "
             "(errors out on this box, unsupported upstream).",
             "Under FP8 the drafted run lifts throughput by +38% and cuts TPOT by 27%."]
    path = probed(tmp_path, lines)
    assert "EagleProposer" in _named(path), path


def test_a_usage_question_pasting_its_servers_banner_shows_no_run(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #71555 · open", "# [Usage]: how do I turn on MTP for this checkpoint?", "",
             "pbrook · description · 2026-09-30", "My server starts fine without drafting:", "```",
             "(APIServer pid=3) INFO 09-30 10:02:11 [api_utils.py:345]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.27.1",
             "```", "Which flag enables MTP with two tokens?"]
    assert_no_path(tmp_path, lines)


def test_a_fix_pr_naming_the_build_its_failure_ran_on_keeps_its_run(tmp_path: Path) -> None:
    purpose = ["With MTP drafting and JSON-schema decoding on, our replay on the `v0.26.0` image "
               "intermittently fails with a 500 from the grammar backend."]
    path = probed(tmp_path, _fix_pr(purpose))
    assert "EagleProposer" in _named(path), path
