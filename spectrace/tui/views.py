"""Glue between the core's records (named by source and 1-based line) and the view's rows."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spectrace.dialects.detect import LineParser
from spectrace.line_index import LineIndex
from spectrace.tui.dialogs import Query
from spectrace.tui.linestyle import one_row, plain
from spectrace.tui.timeline import WINDOW, LineSource

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis

RANK_SNIFF_LINES = 5000
# Headerless lines that continue the message above (traceback body, exception line, blank);
# other headerless lines (NCCL INFO, prints of other ranks) belong to no rank.
CONTINUATION = re.compile(
    r"\s|$|Traceback \(|During handling|The above exception|[\w.]+(?:Error|Exception|Interrupt|Exit)\b"
)
# The SGLang header's rank tags as spectrace.dialects.sglang reads them (a test keeps them equal).
SGLANG_RANK = re.compile(
    r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?((?: (?:DP|PP|ATTN_CP|MOE_DP|TP|EP)\d+)*)\] "
    r"(?!(?:INFO|WARNING|ERROR|DEBUG|CRITICAL|TRACE):\s)"
)


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
        for name in (source, os.path.abspath(source), Path(source).name):
            if name in self._by_name:
                return self._by_name[name]
        return None

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


def keep_rows(
    base: LineSource, query: Query | None, rank: str | None
) -> Callable[[str, int], bool] | None:
    """A row predicate for the text filter and the rank toggle, None when nothing is filtered."""
    if query is None and rank is None:
        return None
    parsers: dict[int, LineParser] = {}
    last: dict[int, str | None] = {}  # a traceback line stays with the rank of the line before

    def keep(text: str, row: int) -> bool:
        if rank is not None and rank_of(text, row) != rank:
            return False
        if query is not None:
            return (query.pattern.search(plain(text)) is None) == query.exclude
        return True

    def rank_of(text: str, row: int) -> str | None:
        file, line = base.locate(row)
        m = SGLANG_RANK.match(text)  # most big logs: one regex, not the full parser
        if m is not None:
            last[file] = m.group(1).strip() or None
            return last[file]
        parsed = parsers.setdefault(file, LineParser(str(file))).parse(
            text.encode("utf-8", "replace"), line + 1, 0
        )
        if parsed.headed or parsed.rank is not None:
            last[file] = parsed.rank
            return parsed.rank
        return last.get(file) if CONTINUATION.match(text) else None

    return keep


def ranks_seen(files: FileSet, analysis: Analysis | None) -> list[str]:
    """Ranks named by the core's incidents and by the first lines of each file."""
    from spectrace.incidents import rank_key  # the core loads after the first frame

    found: set[str] = set()
    for inc in analysis.incidents if analysis is not None else ():
        found.update(inc.ranks)
    for ix in files.indexes:
        parser = LineParser(ix.name)
        for line in range(min(ix.line_count, RANK_SNIFF_LINES)):
            rank = parser.parse(ix.line(line)[0].encode("utf-8", "replace"), line + 1, 0).rank
            if rank is not None:
                found.add(rank)
    return sorted(found, key=rank_key)


def search(view: LineSource, pattern: re.Pattern[str], cursor: int, direction: int) -> int | None:
    """The next row after (or before) the cursor whose text matches, read a window at a time."""
    if direction > 0:
        for start in range(cursor + 1, view.count, WINDOW):
            texts = view.texts(start, min(start + WINDOW, view.count))
            hit = next((i for i, text in enumerate(texts) if pattern.search(plain(text))), None)
            if hit is not None:
                return start + hit
        return None
    for stop in range(cursor, 0, -WINDOW):
        start = max(0, stop - WINDOW)
        texts = view.texts(start, stop)
        hit = next(
            (i for i in range(len(texts) - 1, -1, -1) if pattern.search(plain(texts[i]))), None
        )
        if hit is not None:
            return start + hit
    return None
