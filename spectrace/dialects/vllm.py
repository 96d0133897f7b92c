"""vLLM header: ``LEVEL MM-DD HH:MM:SS [file.py:N] `` (old logs: ``file.py:N]`` without ``[``;
a paste with its stamps edited out by hand: ``LEVEL [file.py:N] ``; a logged traceback whose
level and stamp a log collector filed as fields or a copy cut off: ``[core.py:720]   File ...``)."""

from __future__ import annotations

import re

from spectrace.dialects._time import YEARLESS, make_ts
from spectrace.dialects.base import Header

_HEADER = re.compile(
    r"(DEBUG|INFO|WARNING|ERROR|CRITICAL) (?:(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))? \[?|\[)"
    r"([\w./-]+:\d+)\] ?"
)

# vLLM's formatter repeats the header on every line of a logged traceback; with only its
# ``[file.py:N]`` left, a line is still the record's when it is a traceback part (its head, a
# frame, a code line, the exception): other loggers writing the same tag keep their lines plain
_CUT = re.compile(
    r"\[([\w./-]+\.py:\d+)\] (?=Traceback \(most recent call last\):|  File \"|    \S"
    r"|[A-Z]\w*(?:Error|Exception|Interrupt|Exit)\b)"
)


class VllmDialect:
    """Every line of a multi-line message repeats the header; ``group`` ties them together."""

    name = "vllm"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        if m is None:
            cut = _CUT.match(text)
            return Header(dialect=self.name, text=text[cut.end() :], group=cut.group(1)) if cut else None
        level, month, day, hms, frac, fileinfo = m.groups()
        if month is None:  # no stamp: the lines of one record still share the file:line
            return Header(dialect=self.name, text=text[m.end() :], level=level, group=fileinfo)
        ts_text = f"{month}-{day} {hms}" + (f".{frac}" if frac else "")
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            ts=make_ts(YEARLESS, month, day, hms, frac),
            ts_text=ts_text,
            level=level,
            group=f"{fileinfo} {ts_text}",
        )
