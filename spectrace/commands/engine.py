"""``spectrace engine``: the bundled EAGLE engine (its CLI imports torch only inside commands).

Without its extra, a subcommand says in one line what to install and exits 2 (``--help``
still works): the engine's own exit 1 means "a rank crashed".
"""

from __future__ import annotations

import sys

import typer

NEEDS = ("torch",)  # every engine command that runs a model
SMOLLM_NEEDS = ("gguf", "tokenizers")  # --model smollm2


def _model(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--model" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--model="):
            return arg.partition("=")[2]
    return None


def _needs_engine(ctx: typer.Context) -> None:
    """Runs before the subcommand: its extras are checked before anything is launched."""
    from spectrace.extras import require

    if ctx.invoked_subcommand is None or "--help" in sys.argv:
        return
    what = f"spectrace engine {ctx.invoked_subcommand}"
    require(what, NEEDS)
    if (_model(sys.argv) or "").lower().startswith("smollm"):
        require(f"{what} --model smollm2", SMOLLM_NEEDS)


def register(app: typer.Typer) -> None:
    from spectrace_engine.entrypoints.cli import engine_app

    app.add_typer(engine_app, name="engine", callback=_needs_engine)
