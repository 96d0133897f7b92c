"""SGLang runs told by their own structure, not by a launch line (issue 11, session 26, SPR),
against texts in the same words that show no run.

- SGLang's draft-tree sizes given as a set: the draft tokens with the steps, each with its
  value (a top-k alone may be any engine's sampling setting) ("num_steps=3, topk=1, draft_tokens=4", "2 steps / top-k 1 / 3 draft tokens").
  Only SGLang sizes a speculative run by these (``speculative_num_steps``,
  ``speculative_eagle_topk``, ``speculative_num_draft_tokens``); vLLM counts
  ``num_speculative_tokens``, TensorRT-LLM ``max_draft_len`` / ``max_total_draft_tokens``. Such a
  line names SGLang for a run shown by its own lines, in a plugin's or a lab's repository; the
  release stays open (a condition over SGLang's EAGLE workers), never the tracker's newest.
- A report that served a command without speculation may table what it tried on the same setup
  under a heading over its attempts ("## Levers tried", "| Attempt | Result |"): a row whose
  later cell holds the error the attempt raised is a run of its own with that family, where the
  text measured its own run. A known-issues table, a row citing another thread, or a runbook
  that measured nothing stays apart.
- Several families named together on one line, as a fix's or a report's subject ("Fix DSpark
  and DFlash state divergence"), with the run's own lines naming none: the run is one of them,
  the text does not say which, so the condition lists each one's class. Families told on
  separate lines (runs told apart) are no "named together" condition (since session 37 they give
  their own: runs told apart, tests/test_fixl37.py); a fix PR with no run of its own stays unknown.
- A heading naming what was measured ("## Measured low-latency recipe", "### Measurements") opens
  a section of the text's own tests, as "## Benchmark" does: the rig named under it is the rig
  its numbers came from, so a cookbook PR publishing a measured recipe shows its run. The same
  PR under "## Recipe" shows none.
- A results table's header row shows the PR's own measured run wherever the table is written
  without its outer borders ("Concurrency | baseline tok/s | this PR tok/s | Throughput change"
  over "-- | -- | --"), as GitHub allows, and wherever its metric is throughput; a header of
  figures still expected ("expected tok/s after this PR") shows none.
Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, assert_verdict, probed_path, roots, run

from spectrace.assemblers.run_results import heading_tested
from spectrace.assemblers.sections import heading_tried
from spectrace.path_framework_words import size_frameworks
from spectrace.assemblers.run_results import metric_header
from spectrace.path_run import attempt_row

EAGLE_ERA = "EAGLEWorker|EAGLEWorkerV2"


# ---- SGLang's draft-tree sizes as a set --------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("Tested on Bar-8B with EAGLE algorithm (num_steps=4, topk=2, draft_tokens=8).", {"sglang"}),
    ("served with MTP, 2 steps / top-k 1 / 3 draft tokens, on one B200", {"sglang"}),
    ("EAGLE3 (speculative_num_steps: 5, speculative_eagle_topk: 4, speculative_num_draft_tokens: 16)", {"sglang"}),
    ("tree of num_steps 4 and num_draft_tokens=32 on H20", {"sglang"}),
    ("greedy sampling (top_k=1), num_draft_tokens=3", set()),  # a sampling top-k: any engine's
    ("steps 6, draft tokens 7, acceptance 3.1", {"sglang"}),
    ("4 draft tokens per step", set()),  # the draft tokens alone: any engine's count
    ("Eagle3 (max_total_draft_tokens=8, dynamic_tree_max_topK=4)", set()),  # TensorRT-LLM's names
    ("num_speculative_tokens=3 draft tokens", set()),  # vLLM's count
    ("--speculative-num-steps 3 --speculative-num-draft-tokens 4", set()),  # options: their own reader
])  # fmt: skip
def test_tree_sizes_name_sglang(text: str, found: set[str]) -> None:
    assert size_frameworks(text) == found


PLUGIN_PR = [
    "quill-hw/accel-backend · pull request #88 · merged · Python",
    "# feat: multi-token prediction for Bar-8B",
    "",
    "okada · description · 2026-07-21",
    "- Route the draft head's positions through the native rope path",
    "- Add a smoke script under examples/",
    "  - Verified: 9/9 checks passed, 1.4x throughput, accept length 2.2",
    "",
    "Tested on Bar-8B with EAGLE algorithm (num_steps=4, topk=2, draft_tokens=8).",
]
KIT_PR = [
    "kestrel-ai/npu-serving-kit · pull request #31 · merged · Python",
    "# Add EAGLE3 draft support for Lumen-32B",
    "",
    "tkoh · description · 2026-06-14",
    "## Changes",
    "- register the Lumen-32B EAGLE3 draft head with the kit's loader",
    "- handle bf16 rotary caches in the draft forward",
    "",
    "## Results",
    "Benchmarked on 1x H200 with EAGLE3 (speculative_num_steps: 5, speculative_eagle_topk: 4, "
    "speculative_num_draft_tokens: 16): 1.9x speedup over the plain decode.",
]
LAB_ISSUE = [
    "marin-ops/inference-notes · issue #7 · open",
    "# MTP on Foo-32B hangs at batch 64",
    "",
    "ravi-p · description · 2026-09-02",
    "We served Foo-32B with MTP (2 steps / top-k 1 / 3 draft tokens) on one B200: acceptance "
    "length 2.7 at batch 1, and the server hangs once batch 64 is reached.",
]


@pytest.mark.parametrize("lines", [PLUGIN_PR, KIT_PR, LAB_ISSUE], ids=["plugin-pr", "kit-pr", "lab-issue"])
def test_tree_sizes_of_a_run_give_sglangs_eagle_condition(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, lines), "unknown", EAGLE_ERA)


CODE_PR = [
    "quill-hw/accel-backend · pull request #90 · open · Python",
    "# feat: expose EAGLE tree sizes in the plugin config",
    "",
    "okada · description · 2026-07-25",
    "- Add defaults num_steps=3, topk=1, draft_tokens=4 for the EAGLE path",
    "- Document the three knobs in README",
]
GUIDE = [
    "# Serving guide: EAGLE",
    "",
    "To enable EAGLE, set num_steps=3, topk=1, draft_tokens=4 in the server config and restart the service.",
    "Larger trees (topk=4, draft_tokens=16) trade memory for acceptance.",
]
TRT_ISSUE = [
    "acme/trt-bench · issue #4 · open",
    "# Eagle3 dynamic tree slower than linear",
    "",
    "lee · description · 2026-08-01",
    "Tested with Eagle3 on 8x H100 (max_total_draft_tokens=8, dynamic_tree_max_topK=4, "
    "max_draft_len=3): throughput is 10% lower than the linear tree.",
]


JAX_PR = [
    "sgl-project/sglang-jax · pull request #1120 · merged · Python",
    "# [Feat] eagle3 tree drafts",
    "",
    "lingb · description · 2026-05-20",
    "Tested EAGLE3 on TPU v6e-4 (num_steps=3, topk=2, draft_tokens=6): accept length 2.9, 1.6x speedup.",
]
MLX_PR = [
    "ml-explore/mlx-lm · pull request #1200 · merged · Python",
    "# speculative decoding with an EAGLE head",
    "",
    "dev · description · 2026-05-20",
    "Tested on M3 Max with the EAGLE head (num_steps=3, num_draft_tokens=4): 1.5x speedup, accept length 2.1.",
]


@pytest.mark.parametrize("lines", [CODE_PR, GUIDE, TRT_ISSUE, JAX_PR, MLX_PR],
                         ids=["code-pr", "guide", "trt-names", "sglang-jax", "mlx"])  # fmt: skip
def test_tree_sizes_without_a_run_or_of_another_engine_give_no_sglang_path(
    tmp_path: Path, lines: list[str]
) -> None:
    path = probed_path(tmp_path, lines)
    assert not (path.worker_class or "").startswith("EAGLEWorker"), path
    assert "EAGLEWorker" not in (path.conditional or ""), path
    if lines is not TRT_ISSUE:  # another engine's tracker or no run: nothing at all
        assert_no_path(tmp_path, lines)


# ---- a table row telling an attempt and its error ----------------------------------------------

@pytest.mark.parametrize(("text", "row"), [
    ("| EAGLE3 draft head | boots, then dies with `RuntimeError: CUDA error: an illegal memory access` |", True),
    ("| DFlash draft (block 8) | crashed at load: `KeyError: 'model.layers.0.q_proj.weight'` |", True),
    ("| **NEXTN** | ValueError: not supported with pipeline parallel |", True),
    ("| EAGLE | raises `TypeError: forward() got an unexpected keyword argument` (see #123) |", False),
    ("| EAGLE | 4% slower |", False),  # an outcome with no error
    ("EAGLE crashed with `TypeError: forward()`", False),  # a sentence, no row
    ("| `TypeError: x` | EAGLE |", False),  # the error in the first cell: no attempt's outcome
])  # fmt: skip
def test_attempt_rows(text: str, row: bool) -> None:
    assert attempt_row(text) is row


@pytest.mark.parametrize(("lines", "state"), [
    (["## Levers tried — none beat the config above"], True),
    (["### What else we attempted"], True),
    (["| Attempt | Result |"], True),
    (["## Known issues"], False),
    (["## Levers tried", "## Results"], False),  # the next heading ends it
    (["## Levers tried", "| EAGLE | 4% slower |"], True),
])  # fmt: skip
def test_tried_headings(lines: list[str], state: bool) -> None:
    before = False
    for text in lines:
        before = heading_tried(text, before)
    assert before is state


def _recipe(table: list[str], measured: bool = True) -> list[str]:
    return [
        "# Nimbus-120B on 4x RTX 6000 — notes",
        "",
        "Served with:",
        "",
        "```",
        "python3 -m sglang.launch_server --model-path org/Nimbus-120B --tp 4 --kv-cache-dtype fp8_e4m3 --port 8000",
        "```",
        "",
        *(["Measured 1,850 tok/s aggregate at concurrency 256 (bench_serving, random 1K/1K).", ""] if measured else []),
        *table,
    ]


TRIED_HEADING = [
    "## What else we tried",
    "",
    "| Change | Outcome |",
    "|---|---|",
    "| EAGLE3 draft head (3 steps) | boots, then the first verify step dies with "
    "`RuntimeError: CUDA error: an illegal memory access was encountered` |",
    "| `--enable-dp-attention` | 4% slower |",
]
ATTEMPT_HEADER = [
    "| Attempt | Result |",
    "|---|---|",
    "| DFlash draft (block 8) | crashed at load: `KeyError: 'model.layers.0.self_attn.q_proj.weight'` in the draft loader |",
    "| chunked prefill 4096 | no change |",
]


@pytest.mark.parametrize(("table", "classes"), [
    (TRIED_HEADING, EAGLE_ERA),
    (ATTEMPT_HEADER, "DFlashWorker|DFlashWorkerV2"),
], ids=["tried-heading", "attempt-header"])  # fmt: skip
def test_an_attempt_row_under_a_plain_served_command_is_a_run(
    tmp_path: Path, table: list[str], classes: str
) -> None:
    crashes = roots(run(tmp_path, [*_recipe(table), "", *PROBE]))  # the row's error is one too
    assert crashes
    for crash in crashes:
        assert crash.worker_path is not None
        assert_verdict(crash.worker_path, "unknown", classes)


KNOWN_ISSUES = [
    "## Known issues",
    "",
    "| Feature | Status |",
    "|---|---|",
    "| EAGLE3 draft head (3 steps) | the first verify step dies with "
    "`RuntimeError: CUDA error: an illegal memory access was encountered` |",
]
CITED = [*TRIED_HEADING[:4], TRIED_HEADING[4].replace("encountered` |", "encountered` (upstream #123) |")]


@pytest.mark.parametrize(("table", "measured"), [
    (KNOWN_ISSUES, True),  # a known-issues table: no attempt of the writer's
    (CITED, True),  # a row citing another thread: that thread's report
    (TRIED_HEADING, False),  # a runbook that measured nothing: its table is no run's
], ids=["known-issues", "cited", "nothing-measured"])  # fmt: skip
def test_error_rows_that_are_no_attempt_give_no_path(
    tmp_path: Path, table: list[str], measured: bool
) -> None:
    assert_no_path(tmp_path, _recipe(table, measured))


# ---- several families named together on one line -----------------------------------------------

FIX_AB = [
    "sgl-project/sglang · pull request #41234 · merged · Python",
    "# [Spec] Fix EAGLE3 and NGRAM draft length mismatch under DP attention",
    "",
    "hyeon · comment · 2026-09-02",
    "A/B on 8x H100 with the same server flags, 200 prompts, 512 output tokens:",
    "",
    "| build | tok/s | mean accept len |",
    "|---|---:|---:|",
    "| main | 412.3 | 2.41 |",
    "| this PR | 418.9 | 2.47 |",
    "",
    "No regression; the mismatch warning is gone in the patched run.",
]
HANG_REPORT = [
    "sgl-project/sglang · issue #42001 · open",
    "# [Bug] DFlash / DSpark drafts hang after the first retraction",
    "",
    "mo-w · description · 2026-09-12",
    "Running Lyra-34B on 4x B200, the server hangs once the first request is retracted; py-spy "
    "shows the scheduler waiting on the draft stream. Happens at concurrency 64 and above.",
]


@pytest.mark.parametrize(("lines", "classes"), [
    (FIX_AB, "EAGLEWorkerV2|NGRAMWorker"),
    (HANG_REPORT, "DFlashWorkerV2|DSparkWorkerV2"),
], ids=["fix-ab", "hang-report"])  # fmt: skip
def test_families_named_together_give_a_condition_over_each(
    tmp_path: Path, lines: list[str], classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), "unknown", classes)


FIX_NO_RUN = [
    "sgl-project/sglang · pull request #41240 · open · Python",
    "# [Spec] Fix EAGLE3 and NGRAM draft length mismatch under DP attention",
    "",
    "hyeon · description · 2026-09-02",
    "## Motivation",
    "The draft length is read from the EAGLE3 config even when NGRAM is selected, so the verify "
    "buffer is sized wrong.",
    "",
    "## Modifications",
    "- read the draft length from the active algorithm's config",
]
APART = [
    "sgl-project/sglang · issue #42011 · open",
    "# Lyra-34B notes",
    "",
    "mo-w · description · 2026-09-12",
    "DFlash drafts reached 2.9 acceptance length on 4x B200.",
    "DSpark drafts reached 3.4 acceptance length on the same rig, and the server hung at c=64.",
]


def test_a_fix_pr_naming_families_together_without_a_run_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, FIX_NO_RUN)


def test_families_on_separate_lines_are_no_condition_over_both(tmp_path: Path) -> None:
    path = probed_path(tmp_path, APART)
    assert "the families named together" not in (path.conditional or ""), path
    # session 37: the runs told apart give their own condition over each (the server hung in one)
    assert "told apart" in (path.conditional or ""), path


# ---- a heading over what was measured -----------------------------------------------------------

@pytest.mark.parametrize(("heading", "tested"), [
    ("## Measured low-latency recipe", True),
    ("### Measurements", True),
    ("## Measured serving recipe", True),
    ("## Recipe", False),
    ("## Serving recipe", False),
])  # fmt: skip
def test_measured_headings_open_a_tests_section(heading: str, tested: bool) -> None:
    assert heading_tested(heading, False) is tested


def _cookbook(heading: str, number: int) -> list[str]:
    return [
        f"sgl-project/sglang · pull request #{number} · merged · Python",
        "# [Docs] Add Lyra-34B cookbook entry",
        "",
        "lin-q · description · 2026-08-20",
        "## Summary",
        "",
        "- add a Lyra-34B entry with a DSpark low-latency option",
        "- add the launch command generator for the new entry",
        "- publish the GSM8K and serving numbers",
        "",
        heading,
        "",
        "Lyra ships its own draft head, so the measured entry uses `--speculative-algorithm DSPARK` "
        "without a separate draft checkpoint or tree controls.",
        "",
        "Setup: SGLang v0.5.17, 8xH200, model revision pinned for the test only.",
    ]


def _vela(heading: str) -> list[str]:
    return [
        "sgl-project/sglang · pull request #35030 · merged · Python",
        "# [Cookbook] Vela-120B entry",
        "",
        "ko-d · description · 2026-08-02",
        "## Summary",
        "",
        "- add a Vela-120B entry and its DSpark option",
        "- show the block-size slider for DSpark only",
        "",
        heading,
        "",
        "Because the draft head is bundled, the benchmarked config uses `--speculative-algorithm "
        "DSPARK` without extra draft flags.",
        "",
        "Test rig: 4x GB200, SGLang v0.5.16 (commit 1a2b3c4).",
    ]


@pytest.mark.parametrize("lines", [_cookbook("## Measured numbers", 35010), _vela("## Measured serving recipe")],
                         ids=["measured-numbers", "measured-recipe"])  # fmt: skip
def test_a_cookbook_pr_with_a_measured_section_shows_its_run(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


@pytest.mark.parametrize("lines", [_cookbook("## Recipe", 35011), _vela("## Serving recipe")],
                         ids=["recipe", "serving-recipe"])  # fmt: skip
def test_the_same_pr_without_a_measured_section_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# ---- a results table's header row, bordered or bare ------------------------------------------------

@pytest.mark.parametrize(("text", "header"), [
    ("Concurrency | baseline tok/s | this PR tok/s | Throughput change", True),
    ("| Batch | Throughput before (tokens/s) | Throughput after (tokens/s) |", True),
    ("Concurrency | baseline tok/s | expected tok/s after this PR", False),  # still to come
    ("C16 | 8,120 | 9,034", False),  # a row of figures
])  # fmt: skip
def test_metric_headers(text: str, header: bool) -> None:
    assert metric_header(text) is header


def _pd_pr(number: int, motivation: list[str]) -> list[str]:
    return [
        f"sgl-project/sglang · pull request #{number} · merged · Python",
        "# [pd] overlap KV transfer for prefill with dspark",
        "",
        "ana-r · description · 2026-09-10",
        "## Motivation",
        "",
        *motivation,
        "",
        "## Modifications",
        "",
        "- overlap the KV send with the next prefill chunk",
    ]


BARE_TABLE = [
    "Concurrency | baseline tok/s | this PR tok/s | Throughput change",
    "-- | -- | -- | --",
    "C16 | 8,120 | 9,034 | +11.3%",
    "C64 | 8,402 | 9,511 | +13.2%",
]
NGRAM_PR = [
    "sgl-project/sglang · pull request #40120 · merged · Python",
    "# [spec] NGRAM: copy draft KV on device",
    "",
    "ji-h · description · 2026-09-11",
    "## Benchmark",
    "",
    "| Batch | Throughput before (tokens/s) | Throughput after (tokens/s) |",
    "|---|---:|---:|",
    "| 1 | 95 | 104 |",
    "| 32 | 1,880 | 2,010 |",
]


@pytest.mark.parametrize(("lines", "value", "classes"), [
    (_pd_pr(40110, BARE_TABLE), "v2", "DSparkWorkerV2"),
    (NGRAM_PR, "other", "NGRAMWorker"),
], ids=["bare-table", "bordered-throughput"])  # fmt: skip
def test_a_pr_tabling_its_own_throughput_shows_its_run(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), value, classes)


@pytest.mark.parametrize("lines", [
    _pd_pr(40111, ["The KV send waits for the whole prefill; overlapping it with the next chunk should help."]),
    _pd_pr(40112, ["Concurrency | baseline tok/s | expected tok/s after this PR", "-- | -- | --", "C16 | 8,120 | TBD"]),
    NGRAM_PR[:4] + ["- copy the draft KV with a device kernel"],
], ids=["no-table", "expected-table", "code-only"])  # fmt: skip
def test_the_same_prs_without_measured_figures_get_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
