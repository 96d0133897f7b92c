"""Any log text at all: every format stays parseable, and nothing reaches the terminal raw."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from synthetic import WORKFLOW_COMMAND, seed_analysis

from spectrace import triage
from spectrace.assemblers.run_config import FlagValue
from spectrace.reports import Format, render
from spectrace.reports.json import build_document
from spectrace.reports.text import TriageReport

TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=()) | st.sampled_from("\x1b\x00\r\n%:,[]<>&`|"),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(message=TEXT, line=TEXT, flag=TEXT, path=TEXT)
def test_every_format_survives_any_text(message: str, line: str, flag: str, path: str) -> None:
    analysis = seed_analysis()
    root = analysis.incidents[0]
    root.message, root.lines = message, (line, message)
    root.first_seen = replace(root.first_seen, source=path or "x")
    root.flags = {"launch": FlagValue(flag, path, 1, "launch_command")}
    document = build_document(analysis, triage.judge(analysis))
    assert json.loads(render(document, Format.JSON))["incidents"][0]["message"] == message
    ET.fromstring(render(document, Format.JUNIT))
    json.loads(render(document, Format.SARIF))
    for command in render(document, Format.GITHUB).split("\n"):
        assert not command.startswith("::") or WORKFLOW_COMMAND.match(command), command
    out = io.StringIO()
    Console(file=out, width=120, force_terminal=True).print(TriageReport(document))
    shown = out.getvalue()
    for raw in ("\x00", "\x1b]", "\x1bP", "\x9b", "\x07"):
        assert raw not in shown
