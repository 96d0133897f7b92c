"""Run reports the page gate read as instructions (session 33, post-FINAL fixer AFTER33A).

- A section heading whose parenthesis lists its source and then says "measured" ("### Decode
  cycle (`traces/run_*.json`, measured)") reports the writer's measured run, as "(measured)"
  alone already did; a heading that plans or expects ("(to be measured)", "expected") does not.
- A run's own draft and accept counters on one line ("draft tokens: 8120 | accepted: 5012") are
  a figure the run gave, as an accept length is; a line that only names the counters (no
  figures) gives none.
- A results section's status stamp ("Status: verified. Stamp: <build>, <day>, jobs <ids>") is
  the record of the jobs that gave the results: a recipe page stamped so reports its run; a
  pending status, or a stamp with no job, does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.run_bound import first_run_line
from spectrace.dialects.base import LogLine


def _held(lines: list[str]) -> list[LogLine]:
    return [LogLine("doc.md", n, 0, text, text, "plain", "") for n, text in enumerate(lines, 1)]


# --- a heading's parenthesis naming its source, then "measured" ------------

@pytest.mark.parametrize(("heading", "binds"), [
    ("### Draft cycle (`traces/mtp_bs*.json`, measured)", True),
    ("### Draft cycle (nsys export; verified)", True),
    ("### Draft cycle (measured)", True),
    ("### Draft cycle (`traces/mtp_bs*.json`, to be measured)", False),
    ("### Draft cycle (expected, measured later)", False),
], ids=["source-then-measured", "semicolon-verified", "measured-alone", "to-be-measured", "expected"])
def test_a_headings_parenthesis_ending_in_measured_reports_a_run(heading: str, binds: bool) -> None:
    held = _held(["# Where decode time goes on one card", "## Setup", "- model: a 4B dense model",
                  heading, "| batch | draft ms | verify ms |", "| 1 | 0.81 | 3.9 |"])
    assert (first_run_line(held) is not None) is binds


def _profile(heading: str) -> list[str]:
    return ["# Where decode time goes: a patched SGLang serving a 4B model on one GH200", "",
            "## Setup", "",
            "| item | value |", "|---|---|",
            "| engine | SGLang at a source commit |",
            "| MTP server | `python3 -m sglang.launch_server --tp 1 --model-path org/dense-4b"
            " --speculative-eagle-topk 1 --speculative-algorithm EAGLE --speculative-num-draft-tokens 3"
            " --speculative-num-steps 2` |", "",
            heading, "",
            "| batch | draft | verify | accept length |", "|---|---|---|---|",
            "| 1 | 0.81 ms | 3.9 ms | 2.6 |", "| 8 | 1.02 ms | 5.1 ms | 2.5 |", "",
            "| Output tok/s with no profiler attached | 212 (171) | 1490 (1206) |"]


def test_a_profiling_report_with_a_measured_section_shows_its_launch(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _profile("### Draft cycle (`traces/mtp_bs*.json`, measured)"))
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
    assert path.evidence, path


def test_the_same_page_planning_its_measurement_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _profile("### Draft cycle (`traces/mtp_bs*.json`, to be measured)"))


# --- a run's draft and accept counters ------------

@pytest.mark.parametrize(("line", "binds"), [
    ("- draft tokens: 8120 | accepted: 5012", True),
    ("- drafted tokens = 1,204, accepted tokens = 977", True),
    ("- draft tokens: N | accepted: M", False),
    ("- draft tokens and accepted tokens are counted per position", False),
], ids=["bar", "comma-thousands", "placeholders", "words-only"])
def test_draft_and_accept_counters_with_figures_are_a_runs(line: str, binds: bool) -> None:
    held = _held(["# Prompt-lookup decoding on a small model", "- engine: vLLM 0.15.1 (V1)", "## Details", line])
    assert (first_run_line(held) is not None) is binds


def _report(counters: str) -> list[str]:
    return ["# vLLM ngram speculation: offline batch benchmark", "",
            "- engine: vLLM 0.15.1 (V1 engine)", "- GPU: one 16 GB card", "",
            "## Throughput", "",
            "| mode | tok/s | speedup |", "|---|---|---|",
            "| baseline | 5210.4 | 1.00x |", "| ngram k=4 | 2977.1 | 0.57x |", "",
            "## Per-arm detail", "", "### ngram k=4", counters, "",
            "## Conclusion", "", "- ngram speculation is slower here than the baseline"]


def test_a_benchmark_report_with_its_counters_names_the_ngram_proposer(tmp_path: Path) -> None:
    assert_verdict(probed_path(tmp_path, _report("- draft tokens: 8120 | accepted: 5012")), "other", "NgramProposer")


def test_the_same_report_without_counters_stays_without_a_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _report("- draft tokens and accepted tokens are counted per arm"))


# --- a results section stamped with its status, day and jobs ------------

@pytest.mark.parametrize(("stamp", "binds"), [
    ("Status: verified. Stamp: engine-v1.2.3-image, bench v2, 2026-03-04, jobs 412233 (capped), 412234.", True),
    ("Status: measured (2026-03-04, slurm 99812)", True),
    ("Status: pending. Stamp: engine-v1.2.3-image, 2026-03-04, job 412235.", False),
    ("Status: verified on 2026-03-04.", False),
    ("Status: verified. Jobs to submit: 412236 after 2026-03-04.", False),
], ids=["verified-day-jobs", "measured-slurm", "pending", "no-job", "jobs-to-submit"])
def test_a_status_stamp_with_day_and_jobs_binds_a_run(stamp: str, binds: bool) -> None:
    held = _held(["# Speculative decoding recipe", "## Recipe", "- `--speculative-num-steps 3`", "## Results", stamp])
    assert (first_run_line(held) is not None) is binds


def _recipe(stamp: str) -> list[str]:
    return ["# Speculative decoding (MTP) on our AMD cluster", "",
            "Backend recipe for the shared contract in [`../spec.md`](../spec.md).", "",
            "## Recipe: NEXTN with the checkpoint's MTP head", "",
            "argv, on top of the base TP=8 launch in [`base.md`](base.md):", "",
            "- `--speculative-algorithm NEXTN`", "- `--speculative-eagle-topk 1`",
            "- `--speculative-num-steps 2`", "- `--speculative-num-draft-tokens 3`", "",
            "## Results", "",
            "| sessions | TPOT (median) | accept length |", "|:--|--:|--:|",
            "| 32 | 61.2 -> 35.0 ms | 2.41 |", "",
            stamp]


def test_a_recipe_page_whose_results_carry_a_status_stamp_shows_its_launch(tmp_path: Path) -> None:
    lines = _recipe("Status: verified. Stamp: sglang-rocm-nightly image, bench v3, 2026-05-02, jobs 551201, 551202.")
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_the_same_recipe_page_with_its_results_pending_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _recipe("Status: pending; to run after the image is rebuilt."))
