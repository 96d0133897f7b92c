"""Inputs -> blocks of whole lines: plain or encoded files and stdin, read into reused buffers."""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from isal import igzip_threaded  # isal decompresses ~3x faster than zlib

from spectrace.errors import InputError
from spectrace.guard import ReadGuard
from spectrace.unpack import (
    DECODE_ERRORS,
    SNIFF_BYTES,
    Codec,
    GzipStream,
    Prefetched,
    decoder,
    sniff,
    stray_mark,
    unwrap,
)

BLOCK_SIZE = 4 * 1024 * 1024
MAX_LINE_BYTES = 64 * 1024  # a longer line keeps its first 64 KiB; the rest is skipped
MAX_ISSUES = 20
HOLE_BYTES = 64  # a run of NULs this long is a hole: a copytruncate rotation, a preallocated file
_HOLE = b"\x00" * HOLE_BYTES
_NOT_NUL = re.compile(rb"[^\x00]")
STDIN = "-"
_GZ_CHUNK = 1024 * 1024
__all__ = ["BLOCK_SIZE", "MAX_LINE_BYTES", "STDIN", "Block", "GzipStream", "Reader"]


@dataclass(slots=True)
class Block:
    """``buf[start:end]`` holds whole lines; ``offset`` is the byte offset of ``buf[start]``."""

    buf: bytearray
    start: int
    end: int
    offset: int
    prev: Block | None = None  # the block before, still intact while this one is scanned
    beyond: bool = False  # past the requested byte range (read only to finish open records)


@dataclass(slots=True)
class _LongLine:
    """An over-long line: its start, and for tqdm-style redraws the text after the last ``\\r``."""

    offset: int
    head: bytes
    tail: bytes = b""
    redrawn: bool = False

    def add(self, buf: bytearray, end: int, *, final: bool) -> None:
        stop = end - 1 if final and end and buf[end - 1] == 0x0D else end  # CRLF is no redraw
        # a run of NULs (the hole a copytruncate rotation leaves) ends a line as a redraw would
        cr = max(buf.rfind(b"\r", 0, stop), buf.rfind(b"\x00", 0, stop))
        if cr >= 0:
            self.redrawn, self.tail = True, bytes(buf[cr + 1 : stop][-MAX_LINE_BYTES:])
        elif self.redrawn:
            self.tail = (self.tail + bytes(buf[max(0, stop - MAX_LINE_BYTES) : stop]))[
                -MAX_LINE_BYTES:
            ]

    def block(self, beyond: bool) -> Block:
        """The start, then (after ``\\r``) the last redraw: what a terminal showed at the end."""
        line = bytearray(self.head + (b"\r" + self.tail if self.redrawn else b"") + b"\n")
        return Block(line, 0, len(line), self.offset, None, beyond)


@dataclass(slots=True)
class _Holes:
    """Runs of NULs in the text, each said once as a read issue (the scan skips their bytes)."""

    note: Callable[[str], None]
    stop: int | None  # runs that start here or later belong to the next byte range
    start: int = -1  # text offset where an open run began (it reached the end of a block)

    def see(self, buf: bytearray, lo: int, hi: int, offset: int) -> None:
        """Look at ``buf[lo:hi]``, whose first byte is at text offset ``offset``."""
        pos = lo
        while pos < hi:
            if self.start < 0:
                if (found := buf.find(_HOLE, pos, hi)) < 0:
                    return
                if self.stop is not None and offset + found - lo >= self.stop:
                    return
                self.start, pos = offset + found - lo, found
            m = _NOT_NUL.search(buf, pos, hi)
            if m is None:
                return  # the run goes on in the next block
            self.close(offset + m.start() - lo)
            pos = m.start()

    def close(self, end: int) -> None:
        """The open run ended at text offset ``end`` (or the input ended inside it)."""
        if self.start >= 0:
            self.note(
                f"skipped {end - self.start} NUL bytes at byte {self.start} (a hole: a "
                "copytruncate rotation or a preallocated file)"
            )
        self.start = -1


def display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


class Reader:
    """One input; ``blocks()`` reuses two buffers, so memory does not grow with file size."""

    def __init__(self, path: str, *, block_size: int = BLOCK_SIZE, start: int = 0,
                 stop: int | None = None) -> None:  # fmt: skip
        self.name = display_name(path)
        self.issues: list[str] = []
        self.gzip = False
        self.codec = Codec.PLAIN
        self._threaded, self._layers, self._ended = False, 0, False
        self._path = path
        self._delivered = 0  # decompressed bytes handed out (to resume after damage)
        self._rescue: BinaryIO | None = None
        self._head = b""
        self._raw = _open_raw(path)
        self._size = _size(self._raw)
        self._stream = self._wrap(start)
        if self.codec is Codec.PLAIN and self._size:  # small files get small buffers
            block_size = min(block_size, self._size - start + 1)
        self._block_size = max(block_size, MAX_LINE_BYTES * 2)
        self._start = start if not self.gzip else 0
        self._stop = stop
        # what a growing file gains after we opened it is read only to finish an open record,
        # so a writer faster than the scan cannot keep it going forever
        self._snapshot = self._size if self.codec is Codec.PLAIN else 0
        encoded_size = 0 if self.codec is Codec.PLAIN else self._size
        self._guard = ReadGuard(_endless(self._raw), encoded_size)
        self._holes = _Holes(self.note, stop)
        if not start and stray_mark(self._head):
            self.note(
                "starts with a UTF-16 byte-order mark, but the text after it is UTF-8: "
                "read as UTF-8"
            )

    @property
    def size(self) -> int:
        """Bytes on disk (compressed for .gz); 0 when unknown (stdin, pipes)."""
        return self._size

    def position(self) -> int:
        """Bytes consumed on disk so far, for progress."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def close(self) -> None:
        if self._stream is not self._raw:
            self._stream.close()
        if self._rescue is not None:
            self._rescue.close()
        if self._path != STDIN:
            self._raw.close()

    def note(self, issue: str) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(issue)
        elif len(self.issues) == MAX_ISSUES:
            self.issues.append("more read issues not shown")

    def _wrap(self, start: int) -> BinaryIO:
        head = self._head = _peek(self._raw, SNIFF_BYTES)
        # a pipe or terminal that peeked nothing has ended: reading a terminal again would wait
        # for a second Ctrl-D
        self._ended = not head and not self._raw.seekable() and hasattr(self._raw, "peek")
        self.codec = sniff(head, self.name)
        if self.codec is Codec.PLAIN:
            if start:
                self._raw.seek(start)
            return self._raw
        self.gzip = True  # encoded: positions are in decoded text, ranges do not apply
        if self.codec is Codec.GZIP and self._path != STDIN and self._raw.seekable():
            self._threaded = True  # decompresses in a helper thread
            outer = igzip_threaded.open(self._raw, "rb")
        else:
            outer = decoder(self._raw, self.codec, head, self.note)
        stream, self._layers = unwrap(outer, self.name, self.note)
        if not self._threaded:  # bz2, xz, zstd, UTF-16 or layers: decoded ahead in a thread
            stream = Prefetched(stream)
        return stream  # type: ignore[return-value]

    def _recover(self) -> bool:
        """After damage in the threaded reader: redo the tail with GzipStream to keep every byte."""
        if self._rescue is not None or not self._threaded or self._layers:
            return False
        self._stream.close()
        self._rescue = open(self._path, "rb")  # noqa: SIM115 - closed by close()
        stream = GzipStream(self._rescue, self.note)
        skip, scratch = self._delivered, bytearray(_GZ_CHUNK)
        with memoryview(scratch) as view:
            while skip > 0:  # EOFError here means the damage is before what we already have
                skip -= stream.readinto(view[: min(skip, len(view))])
        self._stream = stream  # type: ignore[assignment]
        return True

    def blocks(self) -> Iterator[Block]:
        """Yield blocks of whole lines; a final line without newline is yielded too."""
        size = self._block_size
        bufs = (bytearray(size), bytearray(size))
        which, fill, offset = 0, 0, self._start
        prev: Block | None = None
        long: _LongLine | None = None  # inside a line longer than the buffer
        while True:
            buf = bufs[which]
            got, eof = self._fill(buf, fill, offset)
            self._holes.see(buf, fill, fill + got, offset + fill)
            fill += got
            if eof:
                self._holes.close(offset + fill)
            if long is not None:
                nl = buf.find(b"\n", 0, fill)
                long.add(buf, nl if nl >= 0 else fill, final=nl >= 0 or eof)
                if nl < 0 and not eof:
                    offset, fill = offset + fill, 0  # still inside the line
                    continue
                yield long.block(self._past(long.offset))
                prev, long = None, None
                if nl < 0:
                    return
                buf[: fill - nl - 1] = buf[nl + 1 : fill]
                offset, fill = offset + nl + 1, fill - nl - 1
                continue
            cut = buf.rfind(b"\n", 0, fill) + 1
            if cut == 0 and not eof and fill == size:  # one line longer than the buffer
                if _HOLE not in buf:  # a hole is said as such
                    self.note(f"line at byte {offset} is longer than {size} bytes; kept its start")
                long = _LongLine(offset, bytes(buf[:MAX_LINE_BYTES]))
                long.add(buf, fill, final=False)
                offset, fill = offset + fill, 0
                continue
            cut = fill if eof else cut
            if self._stop is not None and offset < self._stop < offset + cut:
                cut = self._stop - offset  # line-aligned: ranges never share a line
            if cut:
                if prev is not None:
                    prev.prev = None  # its buffer is about to be reused
                prev = Block(buf, 0, cut, offset, prev, self._past(offset))
                yield prev
            if eof and cut == fill:
                return
            bufs[1 - which][: fill - cut] = buf[cut:fill]
            which, fill, offset = 1 - which, fill - cut, offset + cut

    def _check_shrunk(self, end: int) -> None:
        """A plain file that ends before the size it had when opened was truncated under us."""
        expected = self._snapshot if self._stop is None else min(self._stop, self._snapshot)
        if self.codec is Codec.PLAIN and end < expected:
            self.note(
                f"the file ended at byte {end}, short of the {self._snapshot} bytes it had when "
                "opened: truncated during the read; what was read is reported"
            )

    def _past(self, offset: int) -> bool:
        if self._snapshot and offset >= self._snapshot:
            return True
        return self._stop is not None and offset >= self._stop

    def _fill(self, buf: bytearray, fill: int, offset: int) -> tuple[int, bool]:
        """Read until the buffer is full or the input ends; damage ends the input with an issue."""
        if self._ended:
            return 0, True
        view = memoryview(buf)
        got = 0
        try:
            while fill + got < len(buf):
                try:
                    n = self._stream.readinto(view[fill + got :])  # type: ignore[attr-defined]
                except DECODE_ERRORS:
                    if not self._recover():
                        raise
                    continue
                if not n:
                    self._check_shrunk(offset + fill + got)
                    return got, True
                self._delivered += n
                got += n
            if why := self._guard.check(view[fill : fill + got], self._delivered):  # once a block
                self.note(why)
                self._ended = True
                return got, True
        except DECODE_ERRORS as exc:
            where = offset + fill + got
            what = (
                "read error" if self.codec is Codec.PLAIN else f"damaged or truncated {self.codec}"
            )
            self.note(f"{what}: kept the {where} bytes before the damage ({exc})")
            return got, True
        finally:
            view.release()
        return got, False


def _open_raw(path: str) -> BinaryIO:
    if path == STDIN:
        if sys.stdin is None:  # started with fd 0 closed (`<&-`)
            raise InputError("stdin is closed: give a file path instead of -")
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by Reader.close
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _endless(raw: BinaryIO) -> bool:
    """A pipe, terminal or device may never end (a regular file does)."""
    try:
        return not stat.S_ISREG(os.fstat(raw.fileno()).st_mode)
    except (OSError, ValueError):
        return True


def _size(raw: BinaryIO) -> int:
    if raw is getattr(sys.stdin, "buffer", None):
        return 0
    try:
        return os.fstat(raw.fileno()).st_size
    except (OSError, ValueError):
        return 0


def _peek(raw: BinaryIO, n: int) -> bytes:
    """First bytes without consuming them (seek back on files, peek on pipes)."""
    if raw.seekable():
        head = raw.read(n)
        raw.seek(0)
        return head
    peek = getattr(raw, "peek", None)
    return peek(n)[:n] if peek is not None else b""
