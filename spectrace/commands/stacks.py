"""``spectrace stacks``: live py-spy capture of a (hung) server's process tree, classified per rank."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from spectrace.commands import StdoutConsole, reader_may_leave
from spectrace.errors import InputError, UsageError
from spectrace.stacks.capture import CaptureOptions, capture
from spectrace.stacks.flight import expand
from spectrace.stacks.model import Capture, load_capture, to_json
from spectrace.stacks.report import StacksReport
from spectrace.stacks.verdict import analyse, analysis_json
from spectrace.stacks.watch import WatchResult, WatchSpec, watch

HELP = """Capture the Python stacks of PID and all its children with py-spy; say what each rank does.

Several samples a short interval apart show whether stacks move. Ranks come from process
titles (sglang::scheduler_TP3, VLLM::Worker_TP1), --tp-rank/--rank flags, RANK env vars, or
the entry function's tp_rank/rank argument. --flight adds PyTorch flight-recorder dumps.

\b
Watch mode (CI): spectrace stacks --watch server.log --pid PID --stall 120
captures automatically when the log has been silent for --stall seconds while PID lives.

\b
Exit codes:
  0  captured (or, with --watch, the process exited without a stall)
  1  --watch: the log stalled and a capture was taken
  2  bad usage, no such process, ptrace not permitted, py-spy missing (one line on stderr)
"""

Opt = typer.Option


def _flight(paths: list[str], fmt: str, console: Console) -> dict[str, object] | None:
    """Flight-recorder dumps given with --flight: a verdict line and each rank's pending collective."""
    from spectrace.stacks.findings import flight_findings  # the pipeline: not for --help

    files = expand(paths)
    if not paths:
        return None
    if not files:
        raise InputError(f"no flight-recorder dump in {', '.join(paths)}")
    (finding,) = flight_findings(files)
    if fmt == "text":
        console.print(Text(finding.message, style="bold"))
        for ev in finding.evidence:
            console.print(Text(f"  {ev.reason}: {ev.text}  [{ev.source}]"))
    return {
        "verdict": finding.message,
        "ranks": [
            {"file": e.source, "reason": e.reason, "entry": e.text} for e in finding.evidence
        ],
    }


@reader_may_leave()
def _emit(snap: Capture, fmt: str, save: Path | None, threads: bool, console: Console,
          flight: list[str]) -> None:  # fmt: skip
    analysis = analyse(snap)
    document = {**to_json(snap), "analysis": analysis_json(analysis)}
    if fmt == "text":
        console.print(
            StacksReport(snap, analysis, threads=threads), soft_wrap=not console.is_terminal
        )
    recorder = _flight(flight, fmt, console)
    if recorder is not None:
        document["flight_recorder"] = recorder
    if save is not None:
        try:
            save.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {save}: {exc.strerror or exc}") from None
    if fmt == "json":
        sys.stdout.write(json.dumps(document, indent=1) + "\n")
        sys.stdout.flush()


def _watch(spec: WatchSpec, options: CaptureOptions, err: Console) -> Capture:
    """Wait for the stall; a process that exits first (or --max-time) ends the command with 0."""
    outcome = watch(spec, options)
    if outcome.capture is None:
        why = "process exited" if outcome.result is WatchResult.EXITED else "--max-time reached"
        err.print(Text(f"spectrace: {why} after {outcome.watched_for:.1f}s; no stall of "
                       f"{spec.stall:g}s in {spec.log}"))  # fmt: skip
        raise typer.Exit(0)
    err.print(Text(f"spectrace: {spec.log} silent for {outcome.quiet_for:.1f}s while PID "
                   f"{spec.pid} runs: captured its stacks"))  # fmt: skip
    return outcome.capture


MAX_SAMPLES = 1000
MAX_SECONDS = 24 * 3600.0  # longer is a typo (or inf), and sleep() would overflow


def _check_file(option: str, path: Path | None) -> None:
    """A device or pipe where a file is meant: /dev/zero would be read into memory for ever, or
    watched as a log that never grows."""
    try:
        mode = os.stat(path).st_mode if path is not None else stat.S_IFREG
    except OSError:
        return  # missing: the command says so in its own words
    if not stat.S_ISREG(mode):
        raise UsageError(f"{option} {path}: not a regular file")


def _check_numbers(samples: int, interval: float, timeout: float, stall: float | None,
                   max_time: float | None) -> None:  # fmt: skip
    """Bounds a user can mean; nan and inf are never meant."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise UsageError(f"--samples must be 1 to {MAX_SAMPLES}")
    if not 0 <= interval <= MAX_SECONDS or not 0 < timeout <= MAX_SECONDS:
        raise UsageError("--interval must be 0 to 86400 seconds and --timeout above 0 up to 86400")
    for name, value in (("--stall", stall), ("--max-time", max_time)):
        if value is not None and not 0 < value <= 30 * MAX_SECONDS:
            raise UsageError(f"{name} must be above 0 and at most 30 days in seconds")


def stacks_command(
    pid: Annotated[int | None, typer.Argument(help="Root process of the server (its children are included).")] = None,
    samples: Annotated[int, Opt("--samples", "-n", help="Dumps per process.")] = 3,
    interval: Annotated[float, Opt("--interval", help="Seconds between samples.")] = 0.5,
    native: Annotated[bool, Opt("--native", help="Include C/C++ frames (NCCL, CUDA sync); slower.")] = False,
    locals_: Annotated[bool, Opt("--locals", help="Include local variables of each frame.")] = False,
    timeout: Annotated[float, Opt("--timeout", help="Seconds py-spy may take per process and sample.")] = 10.0,
    save: Annotated[Path | None, Opt("--save", help="Write the capture as JSON (triage and tui read it).")] = None,
    fmt: Annotated[str, Opt("--format", "-f", help="text | json.")] = "text",
    threads: Annotated[bool, Opt("--threads/--no-threads", help="Show every thread, not only the table.")] = True,
    load: Annotated[Path | None, Opt("--load", help="Show a saved capture instead of taking one.")] = None,
    watch_log: Annotated[Path | None, Opt("--watch", help="Log to watch for a stall (needs --pid, --stall).")] = None,
    watch_pid: Annotated[int | None, Opt("--pid", help="Process to capture when --watch stalls.")] = None,
    stall: Annotated[float | None, Opt("--stall", help="Seconds of log silence that count as a hang.")] = None,
    max_time: Annotated[float | None, Opt("--max-time", help="Give up watching after this many seconds.")] = None,
    flight: Annotated[list[str] | None, Opt("--flight", help="PyTorch flight-recorder dump file or directory (repeatable).")] = None,
) -> None:  # fmt: skip
    """Capture, classify and show the stacks of a server's processes."""
    if fmt not in ("text", "json"):
        raise UsageError(f"unknown format {fmt!r} (choose from text, json)")
    _check_numbers(samples, interval, timeout, stall, max_time)
    _check_file("--load", load)
    _check_file("--watch", watch_log)
    console = StdoutConsole()
    options = CaptureOptions(
        samples=samples, interval=interval, native=native, locals=locals_, timeout=timeout
    )
    dumps = flight or []
    if load is not None:
        _emit(load_capture(load), fmt, save, threads, console, dumps)
        return
    if watch_log is not None:
        target = watch_pid if watch_pid is not None else pid
        if target is None or stall is None:
            raise UsageError("--watch needs --pid PID and --stall SECONDS")
        spec = WatchSpec(watch_log, target, stall, max_time)
        snap = _watch(spec, options, Console(stderr=True))
        _emit(snap, fmt, save, threads, console, dumps)
        raise typer.Exit(1)
    if pid is None and dumps:
        with reader_may_leave():
            recorder = _flight(dumps, fmt, console)
            if fmt == "json":
                sys.stdout.write(json.dumps({"flight_recorder": recorder}, indent=1) + "\n")
        return
    if pid is None:
        raise UsageError(
            "give a PID, --load FILE, --flight DUMPS, or --watch LOG --pid PID --stall SECONDS"
        )
    _emit(capture(pid, options), fmt, save, threads, console, dumps)


def register(app: typer.Typer) -> None:
    app.command("stacks", help=HELP)(stacks_command)
