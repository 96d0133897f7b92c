"""Python ``logging`` formats: ``asctime LEVEL msg``, ``asctime - name - LEVEL - msg``,
``asctime | LEVEL | name | msg`` (and loguru's), ``LEVEL:name:msg``.

Scripts around the servers (benchmarks, torchrun entry points, ``logging.basicConfig()``
without a format) write these. None of them names a rank, so the line keeps the writer of
the lines before it (``Header.anonymous``), as a headerless line would. The one exception:
a deployment's logging config that keeps sglang's rank prefix as
``asctime LEVEL pid [ TP0 file.py:N] msg``; there the tags name the writer. A launcher
that forwards a server's output through its own logger (``asctime - __main__ - INFO -
[2025-03-07 23:50:27 TP0] msg``) nests sglang's header: its tags name the writer too, and
the records of one named logger may carry one traceback line each.
"""

from __future__ import annotations

import re

from spectrace.dialects._time import make_ts
from spectrace.dialects.base import Header
from spectrace.dialects.sglang import TAG, SGLangDialect

_LEVEL = r"(DEBUG|INFO|WARNING|ERROR|CRITICAL)"
# %(asctime)s is "2026-05-19 05:48:21,337"; then either " - name - LEVEL - " (the cookbook's
# format, name optional), " LEVEL " (the message may start with "name: ", kept as text), or
# " | LEVEL | name | " (sglang's 2024 format) / " | LEVEL    | mod:func:N - " (loguru's), or
# KServe's " pid name LEVEL [file.py:func():N] " (its model servers, huggingfaceserver).
_STAMPED = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:[,.](\d{1,6}))?"
    r"(?: - (?:(\S+) - )?" + _LEVEL + r" - | " + _LEVEL + r"(?: |$)"
    r"| \| " + _LEVEL + r" *\| (?:([\w.]+) \| |[\w.<>-]+:[\w.<>-]+:\d+ - )?"
    r"| \d+ ([\w.-]+) " + _LEVEL + r" \[[\w.-]+:[\w<>.]+\(\):\d+\] )"
)
# A logger that captures a stream (FastChat's "| ERROR | stderr | ") logs each printed line as
# its own record: the lines of one traceback share the logger and the second they were printed.
_STREAMS = ("stderr", "stdout")
_SITE = re.compile(r"(?:\d+ )?\[((?: " + TAG + r")*) ([\w.-]+:\d+)\] ")  # "pid [ TP0 file.py:N] "
_BASIC = re.compile(_LEVEL + r":([^\s:]+):")  # basicConfig's "%(levelname)s:%(name)s:%(message)s"
_NESTED = SGLangDialect()  # stateless: reads a forwarded sglang header inside the message


class PyLoggingDialect:
    """Stamp and level of the stdlib formats; the logger name is not a writer."""

    name = "logging"

    def parse(self, text: str) -> Header | None:
        m = _STAMPED.match(text)
        if m is not None:
            groups = m.groups()
            year, month, day, hms, frac = groups[:5]
            name, dashed, spaced, piped, logger, kserve, kserve_level = groups[5:]
            site = _SITE.match(text, m.end()) if spaced else None
            rank = site.group(1).strip() or None if site else None
            body = text[(site or m).end() :]
            inner = _NESTED.parse(body) if body[:1] == "[" and site is None else None
            if inner is not None and inner.rank:
                rank, body = inner.rank, inner.text
            ts_text = text[: 19 + (len(frac) + 1 if frac else 0)]
            return Header(
                dialect=self.name,
                text=body,
                stream=rank or "",
                rank=rank,
                ts=make_ts(year, month, day, hms, frac),
                ts_text=ts_text,
                level=dashed or spaced or piped or kserve_level,
                group=_group(name or logger or kserve, ts_text, site and site.group(2)),
                anonymous=site is None and rank is None,
            )
        m = _BASIC.match(text)
        if m is None:
            return None
        return Header(dialect=self.name, text=text[m.end() :], level=m.group(1), anonymous=True)


def _group(logger: str | None, ts_text: str, site: str | None) -> str | None:
    """Records one traceback may span: the lines of one call site's second (a config that
    repeats ``[ TP0 file.py:N]`` on every line of one record, as vLLM's ``[file.py:N]``), a
    stream-capturing logger's line of one second, or any record of one named logger (a
    launcher forwarding a server's output line by line)."""
    if site:
        return f"{site} {ts_text[:19]}"
    if logger in _STREAMS:
        return f"{logger} {ts_text[:19]}"
    return f"logger {logger}" if logger else None
