"""A copy out of a terminal that wrapped every line at its width -> the lines as written.

A coding agent's session, a tmux or screen copy, a terminal recording: every line longer than
the terminal's width arrives in pieces of that many columns, padded with blanks to the width
(a word wrap: a word that does not fit moves down, a longer one - a frame's path - is cut
inside it: ``File "/opt/cond`` / ``a/lib/python3.10/...``) or cut hard at it; a log prefix is
on the first piece only. No reader would see the frame, the command or the exception whole.
A block whose long lines mostly share one length is such a copy; a line of that length that
the next line goes on with is joined to it before any dialect reads it. A line goes on with
the one above when the piece above is full (a word wrap: the next line's first word would not
have fitted after it), and the next line opens no record of its own (the first piece's prefix
again, a header, a traceback's line, an exception) and is no indented line. Widths are counted in the terminal's cells (a CJK character takes
two, an accented one one), so a Chinese or Japanese notes line wraps like an English one; a
row ``fold`` cut at a byte count is full too.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rich.cells import cell_len

from spectrace.dialects.opens import OPENS

MIN_WIDTH = 40  # narrower "terminals" are columns of a table, not a wrap
MAX_WIDTH = 250
SAMPLE = 64 * 1024  # bytes of a block looked at for its width
MIN_LINES = 4  # lines of the one width before a block counts as wrapped
MAX_PIECES = 64  # pieces one line is joined from (a 10k-character line at 160 columns)
_PREFIX = 12  # the first piece's start again: the next record of the same writer
_WORD_END = (b",", b";", b":", b")", b'"', b"'")  # a row ending in one ended a word there,
_NO_START = (b",", b".", b";", b":", b")", b"]", b"}")  # unless the next row starts with no word
_BOX = (b"|", b"+", b"\xe2")  # a table's edge (ASCII, or a box-drawing character's first byte)


def _drawn(row: bytes, last: bool) -> bool:
    """``row``'s last (else first) character draws a box or a panel (U+2500-U+259F: rich's
    traceback panel, a table's edge), which ends or opens a line of its own."""
    text = row.decode("utf-8", "replace").strip()
    return bool(text) and "\u2500" <= text[-1 if last else 0] <= "\u259f"


def cells(row: bytes) -> int:
    """The terminal cells ``row`` takes (its bytes, where it is ASCII)."""
    return len(row) if row.isascii() else cell_len(row.decode("utf-8", "replace"))


@dataclass(frozen=True, slots=True)
class Wrap:
    """The width a copy was wrapped at; ``padded``: its pieces are padded with blanks (a word
    wrap, or a terminal's rows), else cut hard at the width; ``hard``: padded rows cut hard."""

    width: int
    padded: bool
    hard: bool = False

    def full(self, row: bytes) -> bool:
        """``row`` fills the width: in cells (a terminal), or in bytes (``fold -w``)."""
        return len(row) == self.width or (len(row) > self.width and cells(row) == self.width)

    def join(self, buf: bytes | bytearray, raw: bytes, stop: int, end: int) -> tuple[bytes, int]:
        """``raw`` (the line ending at ``stop``) with the lines that go on with it joined, and
        where the last of them ends; ``raw`` and ``stop`` as they were where none goes on."""
        first, upper, pieces = raw, raw.rstrip(b"\r"), 0
        out = upper
        while self.full(upper) and stop < end and pieces < MAX_PIECES:
            nl = buf.find(b"\n", stop + 1, end)
            after = nl if nl >= 0 else end
            lower = bytes(buf[stop + 1 : after]).rstrip(b"\r")
            rest = self._rest(first, upper, lower)
            if rest is None:
                break
            # the blanks above are padding, unless the rows were cut hard at the width
            pad = rest[:1] == b" " or (self.padded and not self.hard)
            out = (out.rstrip(b" ") if pad else out) + rest
            stop, upper, pieces = after, lower, pieces + 1
        if not pieces:
            return raw, stop
        return (out.rstrip(b" ") if self.padded else out), stop

    def _rest(self, first: bytes, upper: bytes, lower: bytes) -> bytes | None:
        """What ``lower`` adds to the line ``upper`` ends (a leading blank: the blanks above
        are padding, one blank stands between), or None where ``lower`` is a line of its own."""
        if not lower.strip() or cells(lower) > self.width or lower[:1] == b"\t":
            return None
        if lower[:_PREFIX] == first[:_PREFIX]:
            return None  # the writer's next record: its prefix again
        if not (upper.isascii() and lower.isascii()) and (_drawn(upper, True) or _drawn(lower, False)):
            return None  # a panel's or a table's row, full to its border
        if OPENS.match(lower) is not None and not lower.lstrip().startswith(b"--"):
            return None  # a record of its own (a command's wrapped option goes on)
        if not self.padded:  # cut hard: the line goes on where the width cut it, but a
            # table's rows fill the width too (``| GPU 0 ... |`` under ``+-----+``)
            return None if upper[-1:] in _BOX or lower[:1] in _BOX else lower
        if self.hard and self.full(upper.rstrip(b" ")):
            return lower  # padded rows cut hard
        if lower[:2] == b"  ":
            return None  # an indented line (a word wrap moves no blanks down)
        # (some terminals keep their last column blank: a row holds width - 1)
        body, rest = upper.rstrip(b" "), lower.lstrip(b" ")
        word = rest.split(b" ", 1)[0]
        if (cells(body) >= self.width - 1 and (body[-1:] not in _WORD_END or rest[:1] in _NO_START)
                and cells(body.rsplit(b" ", 1)[-1]) + cells(word) > self.width):  # fmt: skip
            return rest  # a word longer than the width (a frame's path), cut inside
        if cells(body) + 1 + cells(word) < self.width:
            return None  # the word would have fitted above: the line above ended there
        return b" " + rest  # the blank the wrap took out


def wrap_of(buf: bytes | bytearray, start: int, end: int) -> Wrap | None:
    """The width the block's start was wrapped at, or None: at least MIN_LINES lines of one
    length, more than half of its long lines that long, and few longer."""
    sample = bytes(buf[start : min(end, start + SAMPLE)])
    if sample.count(b"\n") < MIN_LINES:
        return None
    rows = (line.rstrip(b"\r") for line in sample.split(b"\n"))
    long = [(ln, n) for ln in rows if len(ln) >= MIN_WIDTH and (n := cells(ln)) >= MIN_WIDTH]
    if len(long) < MIN_LINES:
        return None
    width, count = Counter(n for _, n in long).most_common(1)[0]
    if count < MIN_LINES or 2 * count <= len(long) or width > MAX_WIDTH:
        return None
    if 4 * sum(n > width for _, n in long) > count:
        return None  # lines the terminal did not hold (a title, notes around the copy): few
    at_width = [line for line, n in long if n == width]
    padded = 2 * sum(line.endswith(b" ") for line in at_width) > len(at_width)
    return Wrap(width, padded, padded and _cut_hard(sample.split(b"\n"), width))


def _cut_hard(lines: list[bytes], width: int) -> bool:
    """Padded pieces whose text fills the width were cut wherever the width fell (a terminal
    that pads its rows), not only inside a word longer than the width (a word wrap): most
    such cuts split a word that would have fitted on a line of its own."""
    short = full = 0
    for upper, lower in zip(lines, lines[1:]):
        body = upper.rstrip(b"\r")
        if cells(body) != width or body.endswith(b" ") or not lower[:1].strip() or OPENS.match(lower):
            continue  # (a row that opens a record is no piece of the row above)
        full += 1
        word = cells(body.rsplit(b" ", 1)[-1]) + cells(lower.split(b" ", 1)[0])
        short += word <= width
    return short >= MIN_LINES and 2 * short > full


# A frame line whose function went to the next line (notes, a docstring, a wrapped e-mail:
# ``File ".../speculator.py", line 752,`` / ``  in prepare_prefill_inputs``).
_FRAME_HEAD = re.compile(rb'\s*File "[^"]{1,400}", line \d{1,9},\s*$')
_FRAME_FUNC = re.compile(rb"\s*in [\w<>.]{1,200}\s*$")


def frame_tail(buf: bytes | bytearray, raw: bytes, stop: int, end: int) -> tuple[bytes, int]:
    """``raw``, a frame line cut after its line number, with the next line (its function)
    joined, and where that line ends; as they were where the next line is no function."""
    if not raw.rstrip().endswith(b",") or _FRAME_HEAD.match(raw) is None or stop >= end:
        return raw, stop
    nl = buf.find(b"\n", stop + 1, end)
    after = nl if nl >= 0 else end
    lower = bytes(buf[stop + 1 : after])
    if _FRAME_FUNC.match(lower) is None:
        return raw, stop
    return raw.rstrip() + b" " + lower.strip(), after
