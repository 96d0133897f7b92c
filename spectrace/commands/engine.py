"""``spectrace engine``: the bundled EAGLE engine (its CLI imports torch only inside commands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    from spectrace_engine.entrypoints.cli import engine_app

    app.add_typer(engine_app, name="engine")
