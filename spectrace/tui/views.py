"""Glue between the core's records (named by source and 1-based line) and the view's rows."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spectrace.line_index import LineIndex
from spectrace.tui.find import Query
from spectrace.tui.linestyle import one_row
from spectrace.tui.timeline import LineSource

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis


class FileSet:
    """The opened files, their short labels, and lookup of a source name to a file number."""

    def __init__(self, indexes: Sequence[LineIndex]) -> None:
        self.indexes = list(indexes)
        self.paths = [ix.path for ix in self.indexes]
        self.labels = [one_row(p.name.split(".")[0]) for p in self.paths]  # names are untrusted
        self._by_name: dict[str, int] = {}
        for n, path in enumerate(self.paths):
            for name in (str(path), os.path.abspath(path), path.name):
                self._by_name.setdefault(name, n)

    def file_of(self, source: str) -> int | None:
        """Called for every crash on each list update: the name as given is tried first, and
        abspath (a system call) only when that misses."""
        found = self._by_name.get(source)
        if found is None:
            found = self._by_name.get(os.path.abspath(source), self._by_name.get(Path(source).name))
        return found

    def row(self, view: LineSource, source: str | None, lineno: int | None) -> int | None:
        """View row of a core position (1-based line), None when not shown."""
        if source is None or lineno is None:
            return None
        file = self.file_of(source)
        return None if file is None else view.row_of(file, lineno - 1)

    def status(
        self,
        *,
        shown: int,
        busy: list[str],
        query: Query | None,
        rank: str | None,
        follow: bool,
        analysing: bool,
        incidents: int,
        findings: int,
        running: str | None = None,
    ) -> str:
        if not self.paths:
            parts = ["no log file"]
        else:
            one = len(self.paths) == 1
            names = self.paths[0].name if one else f"{len(self.paths)} files merged"
            total = sum(ix.line_count for ix in self.indexes)
            parts = [f"{names}: {total:,} lines" + "".join(f" ({what}…)" for what in busy)]
        parts.append(  # second: an 80-column terminal cuts the end of the line, not this
            counted(incidents, "crash", "crashes")
            + (f", {counted(findings, 'finding', 'findings')}" if findings else "")
            + (" (scanning…)" if analysing else "")
        )
        if query is not None:
            parts.append(
                f"filter {'out' if query.exclude else 'in'} {query.text!r}: {shown:,} shown"
            )
        if running is not None:  # a search or filter in flight (lines searched / matches), or
            parts.append(running)  # the last search's count
        if rank is not None:
            parts.append(f"rank {rank} only")
        parts.append("follow on" if follow else "follow off")
        return one_row(" │ ".join(parts))  # a file name or a pasted query may hold escapes


def counted(n: int, one: str, many: str) -> str:
    """ "1 crash", "2 crashes": the status bar reads as English."""
    return f"{n:,} {one if n == 1 else many}"


def crash_rows(
    files: FileSet, crashes: Iterable[Crash], analysis: Analysis | None
) -> set[tuple[int, int]]:
    """(file, 0-based line) of every crash line to highlight."""
    lines: set[tuple[int, int]] = set()
    for crash in crashes:
        file = files.file_of(crash.source)
        if file is not None:
            lines.update((file, n - 1) for n in range(crash.lineno, crash.end_lineno + 1))
    for inc in analysis.incidents if analysis is not None else ():
        for occ in inc.occurrences:
            file = files.file_of(occ.source)
            if file is not None:
                lines.add((file, occ.lineno - 1))
    return lines
