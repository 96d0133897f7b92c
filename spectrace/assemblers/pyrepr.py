"""Safe reading of Python reprs printed in logs (``ServerArgs(...)``, vLLM configs, dicts).

Log text is untrusted and often truncated, so nothing here evaluates code: values go
through ``ast.literal_eval`` and anything that is not a literal (a ``Call``, a
``<function ... at 0x...>`` repr, a bare ``torch.bfloat16``) is kept as its source text.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = {v: k for k, v in _OPEN.items()}


@dataclass(frozen=True, slots=True)
class SourceText:
    """A value that is not a Python literal, kept verbatim (e.g. ``LoRARef(...)``)."""

    text: str

    def __str__(self) -> str:
        return self.text


def split_top_level(text: str) -> tuple[list[str], bool]:
    """Split on commas outside quotes and brackets; say whether the text ended cleanly.

    Returns the stripped pieces and ``complete``: False when a quote or bracket was still
    open at the end (a truncated dump), in which case the last piece is the broken one.
    """
    pieces: list[str] = []
    stack: list[str] = []
    start = 0
    scan = _Unquoted(text)
    for i in scan:
        ch = text[i]
        if ch in _OPEN and (ch != "<" or _looks_like_repr(text, i)):
            stack.append(ch)
        elif ch in _CLOSE and stack and stack[-1] == _CLOSE[ch]:
            stack.pop()
        elif ch == "," and not stack:
            pieces.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail:
        pieces.append(tail)
    return pieces, not scan.open_quote and not stack


def bracketed(text: str, start: int) -> str | None:
    """The text inside the bracket opening at ``start``, or None when it never closes."""
    depth = 0
    for i in _Unquoted(text, start):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    return None


class _Unquoted:
    """Positions of a repr's characters outside string literals; ``open_quote`` after the
    walk says a literal never closed (a truncated dump)."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.text, self.start, self.open_quote = text, start, False

    def __iter__(self) -> Iterator[int]:
        text, quote, i = self.text, None, self.start
        while i < len(text):
            ch = text[i]
            if quote is not None:
                if ch == "\\":
                    i += 1
                elif ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            else:
                yield i
            i += 1
        self.open_quote = quote is not None


def _looks_like_repr(text: str, i: int) -> bool:
    """``<`` opens an object repr only when a name follows (``<function f at 0x..>``)."""
    return i + 1 < len(text) and (text[i + 1].isalpha() or text[i + 1] == "_")


def parse_value(text: str) -> object:
    """A literal value when the text is one, else the text itself as ``SourceText``."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return SourceText(text)


def parse_call_kwargs(text: str) -> tuple[dict[str, object], bool]:
    """``Name(a=1, b='x', ...)`` -> ({"a": 1, "b": "x"}, complete).

    Tries ``ast.parse`` on the whole call first (exact for well-formed dumps), then falls
    back to a bracket-aware split that tolerates a truncated line and non-Python reprs.
    A truncated last keyword is dropped, never guessed.
    """
    fast = _parse_call_ast(text)
    if fast is not None:
        return fast, True
    open_at = text.find("(")
    inner = text[open_at + 1 :] if open_at >= 0 else text
    body = inner[:-1] if inner.rstrip().endswith(")") else inner
    pieces, complete = split_top_level(body)
    complete = complete and inner.rstrip().endswith(")")
    if not complete and pieces:
        pieces = pieces[:-1]  # the last keyword is cut; its value cannot be trusted
    values: dict[str, object] = {}
    for piece in pieces:
        name, eq, value = piece.partition("=")
        if eq and name.strip().isidentifier():
            values[name.strip()] = parse_value(value.strip())
    return values, complete


def _parse_call_ast(text: str) -> dict[str, object] | None:
    """Exact path: the text is one well-formed call expression."""
    source = text.strip()
    try:
        node = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(node, ast.Call):
        return None
    encoded = source.encode()
    values: dict[str, object] = {}
    for kw in node.keywords:
        if kw.arg is None:
            continue
        try:
            values[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, SyntaxError, TypeError, RecursionError):
            values[kw.arg] = SourceText(_segment(source, encoded, kw.value))
    return values


def _segment(source: str, encoded: bytes, node: ast.expr) -> str:
    """The node's source text; offsets are UTF-8 bytes (get_source_segment is slow per call)."""
    if node.lineno == node.end_lineno == 1 and node.end_col_offset is not None:
        return encoded[node.col_offset : node.end_col_offset].decode(errors="replace")
    return ast.get_source_segment(source, node) or ""


def parse_dict_repr(text: str) -> tuple[dict[str, object], bool]:
    """``{'model': 'x', 'speculative_config': {...}}`` -> dict, tolerating truncation."""
    value = parse_value(text.strip())
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}, True
    body = text.strip()
    body = body[1:] if body.startswith("{") else body
    closed = body.rstrip().endswith("}")
    pieces, complete = split_top_level(body[:-1] if closed else body)
    if not (complete and closed) and pieces:
        pieces = pieces[:-1]
    out: dict[str, object] = {}
    for piece in pieces:
        pair = _key_value(piece)
        if pair is not None:
            out[pair[0]] = parse_value(pair[1])
    return out, complete and closed


def _key_value(piece: str) -> tuple[str, str] | None:
    """``'a:b': 1`` -> ("a:b", "1"): the key ends at its closing quote, not the first colon."""
    quote = piece[:1]
    if quote not in ("'", '"'):
        return None
    i = 1
    while i < len(piece) and piece[i] != quote:
        i += 2 if piece[i] == "\\" else 1
    key = parse_value(piece[: i + 1])
    rest = piece[i + 1 :].lstrip()
    if not isinstance(key, str) or not rest.startswith(":"):
        return None
    return key, rest[1:].strip()
