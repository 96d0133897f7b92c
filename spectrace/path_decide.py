"""Worker-path evidence -> one verdict: the strongest vote decides, disagreement is said.

The linker's second half (``path_gather`` collects the evidence): with no vote, a verdict that
hangs on the release is given as a condition, and what is missing is named; so is a class the
text's day shows retired where only a config or words decided it (``path_retired``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.path_frames import NOT_IN_TABLES, family_of
from spectrace.path_mentions import KIND as MENTION
from spectrace.path_mentions import MESSAGE_KIND
from spectrace.path_missing import (
    condition_engine,
    describe,
    frames_engine,
    missing_evidence,
    proposer_condition,
    switch_condition,
)
from spectrace.path_retired import retired_condition
from spectrace.worker_path import WorkerPath


def kind_of(evidence: Evidence) -> str:
    """The kind of evidence as a reader names it; votes of one kind disagree among themselves."""
    for prefix, kind in (
        ("traceback frame", "traceback frames"),
        ("cut traceback frame", "traceback frames"),
        ("peer traceback frame", "traceback frames"),
        ("py-spy frame", "stack dump frames"),
        ("faulthandler frame", "stack dump frames"),
        ("exception message", "exception messages"),
        (MENTION, "files named in the text"),
        ("IPython traceback frame", "traceback frames"),
        ("runtime warning", "runtime warnings"),
        ("log line written by", "log lines of worker modules"),
        (MESSAGE_KIND, "exception messages"),
        ("server_args dump", "the server_args dump"),
        ("vLLM config", "the vLLM config"),
    ):
        if evidence.reason.startswith(prefix):
            return kind
    return "a start-up line"


def decide(
    evidence: Sequence[Evidence], config: RunConfig | None = None, crash_engine: str | None = None
) -> WorkerPath:
    """The strongest evidence that points somewhere decides; disagreement is reported. With
    none, a verdict that hangs on the release is given as such, and what is missing is said
    (``crash_engine``: the framework the crash itself names, by its frames or exception type)."""
    config = config if config is not None else RunConfig()
    if config.engine is None and (engine := frames_engine(evidence) or crash_engine) is not None:
        config = replace(config, engine=engine)  # ask for that server's lines, not SGLang's
    votes = [e for e in evidence if e.points_to is not None and not proposer_condition(e)]
    if not votes:
        conditional = next((e.condition or proposer_condition(e) for e in evidence
                            if e.condition or proposer_condition(e)), None)  # fmt: skip
        if config.engine is None and conditional:  # whose release the condition hangs on
            config = replace(config, engine=condition_engine(conditional))
        missing = missing_evidence(config, evidence, conditional)
        conditional = conditional or switch_condition(config)
        framework, family = describe(None, config)
        family = family or next((e.family for e in evidence if e.family and (
            e.condition or NOT_IN_TABLES in e.reason)), None)  # an unknown file's name too
        return WorkerPath("unknown", None, tuple(evidence), None, framework, family, conditional,
                          missing)  # fmt: skip
    first = votes[0]
    worker = next(
        (e.worker_class for e in votes if e.points_to == first.points_to and e.worker_class), None
    )
    against = next((e for e in votes if e.points_to != first.points_to), None)
    against = against or _other_family(first, worker, votes)
    conflict = None
    if against is not None and kind_of(against) == kind_of(first):
        conflict = (
            f"{kind_of(first).capitalize()} disagree: {first.text} points to {first.points_to} "
            f"({first.worker_class}) but {against.text} points to {against.points_to} "
            f"({against.worker_class})"
        )
    elif against is not None:
        conflict = (
            f"{kind_of(first).capitalize()} point to {first.points_to} ({worker}) but "
            f"{kind_of(against)} at {against.source}:{against.lineno} points to "
            f"{against.points_to} ({against.worker_class}): the log may hold more than "
            "one run, or the worker code was patched or moved"
        )
    framework, family = describe(worker, config, votes)
    path = WorkerPath(first.points_to or "unknown", worker, tuple(evidence), conflict, framework,
                      family)  # fmt: skip
    path = retired_condition(path, config, [kind_of(e) for e in votes])
    if path.conditional is None:
        return path
    return replace(path, missing=missing_evidence(config, evidence, path.conditional))


def _other_family(
    first: Evidence, worker: str | None, votes: Sequence[Evidence]
) -> Evidence | None:
    """A vote of another kind naming a class of another family (frames in
    ``lookaheadDecodingLayer.cpp``, a config saying MTP): "other" verdicts disagree by class,
    not by v1/v2. Classes of one family (a plugin's subclass, V0's wrapper and its proposer)
    or with no family of their own never disagree."""
    mine = family_of(worker)
    if first.points_to != "other" or mine is None or not mine[1]:
        return None
    for vote in votes:
        theirs = family_of(vote.worker_class) if vote.worker_class else None
        if (
            theirs is not None
            and theirs[1]
            and theirs[1] != mine[1]
            and kind_of(vote) != kind_of(first)
        ):
            return vote
    return None
