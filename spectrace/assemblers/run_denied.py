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

from spectrace.assemblers.not_run import CONFIG_ONLY, DENIALS
from spectrace.path_mention_kinds import APART_KIND, Mention


def denied_shows_run(mentions: Sequence[Mention], own: bool) -> bool | None:
    """None where nothing denies the thread a run; else whether it still shows one: by the
    run's own config lines (``own``), except a config-only PR, whose configs are what it adds."""
    reasons = {why for m in mentions if m.kind == APART_KIND for why in DENIALS if m.name.startswith(why)}
    if not reasons:
        return None
    return own and CONFIG_ONLY not in reasons
