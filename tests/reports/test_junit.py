"""JUnit XML: parsed back by xml.etree; one testcase per incident; valid for any input bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from synthetic import hostile_analysis

from spectrace import triage
from spectrace.reports import Format, render
from spectrace.reports.json import build_document


def test_one_testcase_per_incident_and_finding(document: dict[str, Any]) -> None:
    root = ET.fromstring(render(document, Format.JUNIT))
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert len(cases) == 3 and suite.get("tests") == "3" and suite.get("failures") == "2"
    failure = cases[0].find("failure")
    assert failure is not None and failure.get("type") == "RuntimeError"
    assert "Traceback (most recent call last):" in (failure.text or "")
    assert "worker path: v1 (EAGLEWorker)" in (failure.text or "")
    assert cases[1].find("failure") is None  # collateral does not fail the run
    assert cases[2].get("classname") == "spectrace.finding.missing_marker"


def test_known_incident_is_skipped(document: dict[str, Any]) -> None:
    document["incidents"][0].update(known=True, fails=False)
    case = ET.fromstring(render(document, Format.JUNIT)).find("testsuite/testcase")
    assert case is not None and case.find("skipped") is not None and case.find("failure") is None


def test_any_bytes_give_well_formed_xml() -> None:
    analysis = hostile_analysis(2)
    text = render(build_document(analysis, triage.judge(analysis)), Format.JUNIT)
    root = ET.fromstring(text)  # raises on NUL, ESC, lone surrogates, unescaped < &
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and "<x> & 100%" in (failure.get("message") or "")


def test_no_incident_still_has_a_passing_testcase(document: dict[str, Any]) -> None:
    document["incidents"], document["findings"] = [], []
    cases = ET.fromstring(render(document, Format.JUNIT)).findall("testsuite/testcase")
    assert len(cases) == 1 and cases[0].find("failure") is None
