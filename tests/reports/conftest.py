"""Report tests share the synthetic seed-story analysis in tests/synthetic.py."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from synthetic import MISSING_MARKER, seed_analysis  # noqa: E402

from spectrace import triage  # noqa: E402
from spectrace.reports.json import build_document  # noqa: E402


@pytest.fixture
def document() -> dict[str, Any]:
    """The seed story as a report document: one root cause, one collateral, a missing marker."""
    analysis = seed_analysis((MISSING_MARKER,))
    return build_document(analysis, triage.judge(analysis))
