"""Ray's own log lines: ``2025-04-29 00:53:54,412\tINFO worker.py:2058 -- message``.

Ray's driver and raylet print these beside vLLM's lines (a tab after the stamp, ``--`` before
the message); worker deaths are reported here. They name no rank, so the line keeps the
writer of the lines before it (``Header.anonymous``). Ray's C++ core (a worker's
``logging.cc`` printing an unhandled C++ exception such as NCCL's ``DistBackendError``)
writes ``[2024-12-24 23:47:14,381 E 3946 4620] logging.cc:101: message`` instead.
"""

from __future__ import annotations

import re

from spectrace.dialects._time import make_ts
from spectrace.dialects.base import Header

_HEADER = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:,(\d{1,6}))?\t"
    r"(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.-]+:\d+ -- "
)
_CORE = re.compile(
    r"\[(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:,(\d{1,6}))? ([DIWEF]) \d+ \d+\] [\w.-]+:\d+: "
)
_CORE_LEVELS = {"D": "DEBUG", "I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}


class RayDialect:
    """Stamp and level of Ray's logging format (``ray/_private/ray_constants.py``)."""

    name = "ray"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        core = m is None
        if core and (m := _CORE.match(text)) is None:
            return None
        year, month, day, hms, frac, level = m.groups()
        start = 1 if core else 0
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            ts=make_ts(year, month, day, hms, frac),
            ts_text=text[start : start + 19 + (len(frac) + 1 if frac else 0)],
            level=_CORE_LEVELS[level] if core else level,
            anonymous=True,
        )
