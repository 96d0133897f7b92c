"""The installed ``spectrace tui`` in a real terminal (tmux): keys in, screen text out."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_helpers import SAMPLES, interleaved_seed

TMUX = shutil.which("tmux")
EXE = Path(sys.executable).with_name("spectrace")
SPECTRACE = str(EXE) if EXE.exists() else shutil.which("spectrace")
SEED = SAMPLES / "seed_story" / "server.log"

pytestmark = pytest.mark.skipif(
    TMUX is None or SPECTRACE is None, reason="needs tmux and an installed spectrace"
)


class Pane:
    """A detached tmux session (160x48 unless told) running one command, on its own tmux server.

    A private server (``-L``) per pane: with one shared server, killing the last session
    shuts the server down, and a session started in that moment is silently lost.
    """

    def __init__(self, command: str, size: tuple[int, int] = (160, 48)) -> None:
        self.name = f"spectrace-test-{uuid.uuid4().hex[:8]}"
        # COLUMNS/LINES inherited from the test process (pytest exports 80x24) would win
        # over the pane's real size, as they do for any program a user starts.
        shell = f"unset COLUMNS LINES; {command}"
        width, height = (str(n) for n in size)
        started = self._run("new-session", "-d", "-x", width, "-y", height, "-s", self.name, shell)
        assert started.returncode == 0, f"tmux did not start: {started.stderr.strip()}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(TMUX), "-L", self.name, *args], capture_output=True, text=True, check=False
        )

    def _tmux(self, *args: str) -> str:
        return self._run(*args).stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.name, *keys)

    def wait(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def wait_gone(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text not in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never went away; the screen was:\n{self.screen()}")

    def kill(self) -> None:
        self._tmux("kill-server")


@pytest.fixture
def pane() -> Iterator[Pane]:
    panes: list[Pane] = []

    def start(command: str, size: tuple[int, int] = (160, 48)) -> Pane:
        panes.append(Pane(command, size))
        return panes[-1]

    yield start  # type: ignore[misc]
    for p in panes:
        p.kill()


def test_seed_story_in_a_real_terminal(pane) -> None:  # type: ignore[no-untyped-def]
    term = pane(
        f"{SPECTRACE} tui {SEED} --expect 'Dynamic speculation disable enabled'; echo EXIT=$?; sleep 30"
    )
    first = term.wait("server.log: 651 lines")
    assert "Overlap scheduler is disabled when spec v2 is off" in first
    assert "/ Search" in first and "e Next crash" in first and "q Quit" in first
    term.wait("2 crashes, 1 finding")
    term.keys("e")
    screen = term.wait("worker path: v1 (EAGLEWorker)")
    assert "160 = 10 running requests × 16 draft tokens" in screen
    screen = term.wait("TP7] Scheduler hit an exception: Traceback")
    assert "disable_overlap_schedule=True" in screen
    assert "load up to ✖" in screen
    term.keys("?")
    help_screen = term.wait("spectrace tui: keys")
    assert "Next crash" in help_screen and "Filter" in help_screen
    term.keys("Escape")
    # q only once the help has closed: read together with the Escape (a busy app reads both in
    # one go), Escape+q is alt+q, which quits nothing; a fixed pause lost that race under load.
    term.wait_gone("spectrace tui: keys")
    term.keys("q")
    after = term.wait("EXIT=0")
    assert "Traceback" not in after


def test_a_missing_file_is_one_line_in_a_real_terminal(pane, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    term = pane(f"{SPECTRACE} tui {tmp_path / 'nope.log'}; echo EXIT=$?; sleep 30")
    screen = term.wait("EXIT=2")
    assert "spectrace: error:" in screen and "nope.log: no such file" in screen
    assert "Traceback" not in screen


def test_issue16_at_200x50(pane, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The rank view keeps TP7's crash, search counts and says "not found", a filter counts
    what it shows, w wraps, Enter opens the whole line, a jump pans to its flag."""
    log = interleaved_seed(tmp_path)
    term = pane(f"{SPECTRACE} tui {log}; echo EXIT=$?; sleep 30", (200, 50))
    term.wait("1,026 lines")
    term.wait("crash")
    term.wait_gone("scanning")
    term.keys("r")
    term.wait("Show one rank only")
    picker = term.wait("   TP6 ")  # the whole list drawn, not just its title
    rows = [line for line in picker.splitlines() if re.search(r"▊ [✖ ] TP\d", line)]
    assert sum(" TP7 " in row for row in rows) == 1 and len(rows) >= 8  # each rank once
    assert "✖ TP7" in rows[0] and "1 crash" in rows[0]
    term.keys("Enter")  # the crash's origin is offered first and highlighted
    term.wait("rank TP7 only")
    term.keys("G")
    screen = term.wait("   1000 RuntimeError: The size of tensor a (160)")
    assert " TP4] " not in screen and "    999 " not in screen
    term.keys("F", "/")
    term.wait("Search (n/N")
    term.keys("-l", "zz-absent-zz")
    term.keys("Enter")
    term.wait("search 'zz-absent-zz': not found")
    term.keys("f")
    term.wait("Filter lines")
    term.keys("-l", "Load weight end")
    term.keys("Enter")
    screen = term.wait("filter in 'Load weight end': 16 shown")
    assert "Load weight begin" not in screen
    term.keys("F")
    term.wait_gone("filter in")
    for key in ("g", "j", "j", "j", "w"):  # line 4: the 5 KB server_args dump, wrapped
        term.keys(key)
        time.sleep(0.3)
    screen = term.wait("\ntokenizer_path=")  # the dump's rest below its row, from column 0
    assert "›" not in screen.split("▏")[0]
    term.keys("Enter")
    screen = term.wait("server_args=ServerArgs: ")
    assert re.search(r"ServerArgs: \d+ fields", screen) and "  tokenizer_mode='auto'  " in screen
    term.keys("Escape")
    term.wait_gone("server_args=ServerArgs: ")
    term.keys("q")
    assert "Traceback" not in term.wait("EXIT=0")


def test_issue16_at_80x24(pane) -> None:  # type: ignore[no-untyped-def]
    """80x24: the log above the crash list and detail; z zooms the detail, which reads the
    seed crash's arithmetic without sideways scrolling; ticks read without colour."""
    term = pane(f"{SPECTRACE} tui {SEED}; echo EXIT=$?; sleep 30", (80, 24))
    first = term.wait("server.log: 651 lines")
    assert "RuntimeError" in term.wait("✖ RuntimeError")
    term.wait_gone("scanning")
    first = term.screen()
    assert first.splitlines()[0].startswith("server.log") and "✖ RuntimeError" in first
    term.keys("z")
    screen = term.wait("160 = 10 running requests")
    assert all(len(line.rstrip()) <= 80 for line in screen.splitlines())
    assert "worker path: v1 (EAGLEWorker)" in screen
    term.keys("z", "f")
    dialog = term.wait("Filter lines")
    for key in ("Tab", "Tab", "Space"):  # one at a time: focus moves between them
        term.keys(key)
        time.sleep(0.3)
    ticked = term.wait("X▌ Filter out")
    assert "▐ ▌ Regex" in ticked  # the state reads without colour: X or blank
    term.keys("Escape")
    term.wait_gone("Filter lines")
    term.keys("q")
    assert "Traceback" not in term.wait("EXIT=0") and dialog
