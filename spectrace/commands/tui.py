"""``spectrace tui PATH...``: check the inputs, then open the app."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spectrace.errors import InputError
from spectrace.line_index import check_readable
from spectrace.pipeline import expand_inputs
from spectrace.read import STDIN


def expand(paths: list[Path]) -> list[Path]:
    """The files the core would analyse (a directory stands for its logs), each checked now."""
    if any(str(p) == STDIN for p in paths):
        raise InputError("tui needs files it can reread: save stdin to a file first")
    files = [Path(p) for p in expand_inputs([str(p) for p in paths])]
    for file in files:
        check_readable(file)
    return files


def tui(
    paths: Annotated[
        list[Path], typer.Argument(help="Log files, .gz files, or a directory of per-rank logs.")
    ],
    expect: Annotated[
        list[str], typer.Option("--expect", help="A marker line that should appear (repeatable).")
    ] = [],  # noqa: B006
    follow: Annotated[
        bool, typer.Option("--follow", "-f", help="Start in follow (tail) mode.")
    ] = False,
) -> None:
    """Browse logs with their crashes, worker path, flags and load."""
    from spectrace.ruleset import RuleSet
    from spectrace.tui.app import SpectraceApp

    files = expand(paths)
    SpectraceApp(files, expect=expect, follow=follow, benign=RuleSet.load().benign).run()


def register(app: typer.Typer) -> None:
    app.command("tui")(tui)
