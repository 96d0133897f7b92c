"""Command-line inputs -> readable log paths: globs expanded, unusable files refused or skipped."""

from __future__ import annotations

import glob
import gzip
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from spectrace import pipeline
from spectrace.errors import InputError
from spectrace.read import STDIN

HEAD_BYTES = 8192
BINARY_SHARE = 0.10  # more control bytes than this in the head: not a text log
_TEXT_CONTROLS = frozenset(b"\t\n\r\f\b\x1b")
_GZIP_MAGIC = b"\x1f\x8b"


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


def _head(path: str) -> bytes:
    """The first bytes of the text (decompressed for gzip); raises OSError/EOFError/zlib.error."""
    with open(path, "rb") as raw:
        head = raw.read(HEAD_BYTES)
        if not head.startswith(_GZIP_MAGIC):
            return head
        raw.seek(0)
        with gzip.GzipFile(fileobj=raw) as unzipped:
            return unzipped.read(HEAD_BYTES)


def problem(path: str) -> str | None:
    """Why a file cannot be triaged (empty, binary, unreadable, gzip with no data), or None."""
    if path == STDIN:
        return None
    try:
        head = _head(path)
    except PermissionError:
        return "permission denied"
    except (EOFError, zlib.error, gzip.BadGzipFile):
        return "truncated or damaged gzip with no readable data"
    except OSError as exc:
        return f"cannot read ({exc.strerror or exc})"
    if not head:
        return "empty file"
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
        raise InputError(f"{path}: {why}{more}")
    for path, why in problems.items():
        warn(f"skipping {path}: {why}")
    return [p for p in paths if p not in problems]
