"""``spectrace tui PATH...``: check the inputs, then open the app."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spectrace.errors import InputError
from spectrace.line_index import check_readable

LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".gz", ".jsonl")


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; a directory stands for the log files in it (per-rank logs), sorted."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.is_file() and p.name.endswith(LOG_SUFFIXES)
            )
            if not found:
                raise InputError(
                    f"{path}: directory holds no log files ({', '.join(LOG_SUFFIXES)})"
                )
            files.extend(found)
        else:
            files.append(path)
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
