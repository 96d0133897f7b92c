"""`py-spy dump` text (and faulthandler thread dumps) pasted inside a log -> stacks Captures."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from spectrace.assemblers.crash import Crash
from spectrace.dialects.base import LogLine
from spectrace.dialects.detect import LineParser
from spectrace.errors import InputError
from spectrace.stacks.classify import detect_rank
from spectrace.stacks.model import Capture, ProcessCapture, Sample, StackFrame, ThreadStack
from spectrace.unpack import DECODE_ERRORS, SNIFF_BYTES, Codec, sniff, unwrap

# a log without one of these is never parsed a second time
_SNIFF = re.compile(
    rb"Thread (?:0x[0-9A-Fa-f]+|\d+) \((?:active|idle)|Thread 0x[0-9A-Fa-f]+ \(most recent call"
)
CONTEXT_BYTES = 16 * 1024  # parsed above a thread header: its Process line, the rank line above
AFTER_BYTES = 64 * 1024  # parsed below a thread header: its frames and --locals
_PROCESS = re.compile(r"^Process (\d+): (.*)$")
_PYSPY_THREAD = re.compile(
    r'^Thread (0x[0-9A-Fa-f]+|\d+) \((active|idle)(\+gil)?\)(?:: "(.*)")?\s*$'
)
_FRAME = re.compile(r"^(\s{2,})(\S.*?) \(([^()]*?)(?::(\d+))?\)\s*$")
_LOCALS_HEAD = re.compile(r"^\s{4,}(Arguments|Locals):\s*$")
_LOCAL = re.compile(r"^(\s{6,})([A-Za-z_][\w.]*): (.*)$")
_FAULT_THREAD = re.compile(r"^(Current thread|Thread) (0x[0-9A-Fa-f]+) \(most recent call first\):")
_FAULT_FRAME = re.compile(r'^\s+File "(.*)", line (\d+) in (.+?)\s*$')
_STREAM_PID = re.compile(r"\bpid=(\d+)\b")
_DUMP_FOR = re.compile(r"\bdump for PID (\d+)\b", re.IGNORECASE)
FAULT_THREAD_LINES = 110  # faulthandler prints at most 100 frames of a thread
GAP_LINES = 40  # log lines between two blocks of one dump before it counts as a new dump
_STREAM_CHUNK = 4 * 1024 * 1024  # decoded bytes per step when a compressed log is searched
_SEGMENT = 16 * 1024 * 1024  # bytes of the log held at a time while its dumps are read
_SNIFF_OVERLAP = 64  # a thread header cut by a chunk boundary is still seen


@dataclass(frozen=True, slots=True)
class PastedDump:
    """One pasted dump: the capture built from it and where it sits in the log."""

    capture: Capture
    source: str
    lineno: int
    end_lineno: int
    tool: str  # "py-spy" | "faulthandler"
    text: str = ""  # the dump's first line as the log shows it
    lines: frozenset[int] = frozenset()  # its own lines; other writers' lines may interleave


@dataclass(slots=True)
class _Thread:
    ident: str
    name: str | None
    active: bool
    gil: bool
    frames: list[StackFrame] = field(default_factory=list)
    frame_indent: int = -1
    in_locals: bool = False

    def freeze(self) -> ThreadStack:
        native_id = int(self.ident) if self.ident.isdigit() else None
        tid = native_id if native_id is not None else int(self.ident, 16)
        return ThreadStack(tid, self.name, self.active, self.gil, tuple(self.frames), native_id)


@dataclass(slots=True)
class _Block:
    """One process's part of a dump: its header, rank and threads."""

    pid: int
    cmdline: str
    rank: str | None
    source: str | None
    key: str = ""  # py-spy: the pid; faulthandler: the writer's stream (it names no pid)
    threads: list[_Thread] = field(default_factory=list)


@dataclass(slots=True)
class _Dump:
    tool: str
    first: int
    last: int
    text: str
    blocks: list[_Block] = field(default_factory=list)
    lines: set[int] = field(default_factory=set)  # the line numbers that are the dump's own


def find_dumps(path: str) -> list[PastedDump]:
    """Every py-spy / faulthandler (non-fatal) dump in the log, as captures in log order."""
    if not os.path.isfile(path):  # a pipe or a device was read once by the scan: not again
        return []
    try:
        with open(path, "rb") as raw:
            head = raw.read(SNIFF_BYTES)
            raw.seek(0)
            if not head:
                return []
            if sniff(head, path) is not Codec.PLAIN:
                return _find_encoded(path, raw)
            return _find(path, raw)
    except (*DECODE_ERRORS, ValueError, InputError):
        return []


def _find_encoded(path: str, raw: BinaryIO) -> list[PastedDump]:
    """A compressed or UTF-16 log, in bounded memory: a streaming look for a thread header
    first; only a log that has one is decoded again into a temporary file and mapped."""
    if not _any_dump(_decoded(raw, path)):
        return []
    raw.seek(0)
    with tempfile.TemporaryFile() as spool:
        for chunk in _decoded(raw, path):
            spool.write(chunk)
        spool.seek(0)
        return _find(path, spool)


def _decoded(raw: BinaryIO, path: str) -> Iterator[bytes]:
    stream, _ = unwrap(raw, path, lambda _: None)
    buf = bytearray(_STREAM_CHUNK)
    with memoryview(buf) as view:
        while got := stream.readinto(view):
            yield bytes(view[:got])


def _any_dump(chunks: Iterator[bytes]) -> bool:
    tail = b""
    for chunk in chunks:
        if _SNIFF.search(tail + chunk):
            return True
        tail = chunk[-_SNIFF_OVERLAP:]
    return False


def inside_dump(crash: Crash, dumps: Sequence[PastedDump]) -> bool:
    """A crash record that starts on a dump's own line (a thread header, a ``--locals`` repr
    saying "NCCL error") is that dump's text; one another writer interleaved is a crash."""
    return any(d.source == crash.source and crash.lineno in d.lines for d in dumps)


def _find(path: str, fh: BinaryIO) -> list[PastedDump]:
    """Only windows around thread-header lines are parsed line by line, not the whole log; the
    log is read a segment at a time, so memory stays flat whatever its size."""
    scanner, parser = _Scanner(), LineParser(path)
    size = fh.seek(0, os.SEEK_END)
    lineno, counted = 1, 0  # 1 + the newlines before byte ``counted``
    parsed = 0  # where the last parsed window ended (a line start)
    for seg in range(0, size, _SEGMENT):
        lo, seg_end = max(0, seg - CONTEXT_BYTES), min(size, seg + _SEGMENT)
        fh.seek(lo)
        data = fh.read(min(size, seg_end + AFTER_BYTES) - lo)
        for start, end in _windows(data, seg - lo, seg_end - lo, lo == 0, lo + len(data) == size):
            start = max(start, parsed - lo)  # not what the previous segment's window parsed
            if start >= end:
                continue
            if start >= counted - lo:
                lineno += data.count(b"\n", counted - lo, start)
            else:  # the context reaches back before the previous segment's end
                lineno -= data.count(b"\n", start, counted - lo)
            scanner.run(_lines(parser, data, start, end, lineno))
            lineno, counted = lineno + data.count(b"\n", start, end), lo + end
            parsed = counted
        if counted < seg_end:
            lineno, counted = lineno + data.count(b"\n", counted - lo, seg_end - lo), seg_end
    return [_finish(d, path) for d in scanner.dumps if d.blocks]


def _windows(
    data: bytes, first: int, last: int, at_start: bool, at_end: bool
) -> list[tuple[int, int]]:
    """Line-aligned ranges of ``data``: context above each thread header that starts in
    ``[first, last)``, its frames below."""
    spans: list[tuple[int, int]] = []
    for hit in _SNIFF.finditer(data, first, min(len(data), last + _SNIFF_OVERLAP)):
        if hit.start() >= last:
            break
        start = data.rfind(b"\n", 0, max(0, hit.start() - CONTEXT_BYTES)) + 1
        if start == 0 and not at_start:  # the context reached the segment's cut, mid-line
            start = data.find(b"\n") + 1
        end = data.find(b"\n", min(len(data), hit.end() + AFTER_BYTES))
        if end < 0:
            end = len(data) if at_end else data.rfind(b"\n", hit.end()) + 1 or len(data)
        else:
            end += 1
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _lines(parser: LineParser, data: bytes, start: int, end: int, lineno: int) -> Iterator[LogLine]:
    offset = start
    chunk = bytes(data[start:end])
    for raw in chunk.split(b"\n")[: chunk.count(b"\n") + (not chunk.endswith(b"\n"))]:
        yield parser.parse(raw.rstrip(b"\r"), lineno, offset)
        offset, lineno = offset + len(raw) + 1, lineno + 1


def _finish(dump: _Dump, path: str) -> PastedDump:
    """Blocks of one pid become that process's samples (periodic dumps show movement)."""
    order: dict[str, list[_Block]] = {}
    for block in dump.blocks:
        order.setdefault(block.key or str(block.pid), []).append(block)
    processes = []
    for blocks in order.values():
        rank = next((b.rank for b in blocks if b.rank), None)
        source = next((b.source for b in blocks if b.rank), None)
        samples = tuple(
            Sample(at=float(i), threads=tuple(t.freeze() for t in b.threads if t.frames))
            for i, b in enumerate(blocks)
        )
        pid = blocks[0].pid or len(processes) + 1  # faulthandler names no pid: number them
        processes.append(ProcessCapture(pid, 0, blocks[0].cmdline, rank, source, samples))
    capture = Capture(
        root_pid=dump.blocks[0].pid, started=f"{path}:{dump.first}", interval=0.0,
        native=False, locals=False, pyspy_version=dump.tool, processes=tuple(processes),
    )  # fmt: skip
    return PastedDump(
        capture, path, dump.first, dump.last, dump.tool, dump.text, frozenset(dump.lines)
    )


class _Scanner:
    """A line-by-line state machine; log lines between dump lines are skipped, not fatal."""

    def __init__(self) -> None:
        self.dumps: list[_Dump] = []
        self.dump: _Dump | None = None
        self.thread: _Thread | None = None
        self.pid_ranks: dict[int, str] = {}  # "[.. TP0] Pyspy dump for PID 42:" -> 42: TP0
        self.fatal: dict[str, int] = {}  # stream -> line of its last "Fatal Python error"

    def run(self, lines: Iterator[LogLine]) -> None:
        for line in lines:
            self._feed(line)

    def _feed(self, line: LogLine) -> None:
        text = line.text
        if self.dump is not None and line.lineno - self.dump.last > GAP_LINES:
            self.dump, self.thread = None, None
        if (m := _DUMP_FOR.search(text)) and line.rank and not line.inferred:
            self.pid_ranks[int(m.group(1))] = line.rank
        if text.lstrip().startswith("Fatal Python error"):
            self.fatal[line.stream] = line.lineno
        if m := _PROCESS.match(text):
            self._process(line, int(m.group(1)), m.group(2).strip())
        elif m := _PYSPY_THREAD.match(text):
            self._thread(line, "py-spy", m.group(1), m.group(4), m.group(2) == "active", bool(m.group(3)))
        elif m := _FAULT_THREAD.match(text.strip()):
            self._fault_thread(line, m.group(2), m.group(1) == "Current thread")
        elif self.thread is not None:
            self._body(line, text)

    def _start(self, line: LogLine, tool: str) -> _Dump:
        if self.dump is None or self.dump.tool != tool:
            self.dump = _Dump(tool, line.lineno, line.lineno, line.raw)
            self.dumps.append(self.dump)
        self.dump.last = line.lineno
        self.dump.lines.add(line.lineno)
        return self.dump

    def _process(self, line: LogLine, pid: int, cmdline: str) -> None:
        dump = self._start(line, "py-spy")
        rank, source = detect_rank(cmdline, {})
        if rank is None and pid in self.pid_ranks:
            rank, source = self.pid_ranks[pid], "log line naming the pid"
        elif rank is None and line.rank and not line.inferred:
            rank, source = line.rank, "log prefix"
        dump.blocks.append(_Block(pid, cmdline, rank, source))
        self.thread = None

    def _thread(self, line: LogLine, tool: str, ident: str, name: str | None, active: bool,
                gil: bool) -> None:  # fmt: skip
        dump = self._start(line, tool)
        if not dump.blocks:  # a paste cut above its "Process N:" line
            dump.blocks.append(_Block(0, "", *self._line_rank(line)))
        self.thread = _Thread(ident, name, active, gil)
        dump.blocks[-1].threads.append(self.thread)

    def _fault_thread(self, line: LogLine, ident: str, current: bool) -> None:
        fatal = self.fatal.get(line.stream)
        if fatal is not None and line.lineno - fatal <= FAULT_THREAD_LINES:
            self.fatal[line.stream] = line.lineno  # the crash's next thread follows this one
            self.thread = None  # a crash's dump: the crash assembler reports it
            return
        dump = self._start(line, "faulthandler")
        key = f"stream {line.stream}"
        last = dump.blocks[-1] if dump.blocks else None
        if last is None or last.key != key or any(t.ident == ident for t in last.threads):
            pid = _STREAM_PID.search(line.stream)
            dump.blocks.append(
                _Block(int(pid.group(1)) if pid else 0, "", *self._line_rank(line), key=key)
            )
        self._thread(line, "faulthandler", ident, "MainThread" if current else None, True, False)

    @staticmethod
    def _line_rank(line: LogLine) -> tuple[str | None, str | None]:
        return (line.rank, "log prefix") if line.rank else (None, None)

    def _body(self, line: LogLine, text: str) -> None:
        thread, dump = self.thread, self.dump
        assert thread is not None and dump is not None
        if m := _FAULT_FRAME.match(text):
            thread.frames.append(StackFrame(m.group(3), m.group(1), int(m.group(2))))
        elif _LOCALS_HEAD.match(text) and thread.frames:
            thread.in_locals = True
        elif (m := _LOCAL.match(text)) and thread.in_locals and len(m.group(1)) > thread.frame_indent:
            last = thread.frames[-1]
            pair = (m.group(2), m.group(3))
            thread.frames[-1] = StackFrame(last.name, last.filename, last.line, last.native,
                                           last.code, (*last.locals, pair))  # fmt: skip
        elif m := _FRAME.match(text):
            thread.frames.append(_frame(m.group(2), m.group(3), m.group(4)))
            thread.frame_indent, thread.in_locals = len(m.group(1)), False
        else:
            return  # a log line written between dump lines
        dump.last = line.lineno
        dump.lines.add(line.lineno)


def _frame(name: str, where: str, line: str | None) -> StackFrame:
    """``name (file.py:N)`` is Python; ``0x7f.. (libc.so.6)`` or ``sym (python3.12)`` is native."""
    native = line is None or not (where.endswith(".py") or where.startswith("<"))
    return StackFrame(name, where, int(line) if line else 0, native=native)
