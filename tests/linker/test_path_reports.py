"""A conditional verdict and what would settle it reach the JUnit and SARIF reports worded as
the text report words them (CI users read only those)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from real_logs_helpers import run
from test_path_eras import CRASH, LAUNCH

from spectrace import triage
from spectrace.reports import Format, render
from spectrace.reports.json import build_document


def _document(tmp_path: Path) -> dict[str, object]:
    analysis = run(tmp_path, [LAUNCH.format(algo="EAGLE3", topk=1), *CRASH])
    return build_document(analysis, triage.judge(analysis))


def test_junit_says_what_each_release_would_run_and_what_would_settle_it(tmp_path: Path) -> None:
    root = ET.fromstring(render(_document(tmp_path), Format.JUNIT))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    text = failure.text or ""
    assert "worker path: depends on the release: v2 (EAGLEWorkerV2) if sglang >= 0.5.11" in text
    assert "would settle it: the sglang version (`python3 -m sglang.check_env`" in text


def test_sarif_message_carries_the_conditional_and_the_missing_line(tmp_path: Path) -> None:
    sarif = json.loads(render(_document(tmp_path), Format.SARIF))
    message = sarif["runs"][0]["results"][0]["message"]["text"]
    assert "Worker path: depends on the release: v2 (EAGLEWorkerV2) if sglang >= 0.5.11" in message
    assert "Would settle it: the sglang version" in message
