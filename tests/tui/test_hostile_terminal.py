"""Round 2 in a real terminal (tmux): odd environments, encoded logs, Ctrl-C at a prompt."""

from __future__ import annotations

import bz2
from pathlib import Path

import pytest
from test_terminal import SEED, SPECTRACE, TMUX, pane  # noqa: F401 - pane is a fixture

pytestmark = pytest.mark.skipif(
    TMUX is None or SPECTRACE is None, reason="needs tmux and an installed spectrace"
)


def test_an_exported_tiny_columns_does_not_shrink_the_app(pane, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """COLUMNS=5 once drew the whole app 5 (then 20) cells wide inside a 160-cell terminal."""
    log = tmp_path / "server.log.bz2"
    log.write_bytes(bz2.compress(SEED.read_bytes()))
    term = pane(f"COLUMNS=5 LINES=3 TERM=dumb {SPECTRACE} tui {log}; echo EXIT=$?; sleep 30")
    screen = term.wait("server.log.bz2: 651 lines")
    assert "/ Search" in screen and "q Quit" in screen  # the key bar fits: full width
    term.wait("2 crashes")
    term.keys("q")
    assert "Traceback" not in term.wait("EXIT=0")


def test_ctrl_c_while_triage_waits_on_the_terminal_is_one_line(pane) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    term = pane(f"{SPECTRACE} triage -; echo EXIT=$?; sleep 30")
    term.wait("end it with Ctrl-D")
    term.keys("C-c")
    screen = term.wait("EXIT=130")
    assert "spectrace: interrupted" in screen and "Traceback" not in screen
