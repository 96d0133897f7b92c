"""Which file named beside the logs is a stacks capture or a flight-recorder dump: first bytes only.

Kept apart from the capture and flight-recorder models so that telling inputs apart (every
triage run does) does not import them; only a run that has such a file needs them.
"""

from __future__ import annotations

import re
from pathlib import Path

SNIFF_BYTES = 4096
_CAPTURE = re.compile(rb'^\s*\{\s*"format"\s*:\s*"spectrace-stacks"')


def _head(path: str | Path) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(SNIFF_BYTES)
    except OSError:
        return None


def is_capture_file(path: str | Path) -> bool:
    """Cheap sniff (first 4 KiB) so triage/tui can tell a capture from a log given beside it."""
    head = _head(path)
    return head is not None and _CAPTURE.match(head) is not None


def is_flight_dump(path: str | Path) -> bool:
    """A pickle or JSON whose first 4 KiB mention pg_status/entries (what torch writes)."""
    head = _head(path)
    return (
        head is not None
        and head[:1] in (b"\x80", b"{")
        and (b"pg_status" in head or b"pg_config" in head)
    )
