"""The ``spectrace`` command: registers each command and maps SpectraceError to one line + exit 2."""

from __future__ import annotations

import os
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
    code: int | str | None = 0
    try:
        try:
            app(standalone_mode=True)
        except SystemExit as exc:
            code = exc.code
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk fails here, where it can still be said in one line
    except SpectraceError as exc:
        print(f"spectrace: error: {one_line(exc)}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        print("spectrace: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # `| head` left: keep the exit code, drop the rest of the output
        _drop_stdout()
    except OSError as exc:  # writing the output failed (ENOSPC, EIO)
        print(f"spectrace: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        _drop_stdout()
        sys.exit(EXIT_USAGE)
    sys.exit(code)


def _drop_stdout() -> None:
    """What is still buffered for a broken stdout is dropped, not reported again at exit."""
    if sys.stdout is not None:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            sys.stdout = None  # type: ignore[assignment]
