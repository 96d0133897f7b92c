"""One module per CLI command; ``register_all`` adds them to the typer app."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import typer

# Each module defines ``register(app: typer.Typer) -> None``; its name is the command's.
# Order = order in --help.
COMMANDS = ("triage", "diff", "tui", "stacks", "engine")


def register_all(app: typer.Typer, argv: Sequence[str]) -> None:
    """Import only the command being run (start-up time matters to the TUI), all for --help."""
    wanted = [argv[0]] if argv and argv[0] in COMMANDS else list(COMMANDS)
    for name in wanted:
        importlib.import_module(f"spectrace.commands.{name}").register(app)
