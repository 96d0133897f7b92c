"""``spectrace tui CAPTURE`` with no log: an empty log view and the capture's hang findings."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import pilot, started

from spectrace.commands.tui import expand
from spectrace.pipeline import Finding
from spectrace.tui.app import SpectraceApp

CAPTURE = Path(__file__).parents[1] / "stacks" / "data" / "h200_python_capture.json"
VERDICT = "TP2 is blocked in `forward`"


def test_expand_accepts_a_capture_with_no_log() -> None:
    assert expand([CAPTURE]) == ([], [CAPTURE], [])


@pilot
async def test_a_capture_alone_opens_with_its_hang_finding() -> None:
    app = SpectraceApp([], stacks=([CAPTURE], []))
    async with started(app, lambda a: a.settled) as pilot:
        (entry,) = app.incident_list.entries
        assert isinstance(entry.item, Finding) and entry.item.kind == "hang"
        label = str(app.incident_list.get_option_at_index(0).prompt)
        assert label.startswith("⚠ hang") and VERDICT in label
        detail = str(app.detail.summary.render())
        assert "TP1 (pid 423): waiting on the GPU" in detail  # highlighted at once

        view = app.log_view
        assert view.source.count == 0
        assert view.render_line(0).text.startswith("No log file given")
        assert str(app.status_bar.render()).startswith("no log file │")
        assert "1 finding" in str(app.status_bar.render())

        await pilot.press("tab", "enter", "e", "j", "G", "slash", "escape")  # nothing to jump to
        assert app.is_running and view.cursor == 0


@pilot
async def test_a_capture_alone_ignores_expect_markers() -> None:
    """No log to search: a missing marker would be a false finding."""
    app = SpectraceApp([], expect=["Dynamic speculation disable enabled"], stacks=([CAPTURE], []))
    async with started(app, lambda a: a.settled):
        assert [e.item.kind for e in app.incident_list.entries] == ["hang"]  # type: ignore[union-attr]
