"""A traceback rich rendered (typer, rich's own handler, many CLIs) read as the plain one.

rich draws the stack in a panel: ``╭── Traceback (most recent call last) ──╮``, per frame a
heading ``/path/file.py:1099 in forward`` (``in forward:1099`` when the file is not on the
machine that printed it; a long path folded over several panel lines), a few source lines
numbered in a gutter with ``❱`` on the failing one (``❱ 1099 │ code``), optionally a
``locals`` box, and ``╰──╯``; the exception line follows the panel unboxed, and chained
panels are separated by Python's own sentences. The panel's side borders are gone by the time
a line gets here (``dialects/paste.py`` takes ``│`` off both ends), so the panel is known by
its top border and its state. ``RichView`` turns each panel line into the lines Python would
have printed (a heading into ``  File "...", line N, in f``, the ``❱`` line into its code) or
into none, and the traceback assembler reads them like any other traceback.

A paste that begins inside the panel (its top border cut away) is found at its first ``❱``
line: a heading a few lines above it naming the same line number is that frame's, which no
other text does by chance; the panel is read from there as a traceback cut above its frames.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, replace

from spectrace.assemblers.tb_lines import EXCEPTION_SUFFIXES, parse_exception, tb_start
from spectrace.dialects.base import LogLine

MARK = "❱"  # rich's pointer at the failing source line
TITLE = "Traceback (most recent call last)"
TB_LINE = TITLE + ":"
MAX_HEADING = 4  # panel lines one folded frame heading may take
LOOK_BACK = 10  # lines a cut panel's heading may sit above its first ``❱`` line
# "path:1099 in forward" (the file exists where it ran), "in forward:1099" (it does not)
_HEADING = re.compile(r"(?P<file>\S+?):(?P<line>\d+) in (?P<func>[^\s:]+)")
_NO_FILE = re.compile(r"in (?P<func>[^\s:]+):(?P<line>\d+)")
# a gutter line: "❱ 1099 │ code" is the failing line, "  1096 │ code" (or a bare number) context
_CODE = re.compile(r"(?P<mark>" + MARK + r")?\s*(?P<line>\d+)(?: │(?P<code>.*))?$")
_HIDDEN = re.compile(r"\.\.\. \d+ frames? hidden \.\.\.")


@dataclass(slots=True)
class _Panel:
    """One writer's open panel: the heading read so far, the locals boxes open, the end."""

    heading: list[str]
    boxes: int = 0  # locals boxes open inside the panel
    closed: bool = False  # the bottom border passed: the exception line comes next


class RichView:
    """Per writer: is it inside a rich traceback panel, and what its lines say."""

    def __init__(self) -> None:
        self._open: dict[str, _Panel] = {}
        self._recent: deque[LogLine] = deque(maxlen=LOOK_BACK)  # for a panel cut at its top

    def view(self, line: LogLine) -> tuple[LogLine, ...]:
        """The line as a plain traceback prints it: itself (no panel's), nothing (a border,
        context code, locals) or its frame and code lines."""
        panel = self._open.get(line.stream)
        if panel is None:
            return self._outside(line)
        body = line.text.strip()
        if panel.closed:
            if body:
                del self._open[line.stream]  # the exception line, or whatever follows
            return (line,)
        if body.startswith("╭") and TITLE in body:
            panel.heading.clear()  # a paste cut at its bottom, and the next panel
            return (replace(line, text=TB_LINE, indent=0),)
        if _no_panel_line(line, body, panel):
            del self._open[line.stream]  # the panel was cut: this line is the log's again
            return (line,)
        return _panel_line(line, panel, body)

    def _outside(self, line: LogLine) -> tuple[LogLine, ...]:
        text = line.text
        self._recent.append(line)
        if "╭" in text and TITLE in text and text.strip().startswith("╭"):
            self._open[line.stream] = _Panel([])
            return (replace(line, text=TB_LINE, indent=0),)
        if MARK in text and (code := _CODE.fullmatch(text.strip())) is not None and code["mark"]:
            frame = self._cut_heading(line, int(code["line"]))
            if frame is not None:
                self._open[line.stream] = _Panel([])
                return frame, _code_line(line, code)
        return (line,)

    def _cut_heading(self, line: LogLine, number: int) -> LogLine | None:
        """The heading of a panel whose top was cut: the lines above the ``❱`` line that
        name its line number (folded over up to MAX_HEADING lines)."""
        recent = [x for x in self._recent if x.stream == line.stream and x is not line]
        for end in range(len(recent) - 1, -1, -1):
            for start in range(end, max(end - MAX_HEADING, -1), -1):
                parts = [x.text.strip() for x in recent[start : end + 1]]
                if not all(parts) or any(_CODE.fullmatch(p) for p in parts):
                    break  # a heading's pieces are whole lines of words, no gap, no code
                found = _frame(parts)
                if found is not None and found[1] == number:
                    return replace(recent[start], text=found[0], indent=0, stream=line.stream)
        return None


def _no_panel_line(line: LogLine, body: str, panel: _Panel) -> bool:
    """A line no panel holds: a logger's header, a plain traceback's start, an exception line
    (a panel cut before its bottom border), or words that make no heading in MAX_HEADING
    lines; a panel never swallows the log after it."""
    if line.headed or tb_start(body) >= 0:
        return True
    if panel.boxes or not body or body[0] in "╭╰" or _CODE.fullmatch(body):
        return False
    exc = parse_exception(body)
    if exc is not None and exc[0].endswith(EXCEPTION_SUFFIXES) and ":" in body:
        return True
    return len(panel.heading) >= MAX_HEADING


def _panel_line(line: LogLine, panel: _Panel, body: str) -> tuple[LogLine, ...]:
    if body.startswith("╭"):  # a locals box opens
        panel.boxes += 1
    elif body.startswith("╰"):
        panel.closed = panel.boxes == 0  # the panel's own bottom border
        panel.boxes = max(panel.boxes - 1, 0)
    elif panel.boxes or not body or _HIDDEN.fullmatch(body):
        pass
    elif (code := _CODE.fullmatch(body)) is not None:
        panel.heading.clear()
        return (_code_line(line, code),) if code["mark"] else ()
    else:
        panel.heading.append(body)
        del panel.heading[:-MAX_HEADING]
        found = _frame(panel.heading)
        if found is None:
            return ()
        panel.heading.clear()
        return (replace(line, text=found[0], indent=0),)
    panel.heading.clear()  # a blank line or a box ends a heading
    return ()


def _code_line(line: LogLine, code: re.Match[str]) -> LogLine:
    """The failing source line as Python prints it under its frame (indent guides dropped)."""
    source = (code["code"] or "").lstrip(" │").rstrip()
    return replace(line, text=f"    {source}", indent=0)


def _frame(parts: list[str]) -> tuple[str, int] | None:
    """The plain frame line (and its line number) a heading folded over ``parts`` names; rich
    folds a long path anywhere and wraps words at a blank, and one heading can hold both
    breaks (a folded path, then ``in`` wrapped before the function), so every mix is tried."""
    for text in _joins(parts):
        if (m := _HEADING.fullmatch(text)) is not None:
            return f'  File "{m["file"]}", line {m["line"]}, in {m["func"]}', int(m["line"])
        if (m := _NO_FILE.fullmatch(text)) is not None:
            return f'  File "", line {m["line"]}, in {m["func"]}', int(m["line"])
    return None


def _joins(parts: list[str]) -> list[str]:
    """``parts`` joined with nothing or a blank at each break (at most 2**(MAX_HEADING-1))."""
    texts = [parts[0]] if parts else [""]
    for part in parts[1:]:
        texts = [text + glue + part for text in texts for glue in ("", " ")]
    return texts
