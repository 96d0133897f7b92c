"""The crash list while the scan runs (issue 12 item 10): the first crash shows before the
scan ends, the final list is triage's, and the scan's process never outlives the app."""

from __future__ import annotations

import os
import signal
import sys
from datetime import datetime, timedelta
from pathlib import Path

from tui_helpers import SAMPLES, pilot, started, wait_for

from spectrace import pipeline
from spectrace.incidents import Incident
from spectrace.tui import app as app_module
from spectrace.tui.app import SpectraceApp

sys.path.insert(0, str(Path(__file__).parents[1]))
from synthetic import traceback_lines  # noqa: E402

STORM = 1500  # crashes after the first: the scan takes about a second, the first shows at once


def storm_log(path: Path) -> Path:
    """An 8-rank SGLang log: one shape mismatch on TP7 at the top, then a storm of OOM
    tracebacks on every rank with decode lines between them."""
    start = datetime(2026, 2, 27, 21, 0, 0)
    lines = [*traceback_lines("TP7", start)]
    for n in range(STORM):
        when = start + timedelta(seconds=1 + n)
        rank = f"TP{n % 8}"
        lines.append(f"[{when:%Y-%m-%d %H:%M:%S} {rank}] Decode batch. #running-req: {n % 40}")
        lines.extend(traceback_lines(rank, when, f"CUDA out of memory. Request {n} failed"))
    path.write_text("\n".join(lines) + "\n")
    return path


def rows(app: SpectraceApp) -> list[str]:
    list_ = app.incident_list
    return [str(list_.get_option_at_index(i).prompt) for i in range(list_.option_count)]


class Watched(SpectraceApp):
    """Records what the list showed, and whether the status still said "scanning", the first
    time a crash row was on screen."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # not beside this test
    first_seen: tuple[list[str], str] | None = None

    def _show_crashes(self) -> None:
        super()._show_crashes()
        if self.first_seen is None and self.incident_list.option_count:
            self.first_seen = (rows(self), self._status_text)


@pilot
async def test_the_first_crash_is_listed_while_the_scan_still_runs(tmp_path: Path) -> None:
    app = Watched([storm_log(tmp_path / "server.log")])
    async with started(app, lambda a: a.first_seen is not None) as pilot:
        shown, status = app.first_seen or ([], "")
        assert "scanning…" in status and "1 crash" in status
        assert len(shown) == 1 and "RuntimeError" in shown[0] and "TP7" in shown[0]
        await wait_for(pilot, lambda: app.analysis is not None, timeout=120)
        assert "scanning" not in app._status_text


@pilot
async def test_the_final_list_is_triages_incidents(tmp_path: Path) -> None:
    for log in (storm_log(tmp_path / "server.log"), SAMPLES / "seed_story" / "server.log"):
        app = SpectraceApp([log])
        async with started(app, lambda a: a.settled):
            listed = [e.item for e in app.incident_list.entries]
        triage = pipeline.analyse([str(log)])
        assert [i.signature for i in listed if isinstance(i, Incident)] == [
            i.signature for i in triage.incidents
        ]
        assert [(len(i.occurrences), i.ranks, i.caused_by) for i in listed
                if isinstance(i, Incident)] == [
            (len(i.occurrences), i.ranks, i.caused_by) for i in triage.incidents
        ]  # fmt: skip


@pilot
async def test_quitting_mid_scan_ends_the_scan_process(tmp_path: Path) -> None:
    app = Watched([storm_log(tmp_path / "server.log")])
    async with started(app, lambda a: a.first_seen is not None):
        assert app._apart is not None and app.scanning
        child = app._apart._proc
    assert child.poll() is not None  # gone with the app, not left scanning


@pilot
async def test_a_scan_process_that_dies_is_one_line_in_the_app(tmp_path: Path) -> None:
    app = Watched([storm_log(tmp_path / "server.log")])
    async with started(app, lambda a: a.first_seen is not None) as pilot:
        assert app._apart is not None
        os.kill(app._apart._proc.pid, signal.SIGKILL)
        await wait_for(pilot, lambda: not app.scanning, timeout=60)
        said = [n.message for n in app._notifications]
        assert said == ["the analysis process ended without a result (exit code -9)"]
        assert app.analysis is None and "scanning" not in app._status_text
