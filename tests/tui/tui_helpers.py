"""Helpers for TUI tests: reading what the log view shows, waiting on workers, running pilots."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from spectrace.tui.app import SpectraceApp

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).parents[2] / "sample_logs"
SIZE = (160, 48)


def app_on(tmp_path: Path, name: str, data: bytes) -> SpectraceApp:
    """The app on a one-off log file holding ``data``."""
    log = tmp_path / name
    log.write_bytes(data)
    return SpectraceApp([log])


def screen_lines(app: SpectraceApp) -> list[str]:
    """The log view's visible rows as plain text, as the user would read them."""
    view = app.log_view
    return [view.render_line(y).text.rstrip() for y in range(view.scrollable_content_region.height)]


def shown(app: SpectraceApp) -> str:
    return "\n".join(screen_lines(app))


async def wait_for(pilot: Pilot[None], ready: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the app's workers run until ``ready`` holds (fails the test after ``timeout``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready():
        assert loop.time() < deadline, "the app did not reach the expected state in time"
        await pilot.pause(0.05)


@contextlib.asynccontextmanager
async def started(
    app: SpectraceApp, ready: Callable[[SpectraceApp], bool]
) -> AsyncIterator[Pilot[None]]:
    """Run ``app`` at the test size until ``ready(app)`` holds; hand over its pilot."""
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: ready(app))
        yield pilot


def pilot(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot test on its own event loop (no pytest-asyncio needed)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


async def pick_rank(pilot: Pilot[None], app: SpectraceApp, name: str) -> None:
    """``r``, then the rank called ``name`` in the picker (each rank is listed once), Enter."""
    await pilot.press("r")
    options = app.screen.query_one("OptionList")
    options.highlighted = options.get_option_index(name)  # type: ignore[attr-defined]
    await pilot.press("enter")


def interleaved_seed(folder: Path) -> Path:
    """The seed story with TP1, TP2 and TP4 lines printed into TP7's traceback, so that it runs
    from line 973 to its ``RuntimeError`` on line 1000 (as in issue 16's 8-rank log)."""
    lines = (SAMPLES / "seed_story" / "server.log").read_bytes().split(b"\n")[:-1]
    head, traceback, rest = lines[:600], lines[600:625], lines[625:]
    decode = [line for line in head if b"Decode batch" in line and b" TP0]" in line]
    while len(head) < 972:
        head.append(decode[len(head) % len(decode)])

    def other(rank: int) -> bytes:
        return b"[2026-02-27 21:00:18 TP%d] Decode batch, #running-req: 10, #token: 2531" % rank

    body = traceback[:6] + [other(1)] + traceback[6:15] + [other(2)] + traceback[15:24]
    body += [other(4), traceback[24]]
    out = folder / "seed_interleaved.log"
    out.write_bytes(b"\n".join(head + body + rest) + b"\n")
    return out
