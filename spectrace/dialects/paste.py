"""Copy-paste and transport artefacts around a whole line: Markdown quotes and code marks, TUI
box borders, docker's JSON log records.

Logs pasted into GitHub issues, chats or terminal log viewers (k9s, lazydocker) gain marks
the server never wrote: ``> `` quote marks, a fence or an inline-code backtick glued to the
first or last line, a ``│`` border on both sides, ``**`` making a whole line bold, a ``^M``
(the CR of a CRLF line in caret notation), Ray's ``[repeated 3x across cluster]`` (its log
deduplication, glued to the end of any line, a frame's included), a forum's Markdown escapes (``\\[core.py:42\\]``
in a Discourse post). They hide every header and traceback
line, so they are taken off before any wrapper or dialect looks at the line. A line copied
from docker's json-file driver is one JSON record; its ``log`` string is the line.
"""

from __future__ import annotations

import json
import re

_LEAD = re.compile(r"(?:>[ \t]?)+|[│┃║]\s?|```+|`")
_LEAD_CHARS = frozenset(">│┃║`")
_TRAIL_CHARS = frozenset("│┃║` \t")
_MAX_PASSES = 4  # "> ```" and similar stacks; bounded so junk cannot loop
_RAY_DEDUP = re.compile(r" *\[repeated \d+x across cluster\]$")
_ESCAPED = re.compile(r"\\([\[\]_*])")  # Markdown's \[ \] \_ \* (a forum escaping a paste)


def _lead(text: str) -> str:
    for _ in range(_MAX_PASSES):
        if not text or text[0] not in _LEAD_CHARS:
            break
        m = _LEAD.match(text)
        if m is None or (m.group() == "`" and text.count("`") % 2 == 0):
            break  # a balanced `code` span opening the line is the log's own text
        text = text[m.end() :]
    return text


def _trail(text: str) -> str:
    """Scans from the end by hand: a regex search here would be quadratic on long blank runs."""
    for _ in range(_MAX_PASSES):
        body = text.rstrip(" \t")
        if body.endswith("```"):
            body = body.rstrip("`")
        elif body.endswith(("│", "┃", "║")) or (body.endswith("`") and body.count("`") % 2):
            body = body[:-1]
        else:
            break
        text = body.rstrip(" \t")
    return text


def unjson(text: str) -> str:
    """Docker's json-file line (``{"log":"...\\n","stream":"stderr","time":"..."}``) -> its log
    text; anything else, or a record cut short, comes back unchanged."""
    if not text.startswith('{"log":'):
        return text
    try:
        record = json.loads(text)
    except ValueError:
        return text
    log = record.get("log") if isinstance(record, dict) else None
    return log.rstrip("\r\n") if isinstance(log, str) else text


def unpaste(text: str) -> str:
    """The line without paste marks at either end; other lines come back unchanged (cheaply).

    Non-breaking spaces (a copy from a rendered page or a chat) become plain ones first:
    indentation made of them hides headers and exception lines as well as marks do.
    """
    if not text:
        return text
    if "\xa0" in text:
        text = text.replace("\xa0", " ")
    if text[0] in _LEAD_CHARS:
        text = _lead(text)
    elif text[0] in " \t" and (stripped := text.lstrip(" \t"))[:1] in _LEAD_CHARS:
        if (unmarked := _lead(stripped)) is not stripped:  # marks of a paste indented whole:
            text = text[: len(text) - len(stripped)] + unmarked  # the indent stays (dedent)
    if text and text[-1] in _TRAIL_CHARS:
        text = _trail(text)
    if text.endswith("**"):
        text = _unbold(text)
    if text.endswith("^M"):  # a CR in caret notation (cat -v, less): a CRLF log shown raw
        text = text[:-2]
    if text.endswith("across cluster]"):
        text = _RAY_DEDUP.sub("", text)
    if "\\[" in text and "\\]" in text:  # both: one escaped bracket pair, not a regex's \[
        text = _ESCAPED.sub(r"\1", text)
    return text


def _unbold(text: str) -> str:
    """``**RuntimeError: ...**``: a line made bold as a whole in a Markdown comment."""
    body = text.lstrip(" \t")
    inner = body[2:-2]
    if not body.startswith("**") or not inner.strip() or inner[0] in " *" or inner[-1] in " *":
        return text
    return text[: len(text) - len(body)] + inner
