"""Round 2 against the human reports: a crash on thousands of ranks stays readable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_hostile_inputs import write

from spectrace import triage
from spectrace.pipeline import analyse
from spectrace.reports import Format, render
from spectrace.reports.json import build_document

RANKS = 3000


def crash_on_every_rank() -> bytes:
    lines = []
    for rank in range(RANKS):
        lines += [
            f"[2026-02-27 21:00:18 TP{rank}] Scheduler hit an exception: "
            "Traceback (most recent call last):",
            '  File "/srv/sglang/srt/managers/scheduler.py", line 12, in run',
            "    do_it()",
            "RuntimeError: boom on every rank",
        ]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("fmt", [Format.TEXT, Format.MARKDOWN, Format.GITHUB, Format.JUNIT])
def test_a_crash_on_thousands_of_ranks_names_a_few_and_counts_the_rest(
    tmp_path: Path, fmt: Format
) -> None:
    analysis = analyse([write(tmp_path, crash_on_every_rank())])
    (incident,) = analysis.incidents
    assert len(incident.ranks) == RANKS
    document = build_document(analysis, triage.judge(analysis))
    shown = render(document, fmt)
    # 32 ranks named, beside the origin (text, markdown, github) or with it (junit)
    assert "TP31" in shown and re.search(f"and ({RANKS - 33:,}|{RANKS - 32:,}) more", shown)
    assert "TP2999" not in shown and len(shown) < 20_000
    if fmt is Format.MARKDOWN:  # the details were dropped to stay under the summary limit
        assert "left out" not in shown and "boom on every rank" in shown
