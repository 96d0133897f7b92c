"""Outer wrappers peeled before any dialect: CRI, docker-compose, CI stamps, torchrun, process tags."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spectrace.dialects._time import make_ts
from spectrace.dialects.base import Header

_CRI = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?(?:Z|[+-]\d\d:?\d\d) (?:stdout|stderr) ([PF]) "
)
_CI = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z ")
_COMPOSE = re.compile(r"([A-Za-z0-9][\w.-]*[-_]\d+) +\| ")
_TORCHRUN = re.compile(r"\[(?:rank|default)(\d+)\]: ?")
_PROC = re.compile(r"\(([^()]*?) pid=(\d+)(?:, ip=[^)]*)?\) ?")
_MAX_PEELS = 8  # nested / duplicated groups; bounded so junk cannot loop


@dataclass(frozen=True, slots=True)
class Peeled:
    """A line with its wrappers removed, and what the wrappers said about the writer."""

    text: str
    container: str | None = None  # docker-compose service
    proc: str | None = None  # innermost "(Name pid=N)" as "Name pid=N"
    proc_name: str | None = None
    torch_rank: str | None = None  # "rank6"
    ts: Header | None = None  # a wrapper stamp, used when the inner line has none
    partial: bool = False  # CRI "P": the line continues in the next record


def _stamp(m: re.Match[str], text: str) -> Header:
    year, month, day, hms, frac = m.groups()[:5]
    return Header(dialect="wrapper", text="", ts=make_ts(year, month, day, hms, frac),
                  ts_text=text[: m.end()].split(" ")[0])  # fmt: skip


def peel(text: str) -> Peeled:
    """Remove wrappers outermost first; each may appear at most a few times."""
    container = proc = proc_name = torch_rank = None
    stamp: Header | None = None
    partial = False
    for _ in range(_MAX_PEELS):
        if m := _CRI.match(text):
            stamp, partial = stamp or _stamp(m, text), m.group(6) == "P"
        elif m := _CI.match(text):
            stamp = stamp or _stamp(m, text)
        elif m := _COMPOSE.match(text):
            container = m.group(1)
        elif m := _TORCHRUN.match(text):
            torch_rank = f"rank{m.group(1)}"
        elif m := _PROC.match(text):
            proc_name = m.group(1)
            proc = f"{proc_name} pid={m.group(2)}"
        else:
            break
        text = text[m.end() :]
    return Peeled(text, container, proc, proc_name, torch_rank, stamp, partial)
