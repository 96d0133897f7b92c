"""A sentence a copy hard-wrapped over several lines, read whole on each of its lines.

Why: mail copies, terminal pastes and many PR bodies wrap prose at 70-100 columns, so a sentence
reaches the readers in pieces ("... the full NGRAM path (draft lookup -> verify) runs" /
"end-to-end on Ascend 910C."): no piece says what the sentence says (a run on named hardware, a
question, a release beside its method). The collector feeds every line it parses here; where a
line continues the prose line above it, each line of the sentence is given the whole sentence:
the upper line its open sentence completed by the lower line's first piece, the lower line its
first piece preceded by the open sentence. Each line keeps its own number and its other
sentences, so a guard of a neighbouring sentence ("the definition is unchanged.") stays with the
line that holds it.

A line continues the one above when both are unheaded prose of one paragraph: the upper line is
long (a wrap, not a short line the writer ended), ends in no sentence mark, colon or command
continuation, and is no heading, table row, title, thread head or code; the lower line starts in
lower case, with a bracket or a code span (or with any word, where the upper line left a
parenthesis open: "... as in #12 (a" / "NextN draft), which ..."), and is no list item, command
or code. Never across a
code fence, a log record, a blank line or a list item.
"""

from __future__ import annotations

import re
from dataclasses import replace

from spectrace.assemblers.sentences import sentences
from spectrace.dialects.base import LogLine

# a wrapped line is near the wrap width; a line the writer ended short is no wrap
_WRAPPED = 50
# a sentence is read over at most this many lines (a paragraph with no full stop is no sentence)
_MOST_LINES = 6
# a Markdown code fence opening or closing, at any indent (a list item's fence is indented 4 or
# more) and inside ``>`` quoting: the lines between are code or output, never prose
FENCE = re.compile(r"^\s*(?:>\s*)*(?:```|~~~)")
# lines that are no prose: a heading, a table row, a title's tag ("[Bug]: ..."), a thread head's
# fields ("owner/repo#N · issue · closed"), a link, an HTML tag, a rule, a shell prompt, and a log
# record a dialect did not head (its level word or its clock time), and a traceback's frame
# (``File "x.py", line 3, in f``, alone or flattened into a line): the code line under it is
# the frame's, never the rest of a sentence, however both are indented; and a sampler's frame
# ending its line (py-spy's ``verify (eagle_worker.py:610)``, a note after it): a stack's line,
# whatever rank label or indent it has
_NOT_PROSE = re.compile(
    r"^\s*(?:#|\||<|\$ |\{|\[[^\]]{1,40}\]:?\s|[-=*_]{3,}\s*$|https?://)| · |\|\s*$"
    r"|\b(?:INFO|WARN(?:ING)?|ERROR|DEBUG|CRITICAL|FATAL)\b|\d\d:\d\d:\d\d"
    r"|\bFile \"[^\"]*\", line \d+"
    r"|\b\w+\s+\((?:[\w.-]+[/\\])*[\w.-]+\.py:\d+\)\s*(?:(?:<-|←|#|//).*)?$"
)
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s")
_ENDED = re.compile(r"[.!?:;。！？：\\{\[]\s*$")
# a command, a code line or a config line: never prose, above or below
_CODE = re.compile(
    r"^\s*(?:python\d?(?:\.\d+)?|pip\d?|vllm\s+(?:serve|bench)|trtllm-\w+|torchrun|docker|curl|export"
    r"|sudo|git|bash|conda)\s"
    r"|--\w|\w\(|\s=\s|^\s*[\w.]+\s*=|[{};]\s*$|^\s*\w+:\s"
)
_CONTINUES = re.compile(r"^\s{0,3}[a-z(`*\"'“]")
_WORDS = re.compile(r"[A-Za-z]{2,}")


class ProseWrap:
    """Follows the lines the collector parses; where a line goes on with the prose line above
    it, gives each line of the open sentence its text with the sentence made whole."""

    def __init__(self) -> None:
        self._lines: list[LogLine] = []  # the open sentence's lines, as read so far (texts grown)
        self._open = ""  # the open sentence's words so far (its pieces on every line of it)
        self._fenced = False

    def feed(self, line: LogLine) -> list[LogLine]:
        """The lines whose text grew with ``line`` (the earlier lines of its sentence, then
        ``line`` itself with the sentence's start before it); none where it goes on with no
        sentence above."""
        text = line.text
        if FENCE.match(text):
            self._fenced = not self._fenced
            self._close()
            return []
        if self._fenced or line.headed or not text.strip():
            self._close()
            return []
        held = self._lines
        if held and line.lineno == held[-1].lineno + 1 and len(held) < _MOST_LINES and _continues(held[-1], line):
            cut = sentences(text.strip())
            first = cut[0]  # the piece that ends the open sentence (or all of the line)
            grown = [replace(h, text=f"{h.text.rstrip()} {first}", raw=f"{h.raw.rstrip()} {first}") for h in held]
            mine = replace(line, text=f"{self._open} {text.strip()}", raw=f"{self._open} {line.raw.strip()}")
            if len(cut) == 1 and _ENDED.search(text) is None:
                self._lines, self._open = [*grown, mine], f"{self._open} {first}"
            else:  # the sentence ended on this line: its last sentence may open a new one
                self._start(mine, cut[-1])
            return [*grown, mine]
        if _wrapped(line):
            self._start(line, sentences(text.strip())[-1])
        else:
            self._close()
        return []

    def _start(self, line: LogLine, last: str) -> None:
        """``line`` may be continued: its last sentence is open, unless it ended."""
        if _ENDED.search(line.text) is not None or _CODE.search(line.text) or _not_prose(line):
            self._close()
        else:
            self._lines, self._open = [line], last

    def _close(self) -> None:
        self._lines, self._open = [], ""


def _wrapped(line: LogLine) -> bool:
    """The line is prose cut at a wrap: long, several words, no sentence end or colon last."""
    text = line.text
    return (len(text.strip()) >= _WRAPPED and not _not_prose(line) and _ENDED.search(text) is None
            and _CODE.search(text) is None and len(_WORDS.findall(text)) >= 6)  # fmt: skip


def _continues(upper: LogLine, line: LogLine) -> bool:
    """``line`` goes on with the sentence ``upper`` left open: same writer, prose, no new item.
    Its indent counts from the upper line's: a paragraph indented whole (a text pasted as a
    Markdown code block, a nested list item's lines) wraps as an unindented one does."""
    text = line.text
    if line.quoted != upper.quoted or line.source != upper.source:
        return False
    if _not_prose(line) or _ITEM.match(text) or _CODE.search(text):
        return False
    if upper.text.count("(") > upper.text.count(")") and line.text[:1].isalpha():
        return True  # "... counterpart to #12 (quantized" / "NextN draft), which ...": inside a parenthesis
    indent = len(upper.text) - len(upper.text.lstrip(" "))
    return _CONTINUES.match(text[indent:] if text.startswith(" " * indent) else text) is not None


def _not_prose(line: LogLine) -> bool:
    """A heading, table row, title, head, link or log record, as parsed or as written (a dialect
    may have taken a table's or a gutter's marks off the text)."""
    return _NOT_PROSE.search(line.text) is not None or _NOT_PROSE.search(line.raw) is not None
