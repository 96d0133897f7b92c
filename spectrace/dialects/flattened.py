"""A log pasted without its newlines -> its records, one per vLLM header it holds.

Issue text written outside a code block loses every line break (vllm#21661, #13067): a whole
traceback arrives as one physical line, ``(EngineCore_DP0 pid=142) ERROR 11-04 18:03:00
[core.py:708] File "...", line 83, in __init__ (EngineCore_DP0 pid=142) ERROR ...``. vLLM
repeats its header on every line of a record, so the headers show where the lines were.
"""

from __future__ import annotations

import re

_LEVELS = rb"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)"
# One space, then a header: an optional "(Name pid=N)" tag, the level, a year-less stamp and
# the file:line bracket (its "[" optional, as before 2025).
_CUT = re.compile(
    rb" (?=(\([^()\n]{1,60} pid=\d{1,9}(?:, ip=[^)\n]{1,60})?\) )?" + _LEVELS
    + rb" \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})? \[?[\w./-]{1,200}:\d{1,9}\] )"
)  # fmt: skip
_TAG_END = re.compile(rb"\([^()\n]{1,60} pid=\d{1,9}(?:, ip=[^)\n]{1,60})?\)\Z")
MIN_HEADERS = 2  # one quoted header is a message; two or more inside one line are lost breaks
_MIN_LENGTH = 120  # shorter lines cannot hold two headers and a message


def split_flattened(raw: bytes) -> list[bytes]:
    """The records of a line that lost its newlines; any other line comes back alone."""
    if len(raw) < _MIN_LENGTH or raw.count(b"] ") < MIN_HEADERS:  # every header ends in "] "
        return [raw]
    cuts = [m.start() for m in _CUT.finditer(raw) if not _after_tag(raw, m)]
    if len(cuts) < MIN_HEADERS:
        return [raw]
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(raw)]
    return [raw[a:b] for a, b in zip(starts, ends, strict=True) if raw[a:b].strip()]


def _after_tag(raw: bytes, m: re.Match[bytes]) -> bool:
    """The level right after a "(Name pid=N)" tag belongs to that tag's header: no cut there."""
    return (
        m.group(1) is None and _TAG_END.search(raw, max(0, m.start() - 140), m.start()) is not None
    )
