"""The crash record shared by the traceback and fatal-line assemblers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

from spectrace.assemblers.native import NativeFrame


class CrashKind(str, Enum):
    TRACEBACK = "traceback"  # a Python traceback, possibly chained
    FAULTHANDLER = "faulthandler"  # "Fatal Python error: ..." + thread dumps
    FATAL_LINE = "fatal_line"  # CUDA / NCCL / OOM / error-level exception line, no traceback
    PROCESS_DEATH = "process_death"  # SIGQUIT notices, "crashed with exit code", EngineDeadError...


@dataclass(frozen=True, slots=True)
class Frame:
    file: str
    line: int | None
    function: str
    code: str | None = None  # the source line printed under the frame, if any


@dataclass(frozen=True, slots=True)
class ChainLink:
    """One exception of a chain, in print order (the first printed is the deepest cause)."""

    exception_type: str
    message: str
    frames: tuple[Frame, ...]
    relation: str | None = None  # how the NEXT link relates: "cause" | "context" | None (last)


@dataclass(frozen=True, slots=True)
class Crash:
    """A crash as first seen in one stream, before grouping into incidents."""

    kind: CrashKind
    exception_type: str  # "RuntimeError", "torch.AcceleratorError", "SIGSEGV", "NCCLTimeout"...
    message: str  # the exception message (first line of it when multi-line)
    source: str
    lineno: int  # first line of the record (the traceback header or the fatal line)
    end_lineno: int
    offset: int  # byte offset of the first line
    stream: str
    rank: str | None
    ts: datetime | None
    ts_text: str | None
    frames: tuple[Frame, ...] = ()  # frames of the exception that was finally raised
    chain: tuple[ChainLink, ...] = ()  # all links for chained tracebacks (len >= 2), else ()
    header: str | None = None  # "Scheduler hit an exception", "EngineCore encountered a fatal error"
    lines: tuple[str, ...] = ()  # the record's text lines as printed (bounded) for display
    rule_id: str | None = None  # the rule that classified it (rules/*.toml)
    crash_class: str | None = None  # e.g. "shape_mismatch", "cuda_illegal_memory", "nccl_timeout"
    severity: str = "error"  # "fatal" | "error" | "warning"
    collateral: bool = False  # a consequence of another crash by its nature (rule says so)
    hints: tuple[str, ...] = ()
    native_frames: tuple[NativeFrame, ...] = ()  # C/C++ frames printed with it (native.py)
    frames_reconstructed: bool = False  # interleaved ranks: some lines filled in from a peer's
    interleaved: bool = False  # printed while other ranks printed the same traceback (a storm)
    node: str | None = None  # host, pod or container its first line's wrapper names
    mentioned: str | None = None  # "title" / "sentence": named in prose, not printed (mention.py)
    quoted: bool = False  # its first line was ``> ``-quoted: another post's crash in a reply
    extra: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
