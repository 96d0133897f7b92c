"""One module per CLI command; ``register_all`` adds each to the typer app."""

from __future__ import annotations

import importlib

import typer

# Each module defines ``register(app: typer.Typer) -> None``. Order = order in --help.
COMMAND_MODULES = (
    "spectrace.commands.triage",
    "spectrace.commands.diff",
    "spectrace.commands.tui",
    "spectrace.commands.stacks",
    "spectrace.commands.engine",
)


def register_all(app: typer.Typer) -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real missing dependency inside the module
                raise
            continue  # command not built yet
        module.register(app)
