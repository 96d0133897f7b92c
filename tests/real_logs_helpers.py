"""What the real-log round tests share: write our own lines as a log, analyse it as triage does."""

from __future__ import annotations

from pathlib import Path

from spectrace.incidents import Incident
from spectrace.pipeline import Analysis, analyse


def run(tmp_path: Path, lines: list[str], name: str = "server.log") -> Analysis:
    """The analysis of ``lines`` written as one UTF-8 log file named ``name``."""
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)])


def roots(analysis: Analysis) -> list[Incident]:
    """The root-cause incidents, in report order."""
    return [i for i in analysis.incidents if i.root_cause]
