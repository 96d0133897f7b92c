"""What a search in flight holds: its status-line counts, the lines searched at once as the
dialog closed, and its hits in sorted batches (searching.py runs it)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from spectrace.tui.find import Query
from spectrace.tui.timeline import LineSource


@dataclass(slots=True)
class Running:
    """A search or filter in flight, as the status line shows it."""

    what: str
    text: str
    total: int
    done: int = 0
    matches: int = 0

    def status(self) -> str:
        return (
            f"{self.what} {self.text!r}: {self.done:,}/{self.total:,} lines, "
            f"{self.matches:,} {'match' if self.matches == 1 else 'matches'} (Esc stops)"
        )


@dataclass(frozen=True, slots=True)
class Near:
    """The lines just after the cursor, searched on the event loop as the dialog closes (a few
    ms): a match there is drawn in the same frame, not one or two frames later; the worker
    goes on from ``stop``."""

    view: LineSource
    cursor: int
    file: int
    start: int  # the first line searched (the one after the cursor's)
    stop: int
    rows: list[int]  # matching rows, in order


@dataclass(slots=True)
class Hits:
    """Matching rows of one view, in sorted batches as chunks come in."""

    query: Query
    view: LineSource
    count_at_start: int
    batches: list[list[int]] = field(default_factory=list)
    count: int = 0
    complete: bool = False

    def add(self, rows: list[int]) -> None:
        if rows:
            self.batches.append(sorted(rows))
            self.count += len(rows)

    def after(self, row: int) -> int | None:
        found = [b[i] for b in self.batches if (i := bisect_right(b, row)) < len(b)]
        return min(found, default=None)

    def before(self, row: int) -> int | None:
        found = [b[i - 1] for b in self.batches if (i := bisect_left(b, row)) > 0]
        return max(found, default=None)
