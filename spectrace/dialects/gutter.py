"""Line numbers a viewer printed before every line of a paste: ``  12 | ...`` (a code view),
``    12\\t...`` (``cat -n``, ``nl``), ``  12 ...`` (``less -N``, an editor's gutter).

They hide every header, frame and launch line. A bare number is too common a start to take
off every line (a C++ backtrace numbers its frames, a table its rows), but a gutter counts up
with the lines: its number minus the physical line number is the same on every line of the
paste. The first gutter line must open a record (``opens.OPENS_TEXT``: a header, a traceback
line, a command); after it, every line whose number keeps that offset loses it, whatever
follows (a frame's source line, a blank). It is read inside quote marks (a reply quoting a
code view) and outside a launcher's prefix (``cat -n`` of ``srun -l`` output). ``grep -n``
output, whose numbers skip, is ``wrappers._GREP``'s.
"""

from __future__ import annotations

import re

from spectrace.dialects.opens import OPENS_TEXT
from spectrace.dialects.wrappers import peel

_START = frozenset(" \t0123456789")
# the number and one separator: a bar, a tab or a blank (what stays is the line's own indent)
_NUMBER = re.compile(r"[ \t]{0,8}(\d{1,7})(?:[ \t]?\|[ \t]?|\t| |[ \t]*$)")


class Gutter:
    """The offset of the gutter last seen in one input (its number minus the line number)."""

    __slots__ = ("_offset",)

    def __init__(self) -> None:
        self._offset: int | None = None

    def cut(self, text: str, lineno: int | None) -> int:
        """How many characters of ``text`` (a normalised line: quote marks are off) are gutter,
        0 for none. ``lineno`` None (a line looked at out of order): only a number before a
        record's start counts, and nothing is learnt."""
        if not text or text[0] not in _START:
            return 0
        m = _NUMBER.match(text)
        if m is None:
            return 0
        if lineno is not None and int(m.group(1)) - lineno == self._offset:
            return m.end()
        if not _opens(text[m.end() :]):
            return 0
        if lineno is not None:
            self._offset = int(m.group(1)) - lineno
        return m.end()


def _opens(rest: str) -> bool:
    """A record starts after the number, also behind the wrappers a launcher adds (``0: ``)."""
    return OPENS_TEXT.match(rest) is not None or OPENS_TEXT.match(peel(rest).text) is not None
