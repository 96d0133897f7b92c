"""One traceback record: what each line does to it, and the Crash it becomes.

A record is a Python traceback (its chain of links: frames, exception line, message lines,
the marker to the next link) or a faulthandler dump (read by faultdump.FaultDump). Which
record a line goes to is the assembler's job (tracebacks.py); here a record only says whether
the line is its own and keeps what it says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum
from keyword import iskeyword

from spectrace.assemblers.crash import ChainLink, Crash, CrashKind, Frame
from spectrace.assemblers.elastic import with_root_failure
from spectrace.assemblers.faultdump import MAX_JUNK, FaultDump, FaultStep, keep
from spectrace.assemblers.tb_lines import (
    CHAIN_MARKERS,
    EXCEPTION_SUFFIXES,
    exception_message,
    parse_exception,
    starts_traceback,
)
from spectrace.dialects.base import LogLine

CUT_TYPE = "Traceback"  # the type of a link whose exception line is not in the log
CUT_MESSAGE = "traceback ended before its exception line"
MAX_LINES = 400  # lines kept per record for display
MAX_MESSAGE_LINES = 40


# The quotes may come escaped (File \"x.py\") when the log went through JSON on its way.
CUT_FRAME = re.compile(r'\s*File \\?"')  # a frame line's start, whole or wrapped
# ",in" without its space: a terminal copy that joined a line wrapped after the comma; no line
# number at all where a formatter or a writer trimmed the frames (``File ".../eagle.py", in
# propose``): the file and function still say which code ran
# A compact frame a note retells a traceback with (``File ".../srt/models/dspark.py:233  forward``):
# the path and its line joined by a colon, the quote never closed, the function after blanks
# (``cline``: its line number).
FRAME = re.compile(
    r'\s*File (\\?)"(?P<file>[^"]*?)(?:\1",(?: line (?P<line>\d+),)? ?in '
    r'|(?<=\.py):(?P<cline>\d+)(?:[ \t]{2,}|[ \t]+in[ \t]+)(?=[A-Za-z_<]))(?P<func>.*)$'
)
# A frame line a copy cut at its start (``/lib/python3.10/.../parameter.py", line 216, in f``):
# the pasted traceback begins there; the file's end, its line and function are whole.
HEAD_CUT_FRAME = re.compile(r'\s*(?P<file>[\w./\\~-]*\.py)\\?", line (?P<line>\d+), ?in (?P<func>\S.*)$')


class State(Enum):
    HEAD = "head"  # saw "Traceback (...)", waiting for frames
    FRAMES = "frames"
    AFTER = "after"  # saw the exception line
    GAP = "gap"  # saw a chain marker, waiting for the next "Traceback"
    FAULT = "fault"  # inside a faulthandler dump


@dataclass(slots=True)
class Record:
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
    complete: bool = False  # its faulthandler dump ended: nothing more can join it
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


def step(rec: Record, line: LogLine) -> bool:
    """Advance one record by one line; False when the line is not part of it."""
    if rec.state is State.FAULT:
        return _step_fault(rec, line)
    text = line.text
    if starts_traceback(text):
        if rec.state is State.GAP:
            rec.state = State.HEAD
            rec.add(line)
            return True
        return False  # a new traceback: the caller closes this one and starts again
    if rec.cut is not None:  # the wrapped rest of a frame line; indented with the paste
        joined = (rec.cut + rest for rest in (text, text.lstrip()))
        text, rec.cut = next((j for j in joined if FRAME.match(j)), line.text), None
    if rec.state in (State.HEAD, State.FRAMES) and CUT_FRAME.match(text):
        if not (m := FRAME.match(text)) or not m["func"].strip():
            rec.cut = text
            rec.add(line)
            return True
    if m := FRAME.match(text):
        if rec.state is State.AFTER or rec.state is State.GAP:
            return False
        _add_frame(rec, frame_of(m))
        rec.state = State.FRAMES
    elif not text.strip():
        if rec.state is State.AFTER:
            rec.blank_after, rec.blanks = True, rec.blanks + 1
            return True
    elif rec.state is State.AFTER and (text[0].isspace() or text.strip() not in CHAIN_MARKERS):
        return _message_line(rec, line)
    elif not _took(rec, text):
        rec.junk += 1
        return rec.junk <= MAX_JUNK
    rec.add(line)
    return True


def _took(rec: Record, text: str) -> bool:
    """A code line, a chain marker or an exception line taken in; False: none of them."""
    if text[0].isspace():
        if (exc := _indented_exception(rec, text)) is not None:
            rec.exc, rec.state, rec.blank_after = exc, State.AFTER, False
        else:
            _add_code(rec, text)
    elif text.strip() in CHAIN_MARKERS and rec.state is State.AFTER:
        push_link(rec, CHAIN_MARKERS[text.strip()])
        rec.state = State.GAP
    elif (exc := parse_exception(text)) is not None and rec.state is not State.GAP:
        rec.exc, rec.state, rec.blank_after = exc, State.AFTER, ":" not in text
        # a bare "KeyboardInterrupt" has no message: what follows is the next record
    else:
        return False
    return True


def _message_line(rec: Record, line: LogLine) -> bool:
    if rec.blank_after or len(rec.message_lines) >= MAX_MESSAGE_LINES:
        return False
    rec.message_lines.append(line.text)
    rec.add(line)
    return True


def _step_fault(rec: Record, line: LogLine) -> bool:
    """A faulthandler dump's line; the record is ``complete`` when the dump ended."""
    assert rec.dump is not None  # every FAULT record reads a dump
    fault = rec.dump.step(line.text)
    if fault is FaultStep.FOREIGN:
        return False
    if fault is FaultStep.ENDED:
        rec.complete = True
        return False
    rec.add(line)
    rec.complete = fault is FaultStep.LAST
    return True


def push_link(rec: Record, relation: str | None) -> None:
    """The link read so far joins the chain (a marker said another follows, or it ended)."""
    etype, msg = rec.exc or (CUT_TYPE, CUT_MESSAGE)
    rec.links.append(
        ChainLink(etype, exception_message(msg, rec.message_lines), tuple(rec.frames), relation)
    )
    rec.frames, rec.exc, rec.message_lines, rec.blank_after = [], None, [], False


def record_crash(rec: Record, stream: str) -> Crash:
    """The crash a closed record is: the link that names it, the chain, the first line's writer."""
    if rec.dump is not None:
        etype, msg, frames = rec.dump.result()
        chain: tuple[ChainLink, ...] = ()
    else:
        if rec.state is State.GAP:  # a chain marker with nothing after it
            rec.links[-1] = replace(rec.links[-1], relation=None)
        else:
            push_link(rec, None)
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
        quoted=first.quoted,
    )  # fmt: skip
    return with_root_failure(crash) if etype.endswith("ChildFailedError") else crash


def mid_record(line: LogLine, frame: re.Match[str]) -> Record:
    """A pasted log that begins mid-traceback, or mid faulthandler dump (``line N in f``, no
    comma): the frames are the crash; the header was cut off. A frame line is indented by two."""
    start = frame_of(frame)
    indent = max(len(line.text) - len(line.text.lstrip()) - 2, 0)
    if FRAME.match(line.text) or HEAD_CUT_FRAME.match(line.text):
        rec = Record(CrashKind.TRACEBACK, line, None, State.FRAMES, line.group, indent=indent)
    else:
        rec = Record(CrashKind.FAULTHANDLER, line, None, State.FAULT, indent=indent)
        rec.dump = FaultDump.cut(start)
        return rec
    rec.frames.append(start)
    return rec


def frame_of(m: re.Match[str]) -> Frame:
    """A frame from its line; a paste that lost the line break glues the code line after the
    function (``in engine_step      request_outputs = ...``): no function name has a blank.
    A page that took ``<module>`` for an HTML tag leaves the code where the name was (``in
    from vllm.v1... import X``): no function is named for a keyword, so it was an import."""
    func, _, code = m["func"].strip().partition(" ")
    if iskeyword(func):
        func, code = "<module>", m["func"].strip()
    line = m["line"] or (m["cline"] if m.re is FRAME else None)
    return Frame(m["file"], int(line) if line else None, func, code.strip() or None)


def _raised(links: list[ChainLink]) -> ChainLink:
    """The link that names the crash: the last one, or when a cut paste lost its exception
    line, the last one that still has one (the cause is known even if the end is not)."""
    named = [link for link in links if link.exception_type != CUT_TYPE]
    return links[-1] if links[-1].exception_type != CUT_TYPE or not named else named[-1]


def dedent(line: LogLine, indent: int) -> LogLine:
    """The line as its record printed it: a whole-paste indentation taken off (when it has it)."""
    if indent and line.text[:indent].isspace():
        return replace(line, text=line.text[indent:])
    return line


def _indented_exception(rec: Record, text: str) -> tuple[str, str] | None:
    """An exception line indented like code, right after the last frame's code line (a
    traceback printed inside a logged string, each line pushed right): after a frame's code
    only a frame, a caret line or the exception can follow, and code never reads
    ``SomeError: message``."""
    if rec.state is not State.FRAMES or not rec.frames or rec.frames[-1].code is None:
        return None
    exc = parse_exception(text.strip())
    return exc if exc is not None and exc[0].endswith(EXCEPTION_SUFFIXES) else None


def _add_code(rec: Record, text: str) -> None:
    code = text.strip()
    if rec.frames and rec.frames[-1].code is None and code.strip("^~ ") and code[0] != "[":
        f = rec.frames[-1]
        rec.frames[-1] = Frame(f.file, f.line, f.function, code)


def _add_frame(rec: Record, frame: Frame) -> None:
    """Keep the outermost and the innermost frames: the worker path and the crash site."""
    keep(rec.frames, frame)
