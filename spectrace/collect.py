"""Per-line crash logic for one input: tracebacks first, then benign and fatal-line rules."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from spectrace.assemblers.crash import Crash, CrashKind
from spectrace.assemblers.elastic import continues_table, is_child_failure, with_table
from spectrace.assemblers.fatal import (
    COUNTED_CLASSES,
    MAX_MESSAGE,
    NATIVE_RULE,
    RAISED_FROM,
    FatalMatcher,
    aborted_by,
    attach_native,
    ends_native,
    reports_init_failure,
)
from spectrace.assemblers.launch_span import LaunchSpan
from spectrace.assemblers.load import spec_metrics_shape
from spectrace.assemblers.native import is_backtrace_chatter, parse_native_frame
from spectrace.assemblers.prose_wrap import ProseWrap
from spectrace.assemblers.pyconfig import PyDictSpan, span_candidate
from spectrace.assemblers.thread_head import opens_head, title_line
from spectrace.assemblers.traceback_record import FRAME
from spectrace.assemblers.tracebacks import TracebackAssembler
from spectrace.assemblers.wrapped_dump import WrappedDump
from spectrace.dialects.base import LogLine
from spectrace.missing_rank import TIMEOUT_CLASS, waiting_rank

PENDING_LINES = 3  # a fatal line waits this many lines of its writer for a traceback it heads
PENDING_SPAN = 64  # ... and this many lines in all (other writers interleave theirs between)
UNDER_HEADER = 3  # a saved thread's "# title" sits this close under its header (thread_title)
SUMMARY_WINDOW = 200  # a repeated "Type: message" within this many lines is the same crash
FOLD_WINDOW = 50  # fatal lines of one class on one stream within this span are one crash
REPRINT_WINDOW = 8  # the same traceback again this close on the same stream is a re-print
REPRINT_SPAN = timedelta(seconds=5)  # ... and printed this close in time
RECENT = 8  # crashes remembered per stream for de-duplication
TERMINATE = "terminate called after throwing an instance of "
WHAT = "what():"
SCHEDULER_DEAD = "scheduler is dead"  # sglang <= 0.5.8; later ones print the code on that line
EXIT_CODE = "Exit code: "
# a frame through SGLang's runtime tree names the framework (sglang_version); one copy shows it
_TREE_ONLY, _SCHEDULER = "sglang/srt/", "sglang/srt/managers/scheduler"
FRAME_COPIES = 16  # copies of one frame line kept as config lines: a crash storm's ranks repeat it
LITERAL_CACHE = 4096  # texts whose config-literal answer is remembered (then forgotten at once)
LITERAL_TEXT = 512  # longer texts are not remembered
NATIVE_LINES = 64  # native frame lines kept on a crash (the rest still join it, unkept)
NATIVE_LEAD = 16  # frame lines remembered per writer before a thrower frame names a crash
BACKTRACE_HEADS = (RAISED_FROM, "==== backtrace", "Stack trace (most recent call")


@dataclass(slots=True)
class _Pending:
    crash: Crash
    line: LogLine
    age: int = 0  # lines of the same writer since
    span: int = 0  # lines of any writer since


# the config lines a hard-wrapped sentence's lines may sit among (prose_wrap reads six at most)
_SENTENCE_LINES = 8


class Collector:
    """Feeds lines to the assemblers; emits classified, de-duplicated crashes in line order."""

    def __init__(self, matcher: FatalMatcher, *, markers: Sequence[str] = (),
                 config_literals: Sequence[str] = ()) -> None:  # fmt: skip
        self.matcher = matcher
        self.tracebacks = TracebackAssembler()
        self.crashes: list[Crash] = []  # released in line order
        self._held: list[Crash] = []  # emitted, waiting for earlier open records to finish
        self.config_lines: list[LogLine] = []
        # (source, line) of config lines kept as a launch command's continuation (no literal of
        # their own): the command's lines whatever words the prose readers scan for they hold
        self.carried: set[tuple[str, int]] = set()
        self.markers_found: set[str] = set()
        self.dialects: Counter[str] = Counter()
        self._markers = tuple(markers)
        # a literal opening with a newline holds only at a line's start (prefilter.LINE_START), one
        # ending in a line break at its end (the line's text has neither)
        self._config_literals = tuple(lit for lit in config_literals
                                      if not lit.startswith("\n") and not lit.endswith("\n"))
        self._line_starts = tuple(lit[1:] for lit in config_literals if lit.startswith("\n"))
        self._line_ends = tuple(lit.rstrip("\r\n") for lit in config_literals if lit.endswith("\n"))
        self._literal_seen: dict[str, bool] = {}  # candidate text -> holds a config literal
        self._dump = WrappedDump()  # a server_args dump a terminal wrapped over lines
        self._launch = LaunchSpan()  # a launch command's lines that hold no literal
        self._pydict = PyDictSpan()  # a script's speculative_config dict over several lines
        self._under_header = 0  # lines left in which a saved thread's "# title" may follow
        self._first = True  # the text's first non-blank line is still to come (a title above its head)
        self._wrap = ProseWrap()  # prose a copy hard-wrapped: one sentence over several lines
        self._metrics: tuple[int, str] = (-1, "")  # len(config_lines), shape: last metrics line kept
        self._frame_copies: Counter[str] = Counter()  # frame text -> copies kept as config lines
        self._tree_only: set[str] = set()  # frames whose only config literal is SGLang's tree
        self._pending: dict[str, _Pending] = {}
        self._recent: dict[str, deque[Crash]] = {}  # stream -> last crashes emitted there
        self._tracebacks: deque[Crash] = deque(maxlen=RECENT)  # any stream, for echoes
        self._headed: LogLine | None = None  # the last headed line, when it matched no rule
        self._frames: dict[str, list[LogLine]] = {}  # writer -> native frame lines just seen

    @property
    def open(self) -> bool:
        return (bool(self._pending) or self.tracebacks.open or self._dump.open
                or self._launch.open or self._pydict.open or self._under_header > 0)  # fmt: skip

    def feed(self, line: LogLine, *, candidate: bool = True) -> None:
        """``candidate``: the line holds a hot literal (otherwise no rule, marker or config
        literal can match it, and only the assemblers look at it)."""
        self.dialects[line.dialect] += 1
        text = line.text  # joined CRI partial lines are whole only here
        piece = self._dump.open and not line.headed and bool(text.strip())
        if self._dump.open and (whole := self._dump.feed(line)) is not None:
            self.config_lines.append(whole)
        if self._pydict.open and (pydict := self._pydict.feed(line)) is not None:
            self.config_lines.append(pydict)
        spanned = self._launch.open and self._launch.feed(line)
        if spanned:  # "  --mem-fraction-static 0.8 \\", "- EAGLE": no literal, still the command
            self.config_lines.append(line)
            self.carried.add((line.source, line.lineno))
        titled = self._under_header > 0 and text.startswith(("# ", "["))
        self._under_header = max(self._under_header - 1, 0)
        grown = self._wrap.feed(line)  # a hard-wrapped sentence, made whole on each of its lines
        if candidate:
            self._markers_and_config(line, text, piece or spanned)
        if grown and not (piece or spanned):
            self._keep_sentence(grown)
        if self._first and text.strip():  # a thread's title may stand above its head (thread_title)
            self._first = False
            titled = titled or (title_line(line) and not (candidate and self._configures(text)))
        if titled and (not self.config_lines or self.config_lines[-1] is not line):
            self.config_lines.append(line)  # the title under a saved header (thread_title)
            self._under_header = 0
        fed = self.tracebacks.feed(line)
        for crash in fed.crashes:
            self._emit(crash)
        pending = self._pending.pop(line.stream, None)
        if pending is not None and fed.started:
            # prose that names an error (assemblers/mention.py) heads no traceback
            same_call = pending.line.group == line.group and not pending.crash.mentioned
            if not (same_call and self.tracebacks.adopt_header(line.stream, pending.line)):
                self._emit(pending.crash)
        elif pending is not None:
            self._pending[line.stream] = pending
        table = not fed.consumed and (self._table(line) or self._native(line))
        free = not fed.consumed and not table and not self._exit_code(line)
        matched = free and candidate and (self._fatal(line) or self._wrapped(line))
        self._headed = line if free and line.headed and not matched else None
        self._age(line, held=table)
        self._release()

    def _keep_sentence(self, grown: list[LogLine]) -> None:
        """Each line of a hard-wrapped sentence (``prose_wrap``) takes its whole-sentence text:
        in place of the line where the scan kept it, or added in line order where the whole
        sentence now holds a literal no piece held."""
        for line in grown:
            recent = self.config_lines[-_SENTENCE_LINES:]
            base = len(self.config_lines) - len(recent)
            at = next((base + i for i, kept in enumerate(recent)
                       if kept.source == line.source and kept.lineno == line.lineno), None)  # fmt: skip
            if at is not None:
                self.config_lines[at] = line
            elif self._configures(line.text):
                after = [base + i for i, kept in enumerate(recent)
                         if kept.source == line.source and kept.lineno > line.lineno]  # fmt: skip
                self.config_lines.insert(after[0] if after else len(self.config_lines), line)

    def _markers_and_config(self, line: LogLine, text: str, piece: bool) -> None:
        for marker in self._markers:
            if marker in text:
                self.markers_found.add(marker)
        logger = (line.group or "").split(" ", 1)[0]  # vLLM's "[eagle_proposer.py:288]"
        if not piece and (self._configures(text) or (logger and self._configures(logger))):
            if "ServerArgs(" in text and self._dump.start(line):
                return  # appended once its wrapped pieces are joined
            if span_candidate(text) and self._pydict.start(line):
                return  # a script's dict: appended once its braces balance
            if (shape := spec_metrics_shape(text)) is not None:
                if self._metrics == (len(self.config_lines), shape):
                    return  # the same run's metrics again: one line shows it speculated
                self.config_lines.append(line)
                self._metrics = (len(self.config_lines), shape)
                return
            if self._repeated_frame(text):
                return
            self.config_lines.append(line)
            self._launch.start(line)  # its next lines may continue a launch command
            if opens_head(text):
                self._under_header = UNDER_HEADER  # the thread's title follows: no literal

    def _repeated_frame(self, text: str) -> bool:
        """A frame line already kept ``FRAME_COPIES`` times: every rank's copy of every crash in
        a storm repeats it, its first copies show all it shows, and the readers of the config
        lines would read it once per copy (thousands of times)."""
        if not FRAME.match(text):
            return False
        self._frame_copies[text] += 1
        copies = self._frame_copies[text]
        if copies == 2 and _TREE_ONLY in text and _SCHEDULER not in text and not any(
                lit in text for lit in self._config_literals if lit != _TREE_ONLY):
            self._tree_only.add(text)  # kept only for naming SGLang's tree: one copy says it all
        return copies > (1 if text in self._tree_only else FRAME_COPIES)

    def _configures(self, text: str) -> bool:
        """The text holds a config literal; short texts' answers are remembered (frames repeat)."""
        known = self._literal_seen.get(text)
        if known is not None:
            return known
        found = any(lit in text for lit in self._config_literals) or text.startswith(self._line_starts) or (
            bool(self._line_ends) and text.rstrip().endswith(self._line_ends))
        if len(text) <= LITERAL_TEXT:
            if len(self._literal_seen) >= LITERAL_CACHE:
                self._literal_seen.clear()
            self._literal_seen[text] = found
        return found

    def gap(self) -> None:
        """Lines are being skipped: nothing open can continue across the gap."""
        self.close()

    def close(self) -> None:
        self._launch.close()
        if (pydict := self._pydict.finish()) is not None:
            self.config_lines.append(pydict)
        if (whole := self._dump.finish()) is not None:
            self.config_lines.append(whole)
        for pending in self._pending.values():
            self._emit(pending.crash)
        self._pending.clear()
        for crash in self.tracebacks.close_all():
            self._emit(crash)
        self._release()

    def _wrapped(self, line: LogLine) -> bool:
        """A headed line hard-wrapped mid-message (``[Rank 0] Watchdog`` / ``caught collective
        operation timeout: ...`` on the next, unheaded and unindented line) is matched whole;
        the two stay apart unless together they match a rule neither matched alone."""
        prev, text = self._headed, line.text
        if prev is None or line.headed or line.indent or not text.strip() or text[0].isspace():
            return False
        if line.lineno != prev.lineno + 1 or line.source != prev.source:
            return False
        joined = replace(prev, text=f"{prev.text.rstrip()} {text.strip()}")
        if self.matcher.benign(joined) is not None:
            return False
        crash = self.matcher.match_line(joined)
        if crash is None:
            return False
        crash = replace(crash, end_lineno=line.lineno, lines=(prev.raw, line.text))
        self._pend(crash, joined)
        return True

    def _fatal(self, line: LogLine) -> bool:
        """Match one line against the rules; True when it became (part of) a crash."""
        if not line.text.strip() or self.matcher.benign(line) is not None:
            return False
        if self._explains(line):
            return True
        crash = self.matcher.match_line(line)
        if crash is None:
            return False
        self._pend(crash, line)
        return True

    def _pend(self, crash: Crash, line: LogLine) -> None:
        """Hold a fatal line's crash a few lines: a traceback it heads may follow."""
        old = self._pending.pop(line.stream, None)
        if crash.rule_id == NATIVE_RULE:
            crash = self._lead_frames(crash, line)
        if old is not None and (_takes_down(old.crash, line) or ends_native(old.crash, crash)):
            lines = (*old.crash.lines, line.text)
            old.crash = replace(old.crash, end_lineno=line.lineno, lines=lines)
            self._pending[line.stream] = old
            return
        if old is not None:
            self._emit(old.crash)
        self._pending[line.stream] = _Pending(crash, line)

    def _native(self, line: LogLine) -> bool:
        """A native frame (or the header of a frame run) under its writer's pending crash joins
        it; other frame lines are remembered, for a thrower frame below to start a crash with."""
        text = line.text
        frame = parse_native_frame(text)
        head = frame is None and (
            text.lstrip().startswith(BACKTRACE_HEADS) or is_backtrace_chatter(text)
        )
        if frame is None and not head:
            self._frames.pop(line.stream, None)
            return False
        pending = self._pending.get(line.stream)
        if pending is None:
            run = self._frames.setdefault(line.stream, [])
            if run and run[-1].lineno + 1 != line.lineno:
                run.clear()
            run.append(line)
            del run[:-NATIVE_LEAD]
            return False
        old = pending.crash
        lines = (*old.lines, text) if len(old.lines) < NATIVE_LINES else old.lines
        pending.crash = replace(old, end_lineno=line.lineno, lines=lines)
        return True

    def _lead_frames(self, crash: Crash, line: LogLine) -> Crash:
        """A thrower frame (``throwRuntimeError``) starts its crash at the first frame of the run
        it belongs to: the frames and the ``Exception raised from`` line printed above it."""
        run = [x for x in self._frames.pop(line.stream, []) if x.lineno < line.lineno]
        if not run or run[-1].lineno + 1 != line.lineno:
            return crash
        first = run[0]
        return replace(crash, lineno=first.lineno, offset=first.offset,
                       lines=(*(x.text for x in run), *crash.lines))  # fmt: skip

    def _explains(self, line: LogLine) -> bool:
        """``  what():  msg`` under ``terminate called after throwing ...`` is that exception's
        message (TensorRT-LLM's assertion, NCCL's error): it joins the crash it names."""
        pending = self._pending.get(line.stream)
        text = line.text.strip()
        if pending is None or not pending.line.text.lstrip().startswith(TERMINATE):
            return False
        if not text.startswith(WHAT):
            return False
        old = pending.crash
        message = text[len(WHAT) :].strip() or old.message
        lines = (*old.lines, line.text)
        pending.crash = replace(old, message=message, end_lineno=line.lineno, lines=lines)
        return True

    def _exit_code(self, line: LogLine) -> bool:
        """``Exit code: -9`` under sglang's ``Rank N scheduler is dead.`` is how that scheduler
        died (-9: SIGKILL, usually the OOM killer): it joins the death, and the header of the
        parent's traceback the death heads."""
        pending = self._pending.get(line.stream)
        if pending is None or not line.text.startswith(EXIT_CODE):
            return False
        if SCHEDULER_DEAD not in pending.line.text:
            return False
        text, old = line.text.strip(), pending.crash
        joined = f"{pending.line.text.rstrip()} {text}"
        pending.line = replace(pending.line, text=joined)
        pending.crash = replace(old, message=f"{old.message} {text}"[:MAX_MESSAGE],
                                end_lineno=line.lineno, lines=(*old.lines, line.text))  # fmt: skip
        return True

    def _table(self, line: LogLine) -> bool:
        """torchrun's failure table under a bare ``ChildFailedError:`` line joins that crash
        (its ``Root Cause`` block names the failed rank, its time and exit code)."""
        pending = self._pending.get(line.stream)
        if pending is None or not is_child_failure(pending.crash):
            return False
        old = pending.crash
        if not continues_table(old.lines, line.text):
            return False
        pending.crash = replace(old, end_lineno=line.lineno, lines=(*old.lines, line.text))
        return True

    def _age(self, line: LogLine, *, held: bool = False) -> None:
        """``held``: the line joined its writer's pending crash (a table), which waits on."""
        for stream, pending in list(self._pending.items()):
            pending.age += stream == line.stream and not held
            pending.span += not (held and stream == line.stream)
            if pending.age > PENDING_LINES or pending.span > PENDING_SPAN:
                del self._pending[stream]
                self._emit(pending.crash)

    def _emit(self, crash: Crash) -> None:
        crash = attach_native(crash)
        if crash.kind in (CrashKind.TRACEBACK, CrashKind.FAULTHANDLER):
            crash = self.matcher.stamp_from_tail(self.matcher.classify(crash))
        elif is_child_failure(crash):
            crash = with_table(crash)
        if crash.rank is None and crash.crash_class == TIMEOUT_CLASS:
            crash = _with_waiting_rank(crash)
        recent = self._recent.setdefault(crash.stream, deque(maxlen=RECENT))
        if any(_repeats(last, crash) for last in recent):
            return
        if crash.kind is CrashKind.TRACEBACK and any(reports_init_failure(c, crash) for c in recent):
            crash = replace(crash, collateral=True)
        elif any(aborted_by(c, crash) for near in self._recent.values() for c in near):
            crash = replace(crash, collateral=True)  # the abort a native crash above ended in
        recent.append(crash)
        self._held.append(crash)

    def _mark_echo(self, crash: Crash) -> Crash:
        if crash.kind in (CrashKind.TRACEBACK, CrashKind.FAULTHANDLER):
            self._tracebacks.append(crash)
        elif not crash.collateral and any(_echoes(tb, crash) for tb in self._tracebacks):
            return replace(crash, collateral=True)
        return crash

    def _release(self) -> None:
        """Move held crashes that nothing still open can precede to ``crashes``, in line order."""
        if not self._held:
            return
        starts = [p.line.lineno for p in self._pending.values()]
        if (first := self.tracebacks.first_open_line) is not None:
            starts.append(first)
        barrier = min(starts, default=None)
        ready = [c for c in self._held if barrier is None or c.lineno < barrier]
        if ready:
            self._held = [c for c in self._held if not (barrier is None or c.lineno < barrier)]
            ready.sort(key=lambda c: c.lineno)
            self.crashes.extend(self._mark_echo(c) for c in ready)


def _with_waiting_rank(crash: Crash) -> Crash:
    """A bare watchdog line (no torchrun ``[rankN]:``) names its rank inside: ``[PG ... Rank 3]``."""
    rank = waiting_rank(crash)
    return crash if rank is None else replace(crash, rank=f"rank{rank}")


def _repeats(last: Crash, crash: Crash) -> bool:
    """A summary line or a re-print of a crash just seen on the same stream is not a new crash;
    another rank's watchdog timeout is (it says who waited: missing_rank.py)."""
    ranks = (last.rank, crash.rank)
    if crash.crash_class == TIMEOUT_CLASS and None not in ranks and ranks[0] != ranks[1]:
        return False
    distance = crash.lineno - last.end_lineno
    if distance < 0 or crash.crash_class in COUNTED_CLASSES:
        return False
    same = (last.exception_type, last.message) == (crash.exception_type, crash.message)
    if crash.kind in (CrashKind.TRACEBACK, CrashKind.FAULTHANDLER):
        # vLLM: multiprocessing prints the traceback logger.exception just logged; two cut
        # tracebacks (same placeholder type and message) are one only if they end alike
        near = same and last.kind is crash.kind and distance <= REPRINT_WINDOW and _same_time(last, crash)
        return near and _innermost(last) == _innermost(crash)
    if same and distance <= (SUMMARY_WINDOW if last.kind is CrashKind.TRACEBACK else FOLD_WINDOW):
        return True
    if distance > FOLD_WINDOW:
        return False
    if last.kind is not CrashKind.TRACEBACK:
        return _family(crash) is not None and _family(crash) == _family(last)
    return len(crash.message) >= 12 and crash.message in "\n".join(last.lines)


def _same_time(last: Crash, crash: Crash) -> bool:
    """A re-print is printed when the crash is: stamps a minute apart are two crashes."""
    return last.ts is None or crash.ts is None or abs(crash.ts - last.ts) <= REPRINT_SPAN


def _innermost(crash: Crash) -> tuple[str, int | None, str] | None:
    """Where a traceback was raised: a re-print ends in the same frame, another crash not."""
    if not crash.frames:
        return None
    frame = crash.frames[-1]
    return frame.file, frame.line, frame.function


def _takes_down(fatal: Crash, line: LogLine) -> bool:
    """``terminate called after throwing ...`` just after a c10 fatal line is the same error
    ending the process (the C++ exception that line logged), not a crash of its own."""
    return fatal.kind is CrashKind.FATAL_LINE and line.text.lstrip().startswith(TERMINATE)


def _echoes(tb: Crash, crash: Crash) -> bool:
    """A fatal line on another writer that repeats a traceback's message just after it (the
    NCCL watchdog reporting the CUDA error a rank's traceback already showed) is collateral."""
    distance = crash.lineno - tb.end_lineno
    message = tb.message.strip()
    return 0 <= distance <= FOLD_WINDOW and len(message) >= 12 and message in crash.message


def _family(crash: Crash) -> str | None:
    """``nccl_timeout`` and ``nccl_abort`` are one family: one failure reported in several lines."""
    return crash.crash_class.split("_")[0] if crash.crash_class else None
