"""Copy-paste and transport artefacts around a whole line: Markdown quotes and code marks, TUI
box borders, docker's JSON log records.

Logs pasted into GitHub issues, chats or terminal log viewers (k9s, lazydocker) gain marks
the server never wrote: ``> `` quote marks, a fence or an inline-code backtick glued to the
first or last line, a ``│`` border on both sides, ``**`` making a whole line bold, a ``^M``
(the CR of a CRLF line in caret notation), Ray's ``[repeated 3x across cluster]`` (its log
deduplication, glued to the end of any line, a frame's included), a forum's Markdown escapes (``\\[core.py:42\\]``
in a Discourse post), ``<pre><code>`` tags and HTML entities (``File &quot;x.py&quot;``: a
page's source or an HTML e-mail), colour codes a pager showed as ``^[[31m`` or a copy left
without their ESC byte (``[31m``), an IPython or notebook prompt before a typed command
(``In [3]: !vllm serve ...``, ``   ...: `` under it), a sentence in another script glued
before the line it introduces (``报错信息如下：Traceback ...``). They hide every header and traceback
line, so they are taken off before any wrapper or dialect looks at the line. A line copied
from docker's json-file driver is one JSON record; its ``log`` string is the line; a line of a
notebook's stored output (``"...\\n",`` in an ``.ipynb``) is one JSON string.
"""

from __future__ import annotations

import html
import json
import re

from spectrace.dialects.opens import OPENS_TEXT

_LEAD = re.compile(r"(?:>[ \t]?)+|[│┃║]\s?|```+|`|(?:<(?:pre|code)(?: [^<>]{0,80})?>)+")
_LEAD_CHARS = frozenset(">│┃║`<")
_TAGS_END = ("</code>", "</pre>")
_TRAIL_CHARS = frozenset("│┃║` \t")
_MAX_PASSES = 4  # "> ```" and similar stacks; bounded so junk cannot loop
_RAY_DEDUP = re.compile(r" *\[repeated \d+x across cluster\]$")
# An IPython prompt (``In [3]: ``, ``   ...: `` under it) and a notebook's shell escape
# (``!python -m ...``, ``In [3]: !vllm serve ...``): what follows is the command typed.
_PROMPT = re.compile(r"(?:In \[\d{1,5}\]:|[ \t]*\.{3,}:)(?: |$)!?|!(?=[A-Za-z_./])")
_PROMPT_CHARS = frozenset("I! \t")
# Prose in another script glued before the line it introduces, no blank between (``报错信息如下：
# (EngineCore_DP0 pid=1) ERROR ...``, ``启动命令：vllm serve ...``): no ASCII letter or digit in it,
# a colon at its end, and a record opening after it (``opens.OPENS_TEXT``).
_PROSE_LEAD = re.compile(r"[^\x00-\x7f][^A-Za-z0-9]{0,80}?[：:][ \t]*")
_ESCAPED = re.compile(r"\\([\[\]_*])")  # Markdown's \[ \] \_ \* (a forum escaping a paste)
# Colour codes a pager showed in caret notation (``^[[1;31m``, ``less``/``cat -v``) or whose ESC
# byte a copy dropped (``[36m(Worker pid=1)[0m``): the bare form only on a line that also
# holds the reset ``[0m`` (colours come in pairs; ``[5m]`` in a message stays).
_SHOWN_CSI = re.compile(r"\^\[\[[0-9;?]{0,12}[A-Za-z]")
_BARE_SGR = re.compile(r"\[[0-9;]{0,12}m")
# The entities a page escapes a log with; only these: a bare "&lt" or "&copy" stays as written.
_ENTITY = re.compile(r"&(?:quot|apos|amp|lt|gt|nbsp|#\d{2,5}|#[xX][0-9a-fA-F]{2,4});")
# Bytes that only a paste puts in a log line (a non-breaking or zero-width space, an HTML
# entity): they can break a hot literal (``sglang:\xa00.5.2``, ``File &quot;``), so a line holding
# one is parsed and read after ``normalise`` has taken them out. Servers never write them.
PASTE_LITERALS: tuple[bytes, ...] = (
    b"\xc2\xa0", b"\xe2\x80\x8b", b"&quot;", b"&#39;", b"&#x27;", b"&gt;", b"&lt;", b"&amp;", b"\\_",
)  # fmt: skip


# A Markdown or e-mail quote mark opening a line (``> ``, ``>> ``, ``> > ``, a bare ``>`` line).
_QUOTE_MARK = re.compile(r"[ \t]*>(?:[ \t>]|$)")
# pytest's mark on a test's failing assertion (``>       assert a == b``: the ``>`` in the first
# column, then the code's own indent; a report pasted indented whole keeps it after its indent):
# the test's report, no quote and no mark to take off. Only an assert: a quoted traceback's code
# line (``>     from vllm.x import Y``) is a reply's quote
_PYTEST_MARK = re.compile(r"[ \t]*>[ ]{3,}assert\b")


def quoted(text: str) -> bool:
    """The line is quoted: another post's words in a reply (``> ``), at any e-mail depth.

    ``unpaste`` takes the mark off so the line parses; this keeps what it said: a launch or a
    sentence a reply quotes is the other writer's, ranked below the writer's own. A Python
    prompt (``>>> import vllm``) is the writer's own typing, not a quote.
    """
    if not text or (text[0] != ">" and (text[0] not in " \t" or ">" not in text[:80])):
        return False
    if _PYTEST_MARK.match(text):
        return False
    body = text.lstrip(" \t")
    return _QUOTE_MARK.match(body) is not None and not (
        body.startswith(">>> ") and body[4:5] != ">"
    )


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
        elif body.endswith(_TAGS_END):
            body = body[: body.rfind("</")]
        else:
            break
        text = body.rstrip(" \t")
    return text


def unjson(text: str) -> str:
    """Docker's json-file line (``{"log":"...\\n","stream":"stderr","time":"..."}``) -> its log
    text; a notebook's output line (``  "...\\n",``) -> its string; anything else, or a record cut
    short, comes back unchanged."""
    if not text.startswith('{"log":'):
        if text.startswith('{"') and text.endswith("}"):
            return _shipped(text)
        return _notebook(text) if text.endswith(('\\n",', '\\n"')) else text
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):  # cut short, or nested past the decoder's depth
        return text
    log = record.get("log") if isinstance(record, dict) else None
    return log.rstrip("\r\n") if isinstance(log, str) else text


# a log record as a JSON logger or shipper writes it: its text under one of these keys
# (journalctl -o json's MESSAGE, Cloud Logging's textPayload, Loki's line, a JSON formatter's
# message / msg, OpenTelemetry's body), its time under one of the others
_TEXT_KEYS = ("MESSAGE", "textPayload", "message", "msg", "line", "body")
_TIME_KEYS = ("__REALTIME_TIMESTAMP", "timestamp", "@timestamp", "time", "ts", "asctime", "date")


def _shipped(text: str) -> str:
    """A JSON log record (a text key and a time key, as ``_TEXT_KEYS`` / ``_TIME_KEYS``) holding
    one line -> that line; a record holding several lines (a traceback logged as one message,
    read by ``flattened``) and any other JSON object (an API's error body, a request) come back
    unchanged."""
    if not any(f'"{key}"' in text for key in _TEXT_KEYS):
        return text
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if not isinstance(record, dict) or not any(key in record for key in _TIME_KEYS):
        return text
    said = next((record[key] for key in _TEXT_KEYS if isinstance(record.get(key), str)), None)
    if said is None or "\n" in said.rstrip("\r\n"):
        return text  # a whole traceback in one record: the escaped-record reader takes it
    return said.rstrip("\r\n")


def _notebook(text: str) -> str:
    """One string of an ``.ipynb`` output's ``text`` list: JSON, ending in its newline."""
    body = text.strip().removesuffix(",")
    if not body.startswith('"'):
        return text
    try:
        line = json.loads(body)
    except ValueError:
        return text
    return line.rstrip("\r\n") if isinstance(line, str) else text


def uncolour(text: str) -> str:
    """Colour codes shown as text (caret notation, or without their ESC byte) taken out."""
    if "^[[" in text:
        text = _SHOWN_CSI.sub("", text)
    if "[0m" in text:
        text = _BARE_SGR.sub("", text)
    return text


def unhtml(text: str) -> str:
    """``File &quot;x.py&quot;, line 3`` -> ``File "x.py", line 3``; other lines unchanged."""
    if "&" not in text or ";" not in text:
        return text
    return _ENTITY.sub(lambda m: html.unescape(m.group()), text)


def unpaste(text: str) -> str:
    """The line without paste marks at either end; other lines come back unchanged (cheaply).

    Non-breaking spaces (a copy from a rendered page or a chat) become plain ones first:
    indentation made of them hides headers and exception lines as well as marks do.
    """
    if not text:
        return text
    if "\xa0" in text:
        text = text.replace("\xa0", " ")
    if text[0] in _PROMPT_CHARS and (prompt := _PROMPT.match(text)) is not None:
        text = text[prompt.end() :]
    elif text[0] > "\x7f" and (prose := _PROSE_LEAD.match(text)) is not None:
        if OPENS_TEXT.match(text, prose.end()) is not None:
            text = text[prose.end() :]
    if not text:
        return text
    if text[0] in _LEAD_CHARS and not _PYTEST_MARK.match(text):
        text = _lead(text)
    elif text[0] in " \t" and (stripped := text.lstrip(" \t"))[:1] in _LEAD_CHARS and not _PYTEST_MARK.match(text):
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
    if ("\\[" in text and "\\]" in text) or "\\_" in text:  # a bracket pair (not a regex's \[),
        text = _ESCAPED.sub(r"\1", text)  # or a page exported to Markdown: spec\_decode/eagle\_worker.py
    return text


def _unbold(text: str) -> str:
    """``**RuntimeError: ...**``: a line made bold as a whole in a Markdown comment."""
    body = text.lstrip(" \t")
    inner = body[2:-2]
    if not body.startswith("**") or not inner.strip() or inner[0] in " *" or inner[-1] in " *":
        return text
    return text[: len(text) - len(body)] + inner
