"""From per-thread activities to per-rank views, same-stack groups and the one verdict line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from spectrace.stacks.classify import STATE_OF, Activity, State, ThreadView, main_view, thread_views
from spectrace.stacks.model import Capture, ProcessCapture

_LABEL_NUM = re.compile(r"^(.*?)(\d+)$")


@dataclass(frozen=True, slots=True)
class RankView:
    label: str  # the rank ("TP3"), a coordinator's role ("EngineCore_DP0"), else "pid 1234"
    process: ProcessCapture
    view: ThreadView  # the thread that speaks for the process
    threads: tuple[ThreadView, ...]

    @property
    def state(self) -> State:
        return STATE_OF[self.view.activity]


@dataclass(frozen=True, slots=True)
class StackGroup:
    """Ranks whose telling thread has the same activity and the same Python call chain."""

    labels: tuple[str, ...]
    activity: Activity
    detail: str
    chain: tuple[str, ...]  # function names, innermost first (no line numbers)


class VerdictKind(Enum):
    STRAGGLER = "straggler"  # some ranks wait in a collective, the odd ones are elsewhere
    MISMATCH = "mismatch"  # ranks wait in different collectives
    ALL_IN_COLLECTIVE = "all_in_collective"
    IDLE = "idle"
    PROGRESS = "progress"
    ABOVE = "above_ranks"  # every rank idle while a coordinator (engine core...) is stuck
    MIXED = "mixed"
    SINGLE = "single"
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class StackAnalysis:
    ranks: tuple[RankView, ...]  # the processes the verdict is about (ranked ones when any)
    others: tuple[RankView, ...]  # sampled processes without a rank (main, detokenizer...)
    groups: tuple[StackGroup, ...]
    kind: VerdictKind
    verdict: str
    odd: tuple[str, ...]  # labels of the odd ones out
    coordinators: tuple[RankView, ...] = ()  # engine core, detokenizer...: beside the ranks


def natural_key(label: str) -> tuple[str, int]:
    m = _LABEL_NUM.match(label)
    return (m.group(1), int(m.group(2))) if m else (label, -1)


def compress(labels: Iterable[str]) -> str:
    """["TP0","TP1","TP2","TP4"] -> "TP0-2 and TP4" (runs of numbers after a common prefix)."""
    pieces: list[str] = []
    run: list[tuple[str, int]] = []
    for prefix, n in sorted({natural_key(x) for x in labels}):
        if run and (prefix != run[-1][0] or n != run[-1][1] + 1 or n < 0):
            pieces.append(_run_text(run))
            run = []
        run.append((prefix, n))
    if run:
        pieces.append(_run_text(run))
    return pieces[0] if len(pieces) == 1 else ", ".join(pieces[:-1]) + " and " + pieces[-1]


def _run_text(run: Sequence[tuple[str, int]]) -> str:
    (prefix, first), last = run[0], run[-1][1]
    if first < 0:
        return prefix
    return f"{prefix}{first}" if len(run) == 1 else f"{prefix}{first}-{last}"


def phrase(activity: Activity, detail: str, plural: bool) -> str:
    """Verb phrase for a sentence: 'waits in all_reduce' / 'are in `verify`'."""
    s = "" if plural else "s"
    be = "are" if plural else "is"
    return {
        Activity.COLLECTIVE: f"wait{s} in {detail}",
        Activity.GPU_WAIT: f"wait{s} on the GPU ({detail})",
        Activity.RUNNING: f"{be} in `{detail}`",
        Activity.SLEEPING: f"sleep{s} in `{detail}`",
        Activity.BLOCKED: f"{be} blocked in `{detail}`",
        Activity.IDLE_LOOP: f"{be} idle in the scheduler loop ({detail})",
    }[activity]


def analyse(capture: Capture) -> StackAnalysis:
    views = [_rank_view(p) for p in capture.processes if p.samples]
    sampled = [v for v in views if v is not None]
    ranked = [v for v in sampled if v.process.rank is not None and v.process.role is None]
    # Coordinators never join the odd-one-out comparison; with no rank at all (vLLM TP=1, whose
    # engine core runs the model) every sampled process is compared, as before roles existed.
    coordinators = [v for v in sampled if v.process.role is not None] if ranked else []
    subjects = sorted(ranked or sampled, key=lambda v: natural_key(v.label))
    others = tuple(v for v in sampled if v not in subjects and v not in coordinators)
    kind, text, odd = _above_ranks(subjects, coordinators) or _verdict(subjects)
    return StackAnalysis(
        ranks=tuple(subjects),
        others=others,
        groups=_groups(subjects),
        kind=kind,
        verdict=text,
        odd=odd,
        coordinators=tuple(sorted(coordinators, key=lambda v: natural_key(v.label))),
    )


def _above_ranks(
    ranks: Sequence[RankView], coordinators: Sequence[RankView]
) -> tuple[VerdictKind, str, tuple[str, ...]] | None:
    """Every rank idle in its loop while a coordinator is stuck (not idle, stack not moving):
    the ranks wait for work that never comes."""
    stuck = [c for c in coordinators if c.state is not State.IDLE and not c.view.changed]
    if not ranks or not stuck or any(r.view.activity is not Activity.IDLE_LOOP for r in ranks):
        return None
    every = "the only rank" if len(ranks) == 1 else "every rank"
    text = (
        f"{every} is idle ({compress(r.label for r in ranks)}) while "
        f"{'; '.join(_clause(p) for p in _places(stuck))}: the hang is above the ranks"
    )
    return VerdictKind.ABOVE, text, tuple(c.label for c in stuck)


def _rank_view(process: ProcessCapture) -> RankView | None:
    threads = thread_views(process)
    view = main_view(process, threads)
    if view is None:
        return None
    label = process.role or process.rank or f"pid {process.pid}"
    return RankView(label=label, process=process, view=view, threads=tuple(threads))


def _groups(ranks: Sequence[RankView]) -> tuple[StackGroup, ...]:
    found: dict[tuple[Activity, str, tuple[str, ...]], list[str]] = {}
    for r in ranks:
        chain = tuple(f.name for f in r.view.thread.frames if not f.native)
        found.setdefault((r.view.activity, r.view.detail, chain), []).append(r.label)
    groups = [StackGroup(tuple(v), a, d, c) for (a, d, c), v in found.items()]
    return tuple(sorted(groups, key=lambda g: (-len(g.labels), natural_key(g.labels[0]))))


def _places(ranks: Sequence[RankView]) -> list[tuple[Activity, str, list[str]]]:
    """Ranks grouped by (activity, detail), biggest group first."""
    found: dict[tuple[Activity, str], list[str]] = {}
    for r in ranks:
        found.setdefault((r.view.activity, r.view.detail), []).append(r.label)
    return sorted(
        ((a, d, v) for (a, d), v in found.items()), key=lambda p: (-len(p[2]), natural_key(p[2][0]))
    )


def _clause(place: tuple[Activity, str, list[str]]) -> str:
    activity, detail, labels = place
    return f"{compress(labels)} {phrase(activity, detail, len(labels) > 1)}"


def _verdict(ranks: Sequence[RankView]) -> tuple[VerdictKind, str, tuple[str, ...]]:
    if not ranks:
        return VerdictKind.NOTHING, "no Python process could be sampled", ()
    places = _places(ranks)
    if all(r.view.changed for r in ranks):
        return (
            VerdictKind.PROGRESS,
            (
                f"{compress(r.label for r in ranks)} "
                f"{'are' if len(ranks) > 1 else 'is'} making progress (stacks change between samples)"
            ),
            (),
        )
    if len(places) == 1:
        return _unanimous(places[0], len(ranks))
    waiting = [p for p in places if p[0] is Activity.COLLECTIVE]
    elsewhere = [p for p in places if p[0] is not Activity.COLLECTIVE]
    if waiting and elsewhere:
        return _straggler(waiting, elsewhere)
    kind = VerdictKind.MISMATCH if waiting else VerdictKind.MIXED
    suffix = ": the ranks are in different collectives" if waiting else ""
    if len(places[0][2]) == len(places[1][2]):  # no majority: no odd one out, just the list
        ordered = sorted(places, key=lambda p: natural_key(p[2][0]))
        return kind, "; ".join(_clause(p) for p in ordered) + suffix, ()
    odd_places = places[1:]
    text = f"{'; '.join(_clause(p) for p in odd_places)} while {_clause(places[0])}{suffix}"
    return kind, text, tuple(x for p in odd_places for x in p[2])


def _unanimous(
    place: tuple[Activity, str, list[str]], count: int
) -> tuple[VerdictKind, str, tuple[str, ...]]:
    activity, _, _ = place
    if count == 1:
        return VerdictKind.SINGLE, _clause(place), ()
    if activity is Activity.COLLECTIVE:
        return (
            VerdictKind.ALL_IN_COLLECTIVE,
            (
                f"{_clause(place)}: every rank here has joined; suspect a peer outside this process "
                "tree, the interconnect, or a GPU fault"
            ),
            (),
        )
    if activity is Activity.IDLE_LOOP:
        return VerdictKind.IDLE, f"{_clause(place)}: waiting for requests, not for each other", ()
    return VerdictKind.MIXED, _clause(place), ()


def _straggler(
    waiting: list[tuple[Activity, str, list[str]]], elsewhere: list[tuple[Activity, str, list[str]]]
) -> tuple[VerdictKind, str, tuple[str, ...]]:
    n_wait = sum(len(p[2]) for p in waiting)
    n_else = sum(len(p[2]) for p in elsewhere)
    odd, rest = (elsewhere, waiting) if n_else <= n_wait else (waiting, elsewhere)
    odd_labels = tuple(x for p in odd for x in p[2])
    text = f"{'; '.join(_clause(p) for p in odd)} while {'; '.join(_clause(p) for p in rest)}"
    if odd is elsewhere:
        text += f": the collective cannot finish until {compress(odd_labels)} join{'s' if len(odd_labels) == 1 else ''}"
    return VerdictKind.STRAGGLER, text, odd_labels


def analysis_json(analysis: StackAnalysis) -> dict[str, object]:
    """The verdict in machine form, saved beside the capture (the loader ignores it)."""
    return {
        "kind": analysis.kind.value,
        "verdict": analysis.verdict,
        "odd": list(analysis.odd),
        "ranks": [_rank_json(r) for r in analysis.ranks],
        "coordinators": [_rank_json(r) for r in analysis.coordinators],
        "others": [_rank_json(r) for r in analysis.others],
        "groups": [
            {
                "labels": list(g.labels),
                "activity": g.activity.name.lower(),
                "detail": g.detail,
                "chain": list(g.chain),
            }
            for g in analysis.groups
        ],
    }


def _rank_json(r: RankView) -> dict[str, object]:
    frame = r.view.own_frame
    return {
        "label": r.label,
        "pid": r.process.pid,
        "role": r.process.role,
        "state": r.state.value,
        "activity": r.view.activity.name.lower(),
        "detail": r.view.detail,
        "changed": r.view.changed,
        "frame": None
        if frame is None
        else {"name": frame.name, "filename": frame.filename, "line": frame.line},
    }
