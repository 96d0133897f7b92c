"""Follow mode: appended lines show up, a truncated or replaced file resets the view."""

from __future__ import annotations

import os
from pathlib import Path

from tui_helpers import SIZE, pilot, screen_lines, shown, wait_for

from spectrace.tui.app import SpectraceApp


def _split(log: Path, keep: int) -> list[str]:
    """Leave the first ``keep`` lines in ``log``; return the rest to append later."""
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:keep]))
    return lines[keep:]


@pilot
async def test_t_follows_new_lines_to_the_end(seed_log: Path) -> None:
    rest = _split(seed_log, 30)
    app = SpectraceApp([seed_log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.log_view.source.count == 30)
        await pilot.press("t")
        assert app.log_view.follow and "follow on" in str(app.status_bar.render())
        with seed_log.open("a") as fh:
            fh.writelines(rest)
        await wait_for(pilot, lambda: app.log_view.source.count == 51)
        assert app.log_view.cursor == 50
        await wait_for(pilot, lambda: "Received sigquit from a child" in screen_lines(app)[-1])
        await pilot.press("k")
        assert not app.log_view.follow


@pilot
async def test_a_partial_last_line_is_completed_in_place(seed_log: Path) -> None:
    seed_log.write_text("[2026-02-27 20:49:03 TP0] first\n[2026-02-27 20:49:04 TP0] sec")
    app = SpectraceApp([seed_log], follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "sec" in shown(app))
        with seed_log.open("a") as fh:
            fh.write("ond half\n[2026-02-27 20:49:05 TP0] third\n")
        # the index counts the new lines before the view hears of them: wait for the screen
        await wait_for(pilot, lambda: "TP0] second half" in shown(app))
        assert app.log_view.source.count == 3 and "TP0] sec\n" not in shown(app) + "\n"


@pilot
async def test_truncation_resets_the_view_without_stale_lines(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.log_view.source.count == 51)
        await pilot.press("G")
        seed_log.write_text("[2026-02-27 22:00:00] The server is fired up and ready to roll!\n")
        # the poll thread re-indexes before the view hears of the reset: wait for the screen
        await wait_for(pilot, lambda: "ready to roll" in screen_lines(app)[0])
        assert app.log_view.source.count == 1
        assert "Decode batch" not in shown(app) and app.log_view.cursor == 0


@pilot
async def test_rotation_to_a_new_file_shows_the_new_file(seed_log: Path) -> None:
    app = SpectraceApp([seed_log], follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.log_view.source.count == 51)
        os.rename(seed_log, seed_log.with_suffix(".log.1"))
        seed_log.write_text("[2026-02-27 22:00:00] rotated 1\n[2026-02-27 22:00:01] rotated 2\n")
        await wait_for(pilot, lambda: "rotated 2" in shown(app))
        assert app.log_view.source.count == 2 and "Decode" not in shown(app)
