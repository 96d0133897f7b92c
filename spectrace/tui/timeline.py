"""What the log view scrolls: one file, several rank files merged by time, or a filtered subset.

Every source maps a view row to (file number, 0-based line) and back, so crash positions from
the core and the cursor survive a merge, a filter or a rank toggle. Row tables are
``array('Q')`` (8 bytes a row); a merged row packs the file number above bit 40.
"""

from __future__ import annotations

import array
import heapq
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import LineParser
from spectrace.line_index import LineIndex

FILE_SHIFT = 40
LINE_MASK = (1 << FILE_SHIFT) - 1


class LineSource(Protocol):
    """The rows a log view shows."""

    @property
    def count(self) -> int: ...

    def text(self, row: int) -> tuple[str, int]: ...

    def locate(self, row: int) -> tuple[int, int]: ...

    def row_of(self, file: int, line: int) -> int | None: ...


class SingleSource:
    """One file, row = line."""

    def __init__(self, index: LineIndex, file: int = 0) -> None:
        self.index = index
        self.file = file

    @property
    def count(self) -> int:
        return self.index.line_count

    def text(self, row: int) -> tuple[str, int]:
        return self.index.line(row)

    def locate(self, row: int) -> tuple[int, int]:
        return self.file, row

    def row_of(self, file: int, line: int) -> int | None:
        return line if file == self.file and line < self.count else None


class MergedSource:
    """Several files interleaved by timestamp (stable: time, then file, then line)."""

    def __init__(self, indexes: Sequence[LineIndex], order: array.array[int]) -> None:
        self.indexes = indexes
        self.order = order
        self._rows = [array.array("Q", bytes(8 * ix.line_count)) for ix in indexes]
        for row, packed in enumerate(order):
            self._rows[packed >> FILE_SHIFT][packed & LINE_MASK] = row

    @property
    def count(self) -> int:
        return len(self.order)

    def text(self, row: int) -> tuple[str, int]:
        file, line = self.locate(row)
        return self.indexes[file].line(line)

    def locate(self, row: int) -> tuple[int, int]:
        packed = self.order[row]
        return packed >> FILE_SHIFT, packed & LINE_MASK

    def row_of(self, file: int, line: int) -> int | None:
        rows = self._rows[file]
        return rows[line] if line < len(rows) else None


class FilteredSource:
    """The rows of ``base`` that passed a filter, in order."""

    def __init__(self, base: LineSource, rows: array.array[int]) -> None:
        self.base = base
        self.rows = rows

    @property
    def count(self) -> int:
        return len(self.rows)

    def text(self, row: int) -> tuple[str, int]:
        return self.base.text(self.rows[row])

    def locate(self, row: int) -> tuple[int, int]:
        return self.base.locate(self.rows[row])

    def row_of(self, file: int, line: int) -> int | None:
        """The kept row at or after the wanted line, so a jump lands near a hidden line."""
        base_row = self.base.row_of(file, line)
        if base_row is None:
            return None
        pos = bisect_left(self.rows, base_row)
        return min(pos, len(self.rows) - 1) if self.rows else None


def stamp_key(line: LogLine) -> int | None:
    """Sortable month..microsecond key; the year is left out so year-less vLLM stamps merge."""
    ts = line.ts
    if ts is None:
        return None
    return (
        (((ts.month * 32 + ts.day) * 24 + ts.hour) * 60 + ts.minute) * 60 + ts.second
    ) * 10**6 + ts.microsecond


def _keyed(index: LineIndex, file: int) -> Iterator[tuple[int, int, int]]:
    """(key, file, line) for each line; an unstamped line takes the previous line's key."""
    parser, key = LineParser(index.name), 0
    for line in range(index.line_count):
        found = stamp_key(parser.parse(index.line(line)[0].encode("utf-8", "replace"), line + 1, 0))
        key = key if found is None else found
        yield key, file, line


def merge_order(
    indexes: Sequence[LineIndex], cancelled: Callable[[], bool] = lambda: False
) -> array.array[int] | None:
    """Packed (file, line) rows of all files in time order; None when cancelled."""
    order = array.array("Q")
    streams = [_keyed(ix, n) for n, ix in enumerate(indexes)]
    for n, (_key, file, line) in enumerate(heapq.merge(*streams)):
        order.append(file << FILE_SHIFT | line)
        if n & 0xFFFF == 0 and cancelled():
            return None
    return order


def filter_rows(
    base: LineSource,
    keep: Callable[[str, int], bool],
    cancelled: Callable[[], bool] = lambda: False,
) -> array.array[int] | None:
    """Rows of ``base`` whose text ``keep(text, row)`` accepts; None when cancelled."""
    rows = array.array("Q")
    for row in range(base.count):
        if keep(base.text(row)[0], row):
            rows.append(row)
        if row & 0xFFFF == 0 and cancelled():
            return None
    return rows
