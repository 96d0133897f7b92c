"""GitHub workflow commands: exact syntax, escaping, and GitHub's 10-per-type cap never silent."""

from __future__ import annotations

import re
from typing import Any

from synthetic import WORKFLOW_COMMAND as WORKFLOW
from synthetic import hostile_analysis

from spectrace import triage
from spectrace.reports import Format, render
from spectrace.reports.github import command
from spectrace.reports.json import build_document


def _lines(analysis: Any) -> list[str]:
    return render(build_document(analysis, triage.judge(analysis)), Format.GITHUB).splitlines()


def test_seed_story_annotates_the_root_cause_at_its_line(document: dict[str, Any]) -> None:
    lines = render(document, Format.GITHUB).splitlines()
    commands = [line for line in lines if line.startswith("::")]
    assert all(WORKFLOW.match(line) for line in commands)
    error = next(line for line in commands if "I1" in line)
    assert error.startswith(
        "::error file=server.log,line=800,title=I1 RuntimeError::RuntimeError: The size of tensor a (160)"
    )
    assert "%0Aorigin TP7" in error
    assert any(line.startswith("::warning ") and "I2" in line for line in commands)
    assert lines[-1].startswith("spectrace: 1 new root-cause incident; 1 missing marker")


def test_escaping_of_hostile_text() -> None:
    assert (
        command("error", "50%\r\nx", "a,b:c.log", 3, "t:1,2")
        == "::error file=a%2Cb%3Ac.log,line=3,title=t%3A1%2C2::50%25%0D%0Ax"
    )
    for line in _lines(hostile_analysis(3)):
        if line.startswith("::"):
            assert WORKFLOW.match(line), line
    assert not any(line.startswith("::error::injected") for line in _lines(hostile_analysis(1)))


def test_more_than_ten_failing_incidents_are_summarised_not_dropped() -> None:
    lines = _lines(hostile_analysis(25))
    errors = [line for line in lines if line.startswith("::error")]
    notices = [line for line in lines if line.startswith("::notice")]
    assert len(errors) == 10
    assert len(notices) == 1 and "15 more failing incident(s) not annotated" in notices[0]
    mentioned = {m for line in errors + notices for m in re.findall(r"\bI\d+\b", line)}
    assert mentioned >= {f"I{n}" for n in range(1, 26)}
