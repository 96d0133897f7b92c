"""Session 36 (FIXD): a method named beside another is the run's where a line sets it up with a
value (SGLang: "With DSPARK gamma=16" under a title naming DSPARK and DFLASH); a class of the
vllm-ascend plugin that only some of its releases define bounds the plugin's release where the
text writes none.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, store_thread
from spectrace.assemblers.run_prose import sets_up
from spectrace.assemblers.vllm_plugins import named_span


def _sgl_issue(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return [f"sgl-project/sglang · issue #{number} · open · Python", f"# {title}", "",
            f"marta-k · description · {day}", "### Describe the bug", "", *body]  # fmt: skip


# --- SGLang: several methods named (a title's "DSPARK/DFLASH"), one line sets one of them up with
# a value and the report tells what that run did ---


@pytest.mark.parametrize(("lines", "value", "cls", "said"), [
    # prose: the setting inline, the effect observed per request
    (_sgl_issue(51001, "[Bug] DSPARK/DFLASH spec v2: draft slots never returned near max context", "2026-08-10", [
        "Both members of the block-drafting family reserve twice the draft width per decode step.",
        "With DSPARK gamma=8 (`num_draft_tokens = 9`) the reserve overruns the row once a request "
        "nears its context limit.",
        "We saw 6-19 slots per request stay allocated after the request finished."]),
     "v2", "DSparkWorkerV2", "With DSPARK gamma=8"),
    # bullets: the algorithm given as the run's setting, its values on the lines below
    (_sgl_issue(51002, "[Bug] DFlash and DSpark: token pool grows until the server refuses requests", "2026-08-12", [
        "Setup of the failing server:", "",
        "- algorithm: DSPARK", "- draft width 12, page size 1", "",
        "After about 3 hours the pool was exhausted and every new request got a 503."]),
     "v2", "DSparkWorkerV2", "algorithm: DSPARK"),
    # a table of the settings; DFLASH is the one set up, the form saying the latest release
    # (one of the V2-only releases) still has the bug
    (_sgl_issue(51003, "[Bug] DSPARK / DFLASH drafts diverge across TP ranks", "2026-08-20", [
        "- [x] The bug persists in the latest version.", "",
        "| setting | value |", "|---|---|", "| algorithm | DFLASH |", "| block size | 16 |", "",
        "Rank 0 accepted 3.1 tokens per step while rank 3 accepted 1.0, then the scheduler hung."]),
     "v2", "DFlashWorkerV2", "| algorithm | DFLASH |"),
], ids=["prose", "bullets", "table"])  # fmt: skip
def test_the_method_a_line_sets_up_is_the_run_where_several_are_named(
    tmp_path: Path, lines: list[str], value: str, cls: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, cls)
    assert any(said in e.text for e in path.evidence), path.evidence


def test_two_methods_each_set_up_leave_the_run_open(tmp_path: Path) -> None:
    # a comparison: each method has its own setting, nothing says which run the failure was
    lines = _sgl_issue(51004, "[Bug] DSPARK/DFLASH acceptance drops after the scheduler refactor", "2026-08-15", [
        "DSPARK gamma=16 dropped from 4.2 to 2.0 accepted tokens; DFLASH block size 8 from 3.9 to 2.1.",
        "Both runs were on the same 8xH200 node."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None, path


def test_a_guide_setting_a_method_up_shows_no_run(tmp_path: Path) -> None:
    # a configuration guide with the same words and values: no run, no path
    lines = ["# Tuning DSPARK and DFLASH in SGLang", "",
             "This guide explains how to size the block-drafting methods.", "",
             "## Recommended values", "",
             "- algorithm: DSPARK", "- gamma: 16 (`num_draft_tokens = 17`)", "",
             "For DFLASH, start with block size 8 and raise it if acceptance stays high."]  # fmt: skip
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("text", "shown"), [
    ("With DSPARK gamma=12 (`num_draft_tokens = 13`): spare slots 9", True),
    ("- algorithm: NGRAM", True),
    ("EAGLE3 with 3 steps and topk 1", True),
    ("| algorithm | DFLASH |", True),
    ("--speculative-num-steps 5", True),
    ("MTP k=3, eager", True),
    ("the algorithm is described below", False),
    ("| algorithm | description |", False),
    ("page_size = 1 leaks slots", False),
    ("1k context, 8k context", False),
], ids=["gamma", "bullet", "steps", "table", "flag", "k", "prose-word", "table-header", "page-size", "ctx"])  # fmt: skip
def test_a_setting_with_its_value(text: str, shown: bool) -> None:
    assert sets_up(text) is shown


def test_a_line_naming_another_method_alone_leaves_the_run_open(tmp_path: Path) -> None:
    # one method set up, another named on a line of its own beside it: which one leaked is open,
    # so no class is decided; since session 37 (e93b139) the runs told apart give a condition over both
    lines = _sgl_issue(51005, "[Bug] EAGLE3 / NGRAM: memory grows until OOM", "2026-08-18", [
        "Our config: EAGLE3 with topk 4 and 3 steps.",
        "NGRAM is the other algorithm on the same fleet.",
        "Memory grows by 2 GB per hour until the server is OOM-killed."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None, path
    cond = path.conditional or ""
    assert "told apart" in cond and "EAGLEWorker" in cond and "NGRAMWorker" in cond, path


# --- vllm-ascend: a class only some plugin releases define bounds the release the text leaves ---


def _ascend_pull(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return store_thread("vllm-project/vllm-ascend", "pull request", number, title, day,
                        ["### What this PR does / why we need it?", "", *body], state="merged", lang="C++", author="lin-q")


@pytest.mark.parametrize(("lines", "said"), [
    # the base class named in a fix's motivation, an Eagle3 run tested on a named rig
    (_ascend_pull(7101, "[BugFix] Eagle3 draft crashes on a fused QKV target", "2026-05-30", [
        "The draft check in `AscendSpecDecodeBaseProposer` rejected the fused QKV draft, so Eagle3 "
        "raised an AssertionError at load.", "",
        "### How was this patch tested?", "",
        "Ran Eagle3 with a Qwen3 draft on 2x A3 (16 NPU each); the server boots and serves."]),
     "AscendSpecDecodeBaseProposer"),
    # the 310P subclass's name in a bullet of an issue, Eagle3 named in the title
    (["vllm-project/vllm-ascend · issue #7102 · open · Python",
      "# [Bug]: Eagle3 on 310P hangs after the first request", "", "ravi · description · 2026-06-02",
      "- Proposer: `AscendSpecDecodeBaseProposer310`", "- Hardware: 4x 310P",
      "- Observed: the first request returns, the second never does."],
     "AscendSpecDecodeBaseProposer310"),
    # an issue comment naming a method of the base class (a dotted name) beside its Eagle3 run's
    # figures
    (["vllm-project/vllm-ascend · issue #7103 · open · Python",
      "# [Bug]: eagle3 accept rate drops to zero with graph mode", "", "tomas-w · comment · 2026-06-10",
      "Our Eagle3 server measured accept rate 0.00 in graph mode and 0.41 in eager mode.",
      "The graph path goes through AscendSpecDecodeBaseProposer._run_draft, whose buffer looks stale."],
     "AscendSpecDecodeBaseProposer._run_draft"),
], ids=["base-class", "310p-bullet", "dotted-method"])  # fmt: skip
def test_a_class_of_later_plugin_releases_decides_the_plugins_class(
    tmp_path: Path, lines: list[str], said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "AscendEagleProposer")
    (shown,) = [ln for ln in lines if said in ln]
    line = lines.index(shown) + 1
    said_so = f"line {line} names a class only those releases define"
    assert any(said_so in e.reason for e in path.evidence), path.evidence


def test_without_the_class_the_plugins_releases_stay_open(tmp_path: Path) -> None:
    # the same fix told without any class of later releases: every era the day allows
    lines = _ascend_pull(7104, "[BugFix] Eagle3 draft crashes on a fused QKV target", "2026-05-30", [
        "The draft check rejected the fused QKV draft, so Eagle3 raised an AssertionError at load.", "",
        "### How was this patch tested?", "",
        "Ran Eagle3 with a Qwen3 draft on 2x A3 (16 NPU each); the server boots and serves."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleProposer|AscendEagleProposer")


def test_a_plugin_design_note_naming_the_class_shows_no_run(tmp_path: Path) -> None:
    lines = ["# vllm-ascend speculative decoding internals", "",
             "This page describes the proposer classes of the plugin.", "",
             "`AscendSpecDecodeBaseProposer` holds the shared drafting loop; Eagle3 and MTP build on it.",
             "A new method subclasses it and registers in `get_spec_decode_method`."]  # fmt: skip
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("text", "first", "last"), [
    ("the check in `AscendSpecDecodeBaseProposer` failed", "0.19.1rc1", None),
    ("AscendEagleProposer and AscendStep3p5MTPProposer", "0.23.0rc1", None),
    ("a crash in AscendDsparkProposer.propose", "0.24.0rc1", "0.24.0rc1"),
], ids=["one", "newest-of-two", "removed"])  # fmt: skip
def test_named_span_from_the_plugins_trees(text: str, first: str, last: str | None) -> None:
    span = named_span("vllm_ascend", text)
    assert span is not None
    assert str(span[0]) == first and (str(span[1]) if span[1] else None) == last


def test_names_the_table_lacks_give_no_span() -> None:
    assert named_span("vllm_ascend", "SpecDecodeBaseProposer and EagleProposer") is None
    assert named_span("vllm_ascend", "MyAscendSpecDecodeBaseProposerX") is None


def test_a_code_prs_bullet_sizing_one_method_shows_no_run(tmp_path: Path) -> None:
    # a pull request changing code for two methods; its bullet gives one a value: its code's
    lines = ["sgl-project/sglang · pull request #51006 · open · Python",
             "# [Spec] Share reserve sizing between DSpark and DFlash", "", "ana-r · description · 2026-08-22",
             "## Modifications", "",
             "- Derive the size from `--tp-size 4` and `--speculative-dspark-block-size 8` at once, the way the DSpark worker does.",
             "- No change for NGRAM."]  # fmt: skip
    assert_no_path(tmp_path, lines)
