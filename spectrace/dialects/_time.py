"""Timestamp helpers shared by the dialects: never raise on a malformed stamp."""

from __future__ import annotations

from datetime import date, datetime

YEARLESS = 1900  # vLLM and c10 stamps print no year


def make_ts(
    year: str | int, month: str, day: str, hms: str, frac: str | None = None
) -> datetime | None:
    """Build a datetime from printed parts; None when the numbers are out of range."""
    try:
        hour, minute, second = (int(part) for part in hms.split(":"))
        micro = int((frac or "0")[:6].ljust(6, "0"))
        return datetime(int(year), int(month), int(day), hour, minute, second, micro)
    except ValueError:
        return None


def stamp_day(ts: datetime | None) -> date | None:
    """The day a stamp shows; None for a year-less one (``YEARLESS``: vLLM's ``12-05 14:03:11``
    names no year, so no day: read as 1900 it would date the run before every release and hide
    the thread's own day; a rollover past New Year makes it 1901)."""
    return ts.date() if ts is not None and ts.year >= _YEARS_KNOWN else None


_YEARS_KNOWN = 2000  # a stamp's year from here on was printed or learnt, not YEARLESS's
