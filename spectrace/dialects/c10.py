"""PyTorch c10 / glog header: ``[E519 05:58:22.475 ProcessGroupNCCL.cpp:1595] `` and ``E0519 ...]``."""

from __future__ import annotations

import re

from spectrace.dialects._time import YEARLESS, make_ts
from spectrace.dialects.base import Header

_LEVELS = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}
_HEADER = re.compile(
    r"\[?([IWEF])(\d{3,4}) (\d\d:\d\d:\d\d)(?:\.(\d+))?(?: +\d+)? ([\w.-]+:\d+)\] ?"
)
# torch <= 2.3 printed no stamp: "[E ProcessGroupNCCL.cpp:563] "
_DATELESS = re.compile(r"\[([IWEF]) ([\w.-]+:\d+)\] ?")


class C10Dialect:
    """NCCL watchdog and c10 logging; usually behind torchrun's ``[rankN]:`` wrapper."""

    name = "c10"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        if m is None:
            return self._parse_dateless(text)
        letter, monthday, hms, frac, fileinfo = m.groups()
        month, day = monthday[:-2], monthday[-2:]
        clock = hms + (f".{frac}" if frac else "")
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            ts=make_ts(YEARLESS, month, day, hms, frac),
            ts_text=f"{month.zfill(2)}-{day} {clock}",  # glog's "E0519" is level + MMDD
            level=_LEVELS[letter],
            group=f"{fileinfo} {letter}{monthday} {clock}",
        )

    def _parse_dateless(self, text: str) -> Header | None:
        m = _DATELESS.match(text)
        if m is None:
            return None
        return Header(dialect=self.name, text=text[m.end() :], level=_LEVELS[m.group(1)])
