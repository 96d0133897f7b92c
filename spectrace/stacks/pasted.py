"""`py-spy dump` text (and faulthandler thread dumps) pasted inside a log -> stacks Captures.

Fed by the scan's single pass (``scan.py``): the dump's marker lines are hot literals of the
prefilter, and the scan's window stays open over a dump's frames; the log is never read twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from spectrace.assemblers.crash import Crash
from spectrace.assemblers.faultdump import cut_header
from spectrace.dialects.base import LogLine

if TYPE_CHECKING:
    from spectrace.stacks.model import Capture, ThreadStack

# The capture model and the rank classifier are imported once a dump is seen: every scan
# holds a DumpScanner, few logs hold a dump.

# The frames a stuck rank waits in, as py-spy prints them (``name (file.py:N)``; a traceback
# writes ``file.py", line N``): a paste of stacks cut above its "Process N:" / "Thread" lines
# is found by these alone.
LOOSE_LITERALS: tuple[bytes, ...] = (
    b"distributed_c10d.py:",
    b"parallel_state.py:",
    b"shm_broadcast.py:",
    b"threading.py:",
    b"zmq/sugar/socket.py:",
    b"cuda/__init__.py:",
    b"cuda/streams.py:",
)
LOOSE_TOOL = "py-spy (no header)"
_LOOSE_TEXT = tuple(lit.decode() for lit in LOOSE_LITERALS)
# Lines a dump is found by: "Process N:", py-spy thread states, faulthandler thread headers,
# a watchdog's "Pyspy dump for PID N:" (the scan parses these and every line of an open dump)
DUMP_LITERALS: tuple[bytes, ...] = (
    b"Process ",
    b"(idle)",
    b"(active",
    b"(most recent call first)",
    b"dump for PID",
    b"Dump for PID",
    *LOOSE_LITERALS,
)
_PROCESS = re.compile(r"^Process (\d+): (.*)$")
_PYSPY_THREAD = re.compile(
    r'^Thread (0x[0-9A-Fa-f]+|\d+) \((active|idle)(\+gil)?\)(?:: "(.*)")?\s*$'
)
# py-spy indents a frame by 4 blanks; a paste may have turned them into one tab; a note may follow
# it ("forward (eagle_worker.py:610)   <- stuck here")
_NOTE = r"(?:\s+(?:<-|←|#|//)[^\n]*)?"
_FRAME = re.compile(rf"^(\s{{2,}}|\t)(\S.*?) \(([^()]*?)(?::(\d+))?\){_NOTE}\s*$")
# a summary's line for one rank or several: a rank label, then the innermost frame its stack
# waits in, the outer frames indented below it ("DP3:   run_batch  (scheduler.py:120)",
# "TP1,5,7:  all_reduce (torch/distributed/distributed_c10d.py:99)", "[rank3] | all_reduce (x.py:9)")
_LABELLED = re.compile(
    rf"^\s*(\[?[A-Za-z][\w .-]{{0,12}}?\d[\w,.-]*\]?)\s*[:|]\s+(\S.*?)\s+\(([^()]*?\.py):(\d+)\){_NOTE}\s*$"
)
# the same line once a log dialect peeled its rank prefix ("[rank1]: propose (x/eagle.py:233)"):
# the frame at the line's start, the rank on the line
_BARE = re.compile(rf"^(\S.*?)\s+\(([^()]*?\.py):(\d+)\){_NOTE}\s*$")
_LOCALS_HEAD = re.compile(r"^\s{4,}(Arguments|Locals):\s*$")
_LOCAL = re.compile(r"^(\s{6,})([A-Za-z_][\w.]*): (.*)$")
_FAULT_THREAD = re.compile(r"^(Current thread|Thread) (0x[0-9A-Fa-f]+) \(most recent call first\):")
_FAULT_HEADS = ("Thread 0x", "Current thread 0x")
_FAULT_FRAME = re.compile(r'^\s+File "(.*)", line (\d+) in (.+?)\s*$')
_STREAM_PID = re.compile(r"\bpid=(\d+)\b")
_DUMP_FOR = re.compile(r"\bdump for PID (\d+)\b", re.IGNORECASE)
FAULT_THREAD_LINES = 110  # faulthandler prints at most 100 frames of a thread
GAP_LINES = 40  # log lines between two blocks of one dump before it counts as a new dump


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
    offset: int = 0  # byte offset of its first line (a parallel scan's ranges are merged by it)
    # the offsets of its own lines: records cut from one physical line (a log carried as one
    # escaped string) share its number, not its offset
    offsets: frozenset[int] = frozenset()


@dataclass(slots=True)
class _Frame:
    name: str
    filename: str
    line: int
    native: bool = False
    locals: list[tuple[str, str]] = field(default_factory=list)


@dataclass(slots=True)
class _Thread:
    ident: str
    name: str | None
    active: bool
    gil: bool
    frames: list[_Frame] = field(default_factory=list)
    frame_indent: int = -1
    in_locals: bool = False

    def freeze(self) -> ThreadStack:
        from spectrace.stacks.model import StackFrame, ThreadStack

        native_id = int(self.ident) if self.ident.isdigit() else None
        tid = native_id if native_id is not None else int(self.ident, 16)
        frames = tuple(
            StackFrame(f.name, f.filename, f.line, f.native, None, tuple(f.locals))
            for f in self.frames
        )
        return ThreadStack(tid, self.name, self.active, self.gil, frames, native_id)


@dataclass(slots=True)
class _Block:
    """One process's part of a dump: its header, rank and threads."""

    pid: int
    cmdline: str
    rank: str | None
    source: str | None
    key: str = ""  # py-spy: the pid; faulthandler: the writer's stream (it names no pid)
    threads: list[_Thread] = field(default_factory=list)
    role: str | None = None  # "EngineCore_DP0", "detokenizer": a coordinator, not a rank


@dataclass(slots=True)
class _Dump:
    tool: str
    first: int
    last: int
    text: str
    offset: int
    blocks: list[_Block] = field(default_factory=list)
    lines: set[int] = field(default_factory=set)  # the line numbers that are the dump's own
    offsets: set[int] = field(default_factory=set)  # and their offsets


def inside_dump(crash: Crash, dumps: Sequence[PastedDump]) -> bool:
    """A crash record that starts on a dump's own line (a thread header, a ``--locals`` repr
    saying "NCCL error") is that dump's text; one another writer interleaved is a crash. A
    lone faulthandler block (one writer, one thread, none marked current) stays the crash:
    no hang is read from one writer, and the fatal handler prints it so for a crash off a
    Python thread once its ``Fatal Python error`` line is cut (a dump a thread asked for
    marks that thread current; one on a timer says ``Timeout``: assemblers/faultdump.py)."""
    return any(
        d.source == crash.source and crash.lineno in d.lines and crash.offset in d.offsets
        and not (cut_header(crash.exception_type, crash.message) and _lone_block(d))
        for d in dumps
    )  # fmt: skip


def _lone_block(dump: PastedDump) -> bool:
    processes = dump.capture.processes
    if dump.tool != "faulthandler" or len(processes) != 1 or len(processes[0].samples) != 1:
        return False
    threads = processes[0].samples[0].threads  # (a block cut before its first frame: none)
    return len(threads) <= 1 and all(t.name is None for t in threads)


def shifted(dump: PastedDump, lines: int) -> PastedDump:
    """The dump of a later byte range, numbered from the start of the whole file."""
    first = dump.lineno + lines
    return replace(
        dump, lineno=first, end_lineno=dump.end_lineno + lines,
        lines=frozenset(n + lines for n in dump.lines),
        capture=replace(dump.capture, started=f"{dump.source}:{first}"),
    )  # fmt: skip


def _finish(dump: _Dump, path: str) -> PastedDump:
    """Blocks of one pid become that process's samples (periodic dumps show movement)."""
    from spectrace.stacks.model import Capture, ProcessCapture, Sample

    order: dict[str, list[_Block]] = {}
    for block in dump.blocks:
        order.setdefault(block.key or str(block.pid), []).append(block)
    processes = []
    for blocks in order.values():
        rank = next((b.rank for b in blocks if b.rank), None)
        source = next((b.source for b in blocks if b.rank), None)
        role = next((b.role for b in blocks if b.role), None)
        samples = tuple(
            Sample(at=float(i), threads=tuple(t.freeze() for t in b.threads if t.frames))
            for i, b in enumerate(blocks)
        )
        pid = blocks[0].pid or len(processes) + 1  # faulthandler names no pid: number them
        processes.append(
            ProcessCapture(pid, 0, blocks[0].cmdline, rank, source, samples, role=role)
        )
    capture = Capture(
        root_pid=dump.blocks[0].pid, started=f"{path}:{dump.first}", interval=0.0,
        native=False, locals=False, pyspy_version=dump.tool, processes=tuple(processes),
    )  # fmt: skip
    return PastedDump(capture, path, dump.first, dump.last, dump.tool, dump.text,
                      frozenset(dump.lines), dump.offset, frozenset(dump.offsets))  # fmt: skip


class DumpScanner:
    """A line-by-line state machine over the lines the scan parses; log lines between dump
    lines are skipped, not fatal."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.dumps: list[_Dump] = []
        self.dump: _Dump | None = None
        self.thread: _Thread | None = None
        self.pid_ranks: dict[int, str] = {}  # "[.. TP0] Pyspy dump for PID 42:" -> 42: TP0
        self.fatal: dict[str, int] = {}  # stream -> line of its last "Fatal Python error"
        self.lineno = 0  # the last line fed
        self.loose: dict[str, _Thread] = {}  # stream -> its stack pasted with no header

    @property
    def open(self) -> bool:
        """A dump may go on: the scan keeps parsing lines (its frames hold no hot literal)."""
        return self.dump is not None and self.lineno - self.dump.last < GAP_LINES

    def result(self) -> list[PastedDump]:
        """The dumps that hold a thread: "Process N: ..." lines alone are no dump."""
        return [_finish(d, self.source) for d in self.dumps if any(b.threads for b in d.blocks)]

    def feed(self, line: LogLine, candidate: bool = True) -> None:
        """``candidate``: the line holds a hot literal (every header line of a dump does)."""
        text = line.text
        self.lineno = line.lineno
        if self.dump is not None and line.lineno - self.dump.last > GAP_LINES:
            self.dump, self.thread = None, None
            self.loose.clear()
        if candidate and self._header(line, text):
            self.loose.clear()
            return
        if self.thread is not None:
            self._body(line, text)
        elif self.loose or candidate:
            self._loose(line, text, candidate)

    def _header(self, line: LogLine, text: str) -> bool:
        """Each pattern only after the cheap test its match implies: most candidate lines of
        a crash-dense log are traceback lines, none of them a dump's."""
        m: re.Match[str] | None
        if "dump for pid" in text.lower() and (m := _DUMP_FOR.search(text)):
            if line.rank and not line.inferred:
                self.pid_ranks[int(m.group(1))] = line.rank
        stripped = text.strip()
        if stripped.startswith("Fatal Python error"):
            self.fatal[line.stream] = line.lineno
        if text.startswith("Process ") and (m := _PROCESS.match(text)):
            self._process(line, int(m.group(1)), m.group(2).strip())
        elif text.startswith("Thread ") and (m := _PYSPY_THREAD.match(text)):
            self._thread(
                line, "py-spy", m.group(1), m.group(4), m.group(2) == "active", bool(m.group(3))
            )
        elif stripped.startswith(_FAULT_HEADS) and (m := _FAULT_THREAD.match(stripped)):
            self._fault_thread(line, m.group(2), m.group(1) == "Current thread")
        else:
            return False
        return True

    def _start(self, line: LogLine, tool: str) -> _Dump:
        if self.dump is None or self.dump.tool != tool:
            self.dump = _Dump(tool, line.lineno, line.lineno, line.raw, line.offset)
            self.dumps.append(self.dump)
        self.dump.last = line.lineno
        self.dump.lines.add(line.lineno)
        self.dump.offsets.add(line.offset)
        return self.dump

    def _process(self, line: LogLine, pid: int, cmdline: str) -> None:
        from spectrace.stacks.classify import detect_rank
        from spectrace.stacks.roles import detect_role

        dump = self._start(line, "py-spy")
        rank, source = detect_rank(cmdline, {})
        if rank is None and pid in self.pid_ranks:
            rank, source = self.pid_ranks[pid], "log line naming the pid"
        elif rank is None and line.rank and not line.inferred:
            rank, source = line.rank, "log prefix"
        role = detect_role(cmdline, entry_point=rank is None)
        dump.blocks.append(_Block(pid, cmdline, rank, source, role=role))
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

    def _loose(self, line: LogLine, text: str, candidate: bool) -> None:
        """py-spy frames pasted without their "Process" and "Thread" lines: one stack per
        writer (rank), started by a frame a waiting rank sits in, ended by any other line
        of that writer; a second run of the same writer is a later sample of it. A summary
        written per rank (``_LABELLED``) starts one stack at each label's line, its innermost
        frame, and the frames indented below it are that stack's."""
        labelled = _LABELLED.match(text)
        if labelled is None and line.rank and not line.inferred:
            labelled = _BARE.match(text)  # (its label is the rank the dialect read)
        if labelled is not None and (candidate or self.loose):
            label = labelled.group(1) if labelled.re is _LABELLED else str(line.rank)
            name, where, at = labelled.groups()[-3:]
            dump = self._start(line, LOOSE_TOOL)
            dump.blocks.append(_Block(0, "", *self._line_rank(line), key=f"stream {line.stream} {label}"))
            thread = self.loose[line.stream] = _Thread(str(len(dump.blocks)), label, True, False)
            if line.stream:  # its indented frames below carry no rank prefix
                self.loose[""] = thread
            dump.blocks[-1].threads.append(thread)
            thread.frames.append(_frame(name, where, at))
            return
        m = _FRAME.match(text)
        thread = self.loose.get(line.stream)
        if m is None:
            self.loose.pop(line.stream, None)
            return
        if thread is None:
            if not (candidate and m.group(4) and m.group(3).endswith(".py")):
                return
            if not any(lit in text for lit in _LOOSE_TEXT):
                return
            dump = self._start(line, LOOSE_TOOL)
            key = f"stream {line.stream}"
            dump.blocks.append(_Block(0, "", *self._line_rank(line), key=key))
            thread = self.loose[line.stream] = _Thread(str(len(dump.blocks)), None, True, False)
            dump.blocks[-1].threads.append(thread)
        thread.frames.append(_frame(m.group(2), m.group(3), m.group(4)))
        dump = self._start(line, LOOSE_TOOL)
        dump.last = line.lineno

    def _body(self, line: LogLine, text: str) -> None:
        thread, dump = self.thread, self.dump
        assert thread is not None and dump is not None
        if m := _FAULT_FRAME.match(text):
            thread.frames.append(_Frame(m.group(3), m.group(1), int(m.group(2))))
        elif _LOCALS_HEAD.match(text) and thread.frames:
            thread.in_locals = True
        elif (
            (m := _LOCAL.match(text)) and thread.in_locals and len(m.group(1)) > thread.frame_indent
        ):
            thread.frames[-1].locals.append((m.group(2), m.group(3)))
        elif m := _FRAME.match(text):
            thread.frames.append(_frame(m.group(2), m.group(3), m.group(4)))
            thread.frame_indent, thread.in_locals = len(m.group(1)), False
        else:
            return  # a log line written between dump lines
        dump.last = line.lineno
        dump.lines.add(line.lineno)
        dump.offsets.add(line.offset)


def _frame(name: str, where: str, line: str | None) -> _Frame:
    """``name (file.py:N)`` is Python; ``0x7f.. (libc.so.6)`` or ``sym (python3.12)`` is native."""
    native = line is None or not (where.endswith(".py") or where.startswith("<"))
    return _Frame(name.rstrip(), where, int(line) if line else 0, native=native)  # (a column's padding)
