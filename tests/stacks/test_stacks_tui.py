"""Captures and flight dumps beside logs in `spectrace tui` and in triaged directories."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from stacks_helpers import HungServer, spectrace
from test_stacks_flight import dump, write
from textual.pilot import Pilot

from spectrace.commands.tui import expand
from spectrace.pipeline import Finding
from spectrace.stacks.capture import CaptureOptions
from spectrace.stacks.capture import capture as live_capture
from spectrace.stacks.model import save_capture
from spectrace.tui.app import SpectraceApp

VERDICT = "TP2 is in `verify` while TP0-1 and TP3 wait in all_reduce"
OPS = ["nccl:all_reduce", "nccl:all_gather"]


@pytest.fixture(scope="module")
def saved(hung_sglang: HungServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("capture") / "hang.json"
    save_capture(live_capture(hung_sglang.pid, CaptureOptions(samples=2, interval=0.1)), path)
    return path


async def wait_for(pilot: Pilot[None], ready: Callable[[], bool], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready():
        assert loop.time() < deadline, "the app did not reach the expected state in time"
        await pilot.pause(0.05)


async def select_hang(hung_sglang: HungServer, saved: Path) -> tuple[str, int]:
    """Open the TUI on the log and capture, select the hang finding; (its label, log cursor)."""
    app = SpectraceApp([hung_sglang.log], stacks=([saved], []))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.analysis is not None)
        entries = app.incident_list.entries
        (n,) = [i for i, e in enumerate(entries) if isinstance(e.item, Finding)]
        app.incident_list.focus()
        app.incident_list.highlighted = n
        await pilot.press("enter")
        lines = hung_sglang.log.read_text().splitlines()
        last_tp2 = max(i for i, t in enumerate(lines) if " TP2] " in t)
        await wait_for(pilot, lambda: app.log_view.cursor == last_tp2)
        label = str(app.incident_list.get_option_at_index(n).prompt)
        return label, app.log_view.cursor


def test_tui_lists_the_hang_and_jumps_to_the_odd_ranks_last_line(
    hung_sglang: HungServer, saved: Path
) -> None:
    label, cursor = asyncio.run(select_hang(hung_sglang, saved))
    assert label.startswith("⚠ hang") and VERDICT in label
    line = hung_sglang.log.read_text().splitlines()[cursor]
    assert " TP2] " in line


def test_tui_takes_a_capture_alone(saved: Path) -> None:
    """No log needed: the TUI opens on the capture's hang finding (tests/tui/test_capture_alone.py)."""
    assert expand([saved]) == ([], [saved], [])


def test_triage_of_a_directory_routes_capture_and_flight_dumps(
    hung_sglang: HungServer, saved: Path, tmp_path: Path
) -> None:
    shutil.copy(hung_sglang.log, tmp_path / "server.log")
    shutil.copy(saved, tmp_path / "hang.json")
    write(tmp_path, 0, dump(12, 11, OPS))
    write(tmp_path, 1, dump(11, 11, OPS[:1]), as_json=True)
    (tmp_path / "nccl_trace_rank_1").rename(tmp_path / "nccl_trace_rank_1.json")

    result = spectrace("triage", str(tmp_path), "--format", "json")

    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    doc = json.loads(result.stdout)
    assert [f["path"] for f in doc["files"]] == [str(tmp_path / "server.log")]
    hangs = [f["message"] for f in doc["findings"] if f["kind"] == "hang"]
    assert len(hangs) == 2 and VERDICT in hangs[0]
    assert hangs[1].startswith("flight recorder:") and "rank1" in hangs[1]


def test_triage_of_a_capture_alone_prints_its_verdict(saved: Path) -> None:
    result = spectrace("triage", str(saved))
    assert result.returncode == 0, result.stderr
    assert "finding (hang)" in result.stdout and VERDICT in result.stdout.replace("\n", " ")


def test_tui_takes_a_directory_apart_before_checking_its_logs(
    hung_sglang: HungServer, saved: Path, tmp_path: Path
) -> None:
    shutil.copy(hung_sglang.log, tmp_path / "server.log")
    shutil.copy(saved, tmp_path / "hang.json")
    dump_path = write(tmp_path, 0, dump(12, 11, OPS))  # pickle: check_readable calls it binary
    assert expand([tmp_path]) == (
        [tmp_path / "server.log"],
        [tmp_path / "hang.json"],
        [Path(dump_path)],
    )


async def select_flight_evidence(log: Path, dumps: list[Path]) -> tuple[str, list[str]]:
    """Open the TUI on a log and flight dumps, press Enter on the finding's first evidence."""
    app = SpectraceApp([log], stacks=([], dumps))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.analysis is not None)
        (n,) = [i for i, e in enumerate(app.incident_list.entries) if isinstance(e.item, Finding)]
        app.incident_list.highlighted = n
        await pilot.pause()
        app.detail.evidence.focus()
        app.detail.evidence.highlighted = 0
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(app._notifications))
        label = str(app.incident_list.get_option_at_index(n).prompt)
        return label, [str(note.message) for note in app._notifications]


def test_tui_flight_evidence_names_the_dump_instead_of_jumping(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("[2026-02-27 21:00:18 TP0] Decode batch. #running-req: 10\n")
    dumps = [
        Path(write(tmp_path, 0, dump(12, 11, OPS))),
        Path(write(tmp_path, 1, dump(11, 11, OPS[:1]))),
    ]
    label, notes = asyncio.run(select_flight_evidence(log, dumps))
    assert label.startswith("⚠ hang") and "flight recorder:" in label
    assert notes == ["nccl_trace_rank_0 is not a log: no line to jump to"]
