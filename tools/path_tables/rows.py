"""The rows of rules/paths/<framework>.toml (schema on the coordination board, 06:25) and
their deterministic TOML text."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class FrameRow:
    """A file (suffix) a traceback frame can name, and what a frame there proves."""

    file: str
    framework: str
    family: str
    worker: str
    path: str  # "v1" | "v2" | "other" | "" (informs only)
    role: str
    classes: tuple[str, ...]
    function: str
    needs_spec: bool
    releases: tuple[str, str]
    what: str
    source: str  # "generated" | "hand"
    bases: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (class, its direct bases), sorted
    # (class, first, last release) of each run of releases whose file named one class, written
    # only where the file named several (a class renamed, split or moved): a frame there names
    # the class of the run's release, and with no release only a condition over them
    workers: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SymbolRow:
    """A native (C++) symbol or library substring and the family it proves."""

    pattern: str
    framework: str
    family: str
    worker: str
    path: str
    what: str
    source: str


@dataclass(frozen=True, slots=True)
class MethodRow:
    """A config value (algorithm, method, decoding type, mode) and the family it names."""

    framework: str
    value: str
    family: str
    worker: str
    path: str
    releases: tuple[str, str]
    what: str
    source: str


def _value(value: object, field: str = "") -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if field == "bases":  # an inline table: {"Class" = ["Base", ...], ...}
        return "{" + ", ".join(f"{_value(c)} = {_value(b)}" for c, b in value) + "}"  # type: ignore[attr-defined]
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string


def _table(name: str, row: object) -> str:
    lines = [f"[[{name}]]"]
    lines += [f"{f.name} = {_value(getattr(row, f.name), f.name)}" for f in fields(row)  # type: ignore[arg-type]
              if f.name != "workers" or getattr(row, f.name)]  # one class all along: no key
    return "\n".join(lines)


def render(header: str, frames: list[FrameRow], symbols: list[SymbolRow],
           methods: list[MethodRow]) -> str:
    """The file text: a comment header, then frames, symbols and methods in a fixed order."""
    parts = ["\n".join("# " + line if line else "#" for line in header.splitlines())]
    parts += [_table("frame", row) for row in frames]
    parts += [_table("symbol", row) for row in symbols]
    parts += [_table("method", row) for row in methods]
    return "\n\n".join(parts) + "\n"
