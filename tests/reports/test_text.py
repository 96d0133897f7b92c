"""Terminal report: everything a user needs per incident; log text can never become markup."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from synthetic import SEED_READING, hostile_analysis

from spectrace import triage
from spectrace.reports.json import build_document
from spectrace.reports.text import TriageReport, inert, render_plain


def _terminal(document: dict[str, Any]) -> str:
    out = io.StringIO()
    Console(file=out, width=200, force_terminal=True, color_system="truecolor").print(
        TriageReport(document)
    )
    return out.getvalue()


def test_plain_report_tells_the_seed_story(document: dict[str, Any]) -> None:
    text = render_plain(document, width=200)
    assert "\x1b" not in text
    for expected in ("I1 RuntimeError: The size of tensor a (160)", "origin TP7 (also TP2)", "first seen 2026-02-27 21:00:18 at server.log:800",
                     "worker path: v1 (EAGLEWorker)", "server.log:12: disable_overlap_schedule=True, speculative_eagle_topk=4", "explained: 160 = 10 running requests x 16 draft tokens",
                     "load before: running_req=10", "hint: spec_info survived", "sglang/srt/speculative/eagle_worker.py:287 in forward_batch_speculative_generation",
                     "collateral: I2 NCCLTimeout", "finding (missing_marker)", "spectrace: FAIL: 1 new root-cause incident; 1 missing marker"):  # fmt: skip
        assert expected in text, expected
    assert text.index("I1 RuntimeError") < text.index("collateral: I2")
    assert "api_key='***'" in text


def test_what_the_facts_leave_open_follows_the_explanation(document: dict[str, Any]) -> None:
    text = render_plain(document, width=200)
    lines = [line.strip() for line in text.splitlines()]
    at = lines.index("explained: 160 = 10 running requests x 16 draft tokens")
    assert lines[at + 1 : at + 3] == [
        "unexplained numbers: 2", f"possible reading: {SEED_READING}"
    ]  # fmt: skip
    assert lines[at + 3].startswith("load before:")


def test_log_text_is_inert_on_a_terminal() -> None:
    analysis = hostile_analysis(1)
    out = _terminal(build_document(analysis, triage.judge(analysis)))
    assert "[bold red]boom[/]" in out  # shown literally, not parsed as markup
    assert "\x1b]52" not in out and "\\x1b]52;c;" in out  # OSC 52 clipboard write neutralised
    assert "\x07" not in out and "\x00" not in out and "\\x00" in out


def test_inert_escapes_controls_but_keeps_text() -> None:
    assert inert("a\x1b[2Jb\tc\u202ed") == "a\\x1b[2Jb\tc\\x202ed"


def test_every_line_of_a_finding_detail_is_indented_under_it(document: dict[str, Any]) -> None:
    finding = document["findings"][0]
    finding["detail"] = "TP2 is in `verify`\nTP0-1 and TP3 wait in all_reduce"
    lines = render_plain(document, width=200).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("finding ("))
    assert lines[at + 1 : at + 3] == ["    TP2 is in `verify`", "    TP0-1 and TP3 wait in all_reduce"]
