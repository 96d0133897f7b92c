"""Command-line inputs -> readable log paths: globs expanded, unusable files refused or skipped."""

from __future__ import annotations

import glob
import gzip
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from spectrace import pipeline
from spectrace.errors import InputError
from spectrace.read import STDIN, display_name
from spectrace.stacks.flight import load_flight
from spectrace.stacks.model import load_capture
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


def expand(paths: Sequence[str]) -> list[str]:
    """Quoted globs expanded here (the shell did not); directories are walked by the pipeline."""
    expanded: list[str] = []
    for raw in paths:
        if raw != STDIN and not Path(raw).exists() and glob.has_magic(raw):
            matches = sorted(m for m in glob.glob(raw, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputError(f"no file matches {raw!r}")
            expanded.extend(matches)
        else:
            expanded.append(raw)
    return pipeline.expand_inputs(list(dict.fromkeys(expanded)))


def _text_head(stream: Readable) -> tuple[bytes, bool]:
    """The first text bytes past a leading run of NULs (the hole a copytruncate rotation
    leaves), and whether the input ended inside that run."""
    skipped = 0
    while skipped < MAX_NUL_RUN:
        chunk = read_head(stream, HEAD_BYTES)
        text = chunk.lstrip(b"\x00")
        if text:
            return text + read_head(stream, HEAD_BYTES - len(text)), False
        skipped += len(chunk)
        if len(chunk) < HEAD_BYTES:
            return b"", skipped > 0
    return b"", False


def _open_text(raw: BinaryIO, path: str) -> Readable:
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
    """An open descriptor to ask isatty about, or None (closed by the caller's exit)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None


def problem(path: str) -> str | None:
    """Why a file cannot be triaged (empty, binary, unreadable, gzip with no data), or None."""
    if path == STDIN:
        try:
            return _device(os.fstat(0), 0)
        except OSError:
            return None  # closed: the Reader says so
    try:
        st = os.stat(path)
        mode = st.st_mode
        if stat.S_ISSOCK(mode):
            return "a socket, not a log file"
        if stat.S_ISCHR(mode):
            fd = _tty(path)
            try:
                return _device(st, fd)
            finally:
                if fd is not None:
                    os.close(fd)
        if not stat.S_ISREG(mode):  # a pipe (`<(zcat log.gz)`) or a device: its bytes are read once
            return None
        with open(path, "rb") as raw:
            sniffed = raw.read(SNIFF_BYTES)
            if (what := unsupported(sniffed)) is not None:
                return what
            raw.seek(0)
            head, only_nuls = _text_head(_open_text(raw, path))
    except PermissionError:
        return "permission denied"
    except DECODE_ERRORS as exc:
        if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and exc.strerror:
            return f"cannot read ({exc.strerror})"
        return f"truncated or damaged {sniff(sniffed)} with no readable data"
    if only_nuls:
        return "only NUL bytes, no text"
    if not head:
        return "empty file" if os.path.getsize(path) == 0 else None
    controls = sum(1 for b in head if b < 0x20 and b not in _TEXT_CONTROLS)
    if b"\x00" in head and controls > BINARY_SHARE * len(head):
        return "binary file, not a text log"
    return None


def usable(paths: Sequence[str], warn: Callable[[str], None]) -> list[str]:
    """Inputs worth scanning; others are skipped with a warning, or refused when none is left."""
    problems = {p: why for p in paths if (why := problem(p))}
    if problems and len(problems) == len(paths):
        path, why = next(iter(problems.items()))
        more = f" (and {len(problems) - 1} more unusable input(s))" if len(problems) > 1 else ""
        raise InputError(f"{display_name(path)}: {why}{more}")
    for path, why in problems.items():
        warn(f"skipping {display_name(path)}: {why}")
    return [p for p in paths if p not in problems]


def usable_stacks(
    captures: Sequence[str], dumps: Sequence[str], warn: Callable[[str], None] | None
) -> tuple[list[str], list[str]]:
    """Stacks captures and flight dumps that load; a damaged one beside the logs is skipped with
    a warning, so it cannot hide the crashes the logs hold (``warn`` None: it is the error)."""
    problems: dict[str, str] = {}
    for path, load in [*((c, load_capture) for c in captures), *((d, load_flight) for d in dumps)]:
        try:
            load(path)
        except InputError as exc:
            if warn is None:
                raise
            problems[path] = str(exc)
    for why in problems.values():
        warn(f"skipping {why}")
    return [c for c in captures if c not in problems], [d for d in dumps if d not in problems]
