"""Ray's own log lines: ``2025-04-29 00:53:54,412\tINFO worker.py:2058 -- message``.

Ray's driver and raylet print these beside vLLM's lines (a tab after the stamp, ``--`` before
the message); worker deaths are reported here. They name no rank, so the line keeps the
writer of the lines before it (``Header.anonymous``).
"""

from __future__ import annotations

import re

from spectrace.dialects._time import make_ts
from spectrace.dialects.base import Header

_HEADER = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:,(\d{1,6}))?\t"
    r"(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.-]+:\d+ -- "
)


class RayDialect:
    """Stamp and level of Ray's logging format (``ray/_private/ray_constants.py``)."""

    name = "ray"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        if m is None:
            return None
        year, month, day, hms, frac, level = m.groups()
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            ts=make_ts(year, month, day, hms, frac),
            ts_text=text[: 19 + (len(frac) + 1 if frac else 0)],
            level=level,
            anonymous=True,
        )
