"""Snapshots of the main screens (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_helpers import SAMPLES, SIZE, wait_for

from spectrace.tui.app import SpectraceApp

SEED = SAMPLES / "seed_story" / "server.log"
MARKER = "Dynamic speculation disable enabled"

# Known issue: about one run in four on a loaded 2-core box renders one load-sparkline cell a
# level higher (same data, same width: not yet explained). Rerun rather than hide the chart.
pytestmark = pytest.mark.flaky(reruns=2)


async def analysed(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, SpectraceApp)
    # The index too: its line count sizes the log view's scrollbar thumb.
    await wait_for(pilot, lambda: app.analysis is not None and not app.scanning)
    await wait_for(pilot, lambda: not app.indexing)
    await pilot.pause()


def test_main_screen_on_the_seed_crash(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["e"], terminal_size=SIZE, run_before=analysed)


def test_missing_marker_finding(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["tab", "end"], terminal_size=SIZE, run_before=analysed)


def test_help_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["question_mark"], terminal_size=SIZE, run_before=analysed)


def test_filter_dialog(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["f", *"Decode batch"], terminal_size=SIZE, run_before=analysed)


def test_merged_rank_files(snap_compare) -> None:  # type: ignore[no-untyped-def]
    ranks = sorted(Path(SAMPLES / "nccl_watchdog").glob("rank*.log"))
    assert snap_compare(SpectraceApp(ranks), terminal_size=SIZE, run_before=analysed)
