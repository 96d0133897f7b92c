"""vLLM runs told without a launch line (session 25, VRUN; the shapes of R74 08, R74 15, R74 21,
R74 23, R72 20 and R72 21): a results table of the run's measurements, a labelled target/draft
pair, a CI build that failed on a named test, a flag sentence citing where its harness came
from, and an expectation that names a plain rate. Lines are our own, in the shapes reports take."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, probed_path


def _issue(repo: str = "vllm-project/vllm", kind: str = "issue", title: str = "[Performance]: MTP slower") -> list[str]:
    return [f"{repo} · {kind} #71001 · open · Python", f"# {title}", "", "someone · description · 2026-08-04"]


TABLE = ["| Configuration | Accuracy | Reward |", "|---|---:|---:|", "| MTP-0 baseline | 25.6% | 33.1% |",
         "| MTP-1 + prefix cache | 8.7% | 12.2% |"]  # fmt: skip


def test_a_results_table_shows_a_run_named_in_words(tmp_path: Path) -> None:
    """A downstream repository's issue names vLLM's MTP in words and measures it in a table."""
    lines = [*_issue("acme/rl-trainer", title="MTP rollouts of our 30B model go wrong once prefix caching is on"),
             "Our trainer serves rollouts with vLLM MTP speculative decoding and prefix caching.", "", *TABLE]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and "EagleProposer" in path.conditional and "MTPSpeculator" in path.conditional


def test_without_the_table_the_text_shows_no_run(tmp_path: Path) -> None:
    lines = [*_issue("acme/rl-trainer", title="MTP rollouts of our 30B model go wrong once prefix caching is on"),
             "Our trainer serves rollouts with vLLM MTP speculative decoding and prefix caching."]  # fmt: skip
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(
    "header",
    [
        "| Draft head | Verify steps per s (median) | Output tok/s (median) | Accepted per draft (median) |",
        "| Mode | Spec tokens | Throughput (tok/s) | Speedup vs SD |",
    ],
)
def test_a_fork_pr_measuring_its_own_mtp_arms_is_a_run(tmp_path: Path, header: str) -> None:
    lines = [*_issue("acme-lab/vllm", "pull request", "perf(glm): add opt-in NVFP4 MTP proposal head"),
             "Post-rebase A/B on 4x RTX PRO 6000, MTP depth 3, both arms on `acme/vllm:dev-20260905`.", "", header,
             "|---|---:|---:|---:|", "| BF16 | 100.0 | 292.6 | 1.93 |"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "EagleProposer" in (path.conditional or "") or path.worker_class == "EagleProposer", path


@pytest.mark.parametrize(
    "row",
    [
        "| Configuration | Notes | Owner |",  # no metric
        "| Accuracy | Reward |",  # two cells
    ],
)
def test_no_results_table_without_a_metric_header(tmp_path: Path, row: str) -> None:
    lines = [*_issue("acme/rl-trainer", title="MTP rollouts of our 30B model go wrong once prefix caching is on"),
             "Our trainer serves rollouts with vLLM MTP speculative decoding and prefix caching.", "", row]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_labelled_model_pair_names_the_draft(tmp_path: Path) -> None:
    lines = [*_issue(kind="pull request", title="[spec decode] Let the draft length adapt per step"),
             "#### Model pair 2: `acme/opt-6.7b` + `acme/opt-125m` (mt-bench, c=4)", "",
             "| Mode | Spec tokens | Throughput (tok/s) | Speedup vs SD |", "|---|---|---|---|",
             "| SD | 5 | 192.5 | 1.00x |"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "DraftModelProposer" in (path.conditional or ""), path


def test_a_model_pair_without_a_run_gives_no_path(tmp_path: Path) -> None:
    lines = [*_issue(kind="pull request", title="[Feature] Let the draft length adapt per step"),
             "#### Model pair 2: `acme/opt-6.7b` + `acme/opt-125m`", "", "Tests will follow."]  # fmt: skip
    assert_no_path(tmp_path, lines)


CI = ("Spec Decode Eagle Nightly B200 ([#6372](https://buildkite.com/acme/ci/builds/6372/canvas)) fails on "
      "`test_eagle_correctness_*[FLASH_ATTN-llama_eagle]`. The test forces FLASH_ATTN, so the head dim is rejected.")  # fmt: skip


def test_a_ci_build_failing_on_a_named_test_is_a_run(tmp_path: Path) -> None:
    lines = [*_issue(kind="pull request", title="[CI] Skip FLASH_ATTN eagle test on Blackwell")[:2],
             "", "someone · description · 2026-04-30", "## Purpose", "", CI]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


@pytest.mark.parametrize(
    "line",
    [
        "The nightly would fail on `test_eagle_correctness` once FA4 lands (see https://buildkite.com/acme/ci/builds/6372).",
        "This combination fails on `test_eagle_correctness` on Blackwell.",  # no build linked
    ],
)
def test_no_ci_run_from_a_forecast_or_without_a_build(tmp_path: Path, line: str) -> None:
    lines = [*_issue(kind="pull request", title="[CI] Skip FLASH_ATTN eagle test on Blackwell")[:2],
             "", "someone · description · 2026-04-30", "## Purpose", "", line]  # fmt: skip
    assert_no_path(tmp_path, lines)


FLAGS = ("Setup: a 4B hybrid model on a single B70, `--speculative-config '{\"method\":\"qwen3_5_mtp\",\"num_speculative_tokens\":3}'`, "
         "greedy, 30 repeats (bob's harness from acme/lab PR #47, larger prompt pool).")  # fmt: skip


def test_a_flag_sentence_citing_its_harness_is_the_run(tmp_path: Path) -> None:
    lines = [*_issue(kind="pull request", title="[Bugfix] Reject shape-aliased prefills")[:2], "",
             "someone · comment · 2026-09-13", "End-to-end confirmation on one Arc B70.", "", FLAGS]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "EagleProposer" in (path.conditional or "") or path.worker_class == "EagleProposer", path


def test_a_flag_sentence_citing_another_report_stays_apart(tmp_path: Path) -> None:
    line = FLAGS.replace("bob's harness from acme/lab PR #47", "the same config as #47")
    lines = [*_issue(kind="pull request", title="[Bugfix] Reject shape-aliased prefills")[:2], "",
             "someone · comment · 2026-09-13", line]  # fmt: skip
    assert_no_path(tmp_path, lines)


DYNAMIC = [
    "Turning on **dynamic speculation** on our 120B MTP deployment (two draft tokens) changes two things:",
    "2. **Surprising:** total throughput falls apart as concurrency grows, *not* just \"speculation switched off at large batches.\"",
    "The naive expectation: past five concurrent requests, throughput should drop back to the **non-spec** decode rate.",
]


def test_an_expected_plain_rate_does_not_cut_the_run_off(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*_issue(title="[Performance]: dynamic speculation collapses throughput (MTP)"), *DYNAMIC])
    assert "EagleProposer" in (path.conditional or ""), path


@pytest.mark.parametrize(
    "plain",
    [
        "The same crash happens without speculative decoding, so this server is plain.",
        "As expected, the same crash happens without speculative decoding.",
        "This should not happen: the same crash occurs without speculative decoding.",
    ],
)
def test_a_run_said_plain_still_cuts_it_off(tmp_path: Path, plain: str) -> None:
    lines = [*_issue(title="[Bug]: engine crash"), "We first tried MTP (k=2) on this model.", plain]
    assert_no_path(tmp_path, lines)
