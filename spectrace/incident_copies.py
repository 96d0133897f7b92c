"""A crash pasted twice, once cut short, is one incident.

People paste a traceback into an issue, then paste it again from another terminal or a log
viewer that cut it: the copy ends before its exception line (``File "/sgl-worksp``), or its
message stops mid-word, or the first paste began mid-way (``^^^^`` and the last frames) while
the second lost its end. Read alone each copy is a crash, so the input shows two root causes
for one failure. A copy folds into the fuller occurrence of the same crash when what it shows
is the start of that occurrence: its frames are the first frames of the other and its
message (when it kept one) begins the other's and stops mid-word. A copy that lost its exception line also folds
into the one crash of its input that shows only its end (no frames, or frames without their
``Traceback`` header): together they are one traceback, and with one such crash in the input
there is nothing else it could be. Different crashes never fold: their frames or messages
disagree, or the input holds more than one crash the cut copy could end in.

An error named in prose (an issue's title, a sentence quoting it: ``assemblers/mention.py``)
beside the crash it names is that crash told again: it is dropped. Beside other crashes it is
the thread's history, a warning; in a run with no crash printed, a sentence naming it is the
reporter's word that the run died so: the root cause. So is a title that says the run died
of it ("... crashes with X") when no sentence names an error; a title that only labels the
thread with an error (a feature request, "kernel segmentation fault") is never one.
"""

from __future__ import annotations

from collections.abc import Sequence

from spectrace.assemblers.crash import Crash, CrashKind, Frame
from spectrace.assemblers.faultdump import cut_header
from spectrace.assemblers.mention import SENTENCE, TITLE
from spectrace.assemblers.tb_lines import TB_START
from spectrace.assemblers.tracebacks import CUT_TYPE
from spectrace.incident_causes import STATED_GAP
from spectrace.incident_model import Incident

MIN_MESSAGE = 8  # characters a cut message must keep to be known as the start of another
_NAMED_KINDS = (CrashKind.TRACEBACK.value, CrashKind.FATAL_LINE.value)


_GENERIC_CLASSES = (None, "exception")  # classes every exception line gets: not the same error
# Crashes that only stand in for a traceback the text may have lost (vLLM logs its engine input
# when a step raised, then re-raises): beside that traceback they are no crash of their own.
STAND_INS = frozenset({"engine_step_failed"})
STAND_IN_GAP = 400  # lines between the stand-in and the traceback it stands in for
_TRACE_KINDS = (CrashKind.TRACEBACK, CrashKind.FAULTHANDLER)


def drop_told_again(crashes: Sequence[Crash]) -> list[Crash]:
    """The crashes without the prose mentions of an error a crash of the same input shows:
    the same class (``cuda_illegal_memory`` in a title and in the traceback), or the same
    exception and message (one quoting the other); and without a stand-in (vLLM's input dump
    of a failed engine step) beside the traceback it stands in for."""
    crashes = [c for c in crashes if not (_stands_in(c) and _stood_for(c, crashes))]
    mentions = [c for c in crashes if c.mentioned]
    if not mentions:
        return list(crashes)
    real = [c for c in crashes if not c.mentioned]
    told = {id(m) for m in mentions if any(_tells(m, c) for c in real)}
    return [c for c in crashes if id(c) not in told]


def _stands_in(crash: Crash) -> bool:
    return crash.crash_class in STAND_INS or cut_header(crash.exception_type, crash.message)


def _stood_for(stand_in: Crash, crashes: Sequence[Crash]) -> bool:
    """A traceback of the same input printed just before the stand-in (a worker's) or just
    after it (the engine core's ``EngineCore encountered a fatal error``) is the failure it
    reports. A lone thread dump whose header was cut is the crash only where the input shows
    no other: beside one it is the stacks someone dumped on the way (``dumping stacks``)."""
    if stand_in.crash_class not in STAND_INS:
        return any(c.source == stand_in.source and not c.mentioned and not _stands_in(c)
                   for c in crashes)  # fmt: skip
    return any(
        c.kind in _TRACE_KINDS and c.source == stand_in.source
        and -STAND_IN_GAP <= c.lineno - stand_in.lineno and c.end_lineno - stand_in.lineno <= STAND_IN_GAP
        for c in crashes
    )  # fmt: skip


def _tells(mention: Crash, crash: Crash) -> bool:
    if mention.source != crash.source:
        return False
    if mention.crash_class not in _GENERIC_CLASSES and mention.crash_class == crash.crash_class:
        return True
    said = mention.message.strip().rstrip(".\"'`”’")
    texts = (crash.message, *(link.message for link in crash.chain))
    return len(said) >= MIN_MESSAGE and any(said in t or (t and t in said) for t in texts)


def settle_mentions(run: list[Incident]) -> None:
    """Mentions of one run: root causes when the run printed no crash and a sentence names
    the error (a bug report's title when no sentence does), else warnings that are nobody's
    cause or consequence."""
    printed = any(i.root_cause and not i.mentioned for i in run)
    told = SENTENCE if any(i.mentioned == SENTENCE for i in run) else TITLE
    for incident in run:
        if incident.mentioned is None:
            continue
        incident.root_cause = not printed and incident.mentioned == told
        if not incident.root_cause:
            incident.severity = "warning"


def fold_cut_copies(incidents: list[Incident]) -> list[Incident]:
    """Incidents with each cut copy folded into the occurrence it was cut from; ids are
    given again in order of first occurrence."""
    gone: set[int] = set()
    for copy in incidents:
        if not copy.root_cause or copy.kind != CrashKind.TRACEBACK.value:
            continue
        whole = _whole_of(copy, [i for i in incidents if id(i) not in gone])
        if whole is not None:
            _fold(whole, copy)
            gone.add(id(copy))
    if not gone:
        return incidents
    kept = [i for i in incidents if id(i) not in gone]
    for n, incident in enumerate(kept, 1):
        incident.id = f"I{n}"
    return kept


def _whole_of(copy: Incident, incidents: Sequence[Incident]) -> Incident | None:
    """The fuller occurrence ``copy`` was cut from, in the same input; None when there is none
    or when more than one crash could be it."""
    source = copy.first_seen.source
    named = [
        i for i in incidents
        if i is not copy and i.root_cause and i.first_seen.source == source
        and i.kind in _NAMED_KINDS and i.exception_type != CUT_TYPE
    ]  # fmt: skip
    starts = [i for i in named if _starts(copy, i)]
    if len(starts) == 1:
        return starts[0]
    if copy.exception_type == CUT_TYPE and len(named) == 1 and _only_end(named[0]):
        return None if _stated(named[0], copy) else named[0]
    return None


def _stated(line: Incident, copy: Incident) -> bool:
    """An error line right above the cut traceback states it (incident_causes keeps the
    traceback as that line's collateral)."""
    gap = copy.first_seen.lineno - line.first_seen.lineno
    return line.kind == CrashKind.FATAL_LINE.value and 0 < gap <= STATED_GAP


def _starts(copy: Incident, whole: Incident) -> bool:
    """``copy`` shows the start of ``whole``: its frames begin whole's, and its exception is
    whole's with the message cut short (or it lost its exception line)."""
    if not copy.frames and copy.exception_type == CUT_TYPE:
        return False
    if not _frame_prefix(copy.frames, whole.frames):
        return False
    if copy.exception_type == CUT_TYPE:
        return bool(copy.frames)
    if copy.exception_type != whole.exception_type:
        return False
    cut, full = copy.message.strip(), whole.message.strip()
    if len(cut) < MIN_MESSAGE or len(cut) >= len(full) or not full.startswith(cut):
        return False
    return cut[-1].isalnum() and full[len(cut)].isalnum()  # cut mid-word, not a shorter message


def _frame_prefix(cut: Sequence[Frame], whole: Sequence[Frame]) -> bool:
    def key(f: Frame) -> tuple[str, int, str]:
        return (f.file, f.line, f.function)

    return len(cut) <= len(whole) and all(
        key(a) == key(b) for a, b in zip(cut, whole[: len(cut)], strict=True)
    )


def _only_end(incident: Incident) -> bool:
    """The crash shows only its end: an exception line alone, or frames pasted without the
    ``Traceback`` line they began with."""
    if not incident.frames:
        return True
    head = "\n".join(incident.lines[:2])
    return (
        incident.kind == CrashKind.TRACEBACK.value and TB_START not in head and not incident.header
    )


def _fold(whole: Incident, copy: Incident) -> None:
    whole.occurrences = sorted(
        [*whole.occurrences, *copy.occurrences], key=lambda o: (o.source, o.lineno)
    )
    whole.ranks += [r for r in copy.ranks if r not in whole.ranks]
    whole.hints += [h for h in copy.hints if h not in whole.hints]
    if copy.exception_type == CUT_TYPE and _only_end(whole):
        whole.frames = (*copy.frames, *whole.frames)  # the head one paste kept, the end the other
