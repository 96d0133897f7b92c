"""Pilot tests: every log-view key does what its help line says."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import (
    SAMPLES,
    SIZE,
    app_on,
    interleaved_seed,
    pick_rank,
    pilot,
    screen_lines,
    shown,
    started,
    wait_for,
)

from spectrace.tui.app import SpectraceApp
from spectrace.tui.dialogs import HelpScreen, QueryDialog, RankDialog

TOTAL = 51  # lines in seed_story.log


def loaded(app: SpectraceApp) -> bool:
    return app.log_view.source.count == TOTAL


SEED = SAMPLES / "seed_story" / "server.log"


@pilot
async def test_first_screen_shows_the_head_of_the_log(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        lines = screen_lines(app)
        assert "Overlap scheduler is disabled" in lines[0]
        assert lines[1].lstrip().startswith("2 [2026-02-27 20:48:55] server_args=ServerArgs(")
        await wait_for(pilot, lambda: "seed_story.log: 51 lines │" in str(app.status_bar.render()))


@pilot
async def test_cursor_keys_move_and_jump(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        await pilot.press("j", "j", "down")
        assert app.log_view.cursor == 3
        await pilot.press("k", "up")
        assert app.log_view.cursor == 1
        await pilot.press("G")
        assert app.log_view.cursor == TOTAL - 1
        assert "Received sigquit from a child" in shown(app)
        await pilot.press("g")
        assert app.log_view.cursor == 0 and app.log_view.scroll_offset.y == 0
        await pilot.press("pagedown")  # a page is the rows above the horizontal scrollbar
        rows = app.log_view.scrollable_content_region.height
        assert app.log_view.cursor == rows - 1 and rows < app.log_view.size.height
        assert screen_lines(app)[rows - 1].startswith(f"{rows:>7} ")  # the cursor row is seen
        await pilot.press("pageup")
        assert app.log_view.cursor == 0


@pilot
async def test_mouse_click_moves_the_cursor(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        await pilot.click("#log", offset=(10, 5))
        assert app.log_view.cursor == 5


@pilot
async def test_search_finds_next_and_previous(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        await pilot.press("slash")
        assert isinstance(app.screen, QueryDialog)
        await pilot.press(*"load weight end", "enter")
        await wait_for(pilot, lambda: app.log_view.cursor == 18)  # first "Load weight end" (TP0)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.log_view.cursor == 19)
        await pilot.press("N")
        await wait_for(pilot, lambda: app.log_view.cursor == 18)


@pilot
async def test_filter_in_then_out_then_clear(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        await pilot.press("f", *"Decode batch", "enter")
        await wait_for(pilot, lambda: app.log_view.source.count == 8)
        assert all("Decode batch" in line for line in screen_lines(app)[:8])
        await pilot.press("f")
        dialog = app.screen
        assert isinstance(dialog, QueryDialog)
        await pilot.click("#exclude")
        await pilot.click("Input")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.log_view.source.count == TOTAL - 8)
        assert "Decode batch" not in shown(app)
        await pilot.press("F")
        await wait_for(pilot, lambda: app.log_view.source.count == TOTAL)


@pilot
async def test_regex_filter_and_a_bad_regex_message(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        await pilot.press("f")
        await pilot.click("#regex")
        await pilot.click("Input")
        await pilot.press(*"TP[67]\\] Load", "enter")
        await wait_for(pilot, lambda: app.log_view.source.count == 4)
        await pilot.press("f")
        await pilot.click("#regex")
        await pilot.click("Input")
        await pilot.press(*"(unclosed", "enter")
        assert "bad regex" in str(app.screen.query_one("#error").render())


@pilot
async def test_rank_toggle_shows_one_rank_with_its_continuation_lines(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, lambda app: app.settled) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, RankDialog)
        option_list = app.screen.query_one("OptionList")
        labels = [
            str(option_list.get_option_at_index(i).prompt) for i in range(option_list.option_count)
        ]
        names = [label.split()[-1] if i == 0 else label.lstrip("✖ ").split()[0]
                 for i, label in enumerate(labels)]  # fmt: skip
        assert labels[0] == "all ranks" and names.count("TP7") == 1 and "TP0" in names
        # the selected crash's ranks first, marked without colour, each with its counts
        assert labels[1].startswith("✖ TP7") and "1 crash" in labels[1] and " lines" in labels[1]
        assert option_list.highlighted == 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.log_view.source.count < TOTAL)
        text = shown(app)
        assert (
            "TP7] Scheduler hit an exception" in text
            and "RuntimeError: The size of tensor a (160)" in text
        )
        assert "TP0]" not in text
        await pilot.press("r", "home", "enter")
        await wait_for(pilot, lambda: app.log_view.source.count == TOTAL)


@pilot
async def test_help_lists_every_key_and_q_quits(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        listed = {keys for keys, _ in app.screen.bindings}
        for key in (
            "/",
            "n",
            "N",
            "e",
            "E",
            "f",
            "F",
            "r",
            "t",
            "c",
            "?",
            "q",
            "j / ↓",
            "k / ↑",
            "g / home",
            "G / end",
            "pgdn / space",
            "pgup / b",
            "h / ←",
            "l / →",
        ):
            assert key in listed
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("q")
    assert app.return_code == 0


@pilot
async def test_ansi_colour_is_kept_but_never_executed(tmp_path: Path) -> None:
    app = app_on(tmp_path, "evil.log",
                 b"\x1b[31mred text\x1b[0m then \x1b]0;title\x07 and \x1b[2J clear [bold]markup[/bold]\n")  # fmt: skip
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.log_view.source.count == 1)
        line = screen_lines(app)[0]
        assert line.endswith("red text then  and  clear [bold]markup[/bold]")
        strip = app.log_view.render_line(0)
        reds = [seg for seg in strip if seg.text == "red text"]
        assert reds and reds[0].style is not None and reds[0].style.color is not None
        assert all("\x1b" not in seg.text for seg in strip)


@pilot
async def test_c_strips_and_restores_the_logs_own_colours(tmp_path: Path) -> None:
    app = app_on(tmp_path, "colour.log",
                 b"\x1b[1;36m(Worker_TP0 pid=1)\x1b[0;0m INFO 10-05 12:00:00 [x.py:1] \x1b[32mgreen\x1b[0m\n")  # fmt: skip
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.log_view.source.count == 1)

        def green() -> list[object]:
            return [
                s.style.color for s in app.log_view.render_line(0) if s.text == "green" and s.style
            ]

        assert any(c is not None and c.number == 2 for c in green())
        await pilot.press("c")
        assert not any(c is not None and c.number == 2 for c in green())
        await pilot.press("c")
        assert any(c is not None and c.number == 2 for c in green())


@pilot
async def test_h_and_l_scroll_long_lines_sideways(seed_log: Path) -> None:
    app = SpectraceApp([seed_log])
    async with started(app, loaded) as pilot:
        await wait_for(pilot, lambda: app.log_view.show_horizontal_scrollbar)  # widths rendered
        before = screen_lines(app)[1]
        assert before.rstrip().endswith("›")  # the row goes on past the right edge
        await pilot.press("l", "l")
        await wait_for(pilot, lambda: app.log_view.scroll_offset.x == 16)
        after = screen_lines(app)[1]
        assert after.startswith("‹")  # and now past the left edge too
        assert after[1:].startswith(before[17:-1].rstrip())
        await pilot.press("h")
        await wait_for(pilot, lambda: app.log_view.scroll_offset.x == 8)
        await pilot.press("right")
        await wait_for(pilot, lambda: app.log_view.scroll_offset.x > 8)
        await pilot.press("left", "left", "h", "h")
        await wait_for(pilot, lambda: app.log_view.scroll_offset.x == 0)


@pilot
async def test_tab_moves_focus_and_a_click_on_a_crash_jumps(seed_log: Path) -> None:
    app = SpectraceApp([SEED], expect=["Dynamic speculation disable enabled"])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.focused is app.log_view
        await pilot.press("tab")
        assert app.focused is app.incident_list
        await pilot.click("#incidents", offset=(5, 1))
        await wait_for(pilot, lambda: app.log_view.cursor == 600)


@pilot
async def test_rank_toggle_hides_other_writers_but_keeps_the_traceback() -> None:
    app = SpectraceApp([SEED])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.log_view.source.count == 651)
        await pick_rank(pilot, app, "TP7")
        await wait_for(pilot, lambda: app.log_view.source.count < 651 and not app.filtering)
        texts = [app.log_view.source.text(row)[0] for row in range(app.log_view.source.count)]
        assert not any("NCCL INFO" in t for t in texts)
        tb = texts.index(next(t for t in texts if "TP7] Scheduler hit an exception" in t))
        assert texts[tb + 1].lstrip().startswith('File "') and any(
            t.startswith("RuntimeError: The size of tensor a (160)") for t in texts[tb:]
        )
        assert not any("TP3]" in t for t in texts)


@pilot
async def test_a_rank_view_keeps_its_crash_through_other_ranks_lines(tmp_path: Path) -> None:
    """Issue 16: TP7's traceback (lines 973-1000) has TP1, TP2 and TP4 lines printed into it;
    TP7's view still holds its RuntimeError on line 1000, and TP4's does not."""
    log = interleaved_seed(tmp_path)
    assert log.read_bytes().split(b"\n")[999].startswith(b"RuntimeError: The size of tensor a")
    app = SpectraceApp([log])
    async with started(app, lambda app: app.settled) as pilot:
        for rank, holds in (("TP7", True), ("TP4", False)):
            await pick_rank(pilot, app, rank)
            await wait_for(pilot, lambda r=rank: app.settled and app.rank == r)  # type: ignore[misc]
            view = app.log_view.source
            lines = {view.locate(row)[1] + 1 for row in range(view.count)}
            assert (1000 in lines) is holds and (999 in lines) is not holds
            assert (974 in lines) is holds  # the first frame, right after the header
        await pilot.press("F")
        await wait_for(pilot, lambda: app.settled and app.rank is None)
        assert app.log_view.source.count == len(log.read_bytes().split(b"\n")) - 1
