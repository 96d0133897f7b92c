"""Newline offsets of one log file, built in the background; lines read lazily with pread.

The index is one ``array('Q')`` of line-end offsets (8 bytes a line), so a multi-GB file costs
tens of MB and line *i* is one ``pread`` away. Reads use ``os.pread`` rather than mmap so that a
file truncated under us yields short reads instead of SIGBUS (lnav's argument). An encoded input
(gzip, bzip2, xz, UTF-16/32, nested, as ``spectrace.unpack`` reads them for triage) is decoded
once, in the same background pass, into a private temporary file that the reader then serves;
compressed logs are CI artefacts, so they are not followed. A copytruncate hole (a run of NULs
before the first line) is skipped when a line is shown, as triage skips it.
"""

from __future__ import annotations

import array
import enum
import os
import tempfile
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

from spectrace.errors import InputError
from spectrace.textfile import decoded_chunks
from spectrace.textfile import problem as _problem
from spectrace.unpack import SNIFF_BYTES, Codec, sniff

CHUNK = 8 << 20  # bytes read per background step
HEAD = 64 << 10  # indexed at once on the caller's thread: a first screen's worth of lines
BLOCK = 128  # lines decoded and cached together
CACHE_BLOCKS = 256  # at most 32 k decoded lines held
MAX_LINE_BYTES = 8192  # a longer line is cut; the omitted byte count travels with it
BULK_MAX = 64 << 20  # a bulk read larger than this (huge lines) goes line by line
NUMPY_MIN = 64 << 20  # numpy's import (~0.25 s of CPU) pays back on files from about this size
GZIP_RATIO = 8  # a rough inflation ratio of text logs, to size a .gz by what it will become
FIRST_CHUNK = 1 << 20  # the first raw chunk a search reads
WHOLE_MAX = 1 << 20  # the whole-line view reads at most this much of one line
HOLE_STEP = 1 << 20  # NULs read at a time while looking for the end of a copytruncate hole


class Change(enum.Enum):
    """What ``refresh`` found when it looked at the file again."""

    SAME = "same"
    GROWN = "grown"
    RESET = "reset"  # truncated or replaced: every line number is void


def is_encoded(path: Path) -> bool:
    """Told by magic bytes, not the name, so renamed artefacts still open."""
    with path.open("rb") as fh:
        return sniff(fh.read(SNIFF_BYTES), str(path)) is not Codec.PLAIN


def check_readable(path: Path) -> None:
    """Raise InputError for a missing, unreadable or binary file, before any UI starts."""
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    if (why := _problem(str(path), viewer=True)) is not None:
        raise InputError(f"{path}: {why}")


class LineIndex:
    """Line-end offsets of one file plus a small LRU of decoded lines."""

    def __init__(
        self, path: str | Path, *, chunk: int = CHUNK, use_numpy: bool | None = None
    ) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.encoded = is_encoded(self.path)
        self._chunk = chunk
        self._lock = threading.Lock()  # guards the arrays and the cache
        self._building = threading.Lock()  # one builder at a time (initial pass, follow polls)
        self._ends = array.array("Q")
        self._size = 0  # bytes of the data file known to exist
        self._spool: tempfile._TemporaryFileWrapper[bytes] | None = None
        self._fd = self._open_data()
        self._cache: OrderedDict[int, list[tuple[str, int]]] = OrderedDict()
        self._version = 0  # bumped whenever lines change: a block read before that is not cached
        self.done = False
        self._use_numpy = use_numpy  # None: when the file is big enough and numpy is installed
        self._np: ModuleType | None = None

    def _big(self) -> bool:
        size = os.stat(self.path).st_size * (GZIP_RATIO if self.encoded else 1)
        return size >= NUMPY_MIN

    def _open_data(self) -> int:
        if not self.encoded:
            return os.open(self.path, os.O_RDONLY)
        self._spool = tempfile.NamedTemporaryFile(prefix="spectrace-", suffix=".log")
        return os.open(self._spool.name, os.O_RDONLY)

    def close(self) -> None:
        os.close(self._fd)
        if self._spool is not None:
            self._spool.close()

    @property
    def line_count(self) -> int:
        """Complete lines plus an unterminated last line, if any."""
        return len(self._ends) + (1 if self._size > self._tail_start() else 0)

    def _tail_start(self) -> int:
        return self._ends[-1] if self._ends else 0

    def head(self, size: int = HEAD) -> int:
        """Index the first ``size`` bytes now, so a first screen needs no worker (plain files: a
        .gz is inflated by the background pass); ``build`` goes on from there."""
        if self.encoded:
            return 0
        with self._building:
            if self._size:
                return 0
            data = os.pread(self._fd, size, 0)
            return self._add(0, data) if data else 0

    def build(
        self,
        cancelled: Callable[[], bool] = lambda: False,
        on_progress: Callable[[int], None] | None = None,
    ) -> None:
        """Index up to the current end of file; call from a worker thread."""
        with self._building:
            self._build(cancelled, on_progress)

    def _build(
        self, cancelled: Callable[[], bool], on_progress: Callable[[int], None] | None
    ) -> None:
        for added in self._chunks():
            if on_progress is not None:
                on_progress(added)  # the first screen shows before numpy is even imported
            if self._np is None and self._use_numpy is not False:
                self._np = _numpy(self._use_numpy or self._big())
            if cancelled():
                return
        self.done = True
        if on_progress is not None:
            on_progress(0)

    def _chunks(self) -> Iterator[int]:
        source = self._spool_chunks() if self.encoded else self._plain_chunks()
        for start, data in source:
            yield self._add(start, data)

    def _plain_chunks(self) -> Iterator[tuple[int, bytes]]:
        pos = self._tail_start()
        while data := os.pread(self._fd, self._chunk, pos):
            yield pos, data
            pos += len(data)

    def _spool_chunks(self) -> Iterator[tuple[int, bytes]]:
        assert self._spool is not None
        pos = 0
        with self.path.open("rb") as raw:
            for data in decoded_chunks(raw, self.name, self._chunk):
                self._spool.write(data)
                self._spool.flush()
                yield pos, data
                pos += len(data)

    def _add(self, start: int, data: bytes) -> int:
        """Append the line ends found in ``data`` (which begins at byte ``start``)."""
        ends = _ends_numpy(self._np, data, start) if self._np is not None else _ends(data, start)
        with self._lock:
            self._cache.pop(len(self._ends) // BLOCK, None)  # its last line may have grown
            self._version += 1
            self._ends.extend(ends)
            self._size = max(self._size, start + len(data))
        return len(ends)

    def refresh(self) -> Change:
        """Look at the file again (follow mode): index what was appended, or reset."""
        if self.encoded or not self.done:
            return Change.SAME  # compressed artefacts do not grow; the first pass is still running
        try:
            stat = os.stat(self.path)
        except OSError:
            return Change.SAME  # rotated away for a moment; keep what we show
        if stat.st_ino != os.fstat(self._fd).st_ino or stat.st_size < self._size:
            self._reset()
            self.build()
            return Change.RESET
        if stat.st_size == self._size:
            return Change.SAME
        self.build()
        return Change.GROWN

    def _reset(self) -> None:
        with self._lock:
            os.close(self._fd)
            self._fd = os.open(self.path, os.O_RDONLY)
            self._ends = array.array("Q")
            self._size = 0
            self._cache.clear()
            self._version += 1

    def span(self, i: int) -> tuple[int, int]:
        """Byte range [start, end) of line ``i`` including its newline."""
        ends = self._ends
        start = ends[i - 1] if i > 0 else 0
        end = ends[i] if i < len(ends) else self._size
        return start, end

    def line(self, i: int) -> tuple[str, int]:
        """Text of line ``i`` (0-based, newline and CR redraws removed) and bytes cut off."""
        block = i // BLOCK
        with self._lock:
            lines = self._cache.get(block)
            if lines is not None:
                self._cache.move_to_end(block)
        if lines is None or i - block * BLOCK >= len(lines):
            lines = self._read_block(block)
        k = i - block * BLOCK
        return lines[k] if k < len(lines) else ("", 0)

    def lines(self, start: int, stop: int) -> list[str]:
        """Texts of lines [start, stop) in one read, for bulk scans (filter, search); not cached."""
        stop = min(stop, self.line_count)
        if stop <= start:
            return []
        first, last = self.span(start)[0], self.span(stop - 1)[1]
        if last - first > BULK_MAX:
            return [self.line(i)[0] for i in range(start, stop)]
        raws = os.pread(self._fd, last - first, first).split(b"\n")[: stop - start]
        return [decode_line(raw)[0] for raw in raws]

    def whole(self, i: int, limit: int = WHOLE_MAX) -> tuple[bytes, int]:
        """Raw bytes of line ``i`` uncut up to ``limit`` (the whole-line view), and bytes left."""
        start, end = self.span(i)
        raw = os.pread(self._fd, min(end - start, limit), start)
        return raw.rstrip(b"\r\n").lstrip(b"\x00"), max(end - start - limit, 0)

    def line_at(self, offset: int, lo: int = 0, hi: int | None = None) -> int:
        """The line holding byte ``offset`` (search hits found in raw chunks -> line numbers)."""
        with self._lock:
            return bisect_right(self._ends, offset, lo, len(self._ends) if hi is None else hi)

    def raw_chunks(
        self, start: int, stop: int, size: int = CHUNK
    ) -> Iterator[tuple[int, int, int, bytes]]:
        """(first line, stop line, byte offset, bytes) of whole lines [start, stop) about
        ``size`` bytes at a time (the first one smaller, so a first result shows at once):
        what search and filter scan, undecoded, at memchr speed."""
        stop, step = min(stop, self.line_count), min(size, FIRST_CHUNK)
        while start < stop:
            first = self.span(start)[0]
            with self._lock:
                end_line = bisect_right(self._ends, first + step, start, len(self._ends))
            step = size
            end_line = min(max(end_line, start + 1), stop)
            last = self.span(end_line - 1)[1]
            yield start, end_line, first, os.pread(self._fd, last - first, first)
            start = end_line

    def _read_block(self, block: int) -> list[tuple[str, int]]:
        with self._lock:
            version = self._version
        first = block * BLOCK
        last = min(first + BLOCK, self.line_count)
        if last <= first:
            return []
        start, end = self.span(first)[0], self.span(last - 1)[1]
        if end - start <= BLOCK * MAX_LINE_BYTES:
            data = os.pread(self._fd, end - start, start)
            lines = [
                decode_line(data[a - start : b - start])
                for a, b in map(self.span, range(first, last))
            ]
        else:
            lines = [self._read_one(i) for i in range(first, last)]
        with self._lock:
            if version != self._version:  # the worker added lines meanwhile: this read may be stale
                return lines
            self._cache[block] = lines
            if len(self._cache) > CACHE_BLOCKS:
                self._cache.popitem(last=False)
        return lines

    def _read_one(self, i: int) -> tuple[str, int]:
        start, end = self.span(i)
        if os.pread(self._fd, 1, start) == b"\x00":
            start = self._hole_end(start, end)
        return decode_line(
            os.pread(self._fd, min(end - start, MAX_LINE_BYTES + 1), start), end - start
        )

    def _hole_end(self, start: int, end: int) -> int:
        """Where the text after a run of NULs begins: sparse blocks are jumped, not read."""
        try:
            pos = min(max(os.lseek(self._fd, start, os.SEEK_DATA), start), end)
        except OSError:  # only a hole up to the end of file, or no SEEK_DATA here
            pos = start
        while pos < end and (chunk := os.pread(self._fd, min(HOLE_STEP, end - pos), pos)):
            text = chunk.lstrip(b"\x00")
            if text:
                return pos + len(chunk) - len(text)
            pos += len(chunk)
        return pos


def _ends(data: bytes, start: int) -> array.array[int]:
    """Offsets just past each newline of ``data``, which begins at byte ``start``."""
    ends = array.array("Q")
    append, find = ends.append, data.find
    pos = find(b"\n")
    while pos != -1:
        append(start + pos + 1)
        pos = find(b"\n", pos + 1)
    return ends


def _ends_numpy(np: ModuleType, data: bytes, start: int) -> array.array[int]:
    """Same as ``_ends``, about 4x faster and mostly outside the GIL."""
    found = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10).astype(np.uint64)
    found += start + 1
    ends = array.array("Q")
    ends.frombytes(found.tobytes())
    return ends


def _numpy(wanted: bool) -> ModuleType | None:
    """numpy is optional (the engine extra brings it); the core's line counter uses it the same way."""
    if not wanted:
        return None
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def decode_line(raw: bytes, full: int | None = None) -> tuple[str, int]:
    """Bytes of one line -> text without newline/CR redraws, and how many bytes were cut."""
    full = len(raw) if full is None else full
    if raw[:1] == b"\x00":  # the hole a copytruncate rotation leaves before the first line
        text = raw.lstrip(b"\x00")
        raw, full = text, full - (len(raw) - len(text))
    cut = 0
    if full > MAX_LINE_BYTES:
        raw, cut = raw[:MAX_LINE_BYTES], full - MAX_LINE_BYTES
    raw = raw.rstrip(b"\r\n")
    if b"\r" in raw:
        raw = raw.rsplit(b"\r", 1)[1] or raw.replace(b"\r", b"")
    return raw.decode("utf-8", "replace"), cut
