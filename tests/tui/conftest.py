"""Fixture logs for TUI tests, copied so a test may grow, truncate or replace them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tui_helpers import DATA


@pytest.fixture
def seed_log(tmp_path: Path) -> Path:
    """A copy of the seed-story log (SGLang, TP8, crash on TP7) that a test may change."""
    return Path(shutil.copy(DATA / "seed_story.log", tmp_path / "seed_story.log"))


@pytest.fixture
def vllm_ranks(tmp_path: Path) -> list[Path]:
    """Two vLLM worker logs with year-less stamps and ANSI process tags."""
    return [
        Path(shutil.copy(p, tmp_path / p.name)) for p in sorted((DATA / "vllm_ranks").iterdir())
    ]
