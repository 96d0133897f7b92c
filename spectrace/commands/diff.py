"""``spectrace diff OLD NEW``: which crashes are new, gone or still there, by signature."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from spectrace.commands import StdoutConsole, reader_may_leave
from spectrace.commands.triage import parse_format
from spectrace.errors import UsageError
from spectrace.reports import Format, headline
from spectrace.reports.text import where
from spectrace.reports.words import Names, display_names
from spectrace.textsafe import inert, json_escaped, one_line

HELP = """Compare the crashes of two runs by signature: new, gone, still there.

OLD and NEW are each a log file, a directory of logs, a JSON report (triage --format json),
or one run of a parquet dataset (triage --format parquet): DIR/incidents/run=<id>.

\b
Exit codes:
  0  no new crash in NEW
  1  at least one crash in NEW whose signature OLD does not have
  2  bad usage or unreadable input
"""
Opt = typer.Option


def _analysed(rules: list[Path], redact: bool) -> Any:
    """Reads a log path into report form, the same way triage would."""

    from spectrace import triage
    from spectrace.reports.json import build_document

    def analyse(path: str) -> dict[str, Any]:
        from spectrace.reports import parquet

        if parquet.is_run_partition(path):  # DIR/incidents/run=<id> of a --format parquet dataset
            return parquet.run_document(path)
        analysis = triage.analyse_paths([path], rules)
        return build_document(analysis, triage.judge(analysis), redact=redact)

    return analyse


def _names(incidents: list[dict[str, Any]]) -> Names:
    """One run's log files by the shortest path suffix that tells them apart (as the triage
    report names them): ``server.log:35``, not the full path repeated on every line."""
    return display_names(str((i.get("first_seen") or {}).get("file")) for i in incidents)


def _section(
    console: Console, mark: str, title: str, rows: list[dict[str, Any]], style: str, names: Names
) -> None:
    console.print(Text(f"{title} ({len(rows)})", style="bold"))
    for incident in rows:
        line = Text(inert(f"  {mark} {incident.get('id', '?')} "), style=style)
        ranks = ", ".join(incident.get("ranks") or []) or "no rank"
        at = where(incident.get("first_seen"), names)
        line.append(inert(f"{headline(incident)} [{ranks}] at {at}"))
        console.print(line, soft_wrap=not console.is_terminal)


def diff_command(
    old: Annotated[str, typer.Argument(help="Old run: log file, directory or JSON report.")],
    new: Annotated[str, typer.Argument(help="New run: log file, directory or JSON report.")],
    fmt: Annotated[str, Opt("--format", "-f", help="text | json.")] = "text",
    rules: Annotated[list[Path] | None, Opt("--rules", help="Extra rule directory (repeatable).")] = None,
    no_redact: Annotated[bool, Opt("--no-redact", help="Show secrets in the output.")] = False,
) -> None:  # fmt: skip
    """List crashes that are new, gone and still there; exit 1 when there are new ones."""
    output = parse_format(fmt)
    if output not in (Format.TEXT, Format.JSON):
        raise UsageError("diff --format takes text or json")
    from spectrace import diff  # the pipeline: not loaded for --help
    from spectrace.textfile import checked_path

    old, new = checked_path(old), checked_path(new)

    analyse = _analysed(rules or [], not no_redact)
    result = diff.compare(diff.incidents_of(old, analyse), diff.incidents_of(new, analyse))
    with reader_may_leave():
        if output is Format.JSON:
            sys.stdout.write(
                json_escaped(
                    json.dumps(diff.diff_document(result, old, new), indent=2, ensure_ascii=False)
                )
                + "\n"
            )
        else:
            console = StdoutConsole()
            still = [n for _, n in result.still]
            new_names, old_names = _names([*result.new, *still]), _names(list(result.gone))
            runs = Text(f"old: {one_line(old)}\nnew: {one_line(new)}", style="dim")
            console.print(runs, soft_wrap=not console.is_terminal)
            _section(console, "+", "new", list(result.new), "bold red", new_names)
            _section(console, "-", "gone", list(result.gone), "green", old_names)
            _section(console, "=", "still there", still, "dim", new_names)
            verdict = (
                f"{len(result.new)} new, {len(result.gone)} gone, {len(result.still)} still there"
            )
            console.print(Text(f"spectrace diff: {verdict}; exit {result.exit_code}", style="bold"))
    raise typer.Exit(result.exit_code)


def register(app: typer.Typer) -> None:
    app.command("diff", help=HELP)(diff_command)
