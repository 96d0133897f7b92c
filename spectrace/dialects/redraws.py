"""Log records that a progress bar drew over with ``\\r`` on the same physical line.

A terminal shows only the last redraw, but a log file keeps them all: a ``RuntimeError:`` line
that tqdm's next ``\\r`` redraw followed, or a log header written right after a bar's last state,
are records of their own. Bar states are progress, not records: only the last one is kept.
"""

from __future__ import annotations

import re

from spectrace.dialects.detect import normalise
from spectrace.dialects.wrappers import peel

_PROGRESS = re.compile(r"\d{1,3}(?:\.\d+)?%|\|\s*\d+/\d+ \[|\d(?:it/s|s/it)\b")


def split_redraws(raw: bytes) -> list[bytes]:
    """The records of a line with ``\\r`` inside, each with the line's wrappers; else the line."""
    if b"\r" not in raw or b"\r" not in raw.rstrip(b"\r\n"):  # the scan calls this per line
        return [raw]
    text = normalise(raw)
    peeled = peel(text)
    prefix = text[: peeled.lead]
    segments = [seg for seg in peeled.text.split("\r") if seg.strip()]
    kept = [
        seg
        for n, seg in enumerate(segments)
        if n == len(segments) - 1 or not _PROGRESS.search(seg)
    ]
    if len(kept) <= 1:
        return [raw]  # bar states only: the parser keeps the last one
    return [(prefix + seg).encode("utf-8", "surrogateescape") for seg in kept]
