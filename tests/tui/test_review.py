"""What a demanding lnav user noticed driving the TUI in a real terminal, each kept fixed."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

from test_crashes import MARKER, SEED, analysed, detail_text
from textual.command import CommandList
from tui_helpers import SAMPLES, pilot, screen_lines, started, wait_for

from spectrace.incidents import Incident
from spectrace.tui.app import PROVISIONAL_MAX, SpectraceApp
from spectrace.tui.dialogs import HelpScreen, RankDialog
from spectrace.tui.widgets.incident_list import Scanned

NCCL = sorted((SAMPLES / "nccl_watchdog").glob("rank*.log"))

# A plain Python traceback, as a worker prints an uncaught exception (no logging header).
CRASH = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/worker.py", line 12, in handle\n'
    "    check(request)\n"
    '  File "/srv/app/worker.py", line 7, in check\n'
    "    raise ValueError(msg)\n"
    "ValueError: request {n} failed: bad input\n"
)


def hits(app: SpectraceApp) -> int:
    """Commands the open palette lists for what was typed."""
    found = app.screen.query(CommandList)
    return found.first().option_count if found else 0


def crash_log(tmp_path: Path, count: int) -> Path:
    """``count`` copies of one crash, each after a line of ordinary output."""
    log = tmp_path / "dense.log"
    log.write_text("".join(f"serving request {n}\n" + CRASH.format(n=n) for n in range(count)))
    return log


@pilot
async def test_the_root_cause_is_selected_when_the_analysis_ends() -> None:
    """The scan finds rank0's NCCL timeout first; the finished list must open on the OOM
    that caused it, not on that collateral."""
    app = SpectraceApp(NCCL)
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        entry = app.incident_list.current()
        assert entry is not None and isinstance(entry.item, Incident)
        assert entry.item.root_cause and "OutOfMemoryError" in entry.item.exception_type
        assert "OutOfMemoryError" in str(app.detail.summary.render())


@pilot
async def test_a_row_the_user_picked_stays_picked_when_the_list_is_rebuilt() -> None:
    app = SpectraceApp(NCCL)
    async with started(app, analysed) as pilot:
        app.incident_list.focus()
        await pilot.press("down")
        picked = app.incident_list.current()
        assert picked is not None and picked.depth == 1
        app._list(app.incident_list.entries)  # what a rescan in follow mode does
        assert app.incident_list.current() == picked


@pilot
async def test_a_crash_without_python_frames_has_no_traceback_heading() -> None:
    app = SpectraceApp(NCCL)
    async with started(app, analysed) as pilot:
        app.incident_list.focus()
        await pilot.press("down")
        await pilot.pause()
        text = detail_text(app)
        assert "NCCLTimeout" in text
        assert "Traceback (most recent call last)" not in text


@pilot
async def test_e_and_E_stop_at_every_occurrence_of_a_repeated_crash(tmp_path: Path) -> None:
    app = SpectraceApp([crash_log(tmp_path, 5)])
    async with started(app, analysed) as pilot:
        assert len(app.incident_list.entries) == 1
        assert "×5" in str(app.incident_list.get_option_at_index(0).prompt)
        assert "5 times" in str(app.detail.summary.render())
        await pilot.press("G", "E")
        assert app.log_view.cursor == 29  # line 30: the last crash's first line, not the first's
        await pilot.press("E")
        assert app.log_view.cursor == 22
        await pilot.press("g", "e", "e")
        assert app.log_view.cursor == 8


@pilot
async def test_a_filter_that_leaves_nothing_says_so(tmp_path: Path) -> None:
    app = SpectraceApp([crash_log(tmp_path, 2)])
    async with started(app, analysed) as pilot:
        await pilot.press("f")
        await pilot.press(*"no such text", "enter")
        await wait_for(pilot, lambda: app.settled and app.log_view.source.count == 0)
        assert "F clears them" in screen_lines(app)[0]
        await pilot.press("F")
        await wait_for(pilot, lambda: app.log_view.source.count > 0)
        assert "serving request 0" in screen_lines(app)[0]


@pilot
async def test_cut_rows_show_a_marker_inside_the_visible_width() -> None:
    """The "›" used to be drawn under the scrollbar, where no terminal shows it."""
    app = SpectraceApp([SEED])
    async with started(app, analysed) as pilot:
        view = app.log_view
        await wait_for(pilot, lambda: view.show_vertical_scrollbar)
        width = view.scrollable_content_region.width
        strips = [view.render_line(y) for y in range(view.scrollable_content_region.height)]
        assert all(s.cell_length <= width for s in strips)
        assert any(s.text.endswith("›") for s in strips)


@pilot
async def test_the_load_chart_names_each_metric_of_a_long_rank_name() -> None:
    app = SpectraceApp([SAMPLES / "vllm_enginecore" / "vllm_serve.log"])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        await pilot.pause()
        rows = [row for row in app.load_chart.rows.values() if row.display]
        labels = [str(row.label.render()) for row in rows]
        assert "EngineCore_DP0 running req" in labels
        # its cells, not only its text: the label used to be 18 cells wide, "EngineCore_DP0 r"
        assert all(row.label.size.width > len(text) for row, text in zip(rows, labels, strict=True))


@pilot
async def test_long_evidence_is_cut_with_a_marker() -> None:
    app = SpectraceApp([SAMPLES / "vllm_enginecore" / "vllm_serve.log"])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        assert "non-default args: {" in detail_text(app)
        assert "…" in detail_text(app)


@pilot
async def test_the_help_fits_an_80_column_terminal() -> None:
    app = SpectraceApp([SEED], expect=[MARKER])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.x >= 0 and dialog.region.right <= 80


@pilot
async def test_the_command_palette_offers_the_app_s_own_commands() -> None:
    app = SpectraceApp([SEED])
    async with started(app, analysed) as pilot:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Next crash", "Filter", "Rank", "Tail"} <= set(titles)
        await pilot.press("ctrl+p")
        await pilot.press(*"rank")
        await wait_for(pilot, lambda: hits(app) > 0)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RankDialog))


class ManyLines:
    """A view of 12 million one-word rows, none of them read from disk."""

    count = 12_000_000

    def text(self, row: int) -> tuple[str, int]:
        return f"row{row}", 0

    def texts(self, start: int, stop: int) -> list[str]:
        return [f"row{r}" for r in range(start, stop)]

    def locate(self, row: int) -> tuple[int, int]:
        return 0, row

    def row_of(self, file: int, line: int) -> int | None:
        return line


@pilot
async def test_line_numbers_past_ten_million_keep_a_space_before_the_text() -> None:
    app = SpectraceApp([SEED])
    async with started(app, analysed) as pilot:
        app.log_view.set_source(ManyLines())
        app.log_view.go_to(9_999_990)  # rows 9,999,9xx and 10,000,0xx on one screen
        await pilot.pause()
        rows = [r for r in screen_lines(app) if r]
        assert " 9999991 row9999990" in rows and "10000001 row10000000" in rows
        assert len({r.index("row") for r in rows}) == 1  # the text starts in one column


@pilot
async def test_frames_show_the_package_path_not_the_install_prefix() -> None:
    async with started(SpectraceApp([SEED]), analysed) as pilot:
        app = pilot.app
        text = detail_text(app)
        assert 'File "…/sglang/srt/speculative/eagle_worker.py", line' in text
        assert "dist-packages" not in text.split("Traceback (most recent call last)")[1]


@pilot
async def test_a_status_too_long_for_the_terminal_ends_in_an_ellipsis() -> None:
    app = SpectraceApp(NCCL)
    # at 80 columns the narrow layout gives the status the whole width: it fits there now
    async with app.run_test(size=(44, 24)) as pilot:
        await wait_for(pilot, lambda: app.settled)
        await pilot.pause()
        row = app.status_bar.render_line(0).text.rstrip()
        assert row.startswith("4 files merged: 167 lines") and row.endswith("…")


@pilot
async def test_t_on_a_compressed_log_goes_to_the_end_without_claiming_to_follow(
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log.gz"
    log.write_bytes(gzip.compress(SEED.read_bytes()))
    app = SpectraceApp([log])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        await pilot.press("t")
        assert app.log_view.cursor == 650 and not app.log_view.follow
        assert "follow off" in str(app.status_bar.render())


@pilot
async def test_each_flag_says_where_it_was_read_in_a_plain_word() -> None:
    """The CUDA-graph sizes come from the capture line: "capture", not "capture_log"."""
    app = SpectraceApp([SAMPLES / "faulthandler_segfault" / "server.log"])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        text = detail_text(app)
        assert "capture flag cuda_graph_bs=" in text and "dump flag tp_size=1" in text
        assert "capture_log" not in text


@pilot
async def test_a_hang_finding_shows_the_load_without_a_crash_mark() -> None:
    capture = Path(__file__).parents[1] / "stacks" / "data" / "h200_python_capture.json"
    app = SpectraceApp([SEED], stacks=([capture], []))
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        app.incident_list.focus()
        hang = next(n for n, e in enumerate(app.incident_list.entries) if e.source is None)
        app.incident_list.highlighted = hang
        await pilot.pause()
        assert "⚠ hang" in str(app.detail.summary.render())
        assert str(app.load_chart.title.render()) == "load: the last samples of the log"
        lasts = [str(r.last.render()) for r in app.load_chart.rows.values() if r.display]
        assert lasts and not any("✖" in last for last in lasts)
        await pilot.press("e")  # back on a crash: the marks return
        assert "✖" in str(app.load_chart.title.render())


def notes(app: SpectraceApp) -> list[str]:
    return [n.message for n in app._notifications]


@pilot
async def test_search_wraps_round_and_says_so() -> None:
    app = SpectraceApp([SEED])
    async with started(app, analysed) as pilot:
        await pilot.press("G", "slash", *"init torch distributed begin", "enter")
        await wait_for(pilot, lambda: app.log_view.cursor == 20)  # TP0's, line 21
        assert "search wrapped to the top" in notes(app)
        await pilot.press("N")
        await wait_for(pilot, lambda: app.log_view.cursor == 27)  # TP7's, line 28
        assert "search wrapped to the bottom" in notes(app)


@pilot
async def test_a_search_that_finds_nothing_shows_the_text_as_typed() -> None:
    """The query is the user's text: shown as typed, never read as markup."""
    app = SpectraceApp([SEED])
    async with started(app, analysed) as pilot:
        await pilot.press("slash", *"[/b] nowhere", "enter")
        await wait_for(pilot, lambda: "not found: [/b] nowhere" in notes(app))
        assert app.is_running and app.log_view.cursor == 0


@pilot
async def test_the_status_counts_in_english(tmp_path: Path) -> None:
    app = SpectraceApp([crash_log(tmp_path, 1)], expect=["never logged"])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        assert "1 crash, 1 finding" in str(app.status_bar.render())


@pilot
async def test_the_list_while_scanning_shows_each_kind_once_errors_first(tmp_path: Path) -> None:
    """A crash-dense log reports thousands: one row per kind with its count so far, so a storm
    of warnings neither freezes the keys nor pushes the error that matters out of sight."""
    app = SpectraceApp([crash_log(tmp_path, 3)])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        error = app.crashes[0]
        warning = replace(error, exception_type="KVCacheRetract", severity="warning")
        app.analysis, app.scanned = None, Scanned()  # as if the scan were still running
        app.scanned.add([("w", warning)] * 300 + [("e", error)])
        app._show_crashes()
        rows = [str(app.incident_list.get_option_at_index(i).prompt) for i in range(2)]
        assert app.incident_list.option_count == 2
        assert rows[0].startswith(f"… {error.exception_type}") and "×" not in rows[0]
        assert rows[1].startswith("… KVCacheRetract") and "×300" in rows[1]
        app.scanned.add([(f"kind {n}", error) for n in range(PROVISIONAL_MAX + 50)])
        app._show_crashes()
        assert app.incident_list.option_count == PROVISIONAL_MAX == 200


@pilot
async def test_a_healthy_run_says_no_crash_found() -> None:
    app = SpectraceApp([SAMPLES / "benign_only" / "server.log"])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.settled)
        await pilot.pause()
        said = str(app.detail.summary.render())  # and what was read (issue 16 item 8)
        assert said.startswith("No crash found in this log.\n") and "Read:" in said
        assert "server.log: 1,267 lines (" in said and "worker path:" in said
        assert str(app.load_chart.title.render()) == "load: no samples before any crash"
        # the count comes before what a narrow terminal cuts off
        assert app.status_bar.render_line(0).text.startswith("server.log: 1,267 lines │ 0 crashes")


@pilot
async def test_a_log_without_load_samples_says_so() -> None:
    app = SpectraceApp([SAMPLES / "pasted_midway" / "pasted.txt"])
    async with started(app, analysed) as pilot:
        await wait_for(pilot, lambda: app.settled)
        assert str(app.load_chart.title.render()) == "load: no samples before any crash"
