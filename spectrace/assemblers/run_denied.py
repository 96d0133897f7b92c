"""Whether a thread that a report, fix or recipe reading takes as a run is denied one by its
own words (``not_run.DENIALS``), and what then still shows the run.

Why: a bug report's title, a fix PR's title, a recipe PR's deployment words each make a thread
show a run in ``run_shown``; but a report built from reading code ("Root cause (code-level)",
"found by reading the code"), a fix PR that only points at source lines, another project's PR
describing how the engine behaves "when launched with" a flag, and a PR that only adds configs
("same as `vllm.yaml` but with ...", "No other changes") ran nothing. Their families, classes
and day then gave paths to texts that show no run.
"""

from __future__ import annotations

from collections.abc import Sequence

from spectrace.assemblers.not_run import (
    CONFIG_CHANGE,
    CONFIG_ONLY,
    DENIALS,
    DIGEST,
    DOCUMENT,
    HARNESS_STOPPED,
    HUB_STOPPED,
    INSTRUCTIONS,
    LAUNCHER_STOPPED,
    PLANNED_ONLY,
    REJECTED,
    TEMPLATE,
    UNIT_TESTS,
    UNRECORDED,
)
from spectrace.path_mention_kinds import APART_KIND, Mention


# the denials whose config lines are no run's: what a PR adds, what the engine rejected, what a
# page or a document tells the reader to run, what a digest's items quote, what a driver set up
# and never started, what a results template's reader will run
_UNRUN = frozenset({CONFIG_ONLY, CONFIG_CHANGE, REJECTED, INSTRUCTIONS, DOCUMENT, DIGEST, HARNESS_STOPPED,
                    UNRECORDED, UNIT_TESTS, PLANNED_ONLY, HUB_STOPPED, LAUNCHER_STOPPED, TEMPLATE})
# the denials that hold whatever crash the text shows: the engine rejected the config before
# building a worker, a unit test built it from mocks and nothing served it, or the launch
# stopped in its launcher (fetching the model, its arguments or ports) before any engine started
_NO_WORKER = (REJECTED, UNIT_TESTS, HUB_STOPPED, LAUNCHER_STOPPED)


def denied_shows_run(mentions: Sequence[Mention], own: bool) -> bool | None:
    """None where nothing denies the thread a run; else whether it still shows one: by the
    run's own config lines (``own``), except a PR's configs (what it adds) or a config the
    engine rejected before building a worker (``_UNRUN``)."""
    reasons = {why for m in mentions if m.kind == APART_KIND for why in DENIALS if m.name.startswith(why)}
    if not reasons:
        return None
    return own and not reasons & _UNRUN


def rejected(mentions: Sequence[Mention]) -> bool:
    """The engine rejected the run's speculative config at validation (``not_run.REJECTED``),
    the text is a unit-test run's log (``not_run.UNIT_TESTS``), or its launch stopped at the
    model hub before any engine started (``not_run.HUB_STOPPED``): whatever crash the text holds
    (the validation error, a test's failed assertion, the hub's refusal) and whatever config it
    names, no worker was built or served, so the text shows no worker's run; likewise a launch
    that stopped in the launcher's own stage (``not_run.LAUNCHER_STOPPED``)."""
    return any(m.kind == APART_KIND and no_worker(m.name) for m in mentions)


def no_worker(said: str) -> bool:
    """A set-apart block's reason says no worker was ever built (``_NO_WORKER``)."""
    return said.startswith(_NO_WORKER)
