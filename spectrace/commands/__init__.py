"""One module per CLI command; ``register_all`` adds them to the typer app."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Iterator, Sequence

import typer
from rich.console import Console

# Each module defines ``register(app: typer.Typer) -> None``; its name is the command's.
# Order = order in --help.
COMMANDS = ("triage", "diff", "tui", "stacks", "engine")


def register_all(app: typer.Typer, argv: Sequence[str]) -> None:
    """Import only the command being run (start-up time matters to the TUI), all for --help."""
    wanted = [argv[0]] if argv and argv[0] in COMMANDS else list(COMMANDS)
    for name in wanted:
        importlib.import_module(f"spectrace.commands.{name}").register(app)


@contextlib.contextmanager
def reader_may_leave() -> Iterator[None]:
    """`| head` may close stdout early: the rest of the output is dropped and the command's
    exit code kept (typer would turn the BrokenPipeError into exit 1)."""
    try:
        yield
    except BrokenPipeError:
        _drop_stdout()


def _drop_stdout() -> None:
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class StdoutConsole(Console):
    """rich's Console, but a reader that left (`| head`) drops the rest of the output instead
    of exiting 1: the command's exit code (a CI verdict) is kept."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        _drop_stdout()
