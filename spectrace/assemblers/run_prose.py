"""Whether a text tells its own run in words, or reasons about code and shows none: the words
table ``rules/paths/run_prose.toml`` read once.

Why: pull-request bodies, issue comments and field reports tell runs in prose ("Measured on the
GEN worker of a disaggregated run", "reproduced the original failure", "**before:** CUDA OOM at
boot", "hit the crash in production"), and they reason about code in the same words ("this PR
fixes three issues", "Root cause: ...", "tested by unit tests", a review bot's comment under a
diff, "MTP is left disabled by default"). Each reader had its own list; last session's sealed
rounds failed both ways on shapes no list held (a fix PR's code reasoning got a path, a PR's
measured run got none). One table holds the words of both sides, in the languages seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.release_dates import any_of, rules_table

TABLE = "paths/run_prose.toml"


@dataclass(frozen=True, slots=True)
class RunProse:
    """The table's rows, compiled: each a pattern over one line."""

    fix_evidence: re.Pattern[str]
    review: re.Pattern[str]
    spec_off: re.Pattern[str]
    spec_off_unless: re.Pattern[str]
    told_run: re.Pattern[str]
    code_names: re.Pattern[str]
    setting: re.Pattern[str]
    literals: tuple[bytes, ...]


@cache
def _table() -> RunProse:
    data = rules_table(TABLE)
    fix = data["fix_evidence"]
    evidence = [p for key in ("release", "rig", "output", "measured", "model_failure", "checked", "repro", "launch") for p in fix[key]]  # type: ignore[index]
    words = [w for part in ("fix_evidence", "review", "spec_off", "told_run") for w in data[part]["literals"]]  # type: ignore[index]
    return RunProse(
        fix_evidence=any_of(evidence, re.MULTILINE),
        review=any_of(data["review"]["openers"], re.MULTILINE),  # type: ignore[index]
        spec_off=any_of(data["spec_off"]["words"], re.MULTILINE),  # type: ignore[index]
        spec_off_unless=any_of(data["spec_off"]["unless"], re.MULTILINE),  # type: ignore[index]
        told_run=any_of(data["told_run"]["lines"], re.MULTILINE),  # type: ignore[index]
        code_names=any_of(data["code_names"]["after"], re.MULTILINE),  # type: ignore[index]
        setting=any_of(data["setting"]["values"], re.MULTILINE),  # type: ignore[index]
        literals=tuple(str(w).encode() for w in words),
    )


def literals() -> tuple[bytes, ...]:
    """What the scan must keep for these rows to be read (none occurs in a load line)."""
    return _table().literals


def fix_evidence(text: str) -> bool:
    """The line of a fix PR's description shows something of a run of its own: the issue it
    fixes, a release or image, a counted rig, an error's output, a repro."""
    return _table().fix_evidence.search(text) is not None


def review_opener(text: str) -> bool:
    """The line opens a code review as a web copy shows it ("bob reviewed on Jul 3", a review
    bot's bold name): what follows is code under review."""
    return _table().review.search(text) is not None


def spec_off(text: str) -> bool:
    """The sentence says speculation (or a method it names) is off or left off by default, and
    tells no run or failure of the writer's in the same line."""
    t = _table()
    return t.spec_off.search(text) is not None and t.spec_off_unless.search(text) is None


def told_run(text: str) -> bool:
    """The line tells a concrete run with its outcome or setup, in the passive or the first
    person ("Measured on the GEN worker of a ... run", "reproduced the original failure",
    "before: CUDA OOM at boot", "both returned HTTP 200", "hit the crash in production")."""
    return _table().told_run.search(text) is not None


def code_named(text: str, end: int) -> bool:
    """The family word ending at ``end`` names source code ("the individual MTP/Eagle sampler
    files", "MTP のソースファイル"): a history or a diff's file list, not a method a run used."""
    return _table().code_names.match(text[end:]) is not None


def sets_up(text: str) -> bool:
    """The line gives a speculative setting a value ("gamma=16", "`num_draft_tokens = 17`",
    "3 steps", "algorithm: DSPARK"): beside one method's name, that method's run is set up."""
    return _table().setting.search(text) is not None
