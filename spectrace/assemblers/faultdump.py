"""One faulthandler dump (``Fatal Python error``, thread blocks, ``line N in f``) -> its frames."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from spectrace.assemblers.crash import Frame
from spectrace.assemblers.native import SIGNALS

MAX_FRAMES = 1000  # the outer and the inner 500 of a runaway traceback; 200,000 took 485 MB
MAX_JUNK = 32
FATAL = "Fatal Python error:"
CUT_DUMP = ("FatalPythonError", "thread dump without its header")  # a paste begun mid-dump
# faulthandler writes "line N in f" (no comma); quotes may come JSON-escaped
FAULT_FRAME = re.compile(r'\s*File (\\?)"(?P<file>[^"]*?)\1", line (?P<line>\d+) in (?P<func>.*)$')
THREAD = re.compile(r"(?:Current thread|Thread) 0x[0-9a-fA-F]+ \(most recent call first\):")


# faulthandler.dump_traceback_later (pytest's faulthandler_timeout too) heads its dump so
TIMEOUT = re.compile(r"Timeout \((?:\d+ days?, )?\d+:\d\d:\d\d(?:\.\d+)?\)!")
TIMER_TYPE = "FaultTimeout"  # such a dump: a hang's stacks, never a crash of its own


def cut_header(crash_type: str, message: str) -> bool:
    """A crash read from a bare ``Thread 0x...`` block: a dump whose ``Fatal Python error``
    line was cut away (or a dump on request, which marks the thread that asked ``Current``)."""
    return crash_type == "FatalPythonError" and THREAD.fullmatch(message) is not None


class FaultStep(Enum):
    """What one line does to an open dump."""

    TAKE = "take"  # the line belongs to the dump
    LAST = "last"  # the line belongs to the dump and ends it (``Extension modules:``)
    ENDED = "ended"  # the dump ended before this line (it is not the dump's)
    FOREIGN = "foreign"  # not the dump's, and too many such lines: stop taking them


def starts_dump(text: str) -> bool:
    """``Fatal Python error:`` or a thread block's heading opens a dump."""
    return text.lstrip().startswith(FATAL) or THREAD.match(text.strip()) is not None


def keep(frames: list[Frame], frame: Frame) -> None:
    """Keep the outermost and the innermost frames: the worker path and the crash site."""
    if len(frames) >= MAX_FRAMES:
        del frames[MAX_FRAMES // 2]
    frames.append(frame)


@dataclass(slots=True)
class FaultDump:
    """The state of one dump being read: the crashing thread's frames, most recent first."""

    exc: tuple[str, str]
    frames: list[Frame] = field(default_factory=list)
    lone: list[Frame] = field(default_factory=list)  # frames of a block not marked current
    current_thread: bool = False  # inside the crashing thread's block
    threads: int = 0  # thread blocks seen
    junk: int = 0
    framed: bool = False  # a frame of any thread was read: a line at column 0 ends the dump

    @classmethod
    def opened_by(cls, text: str, before: str = "") -> FaultDump:
        """The dump a ``Fatal Python error`` or thread-heading line opens; ``before``: the
        writer's line above it (``Timeout (0:05:00)!``: a dump on a timer, no crash)."""
        stripped = text.strip()
        timer = TIMEOUT.fullmatch(before.strip())
        return cls(
            (TIMER_TYPE, timer.group()) if timer else _fault_exception(text),
            current_thread=stripped.startswith("Current thread"),
            threads=1 if THREAD.match(stripped) else 0,
        )

    @classmethod
    def cut(cls, first: Frame) -> FaultDump:
        """A paste that begins mid-dump: its first frame line is all there is of the header."""
        return cls(CUT_DUMP, [first], current_thread=True, framed=True)

    def step(self, text: str) -> FaultStep:
        """Take one line of the dump's stream."""
        if m := FAULT_FRAME.match(text):
            frame, self.framed = Frame(m["file"], int(m["line"]), m["func"].strip()), True
            if self.current_thread:
                keep(self.frames, frame)
            elif self.threads == 1:
                keep(self.lone, frame)
        elif THREAD.match(text.strip()):
            self.current_thread = text.lstrip().startswith("Current thread")
            self.threads += 1
        elif text.startswith("Extension modules:"):
            return FaultStep.LAST
        elif text.strip() and not text[0].isspace():
            if self.framed:
                return FaultStep.ENDED
            self.junk += 1
            if self.junk > MAX_JUNK:
                return FaultStep.FOREIGN
        return FaultStep.TAKE

    def result(self) -> tuple[str, str, tuple[Frame, ...]]:
        """(type, message, frames outermost first) of the finished dump."""
        frames = self.frames
        if not frames and self.threads == 1:  # one thread block shown, not marked
            frames = self.lone  # current: the one the reader pasted is the one to read
        return self.exc[0], self.exc[1], tuple(reversed(frames))  # printed most recent first


def _fault_exception(text: str) -> tuple[str, str]:
    text = text.lstrip()  # a paste indented as a whole
    if not text.startswith(FATAL):
        return "FatalPythonError", text.strip()
    msg = text.split(":", 1)[1].strip()
    return SIGNALS.get(msg, "FatalPythonError"), msg
