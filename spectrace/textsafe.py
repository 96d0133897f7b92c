"""Untrusted log text made harmless for terminals: one definition of the unsafe characters.

Used by the dialects (normalise), the reports and the TUI; it imports nothing of spectrace.
"""

from __future__ import annotations

import codecs
import re

# C0 controls but tab and newline (ESC starts OSC 52 clipboard writes and CSI cursor moves, CR
# and BS overwrite what is shown), DEL, C1 controls, the Unicode line separators some line
# readers split on, the bidi overrides, isolates and marks that reorder a line on screen, and
# the zero-width characters that hide text inside a word (U+200B-U+200D, U+2060-U+2064, BOM).
_UNSAFE = ((0x00, 0x08), (0x0B, 0x1F), (0x7F, 0x9F), (0x061C, 0x061C), (0x200B, 0x200F),
           (0x2028, 0x2029), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x2069),
           (0xFEFF, 0xFEFF))  # fmt: skip


def _unsafe_but(keep: str) -> re.Pattern[str]:
    """A plain character class (a lookahead would cost 3x on every line)."""
    chars = (chr(c) for lo, hi in _UNSAFE for c in range(lo, hi + 1))
    return re.compile(f"[{re.escape(''.join(c for c in chars if c not in keep))}]")


# A caller may keep CR (tqdm redraws, split later) or ESC (SGR colour, decoded later).
_PATTERNS = {keep: _unsafe_but(keep) for keep in ("", "\r", "\x1b")}
CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")  # cursor moves, erases, SGR colour
OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")  # titles, hyperlinks, clipboard
ESCAPES = re.compile(f"{CSI.pattern}|{OSC.pattern}|\\x1b[@-Z\\\\-_]?")  # and bare ESC + Fe


def _shown(m: re.Match[str]) -> str:
    return f"\\x{ord(m.group()):02x}"


def scrub(text: str, mark: str | None = None, keep: str = "") -> str:
    """Unsafe characters replaced by ``mark`` ("" drops them), or shown as ``\\xNN`` when None.

    ``keep`` is "", "\\r" or "\\x1b": that one character is left for a later step.
    """
    pattern = _PATTERNS[keep]
    if pattern.search(text) is None:
        return text
    return pattern.sub(_shown if mark is None else lambda _: mark, text)


def inert(text: object) -> str:
    """Log text made harmless for a terminal: unsafe characters shown as ``\\xNN``."""
    return scrub(str(text))


def one_line(text: object) -> str:
    """A name (a file path) made harmless and kept on one line: newlines shown as ``\\x0a``."""
    return inert(text).replace("\n", "\\x0a")


_JSON_UNSAFE = re.compile(
    "[" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in _UNSAFE if lo >= 0x7F) + "]"
)


def json_escaped(dumped: str) -> str:
    """JSON text (``ensure_ascii=False``) with every unsafe character written as ``\\uXXXX``:
    the same data, but no raw C1 control or bidi override reaches a terminal that shows it."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)


OUTPUT_ERRORS = "spectrace-escape"


def _escape_unencodable(error: UnicodeError) -> tuple[str, int]:
    """What an ASCII stdout cannot encode, as ``\\uXXXX``: still valid inside JSON strings
    (astral characters as surrogate pairs), and readable in text."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), error.end


codecs.register_error(OUTPUT_ERRORS, _escape_unencodable)
