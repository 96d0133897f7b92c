"""The record every dialect produces: one physical log line with its writer identified."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class LogLine:
    """One physical line, normalised (ANSI stripped, CR removed) and attributed.

    ``stream`` is the key continuation lines attach to (an SGLang rank prefix such as
    ``"DP0 TP3"``, a vLLM process tag such as ``"EngineCore_DP0 pid=12"``, ``"rank6"``,
    or ``""`` for the main process / unknown writer). ``rank`` is the display label
    used for grouping incidents (``"TP7"``, ``"DP1 TP2"``, ``"Worker_TP1"``, ``"rank6"``),
    or ``None`` when the writer has no rank.
    """

    source: str  # input name as the user gave it ("<stdin>" for -)
    lineno: int  # 1-based physical line number within the source
    offset: int  # byte offset of the line start in the (decompressed) source
    text: str  # the message with every wrapper and header peeled off
    raw: str  # the whole line after normalisation (for evidence and display)
    dialect: str  # "sglang", "vllm", "torchrun", "c10", "trtllm", "uvicorn", "logging", "plain"
    stream: str
    rank: str | None = None
    ts: datetime | None = None  # year-less stamps (vLLM) get year 1900 until a year is known
    ts_text: str | None = None  # the stamp as printed
    level: str | None = None  # "ERROR", "WARNING", ... when the header carries one
    headed: bool = False  # True when a dialect header was recognised (not a continuation)
    group: str | None = None  # vLLM: "file:line ts" shared by the lines of one logger call
    inferred: bool = False  # stream taken from the last headed line, not from the line itself
    indent: int = 0  # blanks before the header: a paste indented as a whole (its lines move too)
    node: str | None = None  # the host, pod or container a wrapper names (fleet/nodes.py)
    quoted: bool = False  # a ``> `` quote mark was taken off: another post's words in a reply


@dataclass(frozen=True, slots=True)
class Header:
    """What one dialect recognised at the start of a message (wrappers already peeled)."""

    dialect: str
    text: str  # the message after the header
    stream: str = ""  # writer key inside the dialect ("TP3", "rank 2"); "" when none
    rank: str | None = None
    ts: datetime | None = None
    ts_text: str | None = None
    level: str | None = None
    group: str | None = None
    anonymous: bool = False  # names no writer: the line keeps the last one, as headerless lines do


class Dialect(Protocol):
    """A header recogniser: ``parse`` returns None when the text is not in this dialect."""

    name: str

    def parse(self, text: str) -> Header | None: ...
