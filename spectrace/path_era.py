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
from dataclasses import dataclass, replace
from datetime import date

from spectrace.assemblers.framework_names import frameworks_named
from spectrace.assemblers.config_release import IMAGE_ENGINE, SWITCH_NAMED
from spectrace.assemblers.load import LoadSample, sglang_record
from spectrace.assemblers.run_config import OTHER_WRITER, Evidence, FlagValue, RunConfig
from spectrace.assemblers.dump_path import DumpVerdict
from spectrace.assemblers.run_bound import RECORD_SHAPE
from spectrace.assemblers.run_forms import record_named
from spectrace.assemblers.run_prose import sets_up
from spectrace.assemblers.run_shown import (
    apart_crash,
    crash_shows_run,
    deploys_run,
    reported_failure,
    shows_run,
    whole_apart,
)
from spectrace.assemblers.sections import PULL_HEADER
from spectrace.assemblers.sglang_eras import (
    PromoteRule,
    Version,
    era_rules,
    first_release,
    latest_at,
    multi_layer_target,
    newest_at,
    parse_release,
    promotable,
    promote_rules,
    promotion_told,
    version_text,
)
from spectrace.assemblers.sglang_run_words import SPEC_KIND
from spectrace.assemblers.sentences import sentences
from spectrace.assemblers.spec_prose import PROSE_REASON, one_family, names_apart, prose_verdict
from spectrace.assemblers.thread_title import methods_in
from spectrace.dialects._time import stamp_day
from spectrace.engine_hints import frame_engines
from spectrace.incident_model import Incident
from spectrace.path_mention_kinds import (
    APART_KIND,
    ATTEMPT_KIND,
    FAMILY_KIND,
    FORM_KIND,
    FOREIGN_KIND,
    PULL_KIND,
    RELEASE_KIND,
    REQUEST_KIND,
    RUN_KIND,
    THREAD_KIND,
    Mention,
)
from spectrace.path_frames import frame_signature, method_releases
from spectrace.path_named import ran_other_program
from spectrace.path_run import (
    names_other_framework,
    plain_launch,
    text_day,
    worded_framework,
)
from spectrace.path_trace import PLAIN_WHY, RULE, PathTrace, note
from spectrace.path_words import LATEST_KIND, LOOSE_KIND, ROLLOUT_KIND, TRAINER_KIND, V2_KIND, adds_only

ERA_REASON = "family named + release bound"
# the path tables' family names -> SGLang's algorithm (SGLang runs MTP as NEXTN); families SGLang
# runs under another name or not at all (draft model = STANDALONE, Medusa) are left out
_SGLANG = {"MTP": "NEXTN", "EAGLE": "EAGLE", "EAGLE3": "EAGLE3", "DFLASH": "DFLASH",
           "DSPARK": "DSPARK", "NGRAM": "NGRAM", "FROZEN_KV_MTP": "FROZEN_KV_MTP"}  # fmt: skip
# a pull request's description introducing a worker it adds ("Introduce the first version of
# Multi-Head MTP (MHMTP) worker", "adds a new draft worker", "新增 XX worker"); not a fix in one
# ("adds a check in the EAGLE worker")
_NEW_WORKER = re.compile(
    r"(?i)\b(?:introduc\w*|new|first version of)\b[^.;:]{0,60}?\bworkers?\b"
    r"(?!\s*(?:count|process|node|thread|pool)s?\b)|(?:新增|引入|实现了?)[^。；]{0,30}worker"
)
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
    v2: bool = False  # the text names SGLang's spec v2 for the run (a tag, a sentence, the switch)
    apart: bool = False  # the families (``_OR``) are of runs told apart, not named together on one line


def era_evidence(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int,
    trace: PathTrace | None = None, load: LoadSample | None = None,
) -> list[Evidence]:
    """The era table's class (or its two-class condition) for the one family the run's text
    names, bounded by its release or day; [] where anything is missing or set apart."""
    found = _inputs(incident, config, mentions, since, trace, load)
    if found is None:
        unnamed = _v2_unnamed(incident, config, mentions)
        return unnamed or _one_worker(incident, config, mentions, since, load, trace)
    if _OR in found.family:
        verdict = _together_verdict(found, config)
    else:
        verdict = _v2_verdict(found) if found.v2 else None
        verdict = verdict or _switch_named(found, config)
        verdict = verdict or prose_verdict(found.family, None, config.era, found.release, found.newest)
    if verdict is None or (verdict.points_to is None and verdict.condition is None):
        return []
    why = verdict.reason.split(": ", 1)[-1]
    reason = f"{PROSE_REASON} ({ERA_REASON}): {found.family} on sglang {found.release_said}: {why}"
    return [Evidence(found.source, found.lineno, found.text, reason, verdict.points_to,
                     verdict.worker_class, verdict.condition, found.family)]  # fmt: skip


def _together_verdict(found: EraInputs, config: RunConfig) -> DumpVerdict | None:
    """A condition over the era class of each family named together: the run is one of them."""
    verdicts = [prose_verdict(f, None, config.era, found.release, found.newest)
                for f in found.family.split(_OR)]  # fmt: skip
    if any(v is None or not (v.condition or v.worker_class) for v in verdicts):
        return None
    said = [v.condition or f"{v.points_to} ({v.worker_class})" for v in verdicts if v is not None]
    condition = " or ".join(f"({c})" if " if " in c else c for c in dict.fromkeys(said))
    condition += (" (runs of these families are told apart; the text does not say which one ran)" if found.apart
                  else " (the families named together; the text does not say which ran)")
    reason = f"{PROSE_REASON}: {found.family.replace(_OR, ' or ')}: {condition}"
    return DumpVerdict(None, None, reason, found.family.replace(_OR, " or "), condition)


def _v2_verdict(found: EraInputs) -> DumpVerdict | None:
    """The family's V2 class where the text names spec v2 for the run: the era rule with the
    switch on, its V2 class where the releases left leave a condition naming it (the words
    name the worker, whatever the release's default), None before any V2 worker existed."""
    on = prose_verdict(found.family, True, None, found.release, found.newest)
    if on is None or on.points_to == "v2":
        return on
    v2 = _V2_CLASS.search(on.condition or "")
    if v2 is None:
        return None
    reason = f"{PROSE_REASON}: {found.family} on spec v2 (named for the run) -> v2 ({v2.group(1)})"
    return DumpVerdict("v2", v2.group(1), reason, f"{found.family} (spec v2)")


_V2_CLASS = re.compile(r"v2 \((\w+V2)\)")


def _switch_named(found: EraInputs, config: RunConfig) -> DumpVerdict | None:
    """Where the text names SGLang's spec-v2 switch with no value read (a recipe PR's "Added
    `SGLANG_ENABLE_SPEC_V2`"), the switch may be set: the era rule on either setting, and where
    they differ the condition on it, never the default side alone. None where nothing names it."""
    if SWITCH_NAMED not in config.flags or "SGLANG_ENABLE_SPEC_V2" in config.flags:
        return None
    on = prose_verdict(found.family, True, config.era, found.release, found.newest)
    off = prose_verdict(found.family, False, config.era, found.release, found.newest)
    if on is None or off is None:
        return None
    said = [f"{v.points_to} ({v.worker_class})" if v.points_to else (v.condition or "") for v in (on, off)]
    if said[0] == said[1]:
        return on
    condition = f"{said[0]} if SGLANG_ENABLE_SPEC_V2=1, else {said[1]} (the text names the switch, not its value)"
    reason = f"{PROSE_REASON}: {found.family}, SGLANG_ENABLE_SPEC_V2 named with no value: {condition}"
    return DumpVerdict(None, None, reason, f"{found.family} (SGLANG_ENABLE_SPEC_V2 named)", condition)


def _inputs(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int,
    trace: PathTrace | None = None, load: LoadSample | None = None,
) -> EraInputs | None:
    """The family, its line and the release bound, where the text shows or reports a run."""
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    apart = next((m for m in mine if m.kind in (REQUEST_KIND, FOREIGN_KIND)), None)
    if apart is not None:
        return _no(trace, f"{apart.kind} (line {apart.lineno}): its words are not a run's")
    if adds_only(mentions, source):
        return _no(trace, "a pull request adding or enabling the method, with no run of its own")
    if _pull(mine) and any(_NEW_WORKER.search(m.text) for m in mine):
        # its tables and figures ran the worker it adds: a class no release's table holds
        return _no(trace, "a pull request introducing a worker of its own: its results ran that new code")
    if ran_other_program(incident):
        return _no(trace, "a loader's or converter's crash: no server ran")
    if (framework := _framework(config, mine, incident, mentions, since, load)) != "sglang":
        return _no(trace, f"the run's framework is {framework or 'not named'}, not SGLang")
    if "speculative_algorithm" in config.flags:
        return _no(trace, "the run's flags name its algorithm: the flag readers decide")
    v2 = _v2_named(config, mine)
    fix = not (shows_run(config) or reported_failure(_trackers(mine)) or deploys_run(mentions)
               or _told_run(mine) or _engine_crash(incident, mine) or _worker_crash(incident, mine, mentions))
    if fix and not _branch_run(mine):
        # neither a run's own line, a reported failure, nor a PR's own results
        return _no(trace, "the text shows no run of its own, reports no failure, has no PR result")
    if (post := config.flags.get(OTHER_WRITER)) is not None and not _pull_review(mine, post.lineno):
        since = max(since, post.lineno)  # another writer's paste: the title's words are not theirs
    words = [m for m in mine if m.kind == FAMILY_KIND and m.lineno >= since
             and not names_apart(m.text) and not _SKIPPED.search(m.text)
             and not names_other_framework(m.text, "sglang")]  # fmt: skip
    family_lines = [m.text for m in words]  # every family line (a draft beside one: _drafted)
    told_apart: str | None = None  # the families of runs told apart, none said to be the crash's
    apart = False  # the family is ``_told_apart``'s condition
    ran = {m.lineno for m in mine if m.kind == RUN_KIND}
    launched = [m for m in words if m.lineno in _launch_lines(config, source)]
    if launched and not _pull(mine) and not _two_families(launched):  # the launch's own line names its family
        # (a pull request's bullet "size it from `--speculative-dspark-block-size 5`" is its code's)
        words = launched
    elif any(m.lineno in ran for m in words):  # a run line's family is the run's ("- [x] Verified
        run_words = [m for m in words if m.lineno in ran]  # with EAGLE3"), not a summary's about code
        if not _pull(mine) and _two_families(words) and not _two_families(run_words):
            # a post, issue or page telling of runs with several families ("NEXTN did 22 t/s,
            # now broken; NGRAM is the workaround"): the line with a figure need not be this run's;
            # the run is one of them, a condition over each (``_told_apart``)
            told_apart = _told_apart([_SGLANG.get(m.name) for m in words], words)
            if told_apart is None:
                return _no(trace, "the text tells of runs with several families: which one ran is not said")
        else:
            words = run_words
    loose = not words
    if loose and _own_tracker(config, mine) and not whole_apart(mentions):
        words = [m for m in mine if m.kind == LOOSE_KIND and m.lineno >= since
                 and not names_other_framework(m.text, "sglang")]  # fmt: skip
    plain = plain_launch(config)
    attempts = {m.lineno for m in mine if m.kind == ATTEMPT_KIND}
    tried = [m for m in words if m.lineno in attempts] if plain and ran else []
    if tried:  # the served command has no speculative option, the text measured its own run,
        # and a table row tells an attempt with a family and its error: that attempt's family,
        # on the same deployment (a runbook's known-issues table measured nothing)
        words, plain = tried, False
    promoted = _promoted([_SGLANG.get(m.name) for m in words], words)
    names = _members(promoted, words)
    named = config.flags.get("named_algorithm")  # the prose reader's, where it read one
    if not names and not plain and (served := _trained_draft_served(mine, since)) is not None:
        words = [served]  # the trainer's draft, served in SGLang: its accept length was measured
        promoted = _promoted([_SGLANG.get(served.name)], words)
        names = _members(promoted, words)
    if not names or None in names or plain:
        why = _why_none(mine, since, post) if not names else _NO_NAME
        return _no(trace, PLAIN_WHY if plain else why)
    # (the flag a promotion replaced, named beside what it became, is one family)
    family = one_family(_as_promoted([n for n in names if n] + ([str(named.value)] if named else [])))
    set_up = None
    if told_apart is not None:  # (the prose reader's family must be one of them, not a third)
        family = told_apart if named is None or _among(str(named.value), told_apart) else None
        apart = family is not None
    elif family is None and named is None:
        family = _named_together([n for n in names if n], words) or _kept_naming(names, words)
        # a report's own failure or outcome (not a pull request: its bullets size its code)
        observed = not _pull(mine) and (reported_failure(_trackers(mine)) or _told_run(mine))
        if family is None and observed:
            family = set_up = _set_up(names, words)
        if family is None and observed:
            # a report's own failure or outcome naming two or three families on its lines ("NEXTN
            # gave 71 tok/s before the update, now it hangs; NGRAM is our fallback"): the crash's
            # run is one of them
            family = _told_apart(names, words)
            apart = family is not None
    if family is None:  # several families, or the prose reader reads another
        return _no(trace, "several families named, or the prose reader reads another")
    if loose and not _only_family(mine, since, family):
        # the looser words count only where no other family is named anywhere
        return _no(trace, f"{family} only in looser words, and another family is named too")
    day = text_day(config)
    bound = _release(config, mine)[0] or (newest_at(day) if day is not None else None)
    drafted = _drafted(incident, family_lines, mine, since, bound) if _OR not in family else None
    if drafted is not None and family in drafted[0].algorithms:
        family = drafted[0].to  # the line names the draft the row promotes: the server rewrote it
    elif "NEXTN" in family.split(_OR) and _promoted_model(config, mine):
        # MTP on a model a [[promote]] row rewrites (Gemma-4: FROZEN_KV_MTP)
        return _no(trace, "MTP on a model the server may run on another algorithm")
    multi = config.flags.get("enable_multi_layer_eagle")
    if {"NEXTN", "EAGLE"} & set(family.split(_OR)) and any(multi_layer_target(m.text) for m in mine) and not (
        multi is not None and multi.value is True
    ):  # fmt: skip
        # MiMo-V2, Step-3.5: multi-layer EAGLE unless the text says (restate swaps)
        return _no(trace, "a model whose EAGLE/MTP the server runs on multi-layer EAGLE")
    # a broader family read as its member: the evidence is the first line naming the member
    shown = next((m for m, n in zip(words, promoted, strict=True) if n == family), words[0]) \
        if names != promoted else words[0]  # fmt: skip
    if set_up is not None:  # the line setting the run up shows it, not a title naming several
        shown = next((m for m, n in zip(words, names, strict=True) if n == set_up and sets_up(m.text)), shown)
    lineno, text = shown.lineno, shown.text
    release, said = _release(config, mine) if not fix else (None, "")  # a fix ran its branch
    newest = None
    if release is None and config.era is not None and config.engine in (None, "sglang"):
        said = f"no release named; era {config.era} (from the text's lines: a nightly image, a main build)"
    elif release is None:
        day = text_day(config)
        newest = newest_at(day) if day is not None else None
        if newest is None and all(_one_class(f) for f in family.split(_OR)):
            said = f"no release or day named; {family} has one worker on every release that has it"
        elif newest is None and _pull(mine):  # its branch is of a day the text does not give
            return _no(trace, f"{family} named in a pull request, but no release, era line or day bounds its branch")
        elif newest is None:  # every release's class for it: the era table's release condition
            said = f"no release, era line or day named; {family}'s worker on every release"
        else:
            said = f"no release named; the thread's day {day} (newest release then: {version_text(newest)})"
    note(trace, RULE, _JOIN, True, f"{family} on sglang {said}", source, lineno)
    return EraInputs(family, source, lineno, text, release, said, newest, v2, apart)


def _launch_lines(config: RunConfig, source: str) -> set[int]:
    """The lines the run's launch options were read from: the one family they name (its draft:
    "the `EAGLE3-X` draft, `--speculative-num-steps 6`") is the run's, whatever families a
    summary of other runs names elsewhere in the text."""
    return {v.lineno for v in config.flags.values() if v.origin == "launch_command" and v.source == source}


_JOIN = "SGLang era join"  # the rule's name in --explain-path
_OR = "|"  # between the families of EraInputs.family named together, none said to be the run's
_TOGETHER = 3  # at most this many families named together make a condition


def _named_together(names: list[str], words: Sequence[Mention]) -> str | None:
    """The families one line names together, as a fix or a change's subject ("Fix DSpark and
    DFlash state divergence across TP ranks"), where no other line of the run names any:
    the run is one of them, the text does not say which (``EraInputs.family`` joined by ``_OR``,
    a condition over each one's class). None where they stand on several lines (runs told
    apart, "NEXTN did 22 t/s, NGRAM is the workaround"), one is named off, or more than
    ``_TOGETHER``."""
    families = {one_family([n]) for n in names}
    if None in families or len({m.lineno for m in words}) != 1 or not 1 < len(families) <= _TOGETHER:
        return None
    return _OR.join(sorted(str(f) for f in families))
_NO_NAME = "the text names a family SGLang runs under no algorithm of its own"
_KEPT_LINES = 3  # the lines a family needs to be the one a text keeps naming


def _told_apart(names: Sequence[str | None], words: Sequence[Mention]) -> str | None:
    """The families of a text telling of runs with several families, where the line with a
    figure names one and another line the other ("NEXTN did 22 t/s, now broken; NGRAM is the
    workaround", a results table over an EAGLE3 arm beside DFlash constraints): the run is one of
    them and the text does not say which, so the verdict is a condition over each one's class
    (``EraInputs.family`` joined by ``_OR``), never one of them alone. None where a name is no
    family of SGLang's or more than ``_TOGETHER`` are named."""
    families = {one_family([n]) if n is not None else None for n in names}
    if None in families or not words or not 1 < len(families) <= _TOGETHER:
        return None
    return _OR.join(sorted(str(f) for f in families))


def _among(name: str, families: str) -> bool:
    """``name`` is one family with one of ``families`` (joined by ``_OR``)."""
    return any(one_family([name, f]) is not None for f in families.split(_OR))


def _kept_naming(names: Sequence[str | None], words: Sequence[Mention]) -> str | None:
    """The family the run's lines keep naming where another is named in passing: on three lines
    or more, and on at least twice as many lines as any other family (a fix PR that ran NGRAM and
    whose root-cause line names the EAGLE path's check; a DSpark report whose title names its
    DFlash base beside it). None where two are named about as often (runs told apart, a
    comparison, a catalog) or a name is no family of SGLang's."""
    groups: list[tuple[list[str], set[int]]] = []  # the names of one worker family, their lines
    for name, mention in zip(names, words, strict=True):
        if name is None or one_family([name]) is None:
            return None
        group = next((g for g in groups if one_family([g[0][0], name]) is not None), None)
        if group is None:
            groups.append(([name], {mention.lineno}))
        else:
            group[0].append(name)
            group[1].add(mention.lineno)
    ranked = sorted(groups, key=lambda g: len(g[1]), reverse=True)
    if len(ranked) < 2 or len(ranked[0][1]) < max(_KEPT_LINES, 2 * len(ranked[1][1])):
        return None
    return one_family(ranked[0][0])


def _set_up(names: list[str | None], words: Sequence[Mention]) -> str | None:
    """The one family a line of the run gives a setting with its value ("With DSPARK gamma=16",
    "algorithm: NGRAM", "EAGLE3, topk 1, 3 steps"), where the text names several (a title's
    "DSPARK/DFLASH"): the family set up so is the run's. None where such lines set up several
    families (runs compared), one line names two, or a line names another family without the
    one set up ("EAGLE3 with topk 4 works." then "NGRAM crashes.": which run failed is open)."""
    lines: dict[int, set[str]] = {}
    for name, m in zip(names, words, strict=True):
        if name is not None and sets_up(m.text):
            lines.setdefault(m.lineno, set()).add(name)
    if not lines or any(len(one) > 1 for one in lines.values()):
        return None
    family = one_family([n for one in lines.values() for n in one])
    if family is None:
        return None
    same = [n is not None and one_family([n, family]) is not None for n in names]
    beside = {m.lineno for m, ok in zip(words, same, strict=True) if ok}
    return family if {m.lineno for m, ok in zip(words, same, strict=True) if not ok} <= beside else None


# a line writing one method as a member of another's family ("the DFLASH-family (DSpark) draft",
# "DSpark (a DFlash-family drafter)", "DFlash family: DSpark", "the DFlash family, i.e. DSpark")
_MEMBER = re.compile(
    r"(?i)\b(?P<broad>[\w-]+?)[- ]famil(?:y|ies)\s*(?:\(\s*|:\s*|,\s*(?:i\.e\.,?|namely)\s*)(?P<member>[\w-]+)"
    r"|\b(?P<member2>[\w-]+)\s*\(\s*(?:an?\s+|the\s+)?(?P<broad2>[\w-]+?)[- ]famil(?:y|ies)\b"
)


def _members(names: list[str | None], words: Sequence[Mention]) -> list[str | None]:
    """``names`` with a family a line of the run writes as the family of another method (the
    DFLASH family's DSpark) read as that member: the member ran, the family's broader name (a
    title's "DFLASH draft KV pool") is no second family."""
    member: dict[str, str] = {}
    for m in words:
        for hit in _MEMBER.finditer(m.text):
            broad = methods_in(hit.group("broad") or hit.group("broad2"))
            named = methods_in(hit.group("member") or hit.group("member2"))
            if len(broad) == 1 and len(named) == 1 and broad != named:
                wide, narrow = _SGLANG.get(broad[0]), _SGLANG.get(named[0])
                if wide is not None and narrow is not None:
                    member[wide] = narrow
    return [member.get(n, n) if n is not None else None for n in names]


def _promoted(names: list[str | None], words: Sequence[Mention]) -> list[str | None]:
    """``names`` with the algorithms a line of the run tells SGLang rewrote at start-up (a
    [[promote]] row: "promoting --speculative-algorithm NEXTN to FROZEN_KV_MTP") read as the
    algorithm they became: the flag a promotion replaced is no second family."""
    rules = [rule for m in words if (rule := promotion_told(m.text)) is not None]
    return [next((r.to for r in rules if n in r.algorithms), n) for n in names]


# SGLang's accept length given with its figure, the engine named beside it ("the sglang accept
# length is 1.2", "accept len in SGLang is only 1.3", "SGLang reports accept_length 1.26", "the
# accept length is only 1.4 when serving with sglang")
_SGLANG_ACCEPT = re.compile(
    r"(?i)\bsglang\b[^.;?\d]{0,60}?\baccept(?:ance)?[ _-]?len(?:gth)?\b[^.;?\d]{0,30}?(?<![\w.])\d+\.\d+"
    r"|\baccept(?:ance)?[ _-]?len(?:gth)?\b[^.;?\d]{0,30}?\bsglang\b[^.;?\d]{0,30}?(?<![\w.])\d+\.\d+"
    r"|\baccept(?:ance)?[ _-]?len(?:gth)?\b[^.;?\d]{0,30}?(?<![\w.])\d+\.\d+[^.;?]{0,40}?\b(?:in|with|on|under|by)\s+sglang\b"
)

# a figure that is not the writer's measurement: another source's ("the README says ... 3.1"), an
# expectation, a goal or a condition
_ACCEPT_NOT_MEASURED = re.compile(
    r"(?i)\b(?:readme|paper|docs?|blog|model card|says|said|claims?|claimed|expect\w*|should|would|could"
    r"|supposed|target\w*|goal|if|whether)\b"
)


def _trained_draft_served(mine: Sequence[Mention], since: int) -> Mention | None:
    """A thread on a draft trainer's tracker (``trainers.toml``) whose writer reports SGLang's
    accept length with its figure for their run: the draft they trained, served in SGLang. Its
    family is the one the trainer makes, else the one family the thread names (a sentence about
    training it is set apart as no serving run, but names the draft that was served), as a
    family mention on the line giving the figure; None where the family is not one."""
    trainer = next((m for m in mine if m.kind == TRAINER_KIND), None)
    if trainer is None:
        return None
    told = next((m for m in mine if m.kind == RUN_KIND and m.lineno >= since
                 and any(_SGLANG_ACCEPT.search(s) and not _ACCEPT_NOT_MEASURED.search(s) for s in sentences(m.text))),
                None)  # fmt: skip
    if told is None:
        return None
    named = {m.name for m in mine if m.kind == FAMILY_KIND and m.lineno >= since}
    family = trainer.name or (next(iter(named)) if len(named) == 1 else None)
    if family is None or family not in _SGLANG or (named and _OR not in family and one_family(
            [_SGLANG[family], *(_SGLANG.get(n) or n for n in named)]) is None):  # fmt: skip
        return None  # the thread names a family other than the trainer's
    return replace(told, name=family, kind=FAMILY_KIND)


def _one_class(family: str) -> bool:
    """Every release that runs ``family`` runs it on one worker class (DSPARK: DSparkWorkerV2
    only), so no release or day is needed to name it."""
    verdict = prose_verdict(family, None, None, None, None)
    return verdict is not None and verdict.points_to is not None


def _no(trace: PathTrace | None, why: str) -> None:
    """The join stops here: why, into ``trace`` (``--explain-path``; nothing without one)."""
    note(trace, RULE, _JOIN, False, why)


def _why_none(mine: Sequence[Mention], since: int, post: FlagValue | None) -> str:
    """Why no family word reached the join: the first of its own guards that took the last."""
    kept = [m for m in mine if m.kind == FAMILY_KIND]
    if not kept:
        return "no family word of the run is left (see the family words)"
    if all(m.lineno < since for m in kept):
        mark = post is not None and post.lineno == since
        who = f"another writer's post (line {since})" if mark else "the run's start"
        return f"the family words kept are all before {who}: not that run's"
    late = [m for m in kept if m.lineno >= since]
    if any(names_apart(m.text) for m in late):
        return "the join's own sentence guard (spec_prose.names_apart) sets the family line apart"
    if any(_SKIPPED.search(m.text) for m in late):
        return "the family line is a skipped test"
    return "the family line names another framework's run"


# an era condition of the release: "v2 (EAGLEWorkerV2) if sglang >= 0.5.11, else v1 (EAGLEWorker)"
_ERA_CONDITION = re.compile(
    r"^(v1|v2|other) \((\w+)\) if sglang >= ([\w.]+), else (?:v1|v2|other) \(\w+\)$"
)


def latest_narrowed(
    evidence: Sequence[Evidence], config: RunConfig, mentions: Sequence[Mention], source: str
) -> list[Evidence]:
    """``evidence`` with each release condition decided where the issue's form says the bug
    persists in the latest version and the latest release a week before the thread's day is
    past the condition's threshold: that release and every later one run the later branch."""
    if config.engine not in (None, "sglang") or not any(
        m.kind == LATEST_KIND and m.source == source for m in mentions
    ):  # fmt: skip
        return list(evidence)
    day = text_day(config)
    latest = latest_at(day) if day is not None else None
    out = []
    for e in evidence:
        m = _ERA_CONDITION.match(e.condition or "") if e.points_to is None else None
        first = parse_release(m.group(3)) if m is not None else None
        if m is None or latest is None or first is None or latest < first:
            out.append(e)
            continue
        why = (f"; the issue's form says the bug persists in the latest version: sglang "
               f"{version_text(latest)} on {day} (a week before its day), so sglang >= {m.group(3)}")  # fmt: skip
        out.append(replace(e, reason=e.reason + why, points_to=m.group(1), worker_class=m.group(2),
                           condition=None))  # fmt: skip
    return out


def _v2_unnamed(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention]
) -> list[Evidence]:
    """A report on SGLang's tracker naming spec v2 as its run's mode ("[Bug] X SpecV2 crash",
    "crashes with specv2, not with specv1") and no algorithm anywhere: the switch drives the
    EAGLE family's overlap worker, so the condition names it (the env-only twin is
    ``path_missing.switch_condition``)."""
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    said = next((m for m in mine if m.kind == V2_KIND), None)
    if said is None or "speculative_algorithm" in config.flags or "named_algorithm" in config.flags:
        return []
    if any(m.kind in (FAMILY_KIND, LOOSE_KIND, REQUEST_KIND, FOREIGN_KIND) for m in mine):
        return []  # a family named (the join above answered or refused), a request, another engine
    if not _own_tracker(config, mine) or whole_apart(mentions) or adds_only(mentions, source):
        return []
    shown = shows_run(config) or reported_failure(_trackers(mine)) or deploys_run(mentions)
    if not (shown or _branch_run(mine)):
        return []
    condition = ("v2 (EAGLEWorkerV2) if the run's --speculative-algorithm is EAGLE, EAGLE3 or NEXTN "
                 "(spec v2 named for the run; no line names the algorithm)")  # fmt: skip
    reason = f"{PROSE_REASON} ({ERA_REASON}): spec v2 named for the run, no algorithm named"
    return [Evidence(said.source, said.lineno, said.text, reason, None, None, condition)]


def _one_worker(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int,
    load: LoadSample | None, trace: PathTrace | None,
) -> list[Evidence]:
    """A run on SGLang that speculates but names no algorithm ("speculative decoding", its
    bench_speculative.py, a Decode batch line's ``accept len``), on a release or day by which
    every algorithm SGLang had ran one worker class (to 0.5.1: EAGLE, EAGLE3 and NEXTN all ran
    ``EAGLEWorker``; STANDALONE came in 0.5.2, NGRAM in 0.5.3, the v2 worker in 0.5.3.post2):
    that class, whichever algorithm it was."""
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    said = [m for m in mine if m.kind == SPEC_KIND and m.lineno >= since
            and not frameworks_named(m.text) - {"sglang"}]  # "vLLM's accept length is 3.1": vLLM's
    counted = load is not None and load.source == source and load.accept_len is not None
    machinery = _machinery_record(config, mine)  # an EAGLE-type worker's draft-graph record
    if not (said or counted or machinery) or {"speculative_algorithm", "named_algorithm"} & config.flags.keys():
        return []
    # a feature request's wish names no run; the run's own capture record it quotes (its log
    # prefix before it) is what a run of the writer's printed, whatever the thread asks for
    recorded = _recorded(config, machinery)
    walls = (FAMILY_KIND, LOOSE_KIND, FOREIGN_KIND, V2_KIND) if recorded else _ONE_WORKER_WALLS
    if any(m.kind in walls for m in mine):
        return []  # a family named (the join above answered or refused), a request, another engine
    if (whole_apart(mentions) and not recorded) or adds_only(mentions, source) or plain_launch(config):
        return []
    if ran_other_program(incident):
        return []
    if _framework(config, mine, incident, mentions, since, load) != "sglang":
        return []
    shown = counted or shows_run(config) or reported_failure(_trackers(mine)) or deploys_run(mentions)
    if not (shown or _branch_run(mine)):
        return []
    release, where = _release(config, mine)
    if release is None and config.era not in (None, era_rules()[0].era) and machinery is None:
        return []  # a later era the text's lines place it in: more than one worker there
    day = _run_day(incident, config, load)
    newest = newest_at(day) if release is None and day is not None else None
    run_lines = [m.text for m in mine if m.lineno >= since]
    drafted = _drafted(incident, run_lines, mine, since, release or newest)
    if drafted is not None:
        return _drafted_evidence(drafted, incident, config, release, newest, said, trace)
    only = only_worker(release, newest)
    if only is None and machinery is not None:
        return _machinery_evidence(machinery, config, release, newest, trace)
    if only is None:
        _no(trace, "speculation named with no algorithm, and no release or day leaves SGLang's "
            "algorithms one worker (none yet, or several)")  # fmt: skip
        return []
    points_to, worker, algorithms = only
    bound = where if release is not None else f"the run's day {day} (newest release then: {version_text(newest)})"
    line = said[0] if said else None
    what = (f"the run speculates ({'a decode line reports accept len' if line is None else 'named'}), "
            f"no algorithm named")  # fmt: skip
    reason = (f"{PROSE_REASON} ({ERA_REASON}): {what}; sglang {bound}: every algorithm it had "
              f"({', '.join(algorithms)}) ran {worker}")  # fmt: skip
    note(trace, RULE, _JOIN, True, f"speculation with no algorithm on sglang {bound}: {worker}")
    if line is not None:
        return [Evidence(line.source, line.lineno, line.text, reason, points_to, worker)]
    assert load is not None  # counted
    text = ", ".join(f"{key}: {value}" for key, value in load.fields.items())
    return [Evidence(load.source, load.lineno, text, reason, points_to, worker)]


# the algorithms whose workers capture the EAGLE draft graph (eagle_worker.py's runner): the
# EAGLE family's own, and STANDALONE's worker, a subclass of the EAGLE worker
_MACHINERY_FAMILY = ("EAGLE", "STANDALONE")
# words of a sentence before the record on its line ("The worker logs `Capture draft ...` from
# init_cuda_graphs"): code told in prose, not the record a run printed (a log prefix, a quote
# mark or an indent may stand before it)
_TOLD_BEFORE = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}[^`]*`?\s*Capture draft")
# the record as a string literal of code (``logger.info(f"Capture draft ...``, ``+ "Capture draft
# ..."``, ``msg = "Capture draft ..."``): the code that prints it, not a run's print
_IN_CODE = re.compile(r"(?:[+=(,]\s*|\w\()[rbfRBF]{0,2}[\"']Capture draft")


def _machinery_record(config: RunConfig, mine: Sequence[Mention]) -> FlagValue | None:
    """The draft-graph capture record a run printed, where the text quotes it as a record (its
    own line, a log prefix before it at most) and is no pull request (whose quoted lines are the
    code under change's); None for one a sentence tells of or a string literal of code holds."""
    flag = config.flags.get("eagle_draft_graph")
    if flag is None or _pull(mine):
        return None
    text = next((e.text for e in config.path_evidence if (e.source, e.lineno) == (flag.source, flag.lineno)), "")
    return None if _TOLD_BEFORE.search(text) or _IN_CODE.search(text) else flag


_ONE_WORKER_WALLS = (FAMILY_KIND, LOOSE_KIND, REQUEST_KIND, FOREIGN_KIND, V2_KIND)


def _recorded(config: RunConfig, machinery: FlagValue | None) -> bool:
    """The draft-graph capture record stands with the log prefix its engine printed before it
    (``[2025-09-05 20:50:29 TP6] Capture draft ...``, a level word): a run's record, not a line
    quoted bare."""
    if machinery is None:
        return False
    at = (machinery.source, machinery.lineno)
    return any((e.source, e.lineno) == at and RECORD_SHAPE.search(e.text) for e in config.path_evidence)


def _machinery_evidence(
    machinery: FlagValue, config: RunConfig, release: Version | None, newest: Version | None,
    trace: PathTrace | None,
) -> list[Evidence]:
    """A run on SGLang whose own draft-graph capture record is quoted ("Capture draft cuda graph
    begin", the draft decode / draft extend stages) with no line naming its algorithm: only the
    EAGLE-type workers capture that graph, so the run is EAGLE, EAGLE3 or NEXTN on the era's
    EAGLE worker (or STANDALONE on its subclass): always a condition, the algorithm unsaid."""
    said = []
    for algorithm in _MACHINERY_FAMILY:
        first = first_release(algorithm)
        if first is not None and (release or newest) is not None and (release or newest) < first:
            continue  # not released yet when the run's code was
        verdict = prose_verdict(algorithm, None, config.era, release, newest)
        if verdict is None or not (verdict.condition or verdict.worker_class):
            continue
        shown = verdict.condition or f"{verdict.points_to} ({verdict.worker_class})"
        said.append(f"{'EAGLE, EAGLE3 or NEXTN' if algorithm == 'EAGLE' else algorithm}: {shown}")
    if not said:
        return []
    condition = "; ".join(said) + " (the EAGLE-type draft-graph capture shown, no line names the algorithm)"
    reason = (f"{PROSE_REASON} ({ERA_REASON}): the run's own draft-graph capture record, no "
              f"algorithm named: only the EAGLE-type workers capture it")  # fmt: skip
    note(trace, RULE, _JOIN, True, f"the EAGLE-type draft-graph capture, no algorithm: {condition}")
    at = (machinery.source, machinery.lineno)
    text = next((e.text for e in config.path_evidence if (e.source, e.lineno) == at), "")
    return [Evidence(*at, text, reason, None, None, condition, "EAGLE")]


def _drafted(
    incident: Incident, said: Sequence[str], mine: Sequence[Mention], since: int,
    bound: Version | None,
) -> tuple[PromoteRule, str] | None:
    """The [[promote]] row whose draft the crash's messages or a line of ``said`` names (its
    checkpoint, its config's model type, its architecture) where a line of the run names a
    model the row promotes for apart from that draft, with the text naming the draft: SGLang
    reads the draft's config before any worker is picked and serves such a draft under the
    row's algorithm alone (EAGLE3 refuses it). None before the row's first release."""
    crash = [t for t in (incident.message, *(link.message for link in incident.chain)) if t]
    run = [m.text for m in mine if m.lineno >= since]
    for rule in promote_rules():
        if bound is not None and bound < rule.first:
            continue
        named = next((t for t in [*crash, *said] if rule.draft.search(t) is not None), None)
        served = (rule.target.search(rule.draft.sub(" ", t)) for t in [*crash, *run])
        if named is not None and any(served):
            return rule, named
    return None


def _drafted_evidence(
    drafted: tuple[PromoteRule, str], incident: Incident, config: RunConfig,
    release: Version | None, newest: Version | None, said: Sequence[Mention],
    trace: PathTrace | None,
) -> list[Evidence]:
    """The era table's class (or its release condition) for the algorithm a named draft sets."""
    rule, text = drafted
    verdict = prose_verdict(rule.to, None, config.era, release, newest)
    if verdict is None or (verdict.points_to is None and verdict.condition is None):
        return []
    why = verdict.reason.split(": ", 1)[-1]
    reason = (f"{PROSE_REASON} ({ERA_REASON}): the run speculates with no algorithm named; its "
              f"draft is one SGLang serves as {rule.to} ({rule.why}): {why}")  # fmt: skip
    note(trace, RULE, _JOIN, True,
         f"a {rule.to} draft named, no algorithm: {verdict.worker_class or verdict.condition}")
    first = incident.first_seen
    at = (said[0].source, said[0].lineno) if said else (first.source, first.lineno)
    return [Evidence(*at, text[:200], reason, verdict.points_to, verdict.worker_class,
                     verdict.condition, rule.to)]  # fmt: skip


def only_worker(
    release: Version | None, newest: Version | None
) -> tuple[str, str, tuple[str, ...]] | None:
    """(path, class, algorithms) where every speculative algorithm SGLang had by ``release``
    (or by ``newest``, the newest release a day allows) ran the same worker class on every such
    release (sglang.toml's [[method]] first releases, the era table's workers); None where
    none existed yet or they ran several."""
    bound = release or newest
    if bound is None:
        return None
    found: set[tuple[str, str]] = set()
    algorithms = []
    for algorithm, first in method_releases("sglang"):
        since = parse_release(first.removeprefix("v"))
        if since is None or since > bound:
            continue  # not released yet when the run's code was
        verdict = prose_verdict(algorithm, None, None, release, newest)
        if verdict is None or verdict.points_to is None or verdict.worker_class is None:
            return None
        found.add((verdict.points_to, verdict.worker_class))
        algorithms.append(algorithm)
    if len(found) != 1:
        return None
    points_to, worker = found.pop()
    return points_to, worker, tuple(algorithms)


def _run_day(incident: Incident, config: RunConfig, load: LoadSample | None) -> date | None:
    """The newest day the run's lines show: the crash's stamp, the load line's, the post's."""
    days = [stamp_day(incident.first_seen.ts), stamp_day(load.ts) if load is not None else None,
            text_day(config)]  # fmt: skip
    return max((d for d in days if d is not None), default=None)


def _only_family(mine: Sequence[Mention], since: int, family: str) -> bool:
    """No line of the run, set apart or not, names a family other than ``family``'s (or one
    SGLang runs under no name of ``_SGLANG``: Medusa, a draft model)."""
    others = {m.name for m in mine if m.kind in (FAMILY_KIND, LOOSE_KIND) and m.lineno >= since}
    if any(_SGLANG.get(o) is None for o in others):
        return False
    return one_family([_SGLANG[o] for o in others] + [family]) is not None


def _trackers(mine: Sequence[Mention]) -> list[Mention]:
    """``mine`` with an SGLang-rollout trainer's header read as a tracker header, so that its
    issue titles report failures of the runs filed there, as SGLang's own do."""
    return [replace(m, kind=THREAD_KIND) if m.kind == ROLLOUT_KIND else m for m in mine]


def _pull_review(mine: Sequence[Mention], post: int) -> bool:
    """The crash sits in another writer's post on a pull request that names no family of its
    own (a reviewer's checklist, a rerun request): the post is about the PR's run, whose title
    and description name its family."""
    return _pull(mine) and not any(m.kind in (FAMILY_KIND, LOOSE_KIND) and m.lineno >= post
                                   for m in mine)  # fmt: skip


def _pull(mine: Sequence[Mention]) -> bool:
    """The text is a pull request (its saved header says so)."""
    return any(m.kind == PULL_KIND or (m.kind == THREAD_KIND and PULL_HEADER.search(m.text))
               for m in mine)  # fmt: skip


def _two_families(words: Sequence[Mention]) -> bool:
    """The family words name more than one SGLang algorithm family (EAGLE and NEXTN are one, and
    one with what a [[promote]] row rewrites them to, where the text names that too)."""
    names = _as_promoted([n for m in words if (n := _SGLANG.get(m.name))])
    return bool(names) and one_family(names) is None


def _as_promoted(names: list[str]) -> list[str]:
    """``names`` with each algorithm a [[promote]] row rewrites read as what it becomes, where
    ``names`` holds that too ("NEXTN, topk1, the gemma-4 assistant draft" beside the server's
    "Frozen-KV MTP draft worker"): the flag the server promoted is no second family."""
    for rule in promote_rules():
        if rule.to in names:
            names = [rule.to if n in rule.algorithms else n for n in names]
    return names


def _told_run(mine: Sequence[Mention]) -> bool:
    """An issue, comment, post or page (not a pull request, whose results ran its branch:
    ``_branch_run``) whose own lines report a run's outcome ("We measured accept length 1.02 with
    MTP", a results table row, "Benchmarked NGRAM ... speedup 1.4x"): ``RUN_KIND`` lines, which
    ``run_shown.run_line`` keeps only where no one else's run, goal or plan is told; or a line no
    block sets apart in a form only a run's process writes (``run_forms.record_named``: an engine
    record cut to its message under a harness's header, a table of pids). Other forms (a logger
    tag, a clock stamp) are no outcome of the run the family words tell."""
    return not _pull(mine) and any(m.kind == RUN_KIND or (m.kind == FORM_KIND and record_named(m.name))
                                   for m in mine)  # fmt: skip


def _engine_crash(incident: Incident, mine: Sequence[Mention]) -> bool:
    """The crash ran SGLang's speculative code (a frame of a file only speculative runs execute,
    ``dspark_components/dspark_kv_inject.py``, a draft model's file; a path cut to ``.../srt/``
    too) in a text no block of which ``not_run`` sets apart (a troubleshooting table, a page of
    instructions, a docs quotation: their tracebacks are what a reader may meet): the text's
    speculative run crashed. A crash through the scheduler alone tells no speculative run."""
    if frame_engines(incident) != {"sglang"} or not crash_shows_run(incident):
        return False
    if any(m.kind == APART_KIND for m in mine):
        return False
    frames = [*incident.frames, *(f for link in incident.chain for f in link.frames)]
    return any((sig := frame_signature(f)) is not None and sig.framework == "sglang" and sig.spec_only
               for f in frames)  # fmt: skip


def _worker_crash(incident: Incident, mine: Sequence[Mention], mentions: Sequence[Mention]) -> bool:
    """The writer names the family's worker in words ("the Frozen-KV MTP draft worker died
    calibrating ...", "the EAGLE worker's verify", "NGRAM worker") beside the crash the text
    reports, a crash of its own that ran something and no block sets apart: the worker the
    words name is the one that crashed, as a class they named would be (``path_mentions``)."""
    if _pull(mine) or not crash_shows_run(incident) or apart_crash(incident, mentions) is not None:
        return False
    return any(m.kind == FAMILY_KIND and _WORKER_WORDS.search(m.text) is not None for m in mine)


# a family word, then (a few words on, in one clause) the worker, proposer or drafter it names;
# or the draft worker named in a line that names the family ("with FROZEN_KV_MTP, the draft worker ...")
_WORKER_WORDS = re.compile(
    r"(?i)\b(?:eagle-?3?|nextn|mtp|frozen[-_ ]?kv[-_ ]?mtp|dflash2?|dspark|ngram|n-gram|standalone|medusa)"
    r"(?:[-_ ](?!(?:but|and|or|not|no|without)\b)[\w-]+){0,2}?[-_ ](?:worker|proposer|drafter|speculator)s?\b"
    r"|\bdraft[-_ ]worker\b"
)


def _branch_run(mine: Sequence[Mention]) -> bool:
    """A pull request whose own lines show its run (a test, eval or benchmark line, a result
    figure; ``not_run`` has set untaken test plans and examples apart): its branch ran, which is
    the engine's main of the PR's day, so the day bounds the release and no release it names
    does (a fix's table ran the fix, not the release the bug was seen on)."""
    return _pull(mine) and any(m.kind == RUN_KIND for m in mine)


def _v2_named(config: RunConfig, mine: Sequence[Mention]) -> bool:
    """The text says the run was on SGLang's spec v2: a title's ``[SPEC_V2]`` tag, a sentence of
    the run report ("spec v2", "overlap spec"), or the switch set to 1 (``SGLANG_ENABLE_SPEC_V2``)."""
    switch = config.flags.get("SGLANG_ENABLE_SPEC_V2")
    if switch is not None:
        return switch.value is True
    return any(m.kind == V2_KIND for m in mine)


def _own_tracker(config: RunConfig, mine: Sequence[Mention]) -> bool:
    """SGLang is the run's engine by its own lines, or the thread is on SGLang's tracker: the
    looser words (``sglang_run_words``) are read there only."""
    trackers = {m.name for m in mine if m.kind in (THREAD_KIND, ROLLOUT_KIND)}
    return config.engine == "sglang" or trackers == {"sglang"}


def _promoted_model(config: RunConfig, mine: Sequence[Mention]) -> bool:
    """MTP may not be NEXTN: a line of the text names a model whose MTP the server rewrites to
    another algorithm on some releases (Gemma-4: FROZEN_KV_MTP), or a launch is shown whose
    served model only the prose reader checks, and it did not read NEXTN from the text. Never
    where the run's release (its version line, else the newest of its day) is older than every
    [[promote]] row's first release: no server of then rewrote MTP."""
    release = _release(config, mine)[0]
    day = text_day(config)
    release = release or (newest_at(day) if day is not None else None)
    if release is not None and all(release < rule.first for rule in promote_rules()):
        return False
    launched = any(f.origin == "launch_command" for f in config.flags.values())
    if launched and "named_algorithm" not in config.flags:
        return True
    return any(promotable(m.text) for m in mine)


def _framework(
    config: RunConfig, mine: Sequence[Mention], incident: Incident,
    mentions: Sequence[Mention], since: int, load: LoadSample | None = None,
) -> str | None:
    """The run's framework, else SGLang where the run's file holds SGLang's own decode record
    (whole or cut by grep at its ``accept len``), else the one tracker its thread headers name
    (an RL trainer's whose rollouts always run SGLang counts as SGLang's), else the one its
    title and family lines name in words (``path_run.worded_framework``)."""
    if config.engine is not None:
        return config.engine
    if load is not None and load.source == incident.first_seen.source and sglang_record(load):
        return "sglang"
    found = {m.name for m in mine if m.kind in (THREAD_KIND, ROLLOUT_KIND)}  # slime's: SGLang
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
