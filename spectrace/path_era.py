"""A family the text names + the release it names (or the thread's day) -> the era's class.

Why: most reports that end unknown name their family in a title or a sentence ("MTP acceptance
drops after cache hits", "DFlash slows down on 0.5.13") and carry a release or a day, but miss
the exact shape of every guarded reader. This join runs after all of them, only when nothing
points and no condition was given: the family words ``path_words`` kept (a title's, a
sentence's; each with its guards, not contradicted by the prose's ``named_algorithm``), the
framework of the run or the tracker, and the release bound (a version line, a title's release,
else the newest release the thread's day allows) are looked up in the framework's era table.
One class in the range decides, two are the condition, anything else stays unknown.

Only a text that shows a run or reports one: a run's own line or an issue whose title reports
a failure (``run_shown``). A feature request, a PR adding the
method, another engine's command, a loader's crash, a launch shown with no speculative flag,
a text naming several families: nothing.

SGLang is looked up here (``spec_prose.prose_verdict``: the era rows of sglang_eras.toml); vLLM,
vllm-ascend and TensorRT-LLM words reach their tables through ``path_named``. Both read the
framework the same way: the run's, else its tracker's, else the one its title and family lines
name in words (``path_run.worded_framework``: "GLM-5 MTP on vLLM", "DFlash on SGLang"), with a
run shown by its own lines and a day or version bounding the release; a family line that names
only another framework ("vLLM with eagle3 works") is that framework's run, not this one's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from spectrace.assemblers.config_release import IMAGE_ENGINE
from spectrace.assemblers.run_config import OTHER_WRITER, Evidence, RunConfig
from spectrace.assemblers.run_shown import deploys_run, reported_failure, shows_run
from spectrace.assemblers.sglang_eras import (
    Version,
    multi_layer_target,
    newest_at,
    parse_release,
    promotable,
)
from spectrace.assemblers.spec_prose import PROSE_REASON, one_family, prose_verdict, set_apart
from spectrace.incident_model import Incident
from spectrace.path_mention_kinds import (
    FAMILY_KIND,
    FOREIGN_KIND,
    RELEASE_KIND,
    REQUEST_KIND,
    THREAD_KIND,
    Mention,
)
from spectrace.path_named import other_program
from spectrace.path_run import names_other_framework, plain_launch, text_day, worded_framework
from spectrace.path_words import adds_only

ERA_REASON = "family named + release bound"
# the path tables' family names -> SGLang's algorithm (SGLang runs MTP as NEXTN); families SGLang
# runs under another name or not at all (draft model = STANDALONE, Medusa) are left out
_SGLANG = {"MTP": "NEXTN", "EAGLE": "EAGLE", "EAGLE3": "EAGLE3", "DFLASH": "DFLASH",
           "DSPARK": "DSPARK", "NGRAM": "NGRAM"}  # fmt: skip
# a test line that did not run (a CI matrix's skipped or deselected case)
_SKIPPED = re.compile(r"(?i)\b(?:skipped|skip|deselected|xfail\w*|disabled)\b")


@dataclass(frozen=True, slots=True)
class EraInputs:
    """What the join reads: the family (its line), the framework, the release or the day."""

    family: str  # SGLang's algorithm name: NEXTN, EAGLE3, DFLASH...
    source: str
    lineno: int
    text: str
    release: Version | None  # named by a version line or the title
    release_said: str  # where the release or day came from, for the reason
    newest: Version | None  # the newest release the day allows


def era_evidence(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int
) -> list[Evidence]:
    """The era table's class (or its two-class condition) for the one family the run's text
    names, bounded by its release or day; [] where anything is missing or set apart."""
    found = _inputs(incident, config, mentions, since)
    if found is None:
        return []
    verdict = prose_verdict(found.family, None, config.era, found.release, found.newest)
    if verdict is None or (verdict.points_to is None and verdict.condition is None):
        return []
    why = verdict.reason.split(": ", 1)[-1]
    reason = f"{PROSE_REASON} ({ERA_REASON}): {found.family} on sglang {found.release_said}: {why}"
    return [Evidence(found.source, found.lineno, found.text, reason, verdict.points_to,
                     verdict.worker_class, verdict.condition, found.family)]  # fmt: skip


def _inputs(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int
) -> EraInputs | None:
    """The family, its line and the release bound, where the text shows or reports a run."""
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    if any(m.kind in (REQUEST_KIND, FOREIGN_KIND) for m in mine) or adds_only(mentions, source):
        return None
    if other_program([frame.file for frame in incident.frames]):
        return None  # a loader's or converter's crash: no server ran
    if _framework(config, mine, incident, mentions, since) != "sglang" or "speculative_algorithm" in config.flags:
        return None
    if not (shows_run(config) or reported_failure(mine) or deploys_run(mentions)):
        return None  # an engine PR's benchmark table runs its own change, whose options it discusses
    if (post := config.flags.get(OTHER_WRITER)) is not None:
        since = max(since, post.lineno)  # another writer's paste: the title's words are not theirs
    words = [m for m in mine if m.kind == FAMILY_KIND and m.lineno >= since
             and not set_apart(m.text) and not _SKIPPED.search(m.text)
             and not names_other_framework(m.text, "sglang")]  # fmt: skip
    names = [_SGLANG.get(m.name) for m in words]
    named = config.flags.get("named_algorithm")  # the prose reader's, where it read one
    if not names or None in names or plain_launch(config):
        return None
    family = one_family([n for n in names if n] + ([str(named.value)] if named else []))
    if family is None:  # several families, or the prose reader reads another
        return None
    if family == "NEXTN" and _promoted_model(config, mine):
        return None  # MTP on a model a [[promote]] row rewrites (Gemma-4: FROZEN_KV_MTP)
    if family in ("NEXTN", "EAGLE") and any(multi_layer_target(m.text) for m in mine):
        return None  # MiMo-V2, Step-3.5: the server runs their EAGLE/MTP on multi-layer EAGLE
    lineno, text = words[0].lineno, words[0].text
    release, said = _release(config, mine)
    newest = None
    if release is None and config.era is not None and config.engine in (None, "sglang"):
        said = f"no release named; era {config.era} (from the text's lines: a nightly image, a main build)"
    elif release is None:
        day = text_day(config)
        newest = newest_at(day) if day is not None else None
        if newest is None:
            return None
        said = f"no release named; the thread's day {day} (newest release then: {newest})"
    return EraInputs(family, source, lineno, text, release, said, newest)


def _promoted_model(config: RunConfig, mine: Sequence[Mention]) -> bool:
    """MTP may not be NEXTN: a line of the text names a model whose MTP the server rewrites to
    another algorithm on some releases (Gemma-4: FROZEN_KV_MTP), or a launch is shown whose
    served model only the prose reader checks, and it did not read NEXTN from the text."""
    launched = any(f.origin == "launch_command" for f in config.flags.values())
    if launched and "named_algorithm" not in config.flags:
        return True
    return any(promotable(m.text) for m in mine)


def _framework(
    config: RunConfig, mine: Sequence[Mention], incident: Incident,
    mentions: Sequence[Mention], since: int,
) -> str | None:
    """The run's framework, else the one tracker its thread headers name, else the one its
    title and family lines name in words (``path_run.worded_framework``)."""
    if config.engine is not None:
        return config.engine
    found = {m.name for m in mine if m.kind == THREAD_KIND}
    if found:
        return next(iter(found)) if len(found) == 1 else None
    worded = worded_framework(incident, config, mentions, since)
    image = config.flags.get(IMAGE_ENGINE)  # a nightly SGLang image: the last place to look
    return worded if worded is not None or image is None else str(image.value)


def _release(config: RunConfig, mine: Sequence[Mention]) -> tuple[Version | None, str]:
    """SGLang's release: the version line's, else the one a title names."""
    if config.engine == "sglang" and config.version and (v := parse_release(config.version)):
        return v, f"{config.version} (its version line)"
    for m in mine:
        if m.kind == RELEASE_KIND and m.name.startswith("sglang:"):
            text = m.name.partition(":")[2]
            if (v := parse_release(text)) is not None:
                return v, f"{text} (named in the title, line {m.lineno})"
    return None, ""
