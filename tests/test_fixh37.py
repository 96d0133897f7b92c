"""Session 37 (FIXH): bug threads and result notes whose run the linker set aside.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path

# --- a result note (headings, tables) whose run shows only by the speculative counters it measured,
# written with Markdown around the figures ("Mean acceptance length **2.41**", "drafts `7`") or in
# vLLM's own order ("Accepted 512 / Drafted 940 tokens"): the note reports a run, it is no page of
# instructions ---


def _note(title: str, stats: list[str]) -> list[str]:
    return [f"# {title}", "", "## Setup", "", "| item | value |", "| --- | --- |", "| GPU | 1x L40S |",
            "| vLLM | 0.11.0 |", "", "## Launch", "", "```",
            "vllm serve org/target-8b --port 8100 \\",
            "  --speculative-config '{\"method\": \"eagle3\", \"model\": \"org/target-8b-eagle3\", "
            "\"num_speculative_tokens\": 3}'", "```", "", "## Numbers", "", *stats]  # fmt: skip


@pytest.mark.parametrize("lines", [
    # bold figures inside a table cell
    _note("EAGLE3 baseline on the staging box", [
        "| metric | value |", "| --- | --- |",
        "| speculation | Mean acceptance length **2.41**, draft acceptance **47.0%** |"]),
    # vLLM's counters label first, in a bullet
    _note("Draft check before the upgrade", [
        "- spec stats: Accepted 512 / Drafted 940 tokens over the smoke set"]),
    # the three per-request counters as code spans in a results table
    _note("Prefix cache with drafting", [
        "| request | TTFT | spec decode |", "|---|---:|---:|",
        "| cold | `1.21s` | drafts `6`, draft tokens `18`, accepted `11` |",
        "| warm | `0.30s` | drafts `5`, draft tokens `15`, accepted `9` |"]),
], ids=["bold-cell", "label-first-counters", "code-span-counters"])  # fmt: skip
def test_a_note_measuring_its_drafts_with_markup_shows_its_run(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "EagleProposer")
    assert any("eagle3" in e.text for e in path.evidence), path.evidence  # the launch proves the method


def test_a_chinese_note_with_short_flags_and_bold_counters_gives_the_runner_condition(tmp_path: Path) -> None:
    lines = ["# 升级前基线记录：vLLM 0.27.1", "", "## 启动参数", "", "```",
             "vllm serve --model /data/models/demo-14b --port 9000 \\", "  --spec-method mtp --spec-tokens 2",
             "```", "", "## 实测数据", "", "| 项目 | 数值 |", "| --- | --- |",
             "| 投机统计 | Mean acceptance length **1.87**，Accepted 205 / Drafted 390 tokens |"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleProposer|MTPSpeculator")
    assert any("--spec-method mtp" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # a tutorial showing what the reader should see, the figures bold
    ["# Serving with EAGLE3", "", "This guide shows how to serve a model with an EAGLE3 drafter.", "",
     "## Launch", "", "```", "vllm serve org/target-8b --speculative-config '{\"method\": \"eagle3\", "
     "\"model\": \"org/target-8b-eagle3\", \"num_speculative_tokens\": 3}'", "```", "",
     "## Check", "", "You should see a line like this in the server log:", "",
     "| speculation | Mean acceptance length **2.4**, Accepted 480 / Drafted 900 tokens |"],
    # a plan's table of counters to reach, each a target
    ["# Upgrade plan", "", "## Launch", "", "```", "vllm serve org/target-8b --speculative-config "
     "'{\"method\": \"eagle3\", \"num_speculative_tokens\": 3}'", "```", "", "## Targets", "",
     "| metric | goal |", "|---|---|", "| counters | expected: drafts `6`, draft tokens `18`, accepted `12` or better |"],
], ids=["tutorial-expected", "plan-targets"])  # fmt: skip
def test_counters_a_page_expects_or_targets_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
