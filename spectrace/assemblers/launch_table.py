"""A launch's flags written as a two-column Markdown table (``| `--speculative-algorithm` |
`EAGLE` |``), read as the flags they set.

Runbooks and runtime pages list a validated launch as a setting/value table instead of the
command; each row is one option and its value, or a switch marked ``enabled``. The command
reader sees ``|`` as a shell pipe and drops every value, so the rows become the flag lines a
pasted command holds (``--speculative-algorithm EAGLE``), and an engine variable's row
(``SGLANG_ENABLE_SPEC_V2`` | ``1``) its assignment. Only rows of exactly two cells whose first is
one option or variable and whose second is one value: a table comparing engines (more columns)
or documenting options (a sentence per option) is no launch. A row valued ``None``/``default``
sets nothing (a defaults table), one marked off omits its switch. The table never shows the
whole command: what it leaves out is unknown, not the server's default.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from spectrace.dialects.base import LogLine

# a cell's Markdown: inline code, bold, blanks
_MARKS = re.compile(r"^[\s`*_]+|[\s`*_]+$")
_FLAG = re.compile(r"^--[a-z][a-z0-9_.-]*$")
_ENV = re.compile(r"^(?:SGLANG|VLLM|TRTLLM|TLLM)_[A-Z0-9_]+$")
_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$")
_ON = frozenset({"enabled", "enable", "on", "true", "yes", "set", "✓", "✔", "✅", "x"})
_OFF = frozenset({"disabled", "disable", "off", "false", "no", "unset", "✗", "❌", "-", "—"})
_UNSET = frozenset({"none", "null", "default", "auto", "(default)", "n/a", ""})
_LEAST = 3  # option rows a launch's table holds (a summary of other settings holds one or two)
_WORD = re.compile(r"^[^\s|'\"`]+$")  # one shell word a value may be written as


def table_row(text: str) -> tuple[str, str] | None:
    """(option or variable, value) of a two-cell table row; None for any other line."""
    body = text.strip()
    if "|" not in body or body.startswith(("```", "#")):
        return None
    cells = _cells(body.removeprefix("|"))
    if cells and not cells[-1]:
        cells = cells[:-1]  # the row's closing pipe
    if len(cells) != 2:
        return None
    key, value = (_MARKS.sub("", cell) for cell in cells)
    if _FLAG.match(key) is None and _ENV.match(key) is None:
        return None
    return key, value


def table_lines(lines: list[LogLine]) -> list[LogLine] | None:
    """The command's lines with each row as the flag line it stands for (``--name value``,
    ``--switch``, ``NAME=value``), a row that sets nothing blank; None unless every line is a
    row (or the table's separator) and three set options: an option row or two among a table of
    other settings (a lesson's "Model | Drafter | --speculative-config" summary) is no launch."""
    out, options = [], 0
    for line in lines:
        text = line.text.strip()
        if not text or _SEPARATOR.match(text):
            out.append(replace(line, text=""))
            continue
        row = table_row(text)
        if row is None:
            return None
        written = _written(*row)
        if written is None:  # a sentence in the value cell: a table documenting options
            return None
        options += written.startswith("--")
        out.append(replace(line, text=written))
    return out if options >= _LEAST else None


def continues_table(before: str, text: str) -> bool:
    """``text`` is the next row of a table of options whose row ``before`` is."""
    return table_row(before) is not None and table_row(text) is not None


def _written(key: str, value: str) -> str | None:
    """The row as a command writes it; "" where it sets nothing; None where its value is no
    value (words)."""
    word = value.lower()
    if word in _UNSET:
        return ""
    if key.startswith("--"):
        if word in _ON:
            return key
        if word in _OFF:
            return ""
    if value[:1] in "{[":
        return f"{key} '{value}'" if _json(value) and "'" not in value else None
    if _WORD.match(value) is None:
        return None
    return f"{key} {value}" if key.startswith("--") else f"{key}={value}"


def _json(value: str) -> bool:
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


def _cells(text: str) -> list[str]:
    """The row's cells: split at pipes outside inline code."""
    cells, cell, code = [], [], False
    for char in text:
        if char == "`":
            code = not code
        if char == "|" and not code:
            cells.append("".join(cell))
            cell = []
            continue
        cell.append(char)
    cells.append("".join(cell))
    return [c.strip() for c in cells]
