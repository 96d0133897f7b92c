"""The ``spectrace`` command: registers each command and maps SpectraceError to one line + exit 2."""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType

import typer

from spectrace.errors import Interrupted, SpectraceError
from spectrace.textsafe import OUTPUT_ERRORS, one_line

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
MAX_NAME_SHOWN = 120  # of a file name in an error line
MIN_COLUMNS = 20  # COLUMNS=0 made rich print nothing at all, not even the verdict

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

    _sane_environment()
    if sys.argv[1:2] != ["tui"]:  # the TUI reads Ctrl-C as a key; a signal would tear it down
        signal.signal(signal.SIGINT, _interrupt_handler(os.getpid()))
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
    except ModuleNotFoundError as exc:  # an extra's module imported deep in a command
        from spectrace.extras import missing_extra

        if (line := missing_extra(exc, f"spectrace {' '.join(sys.argv[1:2])}")) is None:
            raise
        print(f"spectrace: error: {line}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except (Interrupted, KeyboardInterrupt):
        print("spectrace: interrupted", file=sys.stderr)
        _drop_stdout()
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:  # `| head` left: keep the exit code, drop the rest of the output
        _drop_stdout()
    except OSError as exc:  # writing the output failed (ENOSPC, EIO), or the system refused
        print(f"spectrace: error: {_os_error(exc)}", file=sys.stderr)
        _drop_stdout()
        sys.exit(EXIT_USAGE)
    sys.exit(code)


_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG})


def _os_error(exc: OSError) -> str:
    """One line for an OSError nobody named: a full disk is the output; others say what failed
    (EMFILE is no write error)."""
    what = one_line(exc.strerror or exc)
    if exc.errno in _OUTPUT_ERRNOS:
        return f"cannot write the output: {what}"
    name = one_line(exc.filename or "")
    name = name if len(name) <= MAX_NAME_SHOWN else name[:MAX_NAME_SHOWN] + "…"
    return f"{what} ({name})" if name else what


def _drop_stdout() -> None:
    """What is still buffered for a broken stdout is dropped, not reported again at exit."""
    if sys.stdout is not None:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            sys.stdout = None  # type: ignore[assignment]


def _interrupt_handler(main_pid: int) -> Callable[[int, FrameType | None], None]:
    """Ctrl-C reaches the whole process group: forked scan workers leave without a word (their
    parent says it once); the main process unwinds, so progress bars and files are closed."""

    def handler(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != main_pid:
            os._exit(EXIT_INTERRUPTED)
        raise Interrupted

    return handler


def _sane_environment() -> None:
    """Output that can always be written: a tiny COLUMNS is raised to a width rich can use, and
    a non-UTF-8 stdout (PYTHONIOENCODING=ascii) writes ``\\uXXXX`` rather than failing."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) < MIN_COLUMNS:
        os.environ["COLUMNS"] = str(MIN_COLUMNS)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=OUTPUT_ERRORS)
