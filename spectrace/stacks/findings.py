"""A saved capture beside the logs -> a "hang" Finding linked to the last log lines of each rank."""

from __future__ import annotations

import gzip
import os
import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from spectrace.assemblers.run_config import Evidence
from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import LineParser
from spectrace.pipeline import Analysis, Finding
from spectrace.stacks.sniff import is_capture_file, is_flight_dump

if TYPE_CHECKING:
    from spectrace.stacks.model import Capture
    from spectrace.stacks.pasted import PastedDump
    from spectrace.stacks.verdict import RankView

# The capture, flight-recorder and verdict modules are imported by the functions that need
# them: a triage run with no stacks anywhere never loads them (~10 ms of start-up).

_STREAM_PID = re.compile(r"\bpid=(\d+)\b")
_PLAIN_RANK = re.compile(r"^(TP|rank)(\d+)$")
TAIL_BYTES = 512 * 1024  # the last lines of each rank live near the end of the file
KEEP_LINES = 4000
EVIDENCE_TEXT = 300


def hang_findings(
    capture: Capture, analysis: Analysis | None = None, title: str | None = None
) -> list[Finding]:
    """One "hang" finding: the verdict, a line per rank, and each rank's last log line as evidence."""
    from spectrace.stacks.verdict import analyse, natural_key

    stacks = analyse(capture)
    if not stacks.ranks:
        return []
    paths = [f.path for f in analysis.files] if analysis is not None else []
    totals = {f.path: f.lines for f in analysis.files} if analysis is not None else {}
    skip = [(d.source, d.lineno, d.end_lineno) for d in analysis.pasted] if analysis else []
    shown = stacks.ranks + stacks.coordinators
    last = last_lines(shown, paths, totals, skip)
    order = sorted(shown, key=lambda r: (r.label not in stacks.odd, r.process.role is not None,
                                         natural_key(r.label)))  # fmt: skip
    evidence = tuple(_evidence(r, last[r.label]) for r in order if r.label in last)
    detail = "\n".join(_rank_line(r, last.get(r.label)) for r in order)
    return [
        Finding(
            kind="hang",
            message=f"{title or f'Stacks of PID {capture.root_pid} at {capture.started}'}: "
            f"{stacks.verdict}",
            detail=detail,
            evidence=evidence,
        )
    ]


def _rank_line(rank: RankView, line: LogLine | None) -> str:
    frame = rank.view.own_frame
    where = f" at {os.path.basename(frame.filename)}:{frame.line} in {frame.name}" if frame else ""
    moved = ", stack moving" if rank.view.changed else ""
    logged = f"; last log line {line.source}:{line.lineno}" if line else "; no log line found"
    role = ", coordinator" if rank.process.role is not None else ""
    return f"{rank.label} (pid {rank.process.pid}{role}): {rank.view.activity.value} ({rank.view.detail}){where}{moved}{logged}"


def _evidence(rank: RankView, line: LogLine) -> Evidence:
    text = line.raw if len(line.raw) <= EVIDENCE_TEXT else line.raw[: EVIDENCE_TEXT - 1] + "…"
    return Evidence(
        source=line.source,
        lineno=line.lineno,
        text=text,
        reason=f"last line {rank.label} wrote before the capture; py-spy: "
        f"{rank.view.activity.value} ({rank.view.detail})",
    )


def last_lines(
    ranks: Sequence[RankView],
    paths: Iterable[str],
    totals: dict[str, int],
    skip: Sequence[tuple[str, int, int]] = (),
) -> dict[str, LogLine]:
    """Each rank's last line across the files, matched by rank label or by ``pid=N`` in its stream;
    lines of a pasted dump (``skip``: source, first, last line) are the dump, not the rank's log."""
    wanted = {r.label: r.label for r in ranks}
    for r in ranks:  # without DP/PP, a global "rank3" is the log's "TP3" (and the reverse)
        m = _PLAIN_RANK.match(r.label)
        if m:
            wanted.setdefault(f"{'rank' if m.group(1) == 'TP' else 'TP'}{m.group(2)}", r.label)
    by_pid = {str(r.process.pid): r.label for r in ranks}
    found: dict[str, LogLine] = {}
    for path in paths:
        spans = [(a, b) for source, a, b in skip if source == path]
        for line in _tail(path, totals.get(path, 0)):
            if any(a <= line.lineno <= b for a, b in spans):
                continue
            label = wanted.get(line.rank or "") or _pid_label(line.stream, by_pid)
            if label is not None:
                found[label] = line  # later lines win: the tail is read oldest first
    return found


def _pid_label(stream: str, by_pid: dict[str, str]) -> str | None:
    """vLLM-style writers carry ``pid=N`` in their stream: the surest link to a captured process."""
    m = _STREAM_PID.search(stream)
    return by_pid.get(m.group(1)) if m else None


def _tail(path: str, total_lines: int) -> list[LogLine]:
    """Parsed lines near the end of a log, numbered from the file's line count."""
    raws = _tail_gzip(path) if path.endswith(".gz") else _tail_plain(path)
    if not raws:
        return []
    parser = LineParser(path)
    first = max(1, (total_lines or len(raws)) - len(raws) + 1)
    return [parser.parse(raw, first + i, 0) for i, raw in enumerate(raws)]


def _tail_plain(path: str) -> list[bytes]:
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - TAIL_BYTES))
            chunk = fh.read()
    except OSError:
        return []
    lines = chunk.split(b"\n")
    if size > TAIL_BYTES:
        lines = lines[1:]  # the first piece is a partial line
    if lines and lines[-1] == b"":
        lines.pop()
    return lines[-KEEP_LINES:]


def _tail_gzip(path: str) -> list[bytes]:
    try:
        with gzip.open(path, "rb") as fh:
            lines = deque((raw.rstrip(b"\n") for raw in fh), maxlen=KEEP_LINES)
    except (OSError, EOFError):
        return []
    return list(lines)


def flight_findings(paths: Sequence[str]) -> list[Finding]:
    """One "hang" finding from per-rank flight-recorder dumps: who never issued the collective."""
    from spectrace.stacks.flight import flight_verdict, load_flight

    ranks = [load_flight(p) for p in paths]
    if not ranks:
        return []
    result = flight_verdict(ranks)
    evidence = []
    for rank in ranks:
        pending = [e for e in rank.entries if e.seq > rank.status.get(e.pg, (0, -1))[1]]
        first = pending[0] if pending else (rank.entries[-1] if rank.entries else None)
        if first is not None:
            where = f" at {' <- '.join(first.frames[:3])}" if first.frames else ""
            evidence.append(
                Evidence(
                    source=rank.path,
                    lineno=0,
                    text=f"#{first.seq} {first.op} ({first.state}){where}",
                    reason=f"{rank.rank}'s {'first unfinished' if pending else 'last'} collective",
                )
            )
    return [Finding(kind="hang", message=result.text, detail=None, evidence=tuple(evidence))]


def split_inputs(paths: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """(logs, stacks captures, flight-recorder dumps) among files named on the command line."""
    logs: list[str] = []
    captures: list[str] = []
    dumps: list[str] = []
    for path in paths:
        if path != "-" and os.path.isfile(path) and is_capture_file(path):
            captures.append(path)
        elif path != "-" and os.path.isfile(path) and is_flight_dump(path):
            dumps.append(path)
        else:
            logs.append(path)
    return logs, captures, dumps


def stack_findings(
    analysis: Analysis, captures: Sequence[str], dumps: Sequence[str]
) -> list[Finding]:
    """Hang findings for captures and dumps given beside the logs (what triage and tui append)."""
    from spectrace.stacks.model import load_capture

    found = [f for path in captures for f in hang_findings(load_capture(path), analysis)]
    from spectrace.stacks.waits import wait_findings

    waits = wait_findings(analysis)
    return pasted_findings(analysis) + waits + found + (flight_findings(dumps) if dumps else [])


def pasted_findings(analysis: Analysis) -> list[Finding]:
    """Hang findings for `py-spy dump` / faulthandler text pasted inside the analysed logs."""
    return [f for dump in analysis.pasted for f in _pasted_finding(dump, analysis)]


def _pasted_finding(dump: PastedDump, analysis: Analysis) -> list[Finding]:
    count = len(dump.capture.processes)
    title = (
        f"{dump.tool} dump of {count} process{'es' if count != 1 else ''} "
        f"at {dump.source}:{dump.lineno}"
    )
    where = Evidence(
        source=dump.source,
        lineno=dump.lineno,
        text=dump.text[:EVIDENCE_TEXT],
        reason=f"{dump.tool} dump pasted in the log (lines {dump.lineno}-{dump.end_lineno})",
    )
    return [
        replace(f, evidence=(where, *f.evidence))
        for f in hang_findings(dump.capture, analysis, title)
    ]
