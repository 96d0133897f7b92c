"""Attributed lines -> one Crash per Python traceback (chained, interleaved by stream) or
faulthandler dump (read by faultdump.FaultDump)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum

from spectrace.assemblers.crash import ChainLink, Crash, CrashKind, Frame
from spectrace.assemblers.elastic import with_root_failure
from spectrace.assemblers.faultdump import (
    FAULT_FRAME,
    MAX_JUNK,
    FaultDump,
    FaultStep,
    keep,
    starts_dump,
)
from spectrace.assemblers.faultdump import MAX_FRAMES as MAX_FRAMES
from spectrace.assemblers.storm import storm_fit, unglued
from spectrace.assemblers.tb_lines import (
    CHAIN_MARKERS,
    EXCEPTION_SUFFIXES,
    SHELL_DEATH,
    announces,
    exception_message,
    parse_exception,
    starts_traceback,
    tb_start,
)
from spectrace.dialects.base import LogLine

CUT_TYPE = "Traceback"  # the type of a link whose exception line is not in the log
MAX_LINES = 400  # lines kept per record for display
MAX_MESSAGE_LINES = 40
AFTER_IDLE = 8  # lines a finished exception waits for a chain marker or message line
OPEN_IDLE = 128  # lines an unfinished record waits for its next line before it is cut


# The quotes may come escaped (File \"x.py\") when the log went through JSON on its way.
_CUT_FRAME = re.compile(r'\s*File \\?"')  # a frame line's start, whole or wrapped
# ",in" without its space: a terminal copy that joined a line wrapped after the comma
_FRAME = re.compile(r'\s*File (\\?)"(?P<file>[^"]*?)\1", line (?P<line>\d+), ?in (?P<func>.*)$')


class State(Enum):
    HEAD = "head"  # saw "Traceback (...)", waiting for frames
    FRAMES = "frames"
    AFTER = "after"  # saw the exception line
    GAP = "gap"  # saw a chain marker, waiting for the next "Traceback"
    FAULT = "fault"  # inside a faulthandler dump


@dataclass(slots=True)
class _Record:
    kind: CrashKind
    first: LogLine
    header: str | None
    state: State
    group: str | None = None  # the vLLM logger call the record's lines share
    lines: list[str] = field(default_factory=list)
    links: list[ChainLink] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    exc: tuple[str, str] | None = None
    message_lines: list[str] = field(default_factory=list)
    relation: str | None = None
    blank_after: bool = False
    last_lineno: int = 0
    idle: int = 0
    junk: int = 0
    dump: FaultDump | None = None  # the faulthandler dump a FAULT record reads
    blanks: int = 0  # blank lines after the exception, kept only if the record goes on
    indent: int = 0  # a pasted log indented as a whole: columns every line of it gains
    cut: str | None = None  # a frame line a terminal copy wrapped: its first part
    body: list[str] = field(default_factory=list)  # every non-blank line routed here (storm.py)
    reconstructed: bool = False  # lines a storm's peers took were filled in from the template
    loose: bool = False  # took a line that names no writer (a storm may route to it)
    interleaved: bool = False  # took lines by storm routing: its peers printed the same

    def add(self, line: LogLine) -> None:
        if len(self.lines) < MAX_LINES:
            self.lines.extend([""] * self.blanks)
            self.lines.append(line.text)
        self.blanks = 0
        self.last_lineno = line.lineno
        self.idle = 0

    @property
    def after(self) -> bool:
        """The exception line is in: message lines may follow (a storm's leader takes them)."""
        return self.state is State.AFTER and not self.blank_after

    @property
    def finished(self) -> bool:
        """Its exception and the blank line after it are in: only a chain marker follows."""
        return self.state is State.AFTER and self.blank_after

    @property
    def between_links(self) -> bool:
        """A chain marker is in: the next link's ``Traceback`` line comes next."""
        return self.state is State.GAP

    @property
    def accepting(self) -> bool:
        return self.state in (State.HEAD, State.FRAMES, State.GAP, State.FAULT)


@dataclass(frozen=True, slots=True)
class Fed:
    consumed: bool  # the line belongs to a record (crash rules must not see it again)
    started: bool = False  # the line opened a new record on its stream
    crashes: tuple[Crash, ...] = ()


class TracebackAssembler:
    """Keeps one open record per stream so interleaved ranks never mix."""

    def __init__(self) -> None:
        self._open: dict[str, _Record] = {}
        self._prev: dict[str, LogLine] = {}  # last line per stream: a same-call header line
        self._last_body: str | None = None  # the previous untagged body line
        self._round_robin = False  # untagged bodies of several ranks arrive line-interleaved
        self._taker: _Record | None = None  # the record that took the last untagged line

    @property
    def open(self) -> bool:
        """True while a record may still take lines (the scan window must stay open)."""
        return any(r.accepting or r.idle <= AFTER_IDLE for r in self._open.values())

    @property
    def first_open_line(self) -> int | None:
        """Line number where the earliest unfinished record starts (crashes before it are final)."""
        return min((r.first.lineno for r in self._open.values()), default=None)

    def adopt_header(self, stream: str, line: LogLine) -> bool:
        """A fatal line just before a traceback on the same stream is its header, not a crash.

        A logger's line (headed) may have continuation lines between; raw output (a GPU
        kernel's assertion) only heads the line right after it, else it is a crash of its own.
        """
        rec = self._open.get(stream)
        if rec is None or rec.kind is not CrashKind.TRACEBACK:
            return False
        if rec.first is not line and not line.headed and line.lineno != rec.first.lineno - 1:
            return False
        if not line.headed and SHELL_DEATH.fullmatch(line.text.strip()):
            return False  # a process killed by a signal printed no traceback: not this one's
        if rec.first is not line and rec.header is None:
            rec.header, rec.first = line.text.strip(), line
            rec.lines.insert(0, line.text)
        return rec.first is line

    def feed(self, line: LogLine) -> Fed:
        pieces = unglued(line)
        if len(pieces) == 1:
            return self._feed(pieces[0])
        fed = [self._feed(piece) for piece in pieces]
        return Fed(any(f.consumed for f in fed), any(f.started for f in fed),
                   tuple(c for f in fed for c in f.crashes))  # fmt: skip

    def _feed(self, line: LogLine) -> Fed:
        done: list[Crash] = []
        rec = self._open.get(line.stream)
        if rec is not None and line.headed and (line.group is None or line.group != rec.group):
            done.append(self._close(line.stream))
            rec = None
        fit = storm_fit(self._open.values(), line, self._taker)
        if fit is not None and fit.record is None:
            self._age(line, done)
            return Fed(True, False, tuple(done))
        if fit is not None:
            rec = self._catch_up(fit.record, fit.lost, line, done)
            if fit.text != line.text:  # a cut exception line, read as its peers printed it
                line, rec.reconstructed = replace(line, text=fit.text), True
        else:
            rec = self._route(line, rec)
        consumed, started = False, False
        if rec is not None:
            consumed = self._step(rec, _dedent(line, rec.indent), done)
            rec.loose = rec.loose or (consumed and line.inferred)
            if consumed and len(rec.body) < MAX_LINES and line.text.strip():
                rec.body.append(line.text)
            if consumed and line.inferred and line.text.strip():
                self._taker = rec
        if not consumed and not (fit and _FRAME.match(line.text)):
            started = self._maybe_start(line, done)  # (a storm's stray frame starts nothing)
            consumed = started
        self._age(line, done)
        if not self._open:
            self._round_robin, self._last_body, self._taker = False, None, None
        self._prev[line.stream] = line
        return Fed(consumed, started, tuple(done))

    def close_all(self) -> list[Crash]:
        return [self._close(stream) for stream in list(self._open)]

    def _catch_up(self, rec: _Record, lost: tuple[str, ...], line: LogLine,
                  done: list[Crash]) -> _Record:  # fmt: skip
        """Give a storm's record the template lines it lost to its peers (storm.py)."""
        for text in lost:
            self._step(rec, replace(line, text=text), done)
            rec.body.append(text)
        rec.reconstructed = rec.reconstructed or bool(lost)
        own = self._open.get(line.stream)
        if own is not rec:  # the line's writer is not the last to print a header: a storm
            rec.interleaved = True
            if own is not None:
                own.interleaved = True
        return rec

    def _route(self, line: LogLine, rec: _Record | None) -> _Record | None:
        """Untagged body lines of line-interleaved tracebacks go to a record that still wants them.

        Several ranks writing the same traceback line by line show as runs of identical lines;
        once seen, body lines go round-robin to the record fed longest ago.
        """
        if not line.inferred:
            return rec
        text = line.text
        if _FRAME.match(text) or (text[:1].isspace() and text.strip()):
            want: tuple[State, ...] = (State.HEAD, State.FRAMES, State.GAP, State.FAULT)
        elif parse_exception(text) is not None:
            want = (State.FRAMES,)  # only a record with frames can end with an exception line
        else:
            return rec
        others = [r for r in self._open.values() if r.state in want and r.first.group is None]
        if text == self._last_body and len(others) > 1:
            self._round_robin = True
        self._last_body = text
        if self._round_robin and others:
            return min(others, key=lambda r: r.last_lineno)
        if rec is not None and rec.accepting:
            return rec
        return others[-1] if others else rec

    def _step(self, rec: _Record, line: LogLine, done: list[Crash]) -> bool:
        """Advance one record by one line; False when the line is not part of it."""
        text = line.text
        if rec.state is State.FAULT:
            return self._step_fault(rec, line, done)
        if starts_traceback(text):
            if rec.state is State.GAP:
                rec.state = State.HEAD
                rec.add(line)
                return True
            return False  # a new traceback: the caller closes this one and starts again
        if rec.cut is not None:  # the wrapped rest of a frame line; indented with the paste
            joined = (rec.cut + rest for rest in (text, text.lstrip()))
            text, rec.cut = next((j for j in joined if _FRAME.match(j)), line.text), None
        if rec.state in (State.HEAD, State.FRAMES) and _CUT_FRAME.match(text):
            if not (m := _FRAME.match(text)) or not m["func"].strip():
                rec.cut = text
                rec.add(line)
                return True
        if m := _FRAME.match(text):
            if rec.state is State.AFTER or rec.state is State.GAP:
                return False
            _add_frame(rec, _frame(m))
            rec.state = State.FRAMES
        elif not text.strip():
            if rec.state is State.AFTER:
                rec.blank_after, rec.blanks = True, rec.blanks + 1
                return True
        elif text[0].isspace():
            if rec.state is State.AFTER:
                return self._message_line(rec, line)
            if (exc := _indented_exception(rec, text)) is not None:
                rec.exc, rec.state, rec.blank_after = exc, State.AFTER, False
            else:
                _add_code(rec, text)
        elif text.strip() in CHAIN_MARKERS and rec.state is State.AFTER:
            self._push_link(rec, CHAIN_MARKERS[text.strip()])
            rec.state = State.GAP
        elif rec.state is State.AFTER:
            return self._message_line(rec, line)
        elif (exc := parse_exception(text)) is not None and rec.state is not State.GAP:
            rec.exc, rec.state, rec.blank_after = exc, State.AFTER, ":" not in text
            # a bare "KeyboardInterrupt" has no message: what follows is the next record
        else:
            rec.junk += 1
            return rec.junk <= MAX_JUNK
        rec.add(line)
        return True

    def _message_line(self, rec: _Record, line: LogLine) -> bool:
        if rec.blank_after or len(rec.message_lines) >= MAX_MESSAGE_LINES:
            return False
        rec.message_lines.append(line.text)
        rec.add(line)
        return True

    def _step_fault(self, rec: _Record, line: LogLine, done: list[Crash]) -> bool:
        assert rec.dump is not None  # every FAULT record reads a dump
        step = rec.dump.step(line.text)
        if step is FaultStep.FOREIGN:
            return False
        if step is FaultStep.ENDED:
            done.append(self._close(line.stream))
            return False
        rec.add(line)
        if step is FaultStep.LAST:
            done.append(self._close(line.stream))
        return True

    def _maybe_start(self, line: LogLine, done: list[Crash]) -> bool:
        text = line.text
        idx = tb_start(text)
        fault = starts_dump(text)
        frame = _FRAME.match(text) or FAULT_FRAME.match(text)
        if idx < 0 and not fault and not frame:
            return False
        if line.stream in self._open:
            done.append(self._close(line.stream))
        if fault:
            rec = _Record(CrashKind.FAULTHANDLER, line, None, State.FAULT)
            rec.dump = FaultDump.opened_by(text)
        elif idx >= 0:
            rec = self._traceback_record(line, idx)
        else:
            rec = _mid_record(line, frame)
        rec.add(line)
        rec.body.append(text)
        self._open[line.stream] = rec
        return True

    def _traceback_record(self, line: LogLine, idx: int) -> _Record:
        """A record opened by ``Traceback (most recent call last):``, with the message before it."""
        text = line.text
        header = text[:idx].strip().rstrip(":").strip() or None
        if header is not None and not any(c.isalnum() for c in header):
            header = None  # the quote opening a logged string ('"Traceback (most ...')
        rec = _Record(CrashKind.TRACEBACK, line, header, State.HEAD, line.group)
        # a paste indented as a whole moves every line of the record (and its header line)
        rec.indent = line.indent + (idx if header is None else 0)
        prev = self._prev.get(line.stream)
        if header is None and prev is not None and announces(prev, line):
            rec.header, rec.first = prev.text.strip(), prev  # logger.exception("msg")
            rec.lines.append(prev.text)
        return rec

    def _age(self, line: LogLine, done: list[Crash]) -> None:
        """Close records idle too long; a storm's writers take turns, so each waits longer: a
        record whose exception is in may still get a chain marker after its peers' pipe blocks."""
        crowd = sum(r.loose for r in self._open.values()) if len(self._open) > 1 else 1
        for stream, rec in list(self._open.items()):
            if rec.last_lineno == line.lineno:
                continue
            rec.idle += 1
            if rec.loose and crowd > 1:
                limit = OPEN_IDLE * crowd
            else:
                limit = AFTER_IDLE if rec.state is State.AFTER else OPEN_IDLE
            if rec.idle > limit:
                done.append(self._close(stream))

    def _push_link(self, rec: _Record, relation: str | None) -> None:
        etype, msg = rec.exc or (CUT_TYPE, "traceback ended before its exception line")
        rec.links.append(
            ChainLink(etype, exception_message(msg, rec.message_lines), tuple(rec.frames), relation)
        )
        rec.frames, rec.exc, rec.message_lines, rec.blank_after = [], None, [], False

    def _close(self, stream: str) -> Crash:
        rec = self._open.pop(stream)
        if rec.dump is not None:
            etype, msg, frames = rec.dump.result()
            chain: tuple[ChainLink, ...] = ()
        else:
            if rec.state is State.GAP:  # a chain marker with nothing after it
                rec.links[-1] = replace(rec.links[-1], relation=None)
            else:
                self._push_link(rec, None)
            last = _raised(rec.links)
            etype, msg, frames = last.exception_type, last.message, last.frames
            chain = tuple(rec.links) if len(rec.links) > 1 else ()
        first = rec.first
        crash = Crash(
            kind=rec.kind, exception_type=etype, message=msg, source=first.source,
            lineno=first.lineno, end_lineno=max(rec.last_lineno, first.lineno), offset=first.offset,
            stream=stream, rank=first.rank, ts=first.ts, ts_text=first.ts_text, frames=frames,
            chain=chain, header=rec.header, lines=tuple(rec.lines),
            frames_reconstructed=rec.reconstructed, interleaved=rec.interleaved, node=first.node,
        )  # fmt: skip
        return with_root_failure(crash) if etype.endswith("ChildFailedError") else crash


def _mid_record(line: LogLine, frame: re.Match[str]) -> _Record:
    """A pasted log that begins mid-traceback, or mid faulthandler dump (``line N in f``, no
    comma): the frames are the crash; the header was cut off. A frame line is indented by two."""
    start = _frame(frame)
    indent = max(len(line.text) - len(line.text.lstrip()) - 2, 0)
    if _FRAME.match(line.text):
        rec = _Record(CrashKind.TRACEBACK, line, None, State.FRAMES, line.group, indent=indent)
    else:
        rec = _Record(CrashKind.FAULTHANDLER, line, None, State.FAULT, indent=indent)
        rec.dump = FaultDump.cut(start)
        return rec
    rec.frames.append(start)
    return rec


def _frame(m: re.Match[str]) -> Frame:
    """A frame from its line; a paste that lost the line break glues the code line after the
    function (``in engine_step      request_outputs = ...``): no function name has a blank."""
    func, _, code = m["func"].strip().partition(" ")
    return Frame(m["file"], int(m["line"]), func, code.strip() or None)


def _raised(links: list[ChainLink]) -> ChainLink:
    """The link that names the crash: the last one, or when a cut paste lost its exception
    line, the last one that still has one (the cause is known even if the end is not)."""
    named = [link for link in links if link.exception_type != CUT_TYPE]
    return links[-1] if links[-1].exception_type != CUT_TYPE or not named else named[-1]


def _dedent(line: LogLine, indent: int) -> LogLine:
    """The line as its record printed it: a whole-paste indentation taken off (when it has it)."""
    if indent and line.text[:indent].isspace():
        return replace(line, text=line.text[indent:])
    return line


def _indented_exception(rec: _Record, text: str) -> tuple[str, str] | None:
    """An exception line indented like code, right after the last frame's code line (a
    traceback printed inside a logged string, each line pushed right): after a frame's code
    only a frame, a caret line or the exception can follow, and code never reads
    ``SomeError: message``."""
    if rec.state is not State.FRAMES or not rec.frames or rec.frames[-1].code is None:
        return None
    exc = parse_exception(text.strip())
    return exc if exc is not None and exc[0].endswith(EXCEPTION_SUFFIXES) else None


def _add_code(rec: _Record, text: str) -> None:
    code = text.strip()
    if rec.frames and rec.frames[-1].code is None and code.strip("^~ ") and code[0] != "[":
        f = rec.frames[-1]
        rec.frames[-1] = Frame(f.file, f.line, f.function, code)


def _add_frame(rec: _Record, frame: Frame) -> None:
    """Keep the outermost and the innermost frames: the worker path and the crash site."""
    keep(rec.frames, frame)
