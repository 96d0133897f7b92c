"""What the log view scrolls: one file, several rank files merged by time, or a filtered subset.

Every source maps a view row to (file number, 0-based line) and back, so crash positions from
the core and the cursor survive a merge, a filter or a rank toggle. Row tables are
``array('Q')`` (8 bytes a row); a merged row packs the file number above bit 40.
"""

from __future__ import annotations

import array
import heapq
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from spectrace.line_index import LineIndex

# The stamps the dialects read (spectrace/dialects/*.py), as one regex so that merging millions
# of lines costs one search each; tests check it agrees with the dialect parser on every sample.
_STAMP = re.compile(
    r"\[\d{4}-(\d\d)-(\d\d)[ T](\d\d:\d\d:\d\d)(?:[.,](\d+))?"  # SGLang, uvicorn
    r"|\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?"  # vLLM
    r"|\[?[IWEF](\d{1,2})(\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))? "  # c10 / glog: E519 = May 19
    r"|\[(\d\d)/(\d\d)/\d{4}-(\d\d:\d\d:\d\d)\](\d{0})"  # TRT-LLM Python logger
    r"|(\d\d)-(\d\d)-\d{4} (\d\d:\d\d:\d\d)\.(\d+) "  # TRT-LLM C++ logger
    r"|^\d{4}-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:[.,](\d+))? "  # Python logging's default asctime
    r"|^\d{4}-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?(?:Z|[+-]\d\d:?\d\d) "  # CRI / CI wrapper
)
_SGLANG = re.compile(r"\[\d{4}-(\d\d)-(\d\d)[ T](\d\d:\d\d:\d\d)(?:[.,](\d+))?")  # = first branch
_WRAPPER_GROUP = 25  # first group of the CRI / CI wrapper branch
STAMP_WINDOW = 200  # a stamp sits in the header, after at most a wrapper and a process tag
WINDOW = 4096  # rows read at once by bulk scans (filter, search)
FILE_SHIFT = 40
LINE_MASK = (1 << FILE_SHIFT) - 1


class LineSource(Protocol):
    """The rows a log view shows."""

    @property
    def count(self) -> int: ...

    def text(self, row: int) -> tuple[str, int]: ...

    def texts(self, start: int, stop: int) -> list[str]: ...

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

    def texts(self, start: int, stop: int) -> list[str]:
        return self.index.lines(start, stop)

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

    def texts(self, start: int, stop: int) -> list[str]:
        return [self.text(row)[0] for row in range(start, stop)]

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

    def texts(self, start: int, stop: int) -> list[str]:
        return [self.text(row)[0] for row in range(start, stop)]

    def locate(self, row: int) -> tuple[int, int]:
        return self.base.locate(self.rows[row])

    def row_of(self, file: int, line: int) -> int | None:
        """The kept row at or after the wanted line, so a jump lands near a hidden line."""
        base_row = self.base.row_of(file, line)
        if base_row is None:
            return None
        pos = bisect_left(self.rows, base_row)
        return min(pos, len(self.rows) - 1) if self.rows else None


def stamp_key(text: str) -> int | None:
    """Sortable month..microsecond key of a line's stamp; the year is left out so year-less
    vLLM and c10 stamps merge with dated ones. None when the line has no stamp."""
    m = _SGLANG.match(text)  # the common case, ~6x cheaper than the general search
    if m is None:
        m = _STAMP.search(text, 0, STAMP_WINDOW)
        if m is not None and m.group(_WRAPPER_GROUP) is not None:  # the inner header's stamp wins
            m = _STAMP.search(text, m.end(), m.end() + STAMP_WINDOW) or m
        if m is None:
            return None
    groups = m.groups()
    for at in range(0, len(groups), 4):
        month, day, hms, frac = groups[at : at + 4]
        if month is not None:
            micro = int(frac[:6].ljust(6, "0")) if frac else 0
            days = int(month) * 32 + int(day)
            seconds = ((days * 24 + int(hms[:2])) * 60 + int(hms[3:5])) * 60 + int(hms[6:8])
            return seconds * 10**6 + micro
    return None


def _keyed(index: LineIndex, file: int) -> Iterator[tuple[int, int, int]]:
    """(key, file, line) for each line; an unstamped line takes the previous line's key."""
    key = 0
    for line in range(index.line_count):
        found = stamp_key(index.line(line)[0])
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
    for start in range(0, base.count, WINDOW):
        for row, text in enumerate(base.texts(start, min(start + WINDOW, base.count)), start):
            if keep(text, row):
                rows.append(row)
        if cancelled():
            return None
    return rows
