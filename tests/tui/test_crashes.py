"""Pilot tests on the sample logs: crash list, detail panel, load chart, jumps, follow."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_helpers import SAMPLES, SIZE, pilot, shown, started, wait_for

from spectrace.incidents import Incident
from spectrace.pipeline import Finding
from spectrace.tui.app import SpectraceApp

MARKER = "Dynamic speculation disable enabled"
SEED = SAMPLES / "seed_story" / "server.log"


def detail_text(app: SpectraceApp) -> str:
    """Everything the detail panel shows: summary, each jump option, traceback."""
    parts = [str(app.detail.summary.render())]
    evidence = app.detail.evidence
    parts += [str(evidence.get_option_at_index(i).prompt) for i in range(evidence.option_count)]
    parts.append(str(app.detail.traceback.render()))
    return "\n".join(parts)


def option_index(app: SpectraceApp, needle: str) -> int:
    evidence = app.detail.evidence
    return next(
        i
        for i in range(evidence.option_count)
        if needle in str(evidence.get_option_at_index(i).prompt)
    )


def analysed(app: SpectraceApp) -> bool:
    return app.analysis is not None


@contextlib.asynccontextmanager
async def seed_app(*keys: str) -> AsyncIterator[tuple[SpectraceApp, Pilot[None]]]:
    """The app on the seed story once analysed, after pressing ``keys``."""
    app = SpectraceApp([SEED], expect=[MARKER])
    async with started(app, analysed) as pilot:
        if keys:
            await pilot.press(*keys)
        yield app, pilot


@pilot
async def test_e_selects_the_tp7_crash_with_path_flags_and_arithmetic() -> None:
    async with seed_app("e") as (app, pilot):
        entry = app.incident_list.current()
        assert entry is not None and isinstance(entry.item, Incident)
        assert entry.item.exception_type == "RuntimeError" and entry.item.origin_rank == "TP7"
        assert app.log_view.cursor == 600  # line 601, the traceback header
        text = detail_text(app)
        assert "worker path: v1 (EAGLEWorker)" in text
        assert "disable_overlap_schedule=True" in text and "server.log:4" in text
        assert "160 = 10 running requests × 16 draft tokens" in text
        assert "unexplained numbers: 2\npossible reading: 2 fits no product of the known" in text
        assert "origin TP7 · ranks TP7, TP3" in text
        assert "Traceback (most recent call last)" in text and "eagle_worker.py" in text


@pilot
async def test_an_evidence_line_jumps_the_log_to_it() -> None:
    async with seed_app("e") as (app, pilot):
        evidence = app.detail.evidence
        evidence.focus()
        evidence.highlighted = option_index(app, "disable_overlap_schedule=True")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.log_view.cursor == 3)
        # the dump is 800 cells wide: the view pans to the flag and marks it (issue 16 item 3)
        view = app.log_view
        assert view.scroll_offset.x > 0
        row = view.render_line(view.cursor - int(view.scroll_offset.y))
        marked = "".join(seg.text for seg in row if seg.style and seg.style.underline)
        assert "disable_overlap_schedule" in marked and "disable_overlap_schedule=True" in row.text
        evidence.highlighted = option_index(app, "Overlap scheduler is disabled")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.log_view.cursor == 1)


@pilot
async def test_e_and_E_walk_crashes_in_log_order() -> None:
    """Every occurrence is a stop (as in lnav): TP7's traceback, TP3's, then the SIGQUIT."""
    async with seed_app("e", "e") as (app, pilot):
        again = app.incident_list.current()
        assert again is not None and again.item.exception_type == "RuntimeError"
        assert app.log_view.cursor == 625  # TP3's copy of the same incident, line 626
        await pilot.press("e")
        third = app.incident_list.current()
        assert third is not None and isinstance(third.item, Incident)
        assert "SIGQUIT" in third.item.message or third.item.exception_type == "SIGQUIT"
        assert third.depth == 1  # collateral, listed under its root cause
        await pilot.press("E", "E")
        first = app.incident_list.current()
        assert first is not None and first.item.exception_type == "RuntimeError"
        assert app.log_view.cursor == 600


@pilot
async def test_the_list_shows_root_collateral_and_missing_marker() -> None:
    async with seed_app() as (app, pilot):
        kinds = [(type(e.item).__name__, e.depth) for e in app.incident_list.entries]
        assert kinds == [("Incident", 0), ("Incident", 1), ("Finding", 0)]
        app.incident_list.focus()
        app.incident_list.highlighted = 2
        await pilot.pause()
        finding = app.incident_list.current()
        assert finding is not None and isinstance(finding.item, Finding)
        assert MARKER in detail_text(app) and "missing marker" in detail_text(app)
        assert "1 finding" in str(app.status_bar.render())


@pilot
async def test_selecting_a_crash_in_the_list_jumps_the_log() -> None:
    async with seed_app() as (app, pilot):
        app.incident_list.focus()
        app.incident_list.highlighted = 0
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.log_view.cursor == 600)
        assert "TP7] Scheduler hit an exception" in shown(app)


@pilot
async def test_load_chart_ends_at_the_crash() -> None:
    async with seed_app("e") as (app, pilot):
        chart = app.load_chart
        assert "load up to ✖ 2026-02-27 21:00:18" in str(chart.title.render())
        row = chart.rows[("running_req", 0)]
        assert (
            row.display and row.spark.data and row.spark.data[-1] == 10 and len(row.spark.data) > 10
        )
        assert "TP0 running req" in str(row.label.render())


@pilot
async def test_follow_sees_a_new_crash_appear(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    lines = SEED.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:590]))
    app = SpectraceApp([log], follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: analysed(app))
        assert not app.incident_list.entries
        with log.open("a") as fh:
            fh.writelines(lines[590:])
        await wait_for(
            pilot,
            lambda: any(
                e.item.exception_type == "RuntimeError"
                for e in app.incident_list.entries
                if not isinstance(e.item, Finding)
            ),
        )
        assert app.log_view.cursor == len(lines) - 1


@pytest.mark.parametrize(
    "sample", ["k8s_wrapped", "nccl_watchdog", "vllm_enginecore", "benign_only"]
)
@pilot
async def test_every_sample_opens_with_its_crashes(sample: str, tmp_path: Path) -> None:
    folder = Path(shutil.copytree(SAMPLES / sample, tmp_path / sample))
    paths = sorted(p for p in folder.iterdir() if p.name != "expected.json")
    app = SpectraceApp(paths)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: analysed(app))
        await wait_for(pilot, lambda: app.log_view.source.count > 0 and bool(shown(app).strip()))
        roots = [
            e.item
            for e in app.incident_list.entries
            if isinstance(e.item, Incident) and e.item.root_cause
        ]
        assert (len(roots) == 0) == (sample == "benign_only")
        if roots:
            await pilot.press("e")
            assert app.incident_list.current() is not None


@pilot
async def test_an_80_column_terminal_keeps_most_of_the_width_for_the_log() -> None:
    app = SpectraceApp([SEED], expect=[MARKER])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: analysed(app))
        assert app.log_view.size.width >= 40
