"""One log line -> safe rich Text coloured by meaning (rank tag, level, noise, crash).

Who wrote a line (rank, level, stamp) comes from the core's dialect parser, so the TUI and the
analysis agree. Log text is untrusted: it becomes ``Text`` (never markup), only SGR colour
survives from ANSI, OSC sequences (hyperlinks, titles) are dropped and other control bytes
are shown as ``?``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import Detector, LineParser
from spectrace.textsafe import CSI, OSC, scrub

if TYPE_CHECKING:
    from spectrace.ruleset import BenignRule  # loaded after the first frame, with the scan

_SGR_ONLY = re.compile(r"\x1b\[[0-9;]*m")
_CRASHY = re.compile(
    r"Traceback \(most recent call last\)|^\s*File \".*\", line \d+|\b\w+(?:Error|Exception): "
    r"|hit an exception|Fatal Python error"
)

RANK_STYLE = Style(color="cyan", bold=True)
LEVEL_STYLES = {
    "ERROR": Style(color="red", bold=True),
    "CRITICAL": Style(color="red", bold=True),
    "FATAL": Style(color="red", bold=True),
    "WARNING": Style(color="yellow"),
    "WARN": Style(color="yellow"),
    "DEBUG": Style(dim=True),
}
CRASH_STYLE = Style(color="bright_white", bgcolor="rgb(95,0,0)")
CRASHY_STYLE = Style(color="red")
BENIGN_STYLE = Style(dim=True)


def plain(text: str) -> str:
    """The line as a user reads it: escapes removed, control bytes shown as '?'."""
    if "\x1b" in text:
        text = CSI.sub("", OSC.sub("", text))
    return scrub(text, "?")


def masked(text: str) -> str:
    """Secrets (tokens, keys, passwords) masked as the reports mask them (spectrace.redact: a
    trigger check first, so a line without one costs a lowercase and a few ``in`` tests)."""
    from spectrace.redact import redact_text

    return redact_text(text)


def one_row(text: str) -> str:
    """A file name or a message about one, on one row: escapes dropped, controls and newlines
    shown as '?'."""
    return plain(text).replace("\n", "?")


def to_text(raw: str, *, colour: bool = True) -> Text:
    """Safe Text of a raw line, keeping the log's own SGR colours when ``colour``."""
    if "\x1b" not in raw or not colour:
        return Text(plain(raw).expandtabs(8))
    kept = OSC.sub("", raw)
    kept = CSI.sub(lambda m: m.group(0) if _SGR_ONLY.fullmatch(m.group(0)) else "", kept)
    kept = scrub(kept, "?", keep="\x1b")
    text = Text.from_ansi(kept.replace("\t", "    "), end="")
    text.plain = text.plain.replace("\x1b", "?")
    return text


class LineStyler:
    """Parses a line with the core's dialects and lays styles over its safe text."""

    def __init__(self, benign: Sequence[BenignRule] = ()) -> None:
        self._detector = Detector()
        self._benign = tuple(benign)

    def use(self, benign: Sequence[BenignRule]) -> None:
        """Benign rules loaded after the first frame (the caller restyles what is shown)."""
        self._benign = tuple(benign)

    def parse(self, raw: str) -> LogLine:
        """The core's reading of one line on its own (no stream context)."""
        return LineParser("", self._detector).parse(raw.encode("utf-8", "replace"), 0, 0)

    def benign(self, message: str) -> bool:
        return any(rule.pattern.search(message) for rule in self._benign)

    def styled(self, raw: str, *, in_crash: bool, colour: bool = True) -> Text:
        """A display line: rank tag, level, crash and noise styles over the safe text."""
        text = to_text(raw, colour=colour)
        line = text.plain
        parsed = self.parse(raw)
        header_end = max(len(line) - len(parsed.text), 0) if parsed.headed else 0
        if in_crash:
            text.stylize(CRASH_STYLE)
        elif self.benign(parsed.text):
            text.stylize(BENIGN_STYLE)
        elif _CRASHY.search(line):
            text.stylize(CRASHY_STYLE)
        for word, style in (
            (parsed.rank, RANK_STYLE),
            (parsed.level, LEVEL_STYLES.get(parsed.level or "")),
        ):
            at = line.find(word, 0, header_end or 160) if word and style else -1
            if at >= 0 and style is not None and word:
                text.stylize(style, at, at + len(word))
        return text
