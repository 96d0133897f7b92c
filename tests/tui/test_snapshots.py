"""Snapshots of the main screens (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input
from tui_helpers import SAMPLES, SIZE, wait_for

from spectrace.tui.app import SpectraceApp

SEED = SAMPLES / "seed_story" / "server.log"
MARKER = "Dynamic speculation disable enabled"


async def settled(pilot: Pilot[None]) -> None:
    """Index, analysis and crash list complete: the screen changes only on input from here."""
    app = pilot.app
    assert isinstance(app, SpectraceApp)
    await wait_for(pilot, lambda: app.settled)
    await pilot.pause()


async def typed_into_filter(pilot: Pilot[None]) -> None:
    """Type the filter, then stop the cursor blinking: a 0.5 s blink timer against a loaded box
    would show or hide the cursor by chance."""
    await settled(pilot)
    await pilot.press("f", *"Decode batch")
    pilot.app.screen.query_one(Input).cursor_blink = False
    await pilot.pause()


def test_main_screen_on_the_seed_crash(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["e"], terminal_size=SIZE, run_before=settled)


def test_missing_marker_finding(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["tab", "end"], terminal_size=SIZE, run_before=settled)


def test_help_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["question_mark"], terminal_size=SIZE, run_before=settled)


def test_filter_dialog(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, terminal_size=SIZE, run_before=typed_into_filter)


def test_merged_rank_files(snap_compare) -> None:  # type: ignore[no-untyped-def]
    ranks = sorted(Path(SAMPLES / "nccl_watchdog").glob("rank*.log"))
    assert snap_compare(SpectraceApp(ranks), terminal_size=SIZE, run_before=settled)


def test_80x24_seed_crash_narrow_and_zoomed(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """Issue 16 item 6: the log above, the crash list and detail below; z: the detail alone."""
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["e", "z"], terminal_size=(80, 24), run_before=settled)


def test_rank_picker_with_counts(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """Issue 16 item 1: each rank once with its line and crash counts, the crash's ranks first."""
    app = SpectraceApp([SEED], expect=[MARKER])
    assert snap_compare(app, press=["r"], terminal_size=SIZE, run_before=settled)
