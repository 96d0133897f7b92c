"""A ``server_args=ServerArgs(...)`` dump that a terminal or a paste wrapped over several lines.

The dump is one physical line when SGLang writes it, ~10k characters; a copy out of a terminal
or an issue thread often breaks it at the terminal's width, and every field after the first
break would be lost. Headerless lines that follow an unclosed dump are joined back onto it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spectrace.dialects.base import LogLine

MAX_PIECES = 400  # a 10k-character dump wrapped at 25 columns
MAX_CHARS = 200_000


def _depth(text: str, depth: int = 0, quote: str = "") -> tuple[int, str]:
    """Open parentheses outside quotes, and the quote still open, after ``text`` (approximate:
    enough to see where a dump ends; a break may fall inside a quoted value)."""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
    return depth, quote


@dataclass(slots=True)
class WrappedDump:
    """Joins the pieces of one wrapped dump; ``feed`` returns the whole dump line when done."""

    head: LogLine | None = None
    pieces: list[str] = field(default_factory=list)
    depth: int = 0
    quote: str = ""

    @property
    def open(self) -> bool:
        return self.head is not None

    def start(self, line: LogLine) -> bool:
        """Hold a dump line whose parentheses do not close on it; False when it is whole."""
        text = line.text
        depth, quote = _depth(text[text.index("ServerArgs(") :])
        if depth <= 0:
            return False
        self.head, self.pieces, self.depth, self.quote = line, [text], depth, quote
        return True

    def feed(self, line: LogLine) -> LogLine | None:
        """The next line: joined when it continues the dump; the dump is returned once closed
        (or cut by a headed line, or too long), as one line at the head's place."""
        if line.headed or not line.text.strip():
            return self.finish()
        piece = line.text
        self.pieces.append(piece)
        self.depth, self.quote = _depth(piece, self.depth, self.quote)
        too_long = len(self.pieces) >= MAX_PIECES or sum(map(len, self.pieces)) > MAX_CHARS
        return self.finish() if self.depth <= 0 or too_long else None

    def finish(self) -> LogLine | None:
        head, self.head = self.head, None
        if head is None:
            return None
        return replace(head, text="".join(self.pieces))
