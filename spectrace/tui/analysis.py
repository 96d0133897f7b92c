"""Runs the core's analysis for the TUI and turns any failure into a one-line reason."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from spectrace import pipeline
from spectrace.assemblers.crash import Crash
from spectrace.errors import SpectraceError
from spectrace.pipeline import Analysis


def run(
    paths: Sequence[Path], expect: Sequence[str], on_crash: Callable[[Crash], None]
) -> Analysis | str:
    """The analysis, or the reason it failed (shown in the app, never as a traceback)."""
    try:
        return pipeline.analyse([str(p) for p in paths], expect=list(expect), on_crash=on_crash)
    except SpectraceError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - a core bug must not put a traceback on the screen
        return f"{type(exc).__name__}: {exc}"
