"""Attributed lines -> one Crash per Python traceback (chained, interleaved by stream) or
faulthandler dump: which record each line goes to (one open record per stream; a crash
storm's untagged lines by storm.py), and when a record is done. What a line does to its
record is traceback_record.py's."""

from __future__ import annotations

from dataclasses import dataclass, replace

from spectrace.assemblers.crash import Crash, CrashKind
from spectrace.assemblers.faultdump import FAULT_FRAME, FaultDump, starts_dump
from spectrace.assemblers.faultdump import MAX_FRAMES as MAX_FRAMES
from spectrace.assemblers.rich_tb import RichView
from spectrace.assemblers.storm import find_storm, storm_fit, unglued
from spectrace.assemblers.tb_lines import EXCEPTION_SUFFIXES as EXCEPTION_SUFFIXES
from spectrace.assemblers.tb_lines import SHELL_DEATH, announces, parse_exception, tb_start
from spectrace.assemblers.traceback_record import CUT_TYPE as CUT_TYPE
from spectrace.assemblers.traceback_record import (
    FRAME,
    HEAD_CUT_FRAME,
    MAX_LINES,
    Record,
    State,
    dedent,
    mid_record,
    record_crash,
    step,
)
from spectrace.dialects.base import LogLine

AFTER_IDLE = 8  # lines a finished exception waits for a chain marker or message line
OPEN_IDLE = 128  # lines an unfinished record waits for its next line before it is cut


@dataclass(frozen=True, slots=True)
class Fed:
    consumed: bool  # the line belongs to a record (crash rules must not see it again)
    started: bool = False  # the line opened a new record on its stream
    crashes: tuple[Crash, ...] = ()


class TracebackAssembler:
    """Keeps one open record per stream so interleaved ranks never mix."""

    def __init__(self) -> None:
        self._open: dict[str, Record] = {}
        self._prev: dict[str, LogLine] = {}  # last line per stream: a same-call header line
        self._last_body: str | None = None  # the previous untagged body line
        self._round_robin = False  # untagged bodies of several ranks arrive line-interleaved
        self._taker: Record | None = None  # the record that took the last untagged line
        # the storm among the open records (storm.find_storm), found again only after a record
        # opened, closed or changed what makes it a storm's: per line it cost a fifth of a storm
        self._storm: list[Record] | None = None
        self._loose = 0  # open records that took untagged lines (a storm's: they take turns)
        self._storm_stale = False
        self._rich = RichView()  # rich's boxed tracebacks, read as plain ones

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
            self._storm_stale = True
        return rec.first is line

    def feed(self, line: LogLine) -> Fed:
        shown = self._rich.view(line)
        if len(shown) == 1 and shown[0] is line:
            pieces = unglued(line)
        elif not shown:
            return Fed(True)  # a rich panel's border, context code or locals: part of it
        else:
            pieces = shown  # a rich panel's line, as Python prints it
        if len(pieces) == 1:
            return self._feed(pieces[0])
        cut = pieces is not shown  # storm.unglued: the first piece ends where another began
        fed = [self._feed(pieces[0], cut=cut), *map(self._feed, pieces[1:])]
        return Fed(any(f.consumed for f in fed), any(f.started for f in fed),
                   tuple(c for f in fed for c in f.crashes))  # fmt: skip

    def _feed(self, line: LogLine, cut: bool = False) -> Fed:
        """``cut``: the line ends where another writer's text was glued on (storm.unglued)."""
        done: list[Crash] = []
        rec = self._open.get(line.stream)
        if rec is not None and line.headed and (line.group is None or line.group != rec.group):
            done.append(self._close(line.stream))
            rec = None
        if rec is None:
            rec = self._adopt_orphan(line)
        fit = storm_fit(self._storm_now(), line, self._taker, cut)
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
            consumed = self._step(rec, dedent(line, rec.indent), done)
            if consumed and line.inferred and not rec.loose:
                rec.loose, self._loose = True, self._loose + 1
                self._storm_stale |= len(rec.body) != 1  # (with one line it was a storm's)
            if consumed and len(rec.body) < MAX_LINES and line.text.strip():
                rec.body.append(line.text)
                # a tagged record's second line takes it out of any storm
                self._storm_stale |= len(rec.body) == 2 and not rec.loose
            if consumed and line.inferred and line.text.strip():
                self._taker = rec
        if not consumed and not (fit and FRAME.match(line.text)):
            started = self._maybe_start(line, done)  # (a storm's stray frame starts nothing)
            consumed = started
        self._age(line, done)
        if not self._open:
            self._round_robin, self._last_body, self._taker = False, None, None
        self._prev[line.stream] = line
        return Fed(consumed, started, tuple(done))

    def _storm_now(self) -> list[Record] | None:
        if self._storm_stale:
            self._storm = find_storm(self._open.values()) if len(self._open) > 1 else None
            self._storm_stale = False
        return self._storm

    def close_all(self) -> list[Crash]:
        return [self._close(stream) for stream in list(self._open)]

    def _adopt_orphan(self, line: LogLine) -> Record | None:
        """A ``Traceback`` line that lost its process tag (``(APIServer pid=98)``, ``[rank3]:``:
        the copy began after it) right above frames that carry one is that writer's: the
        record moves to the tagged stream instead of two roots, a header and its frames."""
        if not line.stream or line.inferred or not FRAME.match(line.text):
            return None
        rec = self._open.get("")
        if rec is None or rec.state is not State.HEAD or rec.kind is not CrashKind.TRACEBACK:
            return None
        if rec.last_lineno != line.lineno - 1 or rec.first.rank is not None:
            return None
        del self._open[""]
        rec.first = replace(rec.first, stream=line.stream, rank=line.rank,
                            node=rec.first.node or line.node)  # fmt: skip
        self._open[line.stream] = rec
        self._storm_stale = True
        return rec

    def _catch_up(self, rec: Record, lost: tuple[str, ...], line: LogLine,
                  done: list[Crash]) -> Record:  # fmt: skip
        """Give a storm's record the template lines it lost to its peers (storm.py)."""
        for text in lost:
            self._step(rec, replace(line, text=text), done)
            rec.body.append(text)
        self._storm_stale |= bool(lost)
        rec.reconstructed = rec.reconstructed or bool(lost)
        own = self._open.get(line.stream)
        if own is not rec:  # the line's writer is not the last to print a header: a storm
            rec.interleaved = True
            if own is not None:
                own.interleaved = True
        return rec

    def _route(self, line: LogLine, rec: Record | None) -> Record | None:
        """Untagged body lines of line-interleaved tracebacks go to a record that still wants them.

        Several ranks writing the same traceback line by line show as runs of identical lines;
        once seen, body lines go round-robin to the record fed longest ago.
        """
        if not line.inferred:
            return rec
        text = line.text
        if FRAME.match(text) or (text[:1].isspace() and text.strip()):
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

    def _step(self, rec: Record, line: LogLine, done: list[Crash]) -> bool:
        """Advance one record by one line; a faulthandler dump that ended is closed."""
        taken = step(rec, line)
        if rec.complete:
            stream = next(s for s, r in self._open.items() if r is rec)
            done.append(self._close(stream))
        return taken

    def _maybe_start(self, line: LogLine, done: list[Crash]) -> bool:
        text = line.text
        idx = tb_start(text)
        fault = starts_dump(text)
        frame = FRAME.match(text) or FAULT_FRAME.match(text)
        if frame is not None and frame.re is FRAME and frame["line"] is None and frame["cline"] is None:
            frame = None  # a trimmed frame (no line number) counts only under its traceback's head
        if frame is None and line.stream not in self._open:  # a paste that begins mid-line
            frame = HEAD_CUT_FRAME.match(text)
        if idx < 0 and not fault and not frame:
            return False
        if line.stream in self._open:
            done.append(self._close(line.stream))
        if fault:
            rec = Record(CrashKind.FAULTHANDLER, line, None, State.FAULT)
            prev = self._prev.get(line.stream)
            rec.dump = FaultDump.opened_by(text, prev.text if prev is not None else "")
        elif idx >= 0:
            rec = self._traceback_record(line, idx)
        else:
            rec = mid_record(line, frame)
        rec.add(line)
        rec.body.append(text)
        self._open[line.stream] = rec
        self._storm_stale = True
        return True

    def _traceback_record(self, line: LogLine, idx: int) -> Record:
        """A record opened by ``Traceback (most recent call last):``, with the message before it."""
        text = line.text
        header = text[:idx].strip().rstrip(":").strip() or None
        if header is not None and not any(c.isalnum() for c in header):
            header = None  # the quote opening a logged string ('"Traceback (most ...')
        rec = Record(CrashKind.TRACEBACK, line, header, State.HEAD, line.group)
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
        crowd = self._loose if len(self._open) > 1 else 1
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

    def _close(self, stream: str) -> Crash:
        rec = self._open.pop(stream)
        self._storm_stale, self._loose = True, self._loose - rec.loose
        return record_crash(rec, stream)
