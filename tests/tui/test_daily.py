"""Issue 16 in the app (pilot): a search that streams and stops, a pattern that times out,
dialogs that submit on Enter, wrapping, the whole line, a clean log, the load chart, 80x24."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input
from tui_helpers import SAMPLES, pick_rank, pilot, screen_lines, started, wait_for

from spectrace.line_index import LineIndex
from spectrace.tui.app import SpectraceApp
from spectrace.tui.dialogs import LineScreen, QueryDialog

SEED = SAMPLES / "seed_story" / "server.log"
DECODE = "[2026-02-27 21:00:{s:02d} TP{r}] Decode batch, #running-req: {n}, #token: 100, token usage: 0.01, accept len: 2.50, gen throughput (token/s): {t}.0, #queue-req: 0\n"


def settled(app: SpectraceApp) -> bool:
    return app.settled


@pilot
async def test_enter_in_a_dialog_submits_and_tab_reaches_every_control(tmp_path: Path) -> None:
    app = SpectraceApp([SEED])
    async with started(app, settled) as pilot:
        await pilot.press("f")
        assert isinstance(app.screen, QueryDialog)
        await pilot.press(*"Decode batch")
        await pilot.press("tab")  # Input -> Regex
        assert isinstance(app.screen.focused, Checkbox) and app.screen.focused.id == "regex"
        await pilot.press("tab", "space")  # Regex -> Filter out, ticked with space
        ticked = app.screen.query_one("#exclude", Checkbox)
        assert app.screen.focused is ticked and ticked.value
        assert "X" in ticked.render().plain and " " in app.screen.query_one("#regex").render().plain
        await pilot.press("enter")  # on a checkbox: submits, does not untick
        await wait_for(pilot, lambda: app.settled and app.line_filter is not None)
        assert app.line_filter is not None and app.line_filter.exclude
        assert not any("Decode batch" in line for line in screen_lines(app))


@pilot
async def test_a_pattern_that_times_out_says_so_and_the_keys_still_work(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("first line\n" + ("a" * 40 + "!\n") * 3 + "last line\n")
    app = SpectraceApp([log])
    async with started(app, settled) as pilot:
        await pilot.press("slash", *"(a|aa)+$", "tab", "space", "enter")
        await pilot.press("G")  # the search runs in a worker: the view answers meanwhile
        assert app.log_view.cursor == 4
        await wait_for(pilot, lambda: app.running is None and app.settled)
        said = [str(n.message) for n in app._notifications]
        assert any("timed out" in m and "\n" not in m for m in said), said


@pilot
async def test_escape_stops_a_filter_and_shows_every_line_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow disk (each raw chunk takes 0.5 s): the filter shows its progress, Esc stops it."""
    chunks = LineIndex.raw_chunks

    def slow(self: LineIndex, *args: object, **kwargs: object) -> Iterator[object]:
        for chunk in chunks(self, *args, **kwargs):  # type: ignore[arg-type]
            time.sleep(0.5)
            yield chunk

    log = tmp_path / "big.log"
    log.write_text("".join(DECODE.format(s=n % 60, r=n % 8, n=n % 50, t=n) for n in range(60000)))
    monkeypatch.setattr(LineIndex, "raw_chunks", slow)
    app = SpectraceApp([log])
    async with started(app, lambda a: not a.indexing) as pilot:
        total = app.log_view.source.count
        await pilot.press("f", *"Decode", "enter")
        await wait_for(pilot, lambda: app.running is not None and app.running.done > 0)
        await pilot.pause(0.3)
        assert "(Esc stops)" in app._status_text and "lines, " in app._status_text
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.running is None and not app.filtering)
        assert app.line_filter is None and app.log_view.source.count == total


@pilot
async def test_w_wraps_long_lines_and_enter_opens_the_whole_line() -> None:
    app = SpectraceApp([SEED])
    async with started(app, settled) as pilot:
        for _ in range(3):
            await pilot.press("j")  # line 4: the 5 KB server_args dump
        assert "›" in screen_lines(app)[3]
        await pilot.press("w")
        rows = screen_lines(app)
        assert not any(row.endswith("›") for row in rows)
        at = next(n for n, row in enumerate(rows) if row.startswith("      4 [2026"))
        assert not re.match(r"\s*\d+ ", rows[at + 1])  # the dump goes on below its row
        await pilot.press("enter")
        assert isinstance(app.screen, LineScreen)
        assert (
            app.screen.heading.endswith("fields")
            and "disable_overlap_schedule=True" in app.screen.rows
        )
        await pilot.press("escape")
        await pilot.press("w")
        assert "›" in screen_lines(app)[3]


@pilot
async def test_a_clean_log_says_what_was_read(tmp_path: Path) -> None:
    log = tmp_path / "clean.log"
    log.write_text("".join(DECODE.format(s=n, r=n % 4, n=5, t=300) for n in range(40)))
    app = SpectraceApp([log], expect=["Decode batch"])
    async with started(app, settled):
        text = str(app.detail.summary.render())
        assert "No crash found" in text and "Read:" in text and "clean.log: 40 lines" in text
        assert "ranks: TP0, TP1, TP2, TP3" in text and "--expect 'Decode batch': found" in text
        assert "worker path:" in text


@pilot
async def test_the_load_chart_follows_the_origin_and_the_picked_rank(tmp_path: Path) -> None:
    log = tmp_path / "tp.log"
    lines = [DECODE.format(s=n // 4, r=n % 4, n=n % 4 + 1, t=100 + n) for n in range(40)]
    lines.append(
        "[2026-02-27 21:00:20 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
    )
    lines.append(
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 9, in run\n'
    )
    lines.append("    self.step()\n")
    lines.append("RuntimeError: boom on TP3\n")
    log.write_text("".join(lines))
    app = SpectraceApp([log])
    async with started(app, settled) as pilot:
        labels = [str(row.label.render()) for row in app.load_chart.rows.values() if row.display]
        assert labels[0].startswith("TP3 running req"), labels  # the origin, not TP0
        detail = str(app.detail.traceback.render())
        assert "…/sglang/srt/managers/scheduler.py" in detail and "sgl-workspace" not in detail
        await pick_rank(pilot, app, "TP1")
        await wait_for(pilot, lambda: app.settled and app.rank == "TP1")
        labels = [str(row.label.render()) for row in app.load_chart.rows.values() if row.display]
        assert labels[0].startswith("TP3") and any(lab.startswith("TP1") for lab in labels), labels


@pilot
async def test_80x24_puts_the_log_above_and_the_detail_reads_without_sideways_scrolling() -> None:
    app = SpectraceApp([SEED])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.settled)
        assert app.has_class("-narrow")
        assert app.log_view.region.width >= 78 and app.detail.region.y > app.log_view.region.y
        await pilot.press("z")
        await pilot.pause()
        summary = str(app.detail.summary.render())
        assert "160 = 10 running requests" in summary
        assert app.detail.region.width >= 78 and app.detail.max_scroll_x == 0
        await pilot.press("z")  # the log alone, the cursor row above the scrollbar
        await pilot.pause()
        assert not app.detail.display or app.detail.region.height == 0
        await pilot.press("G")
        assert app.log_view.cursor - int(app.log_view.scroll_offset.y) < (
            app.log_view.scrollable_content_region.height
        )
        await pilot.press("z")
        await pilot.pause()
        assert app.detail.region.height > 0


@pilot
async def test_search_keeps_its_count_and_n_wraps(tmp_path: Path) -> None:
    app = SpectraceApp([SEED])
    async with started(app, settled) as pilot:
        await pilot.press("slash", *"load weight end", "enter")
        await wait_for(pilot, lambda: app.search_said is not None)
        count = SEED.read_text().lower().count("load weight end")
        assert app.search_said == f"search 'load weight end': {count} matches"
        assert f"{count} matches" in app._status_text
        first = app.log_view.cursor
        for _ in range(count):
            await pilot.press("n")
        assert app.log_view.cursor == first  # all of them again: round to the first
        await pilot.press("slash", *"zz-absent", "enter")
        await wait_for(pilot, lambda: app.search_said is not None and "absent" in app.search_said)
        assert app.search_said.endswith("not found")
        input_gone = not app.screen.query(Input)
        assert input_gone
