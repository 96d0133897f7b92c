"""The ``spectrace`` command: registers each command and maps SpectraceError to one line + exit 2."""

from __future__ import annotations

import sys

import typer

from spectrace.errors import SpectraceError
from spectrace.textsafe import one_line

EXIT_USAGE = 2

app = typer.Typer(
    name="spectrace",
    help="Crash triage for speculative-decoding LLM server logs (SGLang, vLLM, TensorRT-LLM).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _group() -> None:
    """Crash triage for speculative-decoding LLM server logs (SGLang, vLLM, TensorRT-LLM)."""
    # A callback keeps ``app`` a command group when only the command being run is registered.


def main() -> None:
    from spectrace.commands import register_all

    register_all(app, sys.argv[1:])
    try:
        app(standalone_mode=True)
    except SpectraceError as exc:
        print(f"spectrace: error: {one_line(exc)}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        print("spectrace: interrupted", file=sys.stderr)
        sys.exit(130)
