"""Which incident caused which, when the printed order alone misleads: a paste that states the
error first, sglang's own SIGKILL clean-up, peer workers printing one failure, a kernel's
unstamped assertion right above the stamped traceback it caused."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence

from spectrace.assemblers.crash import Crash
from spectrace.assemblers.faultdump import CUT_DUMP
from spectrace.assemblers.tracebacks import CUT_TYPE
from spectrace.incident_model import Incident

STATED_GAP = 3  # lines between an error stated first and the cut traceback that follows it
BORROW_GAP = 8  # lines between an unstamped root cause and the stamped crash it caused
PEER_LINES = 64  # lines over which interleaved peer workers print one failure
SHELL_KILLED = ("Killed", "已杀死")  # a shell's report of its job's SIGKILL (en, zh_CN)
_SELF_KILL_HINT = (
    "sglang kills its own process tree (SIGKILL) after a child's SIGQUIT: this Killed is that "
    "clean-up, not the OOM killer; the cause is the crash before it."
)
_TEARDOWN_HINT = (
    "Killed after the crash above: the server's process tree was torn down (SIGKILL) because "
    "of that crash; not a second root cause."
)
_DIGITS = re.compile(r"\d+")
_ANNOUNCERS = frozenset({"worker_proc_failed"})  # notices that say "my traceback follows"
_REACTIONS = (None, "exception", "engine_core_fatal")  # classes that name no cause of their own
# one GPU fault as the runtime and torch each report it (HSA's queue abort, then c10's CUDA error)
_GPU_FAULTS = frozenset({"gpu_runtime_error", "cuda_error", "cuda_illegal_memory", "npu_error"})
_LAUNCHER_NOTICES = frozenset({"mpi_process_died"})  # "mpirun noticed that process rank 0 ..."
_SIGNAL_REPORTS = frozenset({"mpi_signal", "mpi_backtrace"})  # a rank's own signal report


def prefer_named_causes(incidents: list[Incident]) -> None:
    """A traceback cut before its exception line names nothing; a classified error or fatal
    line right before it (a kernel's failed assertion, a CUDA error) is the cause to show.
    A notice that some process died (vLLM's EngineDeadError, a scheduler's death) names a
    consequence: the cut traceback after it is still the crash that caused it."""
    for n, (before, cut) in enumerate(itertools.pairwise(incidents)):
        if (
            cut.root_cause
            and cut.exception_type == CUT_TYPE
            and not before.root_cause
            and before.severity != "warning"
            and before.crash_class
            and before.kind != "process_death"
        ):
            before.root_cause, cut.root_cause = True, False
        elif cut.root_cause and cut.exception_type == CUT_TYPE and _states(before, cut):
            cut.root_cause = False  # the cut traceback of the error the paste stated first
            _adopt(before, cut)
        elif before.root_cause and cut.root_cause and _heads(before, cut):
            before.root_cause = False  # the notice of the traceback (or dump) printed below it
        elif cut.root_cause and _reacts_to_child(before, cut):
            # the parent's reaction; the death is the cause unless an earlier crash explains it
            cut.root_cause = False
            before.root_cause = not any(i.root_cause for i in incidents[:n])


def _heads(notice: Incident, after: Incident) -> bool:
    """Two prints of one failure the assembler could not join: a worker's ``WorkerProc hit an
    exception`` notice whose traceback line lost its logger location in an edited paste, or
    the tail of a faulthandler dump cut at its head right above the next full dump (the
    processes of one job dumping together), a message logged just before the traceback that
    raises it. The second is the one to read."""
    first, where = notice.first_seen, after.first_seen
    gap = where.lineno - first.lineno
    if where.source != first.source or not 0 < gap <= BORROW_GAP:
        return False
    if _logged_then_raised(notice, after):
        return True
    if gap > STATED_GAP:
        return False
    if notice.crash_class in _ANNOUNCERS:
        return after.kind == "traceback" and after.origin_rank == notice.origin_rank
    return notice.message == CUT_DUMP[1] and after.kind == "faulthandler" and bool(after.frames)


def _logged_then_raised(line: Incident, tb: Incident) -> bool:
    """``logger.error(msg); raise RuntimeError(msg)`` (SGLang's KV allocator): the logged line
    and the traceback under it are one failure, told twice by the same writer."""
    same = line.message == tb.message and len(line.message) >= 12
    kinds = (line.kind, tb.kind) == ("fatal_line", "traceback")
    return same and kinds and line.origin_rank == tb.origin_rank


def _reacts_to_child(death: Incident, after: Incident) -> bool:
    """vLLM's engine core (or Ray's driver) saying a worker process died, then failing itself
    a few lines on with a traceback that names nothing of its own (cut, a bare ``RuntimeError:
    cancelled``): the worker's death is the cause, the parent's traceback its reaction."""
    first, where = death.first_seen, after.first_seen
    last = max(o.lineno for o in death.occurrences if o.source == first.source)
    writers = {death.origin_rank, after.origin_rank}
    return (
        death.crash_class == "worker_died"
        and (after.exception_type == CUT_TYPE or after.crash_class in _REACTIONS)
        and where.source == first.source
        and (None in writers or len(writers) == 1)
        and 0 < where.lineno - last <= BORROW_GAP
    )


def echoes(incidents: list[Incident]) -> None:
    """One fault reported twice by one process is one root cause: a bare GPU-error line right
    after another GPU fault (ROCm's ``HSA_STATUS_ERROR_EXCEPTION`` then ``CUDA error:
    unspecified launch failure``), or the abort right after glibc said why it aborts
    (``munmap_chunk(): invalid pointer`` then ``Fatal Python error: Aborted``). mpirun's
    notice that a rank died of a signal, after that rank's own signal report, is the launcher
    telling the same death."""
    for n, notice in enumerate(incidents):
        if notice.root_cause and notice.crash_class in _LAUNCHER_NOTICES:
            notice.root_cause = not any(_reported(r, notice) for r in incidents[:n])
    for before, after in itertools.pairwise(incidents):
        first, where = before.first_seen, after.first_seen
        if (
            before.root_cause
            and after.root_cause
            and _same_fault(before, after)
            and where.source == first.source
            and before.origin_rank == after.origin_rank
            and 0 < where.lineno - first.lineno <= BORROW_GAP
        ):
            after.root_cause = False


def _reported(report: Incident, notice: Incident) -> bool:
    first, where = report.first_seen, notice.first_seen
    end = first.lineno + len(report.lines)
    return (
        report.root_cause
        and report.rule_id in _SIGNAL_REPORTS
        and where.source == first.source
        and 0 < where.lineno - end <= PEER_LINES
    )


def _same_fault(before: Incident, after: Incident) -> bool:
    if before.crash_class == "memory_corruption":
        return after.exception_type == "SIGABRT"
    return after.kind == "fatal_line" and {before.crash_class, after.crash_class} <= _GPU_FAULTS


def self_kills(incidents: list[Incident]) -> None:
    """sglang answers SIGQUIT by SIGKILLing its own process tree, so the shell's bare
    ``Killed`` right after the SIGQUIT notice is that, not the OOM killer: collateral. A bare
    ``Killed`` after any root-cause crash of the run (minutes later too, after the NCCL
    watchdogs gave up) is the same tear-down of a server that already crashed."""
    for n, after in enumerate(incidents):
        if after.rule_id != "oom_killed" or after.message.strip() not in SHELL_KILLED:
            continue
        before = incidents[n - 1] if n else None
        if before is not None and before.crash_class == "sigquit" and _just_after(before, after):
            after.root_cause = False
            after.hints[:] = [_SELF_KILL_HINT]
        elif any(i.root_cause and i.crash_class != "sigquit" for i in incidents[:n]):
            after.root_cause = False
            after.hints[:] = [_TEARDOWN_HINT]


def _just_after(before: Incident, after: Incident) -> bool:
    return (
        after.first_seen.source == before.first_seen.source
        and 0 < after.first_seen.lineno - before.first_seen.lineno <= STATED_GAP
    )


def _states(line: Incident, cut: Incident) -> bool:
    """A bare ``IndexError: list index out of range`` line just above a traceback cut before
    its exception: the paste put the error first (a summary), the traceback is its own."""
    first, where = line.first_seen, cut.first_seen
    text = line.lines[0].strip() if line.lines else ""
    return (
        line.root_cause
        and line.kind == "fatal_line"
        and text.startswith(f"{line.exception_type}: ")
        and first.source == where.source
        and 0 < where.lineno - first.lineno <= STATED_GAP
    )


def _adopt(line: Incident, cut: Incident) -> None:
    """The error stated first takes what its own traceback shows and the bare line lacks: the
    frames (the worker path: ``eagle_worker_v2.py ... verify``) and the writer (``TP7``)."""
    if not line.frames:
        line.frames = cut.frames
    if line.origin_rank is None and cut.origin_rank is not None:
        line.origin_rank = cut.origin_rank
        line.ranks = [cut.origin_rank, *(r for r in line.ranks if r != cut.origin_rank)]


def borrow_times(incidents: list[Incident]) -> None:
    """A root cause printed with no stamp (a GPU kernel's assertion, a C++ abort) right above
    the stamped crash it caused happened at about that time: it takes that stamp, marked
    ``~`` as approximate, so the report can place it."""
    for cause, after in itertools.pairwise(incidents):
        first, later = cause.first_seen, after.first_seen
        last = max(o.lineno for o in cause.occurrences if o.source == first.source)
        if (
            cause.root_cause
            and first.ts is None
            and all(o.ts is None for o in cause.occurrences)
            and later.ts is not None
            and later.source == first.source
            and 0 < later.lineno - last <= BORROW_GAP
        ):
            cause.first_seen = dataclasses.replace(first, ts=later.ts, ts_text=f"~{later.ts_text}")


def _role(stream: str) -> str:
    return _DIGITS.sub("#", stream)


def _peers(cut: Crash, other: Crash) -> bool:
    return (
        other.stream != cut.stream
        and other.source == cut.source
        and other.ts_text == cut.ts_text
        and _role(other.stream) == _role(cut.stream)
        and abs(other.lineno - cut.lineno) <= PEER_LINES
    )


def peer_joins(crashes: Sequence[Crash]) -> dict[int, Crash]:
    """Tracebacks cut before their exception line, printed by peer workers (``Worker_TP0`` and
    ``Worker_TP7``, ``EngineCore_0`` and ``EngineCore_1``) in the same second and a few lines
    from a peer's crash, are that one failure seen on more workers: each joins the peer's
    incident (a named crash first, else the earliest cut one) instead of standing alone."""
    joins: dict[int, Crash] = {}
    for n, cut in enumerate(crashes):
        if cut.exception_type != CUT_TYPE or cut.ts_text is None:
            continue
        named = (c for c in crashes if c.exception_type != CUT_TYPE and _peers(cut, c))
        earlier = (c for c in crashes[:n] if _peers(cut, c))
        target = next(named, None) or next(earlier, None)
        if target is not None:
            joins[id(cut)] = joins.get(id(target), target)
    return joins
