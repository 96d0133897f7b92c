"""What the screen shows must not depend on the order in which the app's messages arrive.

A loaded box reorders the scan's messages against the list's highlight events; these tests
replay both orders and require the same screen (the snapshot tests depend on it).
"""

from __future__ import annotations

from textual.pilot import Pilot
from tui_helpers import SAMPLES, pilot, started

from spectrace.incidents import Incident
from spectrace.tui.app import SpectraceApp
from spectrace.tui.widgets.incident_list import WrappedOptionList

SEED = SAMPLES / "seed_story" / "server.log"


def seen(widget: WrappedOptionList) -> tuple[int, list[str]]:
    """Line count and the rows as drawn, scrollbar included (its thumb shows the line count)."""
    rows = [strip.text for strip in widget.render_lines(widget.region.reset_offset)]
    return widget.virtual_size.height, rows


def ready(app: SpectraceApp) -> bool:
    return app.analysis is not None and not app.scanning and not app.indexing


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


@pilot
async def test_evidence_wraps_the_same_whether_or_not_its_scrollbar_was_already_there() -> None:
    app = SpectraceApp([SEED])
    async with started(app, ready) as pilot:
        await pilot.press("e")
        await settle(pilot)
        entry = app.incident_list.current()
        assert entry is not None
        after_another_item = seen(app.detail.evidence)
        assert app.detail.evidence.show_vertical_scrollbar  # 50-odd lines in at most 16 rows

        assert isinstance(entry.item, Incident) and app.analysis is not None
        collateral = [i for i in app.analysis.incidents if i.id in entry.item.collateral]
        app.detail.show(entry.item, collateral)  # the same again, its scrollbar already shown
        await settle(pilot)
        assert seen(app.detail.evidence) == after_another_item
