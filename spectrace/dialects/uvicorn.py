"""Uvicorn lines as sglang reformats them: ``[ts] INFO:     message`` (or bare ``INFO:     ``)."""

from __future__ import annotations

import re

from spectrace.dialects._time import make_ts
from spectrace.dialects.base import Header

_HEADER = re.compile(
    r"(?:\[(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:[.,](\d{1,6}))?\] )?"
    r"(INFO|WARNING|ERROR|DEBUG|CRITICAL|TRACE):(?: +|$)"
)


class UvicornDialect:
    """The HTTP front end; its lines carry a level but no rank."""

    name = "uvicorn"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        if m is None:
            return None
        year, month, day, hms, frac, level = m.groups()
        if year is None and not text.startswith(f"{level}:  "):
            return None  # a bare "ERROR: x" is not uvicorn's padded levelprefix
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            ts=make_ts(year, month, day, hms, frac) if year else None,
            ts_text=text[1 : text.index("]")] if year else None,
            level=level,
        )
