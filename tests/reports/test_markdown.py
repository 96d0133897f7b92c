"""Markdown job summary: verdict first, one table row per incident (within the 1 MiB limit),
untrusted text escaped; GitHub annotations within the runner's caps."""

from __future__ import annotations

import copy
import re
from typing import Any

from synthetic import SEED_READING, hostile_analysis

from spectrace import triage
from spectrace.reports import Format, github, markdown, render
from spectrace.reports.json import build_document
from spectrace.reports.markdown import cell, fenced


def test_summary_has_verdict_table_and_details(document: dict[str, Any]) -> None:
    text = render(document, Format.MARKDOWN)
    assert text.startswith("## spectrace triage: FAIL: 1 new root-cause incident; 1 missing marker")
    rows = [line for line in text.splitlines() if line.startswith("| I")]
    assert len(rows) == 2 and "**new root cause**" in rows[0] and "collateral of I1" in rows[1]
    assert (
        "<details open><summary>I1:" in text
        and "160 = 10 running requests x 16 draft tokens" in text
    )


def test_details_list_unexplained_numbers_and_readings(document: dict[str, Any]) -> None:
    lines = render(document, Format.MARKDOWN).splitlines()
    at = lines.index("- shape mismatch: 160 = 10 running requests x 16 draft tokens")
    assert lines[at + 1 : at + 3] == [
        "  - unexplained numbers: 2", f"  - possible reading: {SEED_READING}"
    ]  # fmt: skip


def test_hostile_text_cannot_break_the_table_or_inject_html() -> None:
    analysis = hostile_analysis(1)
    text = render(build_document(analysis, triage.judge(analysis)), Format.MARKDOWN)
    row = next(line for line in text.splitlines() if line.startswith("| I1"))
    assert row.count(" | ") == 6  # seven cells, no extra pipes from the message
    assert "<x>" not in row and "&lt;x&gt;" in row


def test_code_fence_outgrows_backticks_in_the_log() -> None:
    block = fenced(["a ```` b"])
    assert block.startswith("`````text\n") and block.endswith("\n`````")


def test_log_text_mentions_nobody_and_links_no_issue() -> None:
    text = cell("RuntimeError: ping @octocat and @org/team about #token: 8421, see #12")
    assert "@octocat" not in text and "@org" not in text and "#12" not in text and "#token" in text
    assert text.count("&#64;") == 2 and text.count("&#35;") == 1
    assert cell("mail me at a@b.c") == "mail me at a&#64;b.c"


def _many(document: dict[str, Any], count: int) -> dict[str, Any]:
    """The seed story's root cause repeated as ``count`` distinct incidents with long messages,
    the way a crash storm of distinct errors reaches the report."""
    base = document["incidents"][0]
    incidents = []
    for n in range(count):
        one = copy.deepcopy(base)
        one.update(id=f"I{n + 1}", caused_by=None, collateral=[], root_cause=True, fails=True,
                   message=f"op {n} failed: " + "x" * 150, exception_type=f"Error{n % 7}")  # fmt: skip
        incidents.append(one)
    return {**document, "incidents": incidents}


def test_twenty_thousand_crashes_fit_the_job_summary(document: dict[str, Any]) -> None:
    out = markdown.render(_many(document, 20_000))
    assert len(out.encode()) < 1_048_576  # GitHub's step-summary limit
    assert "| I1 |" in out  # the most important come first, in full
    left = next(line for line in out.splitlines() if "more incident(s) not in this table" in line)
    shown = sum(line.startswith("| I") for line in out.splitlines())
    assert left.startswith(f"_{20_000 - shown} more incident(s)") and "20000 root cause" not in left
    assert "<details open><summary>I1:" in out  # the first root cause's detail still fits


def test_a_small_report_is_not_capped(document: dict[str, Any]) -> None:
    out = markdown.render(_many(document, 12))
    assert "not in this table" not in out
    assert sum(line.startswith("| I") for line in out.splitlines()) == 12


def test_github_annotations_name_a_bounded_number_of_ids(document: dict[str, Any]) -> None:
    out = github.render(_many(document, 5_000))
    lines = out.splitlines()
    assert sum(line.startswith("::error") for line in lines) == 10
    notice = next(line for line in lines if line.startswith("::notice"))
    left = re.search(r"::(\d+) more failing incident\(s\)", notice)
    named = re.search(r"and (\d+) more; see the full report", notice)
    assert left and named and int(left[1]) - int(named[1]) == notice.count(", I") + 1 == 30
    assert max(len(line) for line in lines) < 20_000
