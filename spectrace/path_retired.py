"""A class decided from a config or words that the framework had already retired by the text's
day -> a release condition naming it and the classes that replaced it.

Why: a verdict read from a launch, a config or a sentence names the class its family ran on
some release, while the run's release is not stated. Where the framework had published a
release without that class before the text's day, the run may be on either side (round 38
33: vllm-ascend's ``MtpProposer``, last shipped in v0.15.0rc1, decided on a May 2026 thread
whose MTP ran ``AscendEagleProposer`` from v0.16.0rc1 on). Code evidence (a frame, a file or a
class a message names, a worker's own log line) proves the class existed in the run's tree,
and a stated release settles it; neither is touched. The classes and their releases are the
``[[method]]`` rows of the framework's path table, the days those of ``release_dates``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.release_dates import published
from spectrace.assemblers.run_config import RunConfig
from spectrace.path_frames import family_methods
from spectrace.path_run import text_day
from spectrace.worker_path import WorkerPath

# evidence kinds (path_decide.kind_of) read from the run's code: the class was in its tree
CODE_KINDS = frozenset({"traceback frames", "stack dump frames", "exception messages",
                        "files named in the text", "log lines of worker modules",
                        "runtime warnings"})  # fmt: skip
# a stated release of the framework settles the class (the flags its readers set)
_RELEASE_FLAGS = ("platform_release", "trtllm_release")
_LABEL = {"vllm": "vllm", "vllm_ascend": "vllm-ascend", "trtllm": "tensorrt-llm", "sglang": "sglang"}


@dataclass(frozen=True, slots=True)
class Retirement:
    """A decided class the day puts in doubt: its last release, the first published release
    without it (and that day), and the family's classes from then on."""

    worker: str
    last: Version
    without: Version
    without_on: date
    successors: tuple[str, ...]


def retirement(framework: str, family: str, worker: str, day: date) -> Retirement | None:
    """Where ``framework`` had published, by ``day``, a release newer than the last one whose
    ``[[method]]`` rows of ``family`` run ``worker``, and other classes of the family ran
    from then on: what replaced it; else None."""
    rows: list[tuple[str, Version, Version]] = []
    for w, first, end in family_methods(framework, family):
        if (a := _version(first)) is not None and (b := _version(end)) is not None:
            rows.append((w, a, b))
    ends = [end for w, _first, end in rows if w == worker]
    if not ends:
        return None
    last = max(ends)
    out = [(r, on) for r, on in published(framework) if r > last and on <= day and not r.is_postrelease]
    if not out:
        return None
    without, on = min(out)
    newest = max(r for r, on_ in published(framework) if on_ <= day)
    after = sorted({w for w, first, end in rows if w != worker and end > last and first <= newest})
    return Retirement(worker, last, without, on, tuple(after)) if after else None


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def retired_condition(path: WorkerPath, config: RunConfig, kinds: Sequence[str]) -> WorkerPath:
    """``path`` given as a release condition where its class was decided from no code evidence
    (``kinds``: the votes' kinds), no line states the framework's release, and the text's
    day falls after a release without the class; ``path`` unchanged otherwise."""
    worker, framework, family = path.worker_class, path.framework, path.family
    if worker is None or framework not in _LABEL or family is None or path.value == "unknown":
        return path
    if CODE_KINDS & set(kinds) or config.version or any(f in config.flags for f in _RELEASE_FLAGS):
        return path
    day = text_day(config)
    gone = retirement(framework, family, worker, day) if day is not None else None
    if gone is None:
        return path
    label = _LABEL[framework]
    condition = (f"{worker} if {label} <= {gone.last}, else {' / '.join(gone.successors)} "
                 f"(the text's day {day}: {label} {gone.without}, out {gone.without_on}, "
                 f"has no {worker})")  # fmt: skip
    return replace(path, value="unknown", worker_class=None, conditional=condition, conflict=None)
