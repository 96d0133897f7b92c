"""Is a file a text log? Judged as triage will read it: decoded, past a copytruncate hole.

Shared by ``inputs`` (triage) and ``line_index`` (the TUI), and light to import: the TUI asks
before its first frame.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
from collections.abc import Iterator
from typing import BinaryIO

from spectrace.errors import InputError
from spectrace.read import STDIN
from spectrace.unpack import (
    DECODE_ERRORS,
    SNIFF_BYTES,
    Codec,
    Readable,
    decoder,
    read_head,
    sniff,
    unsupported,
    unwrap,
)

HEAD_BYTES = 8192
BINARY_SHARE = 0.10  # more control bytes than this in the head: not a text log
_TEXT_CONTROLS = frozenset(b"\t\n\r\f\b\x1b")
MAX_NUL_RUN = 256 * 1024 * 1024  # a longer run of NULs is scanned past, not judged
HOLE_BYTES = 64  # a run of NULs this long is a hole (copytruncate, preallocation), not binary
_HOLE = re.compile(rb"\x00{%d,}" % HOLE_BYTES)
PROBES = 16  # places looked at past a binary head: a file is binary only with no text to read
TEXT_LINES, MIN_LINE = 3, 20  # a probe holds text: this many lines in a row of this length, clean


def _text_head(stream: Readable) -> tuple[bytes, bool]:
    """The first text bytes with holes taken out (runs of NULs: a copytruncate rotation, a
    preallocated file), and whether the input held nothing but NULs."""
    text, skipped = b"", 0
    while len(text) < HEAD_BYTES and skipped < MAX_NUL_RUN:
        chunk = read_head(stream, HEAD_BYTES)
        kept = _HOLE.sub(b"", chunk).lstrip(b"\x00") if not text else _HOLE.sub(b"", chunk)
        text, skipped = text + kept, skipped + len(chunk) - len(kept)
        if len(chunk) < HEAD_BYTES:
            break
    return text[:HEAD_BYTES], not text and skipped > 0


def text_stream(raw: BinaryIO, path: str) -> Readable:
    """``raw`` decoded as the Reader will decode it (gzip, bzip2, xz, UTF-16; nested)."""
    head = raw.read(SNIFF_BYTES)
    raw.seek(0)
    codec = sniff(head, path)
    if codec is Codec.PLAIN:
        _skip_hole(raw)
        return raw
    return unwrap(decoder(raw, codec, head, lambda _: None), path, lambda _: None)[0]


def _skip_hole(raw: BinaryIO) -> None:
    """Jump over a sparse hole at the start (copytruncate) without reading its zeros."""
    try:
        raw.seek(os.lseek(raw.fileno(), 0, os.SEEK_DATA))
    except (OSError, AttributeError):  # no data at all, or no SEEK_DATA here
        raw.seek(0)


def _device(st: os.stat_result, fd: int | None) -> str | None:
    """A character device that never ends (/dev/zero, /dev/urandom); /dev/null and terminals
    are read as usual."""
    if not stat.S_ISCHR(st.st_mode) or st.st_rdev == os.stat(os.devnull).st_rdev:
        return None
    if fd is not None and os.isatty(fd):
        return None
    return "a character device (like /dev/zero), not a log file"


def _tty(path: str) -> int | None:
    """An open descriptor to ask isatty about, or None; the caller closes it."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None


def _special(path: str, st: os.stat_result) -> str | None:
    """A socket, or a character device that never ends."""
    if stat.S_ISSOCK(st.st_mode):
        return "a socket, not a log file"
    if not stat.S_ISCHR(st.st_mode):
        return None
    fd = _tty(path)
    try:
        return _device(st, fd)
    finally:
        if fd is not None:
            os.close(fd)


def problem(path: str, *, viewer: bool = False) -> str | None:
    """Why a file cannot be triaged (empty, binary, unreadable, gzip with no data), or None.

    ``viewer`` (the TUI): an empty or all-NUL file opens, since follow mode waits for its lines,
    and a head full of control bytes is binary even without a NUL.
    """
    if path == STDIN:
        try:
            return _device(os.fstat(0), 0)
        except OSError:
            return None  # closed: the Reader says so
    try:
        st = os.stat(path)
        if (what := _special(path, st)) is not None or not stat.S_ISREG(st.st_mode):
            return what  # a pipe (`<(zcat log.gz)`): its bytes are read once, not judged here
        with open(path, "rb") as raw:
            sniffed = raw.read(SNIFF_BYTES)
            if (what := unsupported(sniffed)) is not None:
                return what
            raw.seek(0)
            head, only_nuls = _text_head(text_stream(raw, path))
    except PermissionError:
        return "permission denied"
    except DECODE_ERRORS as exc:
        if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and exc.strerror:
            return f"cannot read ({exc.strerror})"
        return f"truncated or damaged {sniff(sniffed)} with no readable data"
    if viewer or not head:
        return _head_problem(head, strict=True) if viewer else _empty(path, only_nuls)
    why = _head_problem(head, strict=False)
    return None if why and _text_later(path, sniffed) else why


def _text_later(path: str, sniffed: bytes) -> bool:
    """A plain file whose head is binary (junk, a dump) but that holds text further on: it is
    read, since a crash after the junk must not be lost."""
    if sniff(sniffed) is not Codec.PLAIN:
        return False
    size = os.path.getsize(path)
    with open(path, "rb") as raw:  # evenly spaced, and the end, where a crash is printed
        for at in [size * i // PROBES for i in range(1, PROBES)] + [size - HEAD_BYTES]:
            raw.seek(max(at, 0))
            raw.readline(HEAD_BYTES)  # to a line start
            if _has_lines(_HOLE.sub(b"", raw.read(HEAD_BYTES))):
                return True
    return False


def _has_lines(probe: bytes) -> bool:
    """A few whole lines of text in a row: random or packed binary never has them (a line of
    40 random bytes holds no control byte once in 70), a log beside junk does."""
    run = 0
    for line in probe.split(b"\n")[:-1]:
        run = run + 1 if len(line) >= MIN_LINE and _controls(line) == 0 else 0
        if run >= TEXT_LINES:
            return True
    return False


def _controls(data: bytes) -> int:
    return sum(1 for b in data if b < 0x20 and b not in _TEXT_CONTROLS)


def _empty(path: str, only_nuls: bool) -> str | None:
    if only_nuls:
        return "only NUL bytes, no text"
    return "empty file" if os.path.getsize(path) == 0 else None


def _head_problem(head: bytes, *, strict: bool) -> str | None:
    """Binary: many control bytes and a NUL (``strict``: many control bytes)."""
    controls = _controls(head)
    if (strict or b"\x00" in head) and controls > BINARY_SHARE * len(head):
        return "binary file, not a text log"
    return None


def decoded_chunks(raw: BinaryIO, name: str, size: int) -> Iterator[bytes]:
    """Decoded text in chunks of about ``size``; a cut or damaged file ends after what decoded
    (the core reports the issue)."""
    try:
        stream = text_stream(raw, name)
    except (*DECODE_ERRORS, InputError):
        return
    buf = bytearray(size)
    with memoryview(buf) as view:
        while True:
            got, ended = 0, False
            try:
                while got < size and (step := stream.readinto(view[got:])):
                    got += step
                ended = got < size
            except DECODE_ERRORS:
                ended = True
            if got:
                yield bytes(view[:got])
            if ended:
                return


def check_small(path: str, what: str, limit: int) -> None:
    """An option's file (baseline, markers) that is read whole: a device that never ends or a
    file past ``limit`` bytes is one line, not a MemoryError after minutes of reading."""
    try:
        st = os.stat(path)
    except OSError:
        return  # missing or unreadable: the reader says so in its own words
    if stat.S_ISCHR(st.st_mode) and _device(st, None) is not None:
        raise InputError(f"{what} {path}: a character device (like /dev/zero), not a file")
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise InputError(f"{what} {path}: {st.st_size} bytes; at most {limit // 1024**2} MiB")


def read_small(path: str, what: str, limit: int) -> bytes:
    """The bytes of an option's file, at most ``limit`` of them (a pipe is read up to that)."""
    check_small(path, what, limit)
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{what} {path}: more than {limit // 1024**2} MiB")
    return data


MAX_NAME_SHOWN = 120  # of a path in an error line
MAX_GLOBSTARS = 3  # each `**` multiplies the walk: `**/` x 30 never ended


def checked_path(raw: str) -> str:
    """A path argument a user can have meant: not empty (an unset variable once scanned the
    whole working directory), not longer than the system takes, not an exploding glob."""
    if not raw.strip():
        raise InputError("an empty path was given (an unset variable?)")
    shown = raw if len(raw) <= MAX_NAME_SHOWN else raw[:MAX_NAME_SHOWN] + "…"
    if len(raw) > os.pathconf("/", "PC_PATH_MAX") or any(
        len(part.encode(errors="surrogateescape")) > os.pathconf("/", "PC_NAME_MAX")
        for part in raw.split("/")
    ):
        raise InputError(f"{shown!r}: file name too long")
    if raw.count("**") > MAX_GLOBSTARS:
        raise InputError(f"{shown!r}: more than {MAX_GLOBSTARS} '**' in one glob")
    return raw


def checked_marker(marker: str) -> str:
    """An --expect marker a log line can hold: bytes that are not UTF-8 (a shell's $'\\x9b')
    reach Python as lone surrogates, which failed deep in the scan; a newline never matches."""
    shown = marker.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    shown = repr(shown if len(shown) <= MAX_NAME_SHOWN else shown[:MAX_NAME_SHOWN] + "…")
    try:
        marker.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"--expect {shown}: not valid UTF-8") from None
    if "\n" in marker or "\r" in marker:
        raise InputError(f"--expect {shown}: a marker is one line; it cannot hold a line break")
    return marker
