"""Raw input bytes -> UTF-8 log bytes: what a file is (gzip, bzip2, xz, UTF-16) and its decoder.

``read.Reader`` and ``inputs.problem`` share it, so a file is judged as it will be read.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import lzma
import queue
import threading
import zlib
from collections.abc import Callable
from enum import StrEnum
from typing import Any, BinaryIO, Protocol

from isal import isal_zlib as _zlib

try:  # the standard library's from Python 3.14; the backport (a dependency) before
    from compression import zstd as _zstd  # type: ignore[import-not-found]
except ImportError:
    try:
        from backports import zstd as _zstd  # type: ignore[import-not-found,no-redef]
    except ImportError:  # pragma: no cover - installed without its dependencies
        _zstd = None

from spectrace.errors import InputError

SNIFF_BYTES = 4096  # the longest magic is 10 bytes; text encodings are judged on the rest
UTF16_NUL_SHARE = 0.3  # of the high bytes that are NUL: ASCII as UTF-16 (judged per byte lane)
STRAY_NUL_SHARE = 0.05  # NULs allowed in the other lane (a hole or a stray byte)
MAX_BAD_UTF8 = 0.02  # replaced characters per character: more and bytes after a mark are not UTF-8
MAX_NESTING = 3  # a .gz inside a .gz: a log compressed again by a collector
_MEMBER_MAGIC = b"\x1f\x8b\x08"  # magic + deflate: where a gzip member can start
_GZ_CHUNK = 1024 * 1024
_DECODE_STEP = 256 * 1024
# a damaged or cut stream of any codec: the Reader keeps what came before and says so
DECODE_ERRORS: tuple[type[Exception], ...] = (
    EOFError, OSError, zlib.error, _zlib.error, gzip.BadGzipFile, lzma.LZMAError,
    *((_zstd.ZstdError,) if _zstd is not None else ()),
)  # fmt: skip


class Codec(StrEnum):
    PLAIN = "plain"
    GZIP = "gzip"
    BZIP2 = "bzip2"
    XZ = "xz"
    UTF16 = "utf-16"
    UTF32 = "utf-32"
    ZSTD = "zstd"


_MAGIC = (  # UTF-32 LE's BOM starts with UTF-16 LE's, so it comes first
    (b"\x1f\x8b", Codec.GZIP),
    (b"\x28\xb5\x2f\xfd", Codec.ZSTD),
    (b"\xfd7zXZ\x00", Codec.XZ),
    (b"\xff\xfe\x00\x00", Codec.UTF32),
    (b"\x00\x00\xfe\xff", Codec.UTF32),
    (b"\xff\xfe", Codec.UTF16),
    (b"\xfe\xff", Codec.UTF16),
)
_BZIP2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")  # first block, or the end of an empty stream
_UNSUPPORTED = {  # magic -> what it is; refused with the way out
    b"PK\x03\x04": "a zip archive; unzip it and give the log files",
    b"7z\xbc\xaf\x27\x1c": "a 7z archive; unpack it and give the log files",
    b"\x7fELF": "an ELF binary (a program, library or core dump), not a log",
}


class Readable(Protocol):
    def readinto(self, view: memoryview) -> int: ...


_ZSTD_NEEDS = "zstd-compressed, and no zstd module (pip install backports.zstd; or zstd -dc FILE | spectrace triage -)"


def unsupported(head: bytes) -> str | None:
    """What an input we cannot read is (zip, 7z, ELF), with the way out; None otherwise."""
    if _zstd is None and _zstd_frame(head):
        return _ZSTD_NEEDS
    return next((what for magic, what in _UNSUPPORTED.items() if head.startswith(magic)), None)


def _zstd_frame(head: bytes) -> bool:
    """A zstd frame, or a skippable frame (pzstd and seekable zstd start with one)."""
    return head.startswith(b"\x28\xb5\x2f\xfd") or (
        head[1:4] == b"\x2a\x4d\x18" and head[:1] != b"" and head[0] & 0xF0 == 0x50
    )


def sniff(head: bytes, name: str = "input") -> Codec:
    """What the first bytes say the input is; a format we cannot read is an InputError.

    Compression is told by its magic; a text encoding by the content after it: a UTF-16 mark
    followed by UTF-8 text is stray junk at the start of a UTF-8 log, not UTF-16."""
    if (what := unsupported(head)) is not None:
        raise InputError(f"{name}: {what}")
    if head[:3] == b"BZh" and head[3:4].isdigit() and head[4:10] in _BZIP2_BLOCKS:
        return Codec.BZIP2
    if _zstd_frame(head):
        return Codec.ZSTD
    codec = next((codec for magic, codec in _MAGIC if head.startswith(magic)), Codec.PLAIN)
    if codec is Codec.UTF32:
        return codec if _lanes(head[4:], 4) is not None else _after_mark(head[2:], head[:2])
    if codec is Codec.UTF16:
        return _after_mark(head[2:], head[:2])
    if codec is Codec.PLAIN and _lanes(_past_nuls(head), 2) is not None:
        return Codec.UTF16  # UTF-16 without a mark: ASCII with every other byte NUL
    return codec


def stray_mark(head: bytes) -> bool:
    """The input starts with a UTF-16/32 mark but its text is UTF-8 (read as UTF-8)."""
    return head.startswith((b"\xff\xfe", b"\xfe\xff")) and sniff(head) is Codec.PLAIN


def _lanes(data: bytes, width: int) -> int | None:
    """The lane (byte position in each ``width``-byte unit) that holds the characters when
    ASCII-range text is written in UTF-16/32, or None: the other lanes are mostly NUL."""
    units = len(data) // width
    if units < 4:
        return None
    counts = [data[lane : units * width : width].count(0) for lane in range(width)]
    for lane in range(width):
        others = [c for i, c in enumerate(counts) if i != lane]
        if counts[lane] <= STRAY_NUL_SHARE * units and min(others) >= UTF16_NUL_SHARE * units:
            return lane
    return None


def _past_nuls(head: bytes) -> bytes:
    """``head`` past a leading run of NULs (a hole), in whole 2-byte units to keep the lanes."""
    skip = len(head) - len(head.lstrip(b"\x00"))
    return head[skip - skip % 2 :]


def _after_mark(rest: bytes, mark: bytes) -> Codec:
    """UTF-16 when the bytes after the mark are UTF-16 (NUL lanes, or not UTF-8: CJK text)."""
    if _lanes(rest, 2) is not None or not rest:
        return Codec.UTF16
    return Codec.PLAIN if _mostly_utf8(rest) else Codec.UTF16


def _mostly_utf8(data: bytes) -> bool:
    text = codecs.getincrementaldecoder("utf-8")(errors="replace").decode(data, final=False)
    return text.count("\ufffd") <= MAX_BAD_UTF8 * max(len(text), 1)


def _utf16_name(head: bytes) -> str:
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")) and _lanes(head[4:], 4) is not None:
        return "utf-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"  # the decoder reads and drops the BOM
    return "utf-16-le" if _lanes(_past_nuls(head), 2) == 0 else "utf-16-be"


class Transcoded:
    """UTF-16/32 text re-encoded as UTF-8 on the fly (PowerShell's ``>`` writes UTF-16)."""

    def __init__(self, raw: Any, encoding: str) -> None:
        self._raw = raw
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._out = b""

    def readinto(self, view: memoryview) -> int:
        while not self._out:
            chunk = self._raw.read(_GZ_CHUNK)
            self._out = self._decoder.decode(chunk, final=not chunk).encode("utf-8", "replace")
            if not chunk:
                break
        n = min(len(view), len(self._out))
        view[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def close(self) -> None:
        """The raw file is closed by its owner."""


class Peeked:
    """A decoded stream whose first bytes were read to sniff it: they are handed out first,
    or the error that reading them raised is raised on the first read."""

    def __init__(self, stream: Readable, head: bytes, error: Exception | None = None) -> None:
        self._stream, self._head, self._error = stream, head, error

    def readinto(self, view: memoryview) -> int:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        if self._head:
            n = min(len(view), len(self._head))
            view[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        # small steps: bz2 and lzma hand out nothing of a big request whose input is cut short
        return self._stream.readinto(view[:_DECODE_STEP])

    def read(self, n: int = -1) -> bytes:
        """For a decoder stacked on top (``.gz`` inside ``.gz``)."""
        return read_head(self, n if n >= 0 else _GZ_CHUNK)

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


def read_head(stream: Readable, n: int) -> bytes:
    """Up to ``n`` bytes from a decoded stream (short only at its end)."""
    buf = bytearray(n)
    got = 0
    with memoryview(buf) as view:
        while got < n and (step := stream.readinto(view[got:])):
            got += step
    return bytes(buf[:got])


def decoder(raw: Any, codec: Codec, head: bytes, note: Callable[[str], None]) -> Readable:
    """The stream that turns ``raw`` (positioned at its start) into UTF-8 text."""
    if codec is Codec.GZIP:
        return GzipStream(raw, note)
    if codec is Codec.BZIP2:
        return bz2.BZ2File(raw)
    if codec is Codec.ZSTD:
        return _zstd.ZstdFile(raw)  # frames one after another, skippable frames passed over
    if codec is Codec.XZ:
        return lzma.LZMAFile(raw)
    if codec in (Codec.UTF16, Codec.UTF32):
        return Transcoded(raw, _utf16_name(head))
    raise ValueError(f"no decoder for {codec}")


def unwrap(stream: Readable, name: str, note: Callable[[str], None]) -> tuple[Readable, int]:
    """A decoded stream that holds another encoded one is decoded again; returns the text stream
    and how many layers were added."""
    layers = 0
    while True:
        try:
            head = read_head(stream, SNIFF_BYTES)
        except DECODE_ERRORS as exc:
            return Peeked(stream, b"", exc), layers
        codec = sniff(head, name)
        if codec is Codec.PLAIN or layers >= MAX_NESTING:
            return Peeked(stream, head), layers
        stream = decoder(Peeked(stream, head), codec, head, note)
        layers += 1


class Prefetched:
    """A decoded stream read ahead in a helper thread: bz2, xz and zstd decompress with the GIL
    released, so decoding overlaps the scan as isal's threaded gzip reader does (``zstd -dc |``
    got this for free from a second process). An error is raised where it was met, after
    every byte decoded before it."""

    DEPTH = 4  # decoded steps waiting: bounded memory

    def __init__(self, stream: Readable) -> None:
        self._stream = stream
        self._queue: queue.Queue[bytes | Exception | None] = queue.Queue(self.DEPTH)
        self._stop = threading.Event()
        self._out = memoryview(b"")
        self._ended = False
        self._thread = threading.Thread(target=self._pump, name="spectrace-decode", daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        try:
            while not self._stop.is_set():
                buf = bytearray(_DECODE_STEP)
                n = self._stream.readinto(memoryview(buf))
                self._put(bytes(buf[:n]) if n else None)
                if not n:
                    return
        except Exception as exc:  # handed to the reader, which keeps what came before
            self._put(exc)

    def _put(self, item: bytes | Exception | None) -> None:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def readinto(self, view: memoryview) -> int:
        while not self._out:
            if self._ended:
                return 0
            item = self._queue.get()
            if item is None or isinstance(item, Exception):
                self._ended = True
                if item is None:
                    return 0
                raise item
            self._out = memoryview(item)
        n = min(len(view), len(self._out))
        view[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


class GzipStream:
    """Streaming gzip (multi-member) that hands out every byte before damage, then skips to the
    next member's header (``on_skip`` says so); damage with no member after it raises EOFError."""

    def __init__(self, raw: BinaryIO, on_skip: Callable[[str], None] = lambda _: None) -> None:
        self._raw = raw
        self._on_skip = on_skip
        self._dec = _zlib.decompressobj(wbits=31)
        self._fed = False  # the current member has started
        self._pending = b""  # compressed input not consumed yet
        self._read = 0  # compressed bytes read from raw so far
        self._member = 0  # compressed offset where the current member starts

    def readinto(self, view: memoryview) -> int:
        while True:
            if not self._pending:
                self._pending = self._raw.read(_GZ_CHUNK)
                self._read += len(self._pending)
                if not self._pending:
                    if self._fed:
                        raise EOFError("compressed file ended before the end-of-stream marker")
                    return 0
            self._fed = True
            try:
                out = self._dec.decompress(self._pending, len(view))
            except (zlib.error, _zlib.error) as exc:
                self._resync(exc)
                continue
            self._pending = self._dec.unconsumed_tail
            if self._dec.eof:
                rest = self._dec.unused_data.lstrip(b"\x00")  # padding between members
                self._start_member(rest)
            if out:
                view[: len(out)] = out
                return len(out)

    def _start_member(self, pending: bytes) -> None:
        self._dec, self._fed, self._pending = _zlib.decompressobj(wbits=31), False, pending
        self._member = self._read - len(pending)

    def _resync(self, exc: Exception) -> None:
        """Damage: go on at the next member magic after this member's start, or re-raise."""
        damaged = self._member
        at = self._read - len(self._pending)  # compressed offset of pending[0]
        window = self._pending[max(0, damaged + 1 - at) :]
        while (found := window.find(_MEMBER_MAGIC)) < 0:
            chunk = self._raw.read(_GZ_CHUNK)
            if not chunk:
                raise EOFError(f"damaged gzip with no member after it ({exc})") from exc
            self._read += len(chunk)
            window = window[-len(_MEMBER_MAGIC) + 1 :] + chunk
        self._start_member(window[found:])
        self._on_skip(
            f"damaged gzip member at compressed byte {damaged} ({exc}): skipped to the next "
            f"member at compressed byte {self._member}; lines at the damage may be cut"
        )

    def close(self) -> None:
        """The raw file is closed by the Reader."""
