"""``spectrace tui PATH...``: check the inputs, then open the app."""

from __future__ import annotations

import os
import resource
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from spectrace.errors import InputError
from spectrace.line_index import check_readable
from spectrace.read import STDIN
from spectrace.stacks.flight import is_flight_dump
from spectrace.stacks.model import is_capture_file
from spectrace.textfile import checked_marker, checked_path
from spectrace.textsafe import one_line


def _warn(message: str) -> None:
    print(one_line(f"spectrace: warning: {message}"), file=sys.stderr)


def _rereadable(path: str) -> None:
    """The log view seeks in its file (an encoded one is decoded to a spool first): a pipe or a
    device is refused."""
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        raise InputError(f"{path}: not a regular file; tui needs files it can reread")


def expand(paths: Sequence[str | Path]) -> tuple[list[Path], list[Path], list[Path]]:
    """(logs, stacks captures, flight dumps): a directory stands for its files, logs checked now."""
    if any(str(p) == STDIN for p in paths):
        raise InputError("tui needs files it can reread: save stdin to a file first")
    names = [name for p in paths for name in _run_logs(checked_path(str(p)))]
    logs, captures, dumps = (names, [], []) if _only_log_files(names) else _route(names)
    for file in logs:  # none at all is fine: a capture alone opens with its hang findings
        _rereadable(file)
        check_readable(Path(file))
    if captures or dumps:
        from spectrace.inputs import usable_stacks

        # checked before the app starts: beside logs a damaged one is skipped, alone the error
        captures, dumps = usable_stacks(captures, dumps, _warn if logs else None)
    return [Path(p) for p in logs], [Path(p) for p in captures], [Path(p) for p in dumps]


def _run_logs(path: str) -> list[str]:
    """A run of a ``--format parquet`` dataset (``DIR/incidents/run=<id>``) stands for the logs
    it was triaged from; they must still be where they were."""
    if not Path(path).name.startswith("run="):
        return [path]
    from spectrace.reports.parquet import is_run_partition, run_files

    if not is_run_partition(path):
        return [path]
    files = run_files(path)
    gone = [f for f in files if not os.path.isfile(f)]
    if gone or not files:
        where = f"{gone[0]} is gone" if gone else "it names no log file"
        raise InputError(
            f"{path}: the run's logs are needed to browse it and {where}; "
            "spectrace diff reads a run's incidents without them"
        )
    return files


def _only_log_files(names: list[str]) -> bool:
    """Regular files, none a capture or a flight dump: the common case, which needs none of the
    core's modules (~60 ms of CPU to import, before the first frame)."""
    return all(
        os.path.isfile(n) and not is_capture_file(n) and not is_flight_dump(n) for n in names
    )


def _route(names: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Directories walked, missing files refused, captures and flight dumps set apart."""
    from spectrace.pipeline import expand_inputs
    from spectrace.stacks.findings import split_inputs

    return split_inputs(expand_inputs(names))


def tui(
    paths: Annotated[  # str, not Path: Path("") would be "." and open the working directory
        list[str],
        typer.Argument(help="Logs, .gz, log directories, stacks captures, flight dumps."),
    ],
    expect: Annotated[
        list[str], typer.Option("--expect", help="A marker line that should appear (repeatable).")
    ] = [],  # noqa: B006
    follow: Annotated[
        bool, typer.Option("--follow", "-f", help="Start in follow (tail) mode.")
    ] = False,
    no_redact: Annotated[
        bool, typer.Option("--no-redact", help="Show secrets (tokens, keys) in the log view.")
    ] = False,
) -> None:
    """Browse logs with their crashes, worker path, flags and load."""
    from spectrace.tui.app import SpectraceApp

    logs, captures, dumps = expand(paths)
    expect = [checked_marker(m) for m in expect]
    _enough_descriptors(len(logs))
    _need_terminal()
    _real_size()
    # the analysis (rules included) starts in a child process once the first frame is out
    app = SpectraceApp(
        logs, expect=expect, follow=follow, stacks=(captures, dumps), redact=not no_redact
    )
    app.run()


FD_MARGIN = 64  # the terminal, textual's own, the analysis reading one log at a time


def _enough_descriptors(files: int) -> None:
    """The app keeps every log open (two descriptors for a decoded one): the soft limit is
    raised as far as the hard one allows, else one line instead of EMFILE mid-start."""
    need = 2 * files + FD_MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if need <= soft:
        return
    limit = need if hard == resource.RLIM_INFINITY else min(need, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    if need > limit:
        raise InputError(
            f"{files} log files need {need} open files; the limit is {hard} (ulimit -n): "
            "open fewer files or a directory of fewer logs"
        )


def _need_terminal() -> None:
    """Without a terminal the app would draw into a pipe and wait for keys that never come."""
    for name, stream in (("stdin", sys.stdin), ("stdout", sys.stdout)):
        if stream is None or not stream.isatty():
            raise InputError(
                f"tui needs a terminal and {name} is not one; for a report use spectrace triage"
            )


def _real_size() -> None:
    """On a terminal the app takes its size from the terminal: an exported COLUMNS or LINES
    (COLUMNS=5) would fix it for good, resizes included."""
    if sys.stdout.isatty():
        for name in ("COLUMNS", "LINES"):
            os.environ.pop(name, None)


def register(app: typer.Typer) -> None:
    app.command("tui")(tui)
