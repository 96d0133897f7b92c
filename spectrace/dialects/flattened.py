"""A log pasted without its newlines -> its records, one per vLLM header it holds.

Issue text written outside a code block loses every line break (vllm#21661, #13067): a whole
traceback arrives as one physical line, ``(EngineCore_DP0 pid=142) ERROR 11-04 18:03:00
[core.py:708] File "...", line 83, in __init__ (EngineCore_DP0 pid=142) ERROR ...``. vLLM
repeats its header on every line of a record, so the headers show where the lines were.
"""

from __future__ import annotations

import re
from keyword import iskeyword

from spectrace.dialects.opens import OPENS

_LEVELS = rb"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)"
# One space, then a header: an optional "(Name pid=N)" tag, the level, a year-less stamp and
# the file:line bracket (its "[" optional, as before 2025).
_CUT = re.compile(
    rb" (?=(\([^()\n]{1,60} pid=\d{1,9}(?:, ip=[^)\n]{1,60})?\) )?" + _LEVELS
    + rb" \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})? \[?[\w./-]{1,200}:\d{1,9}\] )"
)  # fmt: skip
# SGLang's "[2026-03-01 12:00:00 TP0] " header and torchrun's "[rank3]: " prefix, each after a space.
_CUT_OTHER = re.compile(
    rb" (?=\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?: [A-Z]{2,4}\d{1,4})*\] "
    rb"|\[(?:rank|Rank )\d{1,6}\]: )"
)
# A traceback with no header at all: its own structure says where its lines were.
_TB_START = b"Traceback (most recent call last): "
_TB_FRAME = re.compile(rb'File "[^"\n]{1,400}", line \d{1,9}, in (?P<func>[\w<>.]{1,200})')
_TB_SPLIT = re.compile(
    rb" (?=(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)(?::|$)"
    rb"|The above exception was the direct cause|During handling of the above exception"
    rb"|Traceback \(most recent call last\):"
    rb"|```)"  # a Markdown fence: the paste closed, prose follows
)
_TAG_END = re.compile(rb"\([^()\n]{1,60} pid=\d{1,9}(?:, ip=[^)\n]{1,60})?\)\Z")
# A traceback inside an escaped string: its first line, then a backslash before its "n".
_TB_HEAD = _TB_START[:-1]
_UNESCAPE = re.compile(rb"\\(.)", re.DOTALL)
_LEVELS = {1: 1, 2: 2, 4: 3}
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b'"': b'"', b"'": b"'", b"\\": b"\\"}
_QUOTES = (b'"', b"'")
_JUNK = frozenset(b"\"'{}[](), ")  # a string's closing quote and the record's end, alone
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

# Where a server echoes a request: SGLang's ``Receive: obj=GenerateReqInput(text=...)``, vLLM's
# ``Received request ...: prompt: '...'``, an OpenAI request object's ``messages``.
_REQUEST_ECHO = (b"GenerateReqInput(", b"Receive: obj=", b"Received request", b"prompt: ",
                 b"prompt=", b"ChatCompletionRequest(", b"CompletionRequest(")  # fmt: skip
# A level word right after a process tag: an ordinary headed vLLM line, not a raw traceback's.
_LEVEL_WORDS = (b"DEBUG", b"INFO", b"WARNING", b"ERROR", b"CRITICAL")
MIN_HEADERS = 2  # one quoted header is a message; two or more inside one line are lost breaks
_MIN_LENGTH = 120  # shorter lines cannot hold two headers and a message


def split_flattened(raw: bytes) -> list[bytes]:
    """The records of a line that lost its newlines; any other line comes back alone."""
    if len(raw) < _MIN_LENGTH:
        return [raw]
    cuts: list[int] = []
    if raw.count(b"] ") >= MIN_HEADERS:  # every vLLM and SGLang header ends in "] "
        cuts = [m.start() for m in _CUT.finditer(raw) if not _after_tag(raw, m)]
    if len(cuts) < MIN_HEADERS and raw.count(b"]") >= MIN_HEADERS:
        cuts = [m.start() for m in _CUT_OTHER.finditer(raw)]
    if len(cuts) < MIN_HEADERS and raw.startswith(b"("):
        cuts = _tag_cuts(raw)
    if len(cuts) < MIN_HEADERS:
        return _traceback(raw)
    return [p for part in _pieces(raw, cuts) for p in _traceback(part)]


def _escaped(raw: bytes, end: int) -> list[bytes]:
    """A traceback carried as an escaped string (an error body in JSON, once or twice escaped:
    ``"detail": "Traceback (most recent call last):\\n  File \\"x.py\\", ..."``) -> the line up
    to its start, then its own lines, unescaped as often as it was escaped. ``end`` is where
    the backslash escaping its first newline stands."""
    at = end - len(_TB_HEAD)
    if raw[at - 1 : at] not in _QUOTES:
        return _escaped_log(raw)  # a string that opens with a record, or quoted prose
    slashes = len(raw[end : end + 8]) - len(raw[end : end + 8].lstrip(b"\\"))
    level = _LEVELS.get(slashes)  # 1, 2 or 4 backslashes: escaped once, twice, three times
    if level is None or raw[end + slashes : end + slashes + 1] != b"n":
        return [raw]
    lines = _unescaped(raw[end:], level)
    if len(lines) < 3 or not any(b'File "' in line for line in lines):
        return [raw]
    return [raw[:end], *(line for line in lines if line.strip())]


def _unescaped(text: bytes, level: int) -> list[bytes]:
    for _ in range(level):
        text = _UNESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group()), text)
    return text.split(b"\n")


def _escaped_log(raw: bytes) -> list[bytes]:
    """A whole log carried as one escaped string (a collector's record that joined a multi-line
    record, ``{"log": "[2026-...] ...\\n  File \\"...``; a repr a script printed,
    ``b'python -m sglang...\\n...'``) -> the text before the string, then the string's lines.
    Only a string whose first line opens a record (``opens.OPENS``) is split: a question that
    quotes a traceback under its own words is prose, a prompt the server echoes is the user's."""
    level, first = _first_newline(raw)
    if level is None or any(echo in raw[:first] for echo in _REQUEST_ECHO):
        return [raw]
    for start in sorted(_opening(raw, q, first) for q in _QUOTES):
        if start >= 0 and OPENS.match(raw, start + 1, first) is not None:
            end = _closing(raw, start)
            lines = _unescaped(raw[start + 1 : end], level)
            if len(lines) < 3:
                return [raw]
            rest = raw[:start] + raw[end + 1 :]  # the record's other fields, one line
            head = [rest] if not _JUNK.issuperset(rest) else []
            return [*head, *(line for line in lines if not _JUNK.issuperset(line))]
    return [raw]


def _first_newline(raw: bytes) -> tuple[int | None, int]:
    """How often the string was escaped, and where its first escaped newline starts. A newline
    after an escaped backslash (a shell command's ``\\`` continuation: three backslashes) is
    passed over: its count says nothing of the level."""
    nl = raw.find(b"\\n")
    for _ in range(16):
        if nl < 0:
            return None, -1
        slashes = nl + 1 - len(raw[: nl + 1].rstrip(b"\\"))
        if (level := _LEVELS.get(slashes)) is not None:
            return level, nl + 1 - slashes
        nl = raw.find(b"\\n", nl + 2)
    return None, -1


def _escaped_at(raw: bytes, at: int) -> bool:
    return (at - len(raw[:at].rstrip(b"\\"))) % 2 == 1


def _opening(raw: bytes, quote: bytes, before: int) -> int:
    """The last ``quote`` before ``before`` that no backslash escapes (a string's opening), or -1."""
    at = raw.rfind(quote, 0, before)
    while at > 0 and _escaped_at(raw, at):
        at = raw.rfind(quote, 0, at)
    return at


def _closing(raw: bytes, start: int) -> int:
    """The quote that closes the string opened at ``start`` (the line's end when cut short)."""
    quote = raw[start : start + 1]
    at = raw.find(quote, start + 1)
    while at > 0 and _escaped_at(raw, at):
        at = raw.find(quote, at + 1)
    return at if at > 0 else len(raw)


def _tag_cuts(raw: bytes) -> list[int]:
    """Where one process's tag repeats: a raw traceback (no level, no stamp) flattened. Only
    the tag the line starts with counts, so a message naming other processes is never cut."""
    close = raw.find(b") ", 1, 80)
    if close < 0 or raw.startswith(_LEVEL_WORDS, close + 2) or b" pid=" not in raw[:close]:
        return []  # no tag, or an ordinary headed line ("(Tag pid=N) INFO ...")
    needle = b" " + raw[: close + 1] + b" "
    cuts, at = [], raw.find(needle, close)
    while at >= 0:
        cuts.append(at)
        at = raw.find(needle, at + len(needle))
    return cuts


def _pieces(raw: bytes, cuts: list[int]) -> list[bytes]:
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(raw)]
    return [raw[a:b] for a, b in zip(starts, ends, strict=True) if raw[a:b].strip()]


def _traceback(raw: bytes) -> list[bytes]:
    """A whole headerless traceback on one line -> its lines, frames and code indented as
    Python prints them (a headed record keeps its single line: each of its lines has a header).
    A request the server echoes (``--log-requests``) keeps its line: its prompt is the user's
    text, which may quote a traceback that never ran here."""
    at = raw.find(_TB_HEAD)
    if at >= 0 and any(echo in raw[:at] for echo in _REQUEST_ECHO):
        return [raw]
    if at >= 0 and raw[at + len(_TB_HEAD) : at + len(_TB_HEAD) + 1] == b"\\":
        return _escaped(raw, at + len(_TB_HEAD))
    if at < 0:
        return _escaped_log(raw) if b"\\n" in raw else _quoted_frames(raw)
    at = raw.find(_TB_START, at)
    if at < 0 or b'File "' not in raw[at:]:
        return [raw]
    return _tb_lines(raw, at)


def _quoted_frames(raw: bytes) -> list[bytes]:
    """Frames quoted inside one prose line with no ``Traceback`` before them (a summary, a
    wiki's pattern section, a digest: ``... score 3: re_model() File "/x/eagle.py", line 178,
    in capture_model self.graphs.capture() ...``) -> the prose before, then the frames' lines
    as Python prints them. Words must follow the first frame's function on the line: a frame
    line of a log (after its header, its rank or its service) ends there, or in a bracketed
    tag (``[repeated 2x across cluster]``), and comes back alone."""
    at = raw.find(b'File "')
    if at < 0 or (m := _TB_FRAME.search(raw, at)) is None:
        return [raw]
    rest = raw[m.end() :].strip()
    if not rest or rest[:1] == b"[" or not any(c in _WORD_BYTES for c in rest[:40]):
        return [raw]
    return _tb_lines(raw, m.start())


def _tb_lines(raw: bytes, at: int) -> list[bytes]:
    """The line split where its traceback's lines were, from ``at``."""
    cuts: dict[int, bytes] = {}  # where a line starts -> its indent
    for m in _TB_SPLIT.finditer(raw, at):
        cuts[m.start() + 1] = b""
    lost: set[int] = set()  # frames whose <module> a page took for a tag: "in from x import y"
    for m in _TB_FRAME.finditer(raw, at):
        cuts[m.start()] = b"  "
        if iskeyword(m["func"].decode()):
            lost.add(m.start())
            cuts[m.start("func")] = b"    "  # the import (or class) line is the frame's code
        elif raw[m.end() : m.end() + 1] == b" ":
            cuts.setdefault(m.end() + 1, b"    ")  # the code line under the frame
    order = sorted(cuts)
    out = [raw[: order[0]].rstrip()] if order and raw[: order[0]].strip() else []
    for start, end in zip(order, [*order[1:], len(raw)], strict=True):
        piece = raw[start:end].strip()
        if piece:
            out.append(cuts[start] + piece + (b" <module>" if start in lost else b""))
    return out or [raw]


def _after_tag(raw: bytes, m: re.Match[bytes]) -> bool:
    """The level right after a "(Name pid=N)" tag belongs to that tag's header: no cut there."""
    return (
        m.group(1) is None and _TAG_END.search(raw, max(0, m.start() - 140), m.start()) is not None
    )
