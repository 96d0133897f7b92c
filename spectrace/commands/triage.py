"""``spectrace triage``: logs in, report(s) out, exit code for CI."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from spectrace.commands import StdoutConsole, reader_may_leave
from spectrace.errors import InputError, UsageError
from spectrace.reports import Format
from spectrace.textsafe import inert

if TYPE_CHECKING:
    from spectrace.pipeline import Analysis, Mapper
    from spectrace.triage import Verdict

# The pipeline (spectrace.triage, inputs, stacks.findings, reports.json) is imported inside
# triage_command: `spectrace --help`, `triage --help` and usage errors answer without it.

HELP = """Find the crashes in server logs, group them into incidents, and exit non-zero on new ones.

PATHS are files, directories, quoted globs ('logs/*.log.gz'), .gz files, or - for stdin.
A `spectrace stacks --save` capture or a PyTorch flight-recorder dump given beside the logs
becomes a hang finding linked to each rank's last log line.

\b
Exit codes:
  0  no new root-cause incident (and no missing marker)
  1  at least one new root-cause incident, or what --fail-on names
  2  bad usage or unreadable input (one line on stderr)
"""
PROGRESS_DELAY_S = 1.0
MAX_MARKERS = 1000
MAX_MARKER_FILE = 16 * 1024 * 1024  # 1000 markers fit many times over
MAX_BASELINE = 512 * 1024 * 1024  # a JSON report of 20,000 incidents is about 70 MB
T = TypeVar("T")


class DelayedProgress:
    """A rich progress bar on stderr that appears only when the scan takes over a second."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.started = time.monotonic()
        self.progress: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.progress is None:
            if not self.console.is_terminal or time.monotonic() - self.started < PROGRESS_DELAY_S:
                return
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )  # fmt: skip

            self.progress = Progress(TextColumn("scanning"), BarColumn(), DownloadColumn(),
                                     TimeRemainingColumn(), console=self.console, transient=True)  # fmt: skip
            self.progress.start()
            self.task = self.progress.add_task("scan", total=total or None)
        self.progress.update(self.task, completed=done, total=total or None)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def parse_report(spec: str) -> tuple[Format, Path]:
    """``FORMAT=FILE`` -> (format, path)."""
    name, sep, file = spec.partition("=")
    if not sep or not file:
        raise UsageError(f"--report needs FORMAT=FILE, got {spec!r}")
    return parse_format(name), Path(file)


def parse_format(name: str) -> Format:
    try:
        return Format(name.strip().lower())
    except ValueError:
        choices = ", ".join(f.value for f in Format)
        raise UsageError(f"unknown format {name!r} (choose from {choices})") from None


def once(option: str, values: list[T] | None) -> T | None:
    """A single-valued option: given twice is an error, not a silent last-one-wins."""
    if values and len(values) > 1:
        raise UsageError(
            f"{option} given {len(values)} times; write more reports with --report FORMAT=FILE"
        )
    return values[0] if values else None


def read_expect_file(path: Path | None) -> list[str]:
    from spectrace.textfile import read_small

    if path is None:
        return []
    try:
        lines = read_small(str(path), "--expect-file", MAX_MARKER_FILE).decode().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot read --expect-file {path}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _baseline(path: Path) -> frozenset[str]:
    from spectrace import triage
    from spectrace.textfile import check_small

    check_small(str(path), "--baseline", MAX_BASELINE)
    return triage.read_baseline(path)


def write_file(path: Path, document: dict[str, Any], fmt: Format) -> None:
    try:
        with path.open("w", encoding="utf-8") as out:
            write_report(document, fmt, out)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_report(document: dict[str, Any], fmt: Format, out: TextIO) -> None:
    """One report written out; JSON in pieces as it is encoded (a 70 MB report is never one string)."""
    from spectrace.reports import json as json_report
    from spectrace.reports.cap import render_any

    if fmt is Format.JSON:
        json_report.write(document, out)
    else:
        out.write(render_any(document, fmt))


def emit(document: dict[str, Any], fmt: Format, output: Path | None, console: Console) -> None:
    """The main report to stdout, or to --output with the summary line on stdout."""
    from spectrace.reports.cap import CappedReport
    from spectrace.reports.text import summary_line

    with reader_may_leave():
        if output is not None:
            write_file(output, document, fmt)
            console.print(summary_line(document), soft_wrap=not console.is_terminal)
        elif fmt is Format.TEXT:
            console.print(CappedReport(document), soft_wrap=not console.is_terminal)
        else:
            write_report(document, fmt, sys.stdout)
            sys.stdout.flush()


def _no_overwrite(inputs: list[str], targets: list[Path]) -> None:
    """A report or baseline written over an input log destroys the evidence it reports on."""
    existing = {os.path.realpath(t): t for t in targets if t.is_file()}
    for name in inputs if existing else ():
        if (clash := existing.get(os.path.realpath(name))) is not None:
            raise UsageError(f"{clash} is an input log; write the report to another file")


def analyse(
    paths: list[str], rules: list[Path], markers: list[str], progress: DelayedProgress,
    warn: Callable[[str], None], targets: list[Path], mapper: Mapper | None = None,
    explain: bool = False,
) -> Analysis:  # fmt: skip
    """Logs, stacks captures and flight dumps -> one Analysis (the pipeline is imported here)."""
    from spectrace import triage
    from spectrace.assemblers.run_config import RunConfig
    from spectrace.inputs import expand, usable_stacks
    from spectrace.pipeline import Analysis
    from spectrace.stacks.findings import split_inputs, stack_findings

    logs, captures, dumps = split_inputs(expand(paths))  # stacks --save files, FR dumps
    _no_overwrite([*logs, *captures, *dumps], targets)
    # beside logs a damaged capture or dump is skipped; alone it is the error
    captures, dumps = usable_stacks(captures, dumps, warn if logs else None)
    analysis = (  # a capture or dumps alone still get their hang verdict
        triage.analyse_paths(logs, rules, markers, progress, warn, mapper, explain)
        if logs or not (captures or dumps)
        else Analysis(files=[], incidents=[], findings=[], config=RunConfig())
    )
    analysis.findings.extend(stack_findings(analysis, captures, dumps))
    return analysis


Opt = typer.Option


def triage_command(
    paths: Annotated[list[str], typer.Argument(help="Log files, directories, quoted globs, .gz, or -.")],
    fmt: Annotated[list[str] | None, Opt("--format", "-f", help="text | json | junit | sarif | github | markdown | parquet (a dataset directory: give --output DIR) (default text).")] = None,
    output: Annotated[list[Path] | None, Opt("--output", "-o", help="Write the --format report to FILE; the terminal gets the summary line.")] = None,
    report: Annotated[list[str] | None, Opt("--report", help="Also write FORMAT=FILE (repeatable), e.g. --report sarif=crashes.sarif.")] = None,
    rules: Annotated[list[Path] | None, Opt("--rules", help="Extra rule directory (repeatable; later wins).")] = None,
    expect: Annotated[list[str] | None, Opt("--expect", help="A marker line that must appear (repeatable).")] = None,
    expect_file: Annotated[Path | None, Opt("--expect-file", help="File of expected markers, one per line.")] = None,
    baseline: Annotated[Path | None, Opt("--baseline", help="Accepted signatures: a --write-baseline file or a JSON report.")] = None,
    write_baseline: Annotated[Path | None, Opt("--write-baseline", help="Write this run's signatures as a baseline.")] = None,
    fail_on: Annotated[list[str] | None, Opt("--fail-on", help="root-cause | any | severity:error | severity:fatal | missing-marker (repeatable; default: root-cause and missing-marker).")] = None,
    no_redact: Annotated[bool, Opt("--no-redact", help="Show secrets (API keys, tokens, passwords) in reports.")] = False,
    ray: Annotated[str | None, Opt("--ray", help="Scan the files as Ray tasks on the cluster at ADDRESS (ray://head:10001, auto), or 'local' to start one here; needs pip install 'spectrace[fleet]'.")] = None,
    jobs: Annotated[int | None, Opt("--jobs", "-j", help="Scan the files in N processes (one task per file; big files in ranges); the report is the same.")] = None,
    explain_path: Annotated[bool, Opt("--explain-path", help="Under each worker path, what every path reader found (framework, family words and the guard that set each apart, release, day, the rules) and the one line that would settle it.")] = False,
    max_incidents: Annotated[int | None, Opt("--max-incidents", help="Show the N most important incident groups in full, the rest as one count line (0: all; default 50 for text, all for other formats).")] = None,
) -> None:  # fmt: skip
    """Find the crashes, group them into incidents, report, exit 1 on new ones."""
    from spectrace import triage
    from spectrace.textfile import checked_marker

    format_name = once("--format", fmt) or "text"
    dataset = _dataset_dir(format_name, once("--output", output))
    main_format = Format.TEXT if dataset else parse_format(format_name)
    if max_incidents is not None and max_incidents < 0:
        raise UsageError(f"--max-incidents must be 0 (all) or more, got {max_incidents}")
    output_file = None if dataset else once("--output", output)
    extra = [parse_report(spec) for spec in report or []]
    policy = triage.parse_fail_on(fail_on or [])
    accepted = _baseline(baseline) if baseline else frozenset()
    console, err = StdoutConsole(), Console(stderr=True)
    progress = DelayedProgress(err)

    def warn(message: str) -> None:
        err.print(Text(inert(f"spectrace: warning: {message}")), highlight=False, soft_wrap=True)

    if "-" in paths and sys.stdin is not None and sys.stdin.isatty():  # else it looks hung
        err.print("spectrace: reading the log from the terminal; end it with Ctrl-D", style="dim")
    try:
        mapper = _mapper(jobs, ray)
        markers = [checked_marker(m) for m in [*(expect or []), *read_expect_file(expect_file)]]
        if len(markers) > MAX_MARKERS:  # each is a prefilter literal: 100,000 took 250 s, 1.5 GB
            raise UsageError(f"{len(markers)} expected markers; at most {MAX_MARKERS}")
        targets = [p for p in (output_file, write_baseline, *(f for _, f in extra)) if p]
        analysis = analyse(paths, rules or [], markers, progress, warn, targets, mapper,
                           explain_path)  # fmt: skip
    finally:
        progress.close()
    for f in analysis.files if output_file or main_format is not Format.TEXT else ():
        for issue in f.issues:
            warn(f"{f.path}: {issue}")
    triage.apply_baseline(analysis.incidents, accepted)
    verdict = triage.judge(analysis, policy)
    if write_baseline is not None:
        triage.write_baseline(write_baseline, analysis.incidents)
    if dataset is not None:
        _write_dataset(dataset, analysis, verdict, not no_redact)
    write_reports(analysis, verdict, [(main_format, output_file), *extra], max_incidents,
                  not no_redact, console, summary_only=dataset is not None)  # fmt: skip
    raise typer.Exit(int(verdict.exit_code))


def _mapper(jobs: int | None, ray: str | None) -> Mapper | None:
    """--ray ADDRESS: Ray tasks; --jobs N (N > 1): local processes; else this process."""
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be 1 or more, got {jobs}")
    if ray is not None:
        if jobs is not None or not ray.strip():
            raise UsageError("--ray takes a cluster address (or 'local') and no --jobs")
        from spectrace.fleet.ray_map import RayMapper, check_ray

        check_ray()
        return RayMapper(ray.strip())
    if jobs is None or jobs == 1:
        return None
    from spectrace.fleet.local import ProcessMapper

    return ProcessMapper(jobs)


def write_reports(
    analysis: Analysis, verdict: Verdict, outputs: list[tuple[Format, Path | None]],
    max_incidents: int | None, redact: bool, console: Console, summary_only: bool = False,
) -> None:  # fmt: skip
    """The main report (first) and each --report file, each capped as its format wants; the
    document is built once, and only with the shown incidents when all share one cap."""
    from spectrace.reports.cap import cap_incidents, limit_for
    from spectrace.reports.json import build_document

    limits = [limit_for(fmt, max_incidents) for fmt, _ in outputs]
    shared = limits[0] if len(set(limits)) == 1 else 0
    streamed = all(fmt is Format.JSON for fmt, _ in outputs)  # incidents built as written
    document = build_document(analysis, verdict, redact=redact, limit=shared, stream=streamed)
    (main_format, output_file), *extra = outputs
    for (extra_fmt, path), limit in zip(extra, limits[1:], strict=True):
        assert path is not None
        write_file(path, cap_incidents(document, limit), extra_fmt)
    if summary_only:  # the main output was a dataset: the terminal gets the summary line
        from spectrace.reports.text import summary_line

        console.print(summary_line(document), soft_wrap=not console.is_terminal)
    else:
        emit(cap_incidents(document, limits[0]), main_format, output_file, console)


def _dataset_dir(format_name: str, output: Path | None) -> Path | None:
    """``--format parquet`` writes a dataset directory, which --output must name."""
    if format_name.strip().lower() != "parquet":
        return None
    if output is None:
        raise UsageError("--format parquet writes a dataset: name its directory with --output DIR")
    if output.exists() and not output.is_dir():
        raise UsageError(f"--output {output} is a file; --format parquet needs a directory")
    return output


def _write_dataset(root: Path, analysis: Analysis, verdict: Verdict, redact: bool) -> None:
    from spectrace.reports.parquet import write_dataset

    with reader_may_leave():
        write_dataset(root, analysis, verdict, redact)


def register(app: typer.Typer) -> None:
    app.command("triage", help=HELP)(triage_command)
