"""SGLang header: ``[YYYY-MM-DD HH:MM:SS(.mmm)? TAGS] `` with rank tags in any order.

sglang's diffusion runtime (``multimodal_gen``) prints the same header without the year
(``[12-16 14:27:08] ``); the line parser gives it the year of the stamps around it. Releases
of 2024 (0.3.x) printed the time alone (``[23:17:08 TP4] ``): the rank is kept, the time only
as text. A copy that began one character late drops the ``[``; the ``] `` still marks it. A
paste whose stamps were cut by hand keeps the tags alone (``[TP0 EP0] ``): the rank stays.
"""

from __future__ import annotations

import re

from spectrace.dialects._time import YEARLESS, make_ts
from spectrace.dialects.base import Header

# Tags as sglang appends them (order changed between releases, so any order is accepted).
TAG = r"(?:DP|PP|ATTN_CP|MOE_DP|TP|EP)\d+"
_HEADER = re.compile(
    r"\[?(?:(?:(\d{4})-)?(\d\d)-(\d\d) )?(\d\d:\d\d:\d\d)(?:[.,](\d{1,6}))?((?: " + TAG + r")*)\] "
    r"(?!(?:INFO|WARNING|ERROR|DEBUG|CRITICAL|TRACE):\s)"  # uvicorn's levelprefix
)


# A paste whose stamps were cut by hand keeps the tags: "[TP0 EP0] Load weight begin ...".
_TAGS_ONLY = re.compile(r"\[(" + TAG + r"(?: " + TAG + r")*)\] ")


class SGLangDialect:
    """The scheduler / main-process header; the tags are the rank (the stream key)."""

    name = "sglang"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        if m is None:
            return self._tags_only(text)
        year, month, day, hms, frac, tags = m.groups()
        rank = tags.strip() or None
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            stream=rank or "",
            rank=rank,
            ts=make_ts(year or YEARLESS, month, day, hms, frac) if month else None,
            ts_text=text[text.startswith("[") : m.end() - 2 - len(tags)],
        )

    def _tags_only(self, text: str) -> Header | None:
        m = _TAGS_ONLY.match(text)
        if m is None:
            return None
        rank = m.group(1)
        return Header(dialect=self.name, text=text[m.end() :], stream=rank, rank=rank)
