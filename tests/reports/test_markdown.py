"""Markdown job summary: verdict first, one table row per incident, untrusted text escaped."""

from __future__ import annotations

from typing import Any

from synthetic import SEED_READING, hostile_analysis

from spectrace import triage
from spectrace.reports import Format, render
from spectrace.reports.json import build_document
from spectrace.reports.markdown import cell, fenced


def test_summary_has_verdict_table_and_details(document: dict[str, Any]) -> None:
    text = render(document, Format.MARKDOWN)
    assert text.startswith("## spectrace triage: FAIL: 1 new root-cause incident; 1 missing marker")
    rows = [line for line in text.splitlines() if line.startswith("| I")]
    assert len(rows) == 2 and "**new root cause**" in rows[0] and "collateral of I1" in rows[1]
    assert "<details open><summary>I1:" in text and "160 = 10 running requests x 16 draft tokens" in text


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
