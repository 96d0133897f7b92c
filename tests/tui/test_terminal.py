"""The installed ``spectrace tui`` in a real terminal (tmux): keys in, screen text out."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_helpers import SAMPLES

TMUX = shutil.which("tmux")
EXE = Path(sys.executable).with_name("spectrace")
SPECTRACE = str(EXE) if EXE.exists() else shutil.which("spectrace")
SEED = SAMPLES / "seed_story" / "server.log"

pytestmark = pytest.mark.skipif(
    TMUX is None or SPECTRACE is None, reason="needs tmux and an installed spectrace"
)


class Pane:
    """A detached 160x48 tmux session running one command, on its own tmux server.

    A private server (``-L``) per pane: with one shared server, killing the last session
    shuts the server down, and a session started in that moment is silently lost.
    """

    def __init__(self, command: str) -> None:
        self.name = f"spectrace-test-{uuid.uuid4().hex[:8]}"
        # COLUMNS/LINES inherited from the test process (pytest exports 80x24) would win
        # over the pane's real size, as they do for any program a user starts.
        shell = f"unset COLUMNS LINES; {command}"
        started = self._run("new-session", "-d", "-x", "160", "-y", "48", "-s", self.name, shell)
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

    def start(command: str) -> Pane:
        panes.append(Pane(command))
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
