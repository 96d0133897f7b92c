"""Fatal lines without a traceback (CUDA, NCCL, process death, OOM) and crash classification by rules."""

from __future__ import annotations

import re
from dataclasses import replace

from spectrace.assemblers.crash import Crash, CrashKind
from spectrace.assemblers.mention import (
    LABEL,
    MENTION_HINT,
    SENTENCE,
    TITLE,
    Mention,
    clip,
    died_of,
    mentioned,
    not_a_report,
    reports_death,
)
from spectrace.assemblers.native import (
    NativeFrame,
    frame_text,
    native_frames,
    parse_native_frame,
    signal_report,
    signal_site,
    thrower,
    thrown_in,
)
from spectrace.assemblers.tb_lines import unquoted
from spectrace.assemblers.tracebacks import CUT_TYPE, EXCEPTION_SUFFIXES, parse_exception
from spectrace.dialects._time import make_ts
from spectrace.dialects.base import LogLine
from spectrace.rulegate import GateIndex
from spectrace.ruleset import BenignRule, CrashRule, RulePattern, RuleSet, RuleTimeout

MAX_MESSAGE = 500
MAX_TIMEOUTS = 3  # a user rule that times out this often is dropped for the rest of the run
MEMO_SIZE = 4096  # classified exception texts remembered per input (then forgotten at once)
# ``SomeError('message')``: the repr of an exception, its message possibly cut by the paste.
_REPR = re.compile(r"((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception))\((['\"])(.*)$")
# A ``(?P<ts>...)`` group's stamp: Slurm's ``2026-03-01T12:00:00``, CANN's ``2026-03-01-12:00:00``
# and its ``2026-03-01-12:00:00.182.218`` (milliseconds, then microseconds, each after a dot).
_STAMP = re.compile(r"(\d{4})-(\d\d)-(\d\d)[T _-](\d\d:\d\d:\d\d)(?:[.,](\d{1,9}|\d{3}\.\d{3}))?")
RAISED_FROM = "Exception raised from "  # c10's line above its frames: names the failing function
NATIVE_RULE = "native_backtrace"  # a frame run through a thrower, its message line missing
SIGNAL_RULES = frozenset({"mpi_signal", "mpi_backtrace"})  # OpenMPI's signal handler's report
SIGNAL_CUT = "signal handler's backtrace whose Signal: line is not in the text"
# a named signal takes the class its shell line has ("Segmentation fault", "Aborted")
_SIGNAL_CLASSES = {"SIGSEGV": "segfault", "SIGABRT": "abort"}
# Native aborts a following "Aborted (core dumped)" / "Segmentation fault" line belongs to.
NATIVE_CLASSES = frozenset(
    {"cpp_terminate", "native_assert", "cuda_device_assert", "trtllm_assertion",
     "memory_corruption", "native_backtrace", "ggml_abort"}
)  # fmt: skip
ABORT_CLASSES = frozenset({"abort", "segfault"})
# Notices a process repeats while it waits (vLLM's broadcast wait, once a minute): each repeat
# is an occurrence, since how many there were tells a long compilation from a hang.
COUNTED_CLASSES = frozenset({"hang_suspected"})
# What a parent raises when its child died under it: the child's death is the crash to report.
_CONSEQUENCE_TYPES = frozenset(
    {CUT_TYPE, "EOFError", "BrokenPipeError", "ConnectionResetError", "ConnectionRefusedError"}
)


class FatalMatcher:
    """Applies benign and crash rules to single lines; records user-pattern timeouts as issues."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._line_rules = tuple(r for r in rules.crash if r.scope != "exception")
        self._exc_rules = tuple(r for r in rules.crash if r.scope != "line")
        # one literal pass per text says which rules could match it (most are skipped)
        self._benign_gates = GateIndex([r.pattern.gate for r in rules.benign])
        self._line_gates = GateIndex([r.pattern.gate for r in self._line_rules])
        self._exc_gates = GateIndex([r.pattern.gate for r in self._exc_rules])
        self.issues: list[str] = []
        self._timeouts: dict[str, int] = {}
        # every request failing the same way: the rule a set of texts gets, found once
        user = any(r.pattern.user for r in self._exc_rules)
        self._classified: dict[tuple[object, ...], tuple[CrashRule, bool] | None] | None = (
            None if user else {}
        )

    def benign(self, line: LogLine) -> BenignRule | None:
        for i in self._benign_gates.candidates(line.text):
            rule = self.rules.benign[i]
            if self._search(rule.id, rule.pattern, line.text, line):
                return rule
        return None

    def match_line(self, line: LogLine) -> Crash | None:
        """The first line rule that matches -> a FATAL_LINE / PROCESS_DEATH crash.

        Rules see the line without leading blanks: a paste indented as a whole (a Markdown
        code block by indentation, a quoted reply) moves ``Killed`` and ``ValueError: ...``.
        """
        text = line.text.lstrip(" \t")
        for i in self._line_gates.candidates(text):
            rule = self._line_rules[i]
            if rule.dialects and line.dialect not in rule.dialects:
                continue
            if rule.levels and (line.level or "none") not in rule.levels:
                continue
            m = self._search(rule.id, rule.pattern, text, line)
            if m is None:
                continue
            at: int = m.start()  # type: ignore[attr-defined]
            said = mentioned(line, text, at)
            if rule.prose and not _reported(said, text, at):
                continue  # a printed line's own words, not a report naming its error
            if rule.prose and m.groupdict().get("msg") is None and not died_of(text, at):  # type: ignore[attr-defined]
                continue  # a bare class name: only "fails with X" reports it
            if said is not None and said.where != LABEL and not_a_report(said, text, at):
                continue  # a fix described or a question asked: no run died here
            crash = _line_crash(rule, m, line)
            # a catch-all line rule ("Type: message" at error level) yields to a classifier
            crash = self.classify(crash) if rule.scope == "line" else crash
            return crash if said is None else _as_mention(crash, said, text[at:])
        return None

    def stamp_from_tail(self, crash: Crash) -> Crash:
        """A traceback printed with no stamp whose tail carries a stamped record of the same
        failure (torch_npu's ``[ERROR] 2026-...-12:00:00 (PID:...) ERR00100``, CANN's
        ``EE1001: [PID: N] 2026-...``) happened then: it takes the first such stamp."""
        if crash.ts is not None or crash.kind is not CrashKind.TRACEBACK:
            return crash
        head = f"{crash.exception_type}:"
        tail = next((i for i, t in enumerate(crash.lines) if t.lstrip().startswith(head)), None)
        for text in crash.lines[tail + 1 :] if tail is not None else ():
            if _STAMP.search(text) is None:
                continue
            line = LogLine(crash.source, crash.end_lineno, crash.offset, text, text, "plain",
                           crash.stream)  # fmt: skip
            found = self.match_line(line)
            if found is not None and found.ts is not None:
                return replace(crash, ts=found.ts, ts_text=found.ts_text)
        return crash

    def classify(self, crash: Crash) -> Crash:
        """Class, severity, hints and collateral for an assembled traceback or faulthandler dump."""
        crash = _whole_message(_named_by_repr(crash))
        texts = [f"{crash.exception_type}: {crash.message}"]
        texts += [f"{link.exception_type}: {link.message}" for link in crash.chain]
        memo = self._classified
        key = (crash.exception_type, crash.header, *texts)
        if memo is None or (found := memo.get(key, False)) is False:
            found = self._first_rule(texts, crash.header)
            if memo is not None:
                if len(memo) >= MEMO_SIZE:
                    memo.clear()
                memo[key] = found
        if found is None:
            return crash
        rule, by_header = found
        named = by_header and _notice_names(rule, crash)
        return _apply(_as_notice(crash, rule) if named else crash, rule)

    def _first_rule(self, texts: list[str], header: str | None) -> tuple[CrashRule, bool] | None:
        """The first exception rule matching the exceptions, else the header; True: by header.

        The header names the class only when no exception does: a cut paste under "EngineCore
        encountered a fatal error.", Python's "Exception ignored in: <function X.__del__>".
        """
        for group in (texts, [header] if header else []):
            found = {i for text in group for i in self._exc_gates.candidates(text)}
            for i in sorted(found):
                rule = self._exc_rules[i]
                for text in group:
                    if self._search(rule.id, rule.pattern, text, None) is not None:
                        return rule, group is not texts
        return None

    def _search(
        self, rule_id: str, pattern: RulePattern, text: str, line: LogLine | None
    ) -> object:
        if not pattern.user:
            return pattern.search(text)  # built-in: plain ``re``, never times out
        if self._timeouts.get(rule_id, 0) >= MAX_TIMEOUTS:
            return None
        try:
            return pattern.search(text)
        except RuleTimeout:
            count = self._timeouts[rule_id] = self._timeouts.get(rule_id, 0) + 1
            where = f" on {line.source}:{line.lineno}" if line is not None else ""
            self.issues.append(f"rule {rule_id} timed out{where}; skipped for that line")
            if count == MAX_TIMEOUTS:
                self.issues.append(f"rule {rule_id} timed out {count} times; skipped from here on")
            return None


def _named_by_repr(crash: Crash) -> Crash:
    """A traceback cut before its exception line under ``OutOfMemoryError('CUDA out of ...')``
    (an engine logging ``repr(e)`` above the traceback): that repr names the exception."""
    m = _REPR.match(crash.header or "") if crash.exception_type == CUT_TYPE else None
    if m is None:
        return crash
    message = m.group(3)
    if message.endswith(m.group(2) + ")"):
        message = message[:-2]
    return replace(crash, exception_type=m.group(1), message=message[:MAX_MESSAGE])


def _whole_message(crash: Crash) -> Crash:
    """An exception message printed over several lines keeps them: a line a terminal or a
    logger wrapped mid-sentence ("... at" / "non-singleton dimension 0"), and the indented
    details under a message ending in ":" (load_state_dict's "size mismatch for ..." lines)."""
    if crash.kind is not CrashKind.TRACEBACK or not crash.message or len(crash.lines) < 2:
        return crash
    head = f"{crash.exception_type}: {crash.message}"
    at = next((i for i in range(len(crash.lines) - 1, -1, -1) if head in crash.lines[i]), None)
    if at is None:
        return crash
    printed = crash.lines[at]
    prefix = printed[: printed.index(head)]
    parts = [crash.message]
    pydantic = _PYDANTIC.fullmatch(crash.message) is not None
    for text in crash.lines[at + 1 : at + 1 + MAX_CONTINUATION]:
        text = text[len(prefix) :] if prefix and text.startswith(prefix) else text
        if not (_continues(parts, text, len(printed)) or (pydantic and _detail(text))):
            break
        parts.append(text.strip().split(" [type=", 1)[0])
        printed = text
    if len(parts) == 1:
        return crash
    return replace(crash, message=" ".join(parts)[:MAX_MESSAGE])


MAX_CONTINUATION = 8
# pydantic's head line says only how many fields failed; what failed is on the lines under it
# ("Value error, Model Runner V2 does not yet support: ..."): runs rejected for different
# reasons are different crashes
_PYDANTIC = re.compile(r"\d+ validation errors? for [\w.]+")


def _detail(text: str) -> bool:
    """A line of a pydantic error's details (field name, ``Value error, ...``), not its link."""
    body = text.strip()
    return bool(body) and not body.startswith(("For further information", *_NOT_MESSAGE))


_SENTENCE_END = (".", "!", "?", ":", ";", ")", "]", "}")
_NOT_MESSAGE = ("Traceback (", "During handling", "The above exception", 'File "', RAISED_FROM,
                "frame #", "Exception raised")  # fmt: skip


WRAP_WIDTH = 76  # a line a terminal or a paste wrapped fills (nearly) its width: 80 and up


def _continues(parts: list[str], text: str, width: int) -> bool:
    """``width``: the printed length of the line before; only a full line can have wrapped,
    so a short message followed by a log line ("serving request 1") stays as it is."""
    body = text.strip()
    if not body or body.startswith(_NOT_MESSAGE) or parse_native_frame(body) is not None:
        return False
    detail = parts[0].endswith(":") and text[:1] in (" ", "\t")
    wrapped = (
        width >= WRAP_WIDTH
        and not parts[-1].endswith(_SENTENCE_END)
        and not text[:1].isspace()
        and (body[0].islower() or body[0].isdigit())
    )
    return detail or wrapped


def _notice_names(rule: CrashRule, crash: Crash) -> bool:
    """A notice that another process died ("Rank 0 scheduler is dead.") heading a traceback
    that names nothing itself (cut, or the parent's EOFError on the dead child's pipe) is
    that death, as the parent saw it, not a crash of the parent's own."""
    return (
        rule.kind is CrashKind.PROCESS_DEATH
        and rule.collateral
        and crash.exception_type in _CONSEQUENCE_TYPES
    )


def _as_notice(crash: Crash, rule: CrashRule) -> Crash:
    header = crash.header or ""
    m = rule.pattern.search(header)  # type: ignore[attr-defined]
    message = (m.groupdict().get("msg") if m is not None else None) or header
    return replace(
        crash,
        kind=CrashKind.PROCESS_DEATH,
        exception_type=rule.exception_type or crash.exception_type,
        message=message.strip()[:MAX_MESSAGE],
    )


def _apply(crash: Crash, rule: CrashRule) -> Crash:
    return replace(
        crash,
        rule_id=rule.id,
        crash_class=rule.crash_class,
        severity=rule.severity,
        collateral=rule.collateral,
        hints=rule.hints,
    )


def _reported(said: Mention | None, text: str, at: int) -> bool:
    """A ``prose`` rule's match is a crash report: a title saying the run died of it (or that
    is the error line), or a sentence whose words before it say so."""
    if said is None:
        return False
    return said.where == TITLE or (said.where == SENTENCE and reports_death(text, at))


def _as_mention(crash: Crash, said: Mention, named: str) -> Crash:
    """An error named in prose: its message is what the sentence names (from the error on,
    to its closing quote), not the whole sentence; incident_copies.py decides its role."""
    whole = crash.message == crash.lines[0].strip()[:MAX_MESSAGE]
    message = clip(named.strip() if whole else crash.message, said.close)[:MAX_MESSAGE]
    return replace(crash, message=message, mentioned=said.where,
                   hints=(MENTION_HINT, *crash.hints))  # fmt: skip


def _line_crash(rule: CrashRule, m: object, line: LogLine) -> Crash:
    groups = m.groupdict()  # type: ignore[attr-defined]
    text = line.text.strip()
    parsed = parse_exception(unquoted(text))
    if parsed is not None and not parsed[0].endswith(EXCEPTION_SUFFIXES):
        parsed = None  # "Failed: Cuda error ...": a word before a colon, not an exception type
    etype = groups.get("type") or (parsed[0] if parsed else None) or rule.exception_type or "Error"
    message = groups.get("msg") or (parsed[1] if parsed else "") or text
    crash = Crash(
        kind=rule.kind if rule.kind is not CrashKind.TRACEBACK else CrashKind.FATAL_LINE,
        exception_type=etype,
        message=message.strip()[:MAX_MESSAGE],
        source=line.source,
        lineno=line.lineno,
        end_lineno=line.lineno,
        offset=line.offset,
        stream=line.stream,
        rank=line.rank or (f"rank{groups['rank']}" if groups.get("rank") else None),
        ts=line.ts,
        ts_text=line.ts_text,
        lines=(line.text,),
        node=line.node,
        quoted=line.quoted,
    )
    return _apply(_stamped(crash, groups.get("ts")), rule)


def _stamped(crash: Crash, text: str | None) -> Crash:
    """A line with no stamp of its own takes the time its message prints (a rule's ``ts`` group)."""
    m = _STAMP.fullmatch(text.strip()) if text and crash.ts is None else None
    ts = None
    if m is not None:
        year, month, day, hms, frac = m.groups()
        ts = make_ts(year, month, day, hms, frac.replace(".", "") if frac else None)
    return crash if ts is None else replace(crash, ts=ts, ts_text=text.strip())


def attach_native(crash: Crash) -> Crash:
    """The C/C++ frames printed with a crash become ``native_frames``; a frame run whose
    message line is missing is named by its thrower and the frame that threw, a signal
    handler's report by its signal."""
    if crash.rule_id in SIGNAL_RULES:
        crash = _by_signal(crash)
    if crash.native_frames or not any("0x" in t or "#" in t for t in crash.lines):
        return crash
    frames = native_frames(crash.lines)
    if not frames:
        return crash
    crash = replace(crash, native_frames=frames)
    if crash.rule_id in SIGNAL_RULES and crash.message == SIGNAL_CUT:
        return _signal_site(crash, frames)
    if crash.rule_id != NATIVE_RULE:
        return crash
    where = thrown_in(frames)
    raised = next((t.strip().removesuffix("(most recent call first):").strip()
                   for t in crash.lines if t.lstrip().startswith(RAISED_FROM)), None)  # fmt: skip
    message = raised or "native backtrace with no message line" + (
        f": thrown in {frame_text(where)}" if where is not None else ""
    )
    return replace(crash, exception_type=thrower(frames) or crash.exception_type,
                   message=message[:MAX_MESSAGE])  # fmt: skip




def _by_signal(crash: Crash) -> Crash:
    """OpenMPI's report names its signal on its ``Signal:`` line: SIGSEGV, not "Signal"."""
    named = signal_report(crash.lines)
    if named is None:
        return replace(crash, message=SIGNAL_CUT)
    etype = named[0]
    return replace(crash, exception_type=etype, message=named[1][:MAX_MESSAGE],
                   crash_class=_SIGNAL_CLASSES.get(etype, crash.crash_class))  # fmt: skip


def _signal_site(crash: Crash, frames: tuple[NativeFrame, ...]) -> Crash:
    """A report whose signal line was cut away still says where the signal hit (frame 1)."""
    site = signal_site(frames)
    where = f": hit in {frame_text(site)}" if site is not None else ""
    return replace(crash, message=f"{crash.message}{where}"[:MAX_MESSAGE])


def aborted_by(cause: Crash, crash: Crash) -> bool:
    """``Fatal Python error: Aborted`` (faulthandler) or ``Aborted (core dumped)`` just after a
    native abort already reported (terminate, assert, a C++ check with its frames) is that
    abort reaching Python's handler, not a second crash."""
    if crash.exception_type != "SIGABRT" or cause.kind is CrashKind.TRACEBACK:
        return False
    native = cause.crash_class in NATIVE_CLASSES or bool(cause.native_frames)
    return native and 0 <= crash.lineno - cause.end_lineno <= INIT_WINDOW


def ends_native(pending: Crash, crash: Crash) -> bool:
    """``Aborted (core dumped)`` just after a native abort's message or frames is that abort
    ending the process, not a crash of its own."""
    return pending.crash_class in NATIVE_CLASSES and crash.crash_class in ABORT_CLASSES


INIT_WINDOW = 8  # lines between "Failed to initialize X: ..." and the traceback that reports it
_INIT_FAILED = re.compile(r"[Ff]ailed to initiali[sz]e (?:the )?(?P<what>[\w .-]{1,80}?)(?::|$)")
_INIT_REPORT = re.compile(r"initiali[sz]ation (?:has )?failed|failed to initiali[sz]e", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]{3,}")


def reports_init_failure(cause: Crash, crash: Crash) -> bool:
    """``Failed to initialize X: CUDA out of memory`` just before ``RuntimeError: X
    initialization failed`` on the same writer: the traceback reports the failure the line
    named (one root cause, the line's), not a second one."""
    distance = crash.lineno - cause.end_lineno
    if cause.kind is CrashKind.TRACEBACK or not 0 <= distance <= INIT_WINDOW:
        return False
    m = _INIT_FAILED.search(cause.message)
    if m is None or _INIT_REPORT.search(crash.message) is None:
        return False
    named = {w.lower() for w in _WORD.findall(m["what"])}
    return not named or bool(named & {w.lower() for w in _WORD.findall(crash.message)})
