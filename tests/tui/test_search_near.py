"""The first search match near the cursor is drawn as the dialog closes; the rest streams.

Lines after the cursor are searched at once, on the event loop, when the search is submitted:
a match there moves the cursor in the frame that closes the dialog (no worker round trip).
The worker then goes on after them, so a match further on is still found and no line is
counted twice. The log is ours.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import app_on, pilot, started, wait_for

from spectrace.tui import searching
from spectrace.tui.app import SpectraceApp


def _log(lines: int, hits: list[int]) -> bytes:
    rows = [
        f"[2026-03-01 10:00:{n % 60:02d}] {'Prefill batch' if n in hits else 'Decode batch'}, #req {n}"
        for n in range(lines)
    ]
    return ("\n".join(rows) + "\n").encode()


def _ready(app: SpectraceApp) -> bool:
    return not app.indexing and not app.scanning and app.log_view.source.count > 0


@pilot
async def test_a_match_just_after_the_cursor_shows_without_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_on(tmp_path, "near.log", _log(500, [40, 300]))
    async with started(app, _ready) as pilot:
        monkeypatch.setattr(searching.SearchActions, "_search", lambda *a, **k: None)
        await pilot.press("slash", *"prefill batch", "enter")
        assert app.log_view.cursor == 40
        assert app.running is not None and app.running.matches == 2
        assert app.log_view.pattern is not None  # highlighted in the same frame


@pilot
async def test_the_worker_goes_on_past_the_near_lines_and_counts_each_match_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(searching, "NEAR_LINES", 100)
    app = app_on(tmp_path, "far.log", _log(1000, [50, 700, 900]))
    async with started(app, _ready) as pilot:
        await pilot.press("slash", *"prefill batch", "enter")
        await wait_for(pilot, lambda: app.running is None and app.hits is not None)
        assert app.hits is not None and app.hits.count == 3
        assert app.log_view.cursor == 50
        await pilot.press("n")
        await wait_for(pilot, lambda: app.log_view.cursor == 700)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.log_view.cursor == 900)
