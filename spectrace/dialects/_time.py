"""Timestamp helpers shared by the dialects: never raise on a malformed stamp."""

from __future__ import annotations

from datetime import datetime

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
