"""SGLang's worker-selection rule by release, as data (rules/paths/sglang_eras.toml).

Which of EAGLEWorker (v1) and EAGLEWorkerV2 (overlap) a run gets depends on the release: what
turns spec v2 on (``--enable-beta-spec``, ``SGLANG_ENABLE_SPEC_V2``), its default, which
algorithms have a V2 worker, whether a launch's ``--disable-overlap-schedule`` is kept. The
table says it per release range; ``overlap_in`` applies one row to what a log shows, and the
caller asks every row the log leaves possible, so an unknown release still decides when all
agree and gives a conditional verdict when they do not.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from importlib import resources

from spectrace.assemblers import release_dates
from spectrace.errors import RuleError

TABLE = "paths/sglang_eras.toml"
_KEYS = {
    "era", "first", "last", "workers", "switch", "switch_default", "v2_algorithms", "forced_on",
    "others_forced_off", "topk_forces_v1", "why",
}  # fmt: skip
_FIXED_KEYS = {"algorithm", "first", "last", "worker", "path", "why"}
_SHARED_KEYS = {"file", "algorithm", "first", "last", "worker", "path", "why"}
_PROMOTE_KEYS = {"algorithms", "draft", "target", "to", "first", "last", "why"}
_ALIASES = {"NEXTN": "EAGLE"}  # rewritten to EAGLE by the server before any rule runs
Version = tuple[int, ...]  # (0, 5, 3), or (0, 5, 3, 2) for 0.5.3.post2: posts changed rules
ALL_POSTS = 10_000  # a row's last release ``0.5.6`` ends after every 0.5.6.postN
_RELEASE = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:\.?post(\d+))?")


@dataclass(frozen=True, slots=True)
class EraRule:
    """One release range's rule (the keys are documented in the TOML file)."""

    era: str
    first: Version
    last: Version | None
    workers: str  # "v1" | "both" | "v2"
    switch: str
    switch_default: bool
    v2_algorithms: frozenset[str]
    forced_on: frozenset[str]
    others_forced_off: bool
    topk_forces_v1: bool
    why: str

    def span(self) -> str:
        """``0.5.8-0.5.10``, ``0.5.17+``, ``<= 0.5.3``: the releases the row covers."""
        first, last = version_text(self.first), version_text(self.last) if self.last else ""
        if not last:
            return f"{first}+"
        if self.first == (0, 0, 0):
            return f"<= {last}"
        return first if first == last else f"{first}-{last}"


@dataclass(frozen=True, slots=True)
class FixedRule:
    """An algorithm outside the EAGLE family with one worker per release range ([[fixed]])."""

    algorithm: str
    first: Version
    last: Version | None
    worker: str
    path: str  # "v1" | "v2" | "other"
    why: str

    def covers(self, first: Version, last: Version | None) -> bool:
        """Whether the row shares a release with ``first..last`` (None: no upper bound)."""
        return (last is None or self.first <= last) and (self.last is None or first <= self.last)


@dataclass(frozen=True, slots=True)
class SharedRule:
    """A file of the EAGLE machinery another algorithm's workers run too ([[shared]])."""

    file: str  # the frame table's suffix ("eagle_worker.py", "speculative/eagle_info.py")
    algorithm: str  # the family: STANDALONE, MULTI_LAYER_EAGLE, FROZEN_KV_MTP, NGRAM, UNO
    first: Version
    last: Version | None
    worker: str  # the class a frame in the file then names, "" when it names none
    path: str  # "v1" | "v2" | ""
    why: str

    def covers(self, newest: Version | None) -> bool:
        """Whether a release no newer than ``newest`` (None: any) can hold the row."""
        return newest is None or self.first <= newest


@dataclass(frozen=True, slots=True)
class PromoteRule:
    """A launch algorithm the server rewrites from the draft checkpoint it loads ([[promote]])."""

    algorithms: frozenset[str]
    draft: re.Pattern[str]
    target: re.Pattern[str]  # the served models whose drafts it promotes
    to: str
    first: Version
    last: Version | None
    why: str


@dataclass(frozen=True, slots=True)
class OffRule:
    """A launch flag that turns speculation off whatever the algorithm flag says ([[off]])."""

    flag: str
    first: Version
    why: str


@dataclass(frozen=True, slots=True)
class RunFacts:
    """What the log shows that the rule reads; None where it shows nothing."""

    algorithm: str  # upper case, as the dump or the command says it
    disable_final: bool | None = None  # disable_overlap_schedule as the dump printed it (final)
    disable_request: bool | None = None  # --disable-overlap-schedule on the command line
    env: bool | None = None  # SGLANG_ENABLE_SPEC_V2 as the log set it
    beta: bool | None = None  # enable_beta_spec (0.5.4)
    topk: int | None = None
    pp: int | None = None


def version_text(version: Version) -> str:
    text = ".".join(str(part) for part in version[:3])
    return f"{text}.post{version[3]}" if len(version) > 3 and version[3] < ALL_POSTS else text


def parse_release(text: str) -> Version | None:
    """``0.5.3.post2`` / ``v0.5.10`` -> (0, 5, 3, 2) / (0, 5, 10): a post release sorts after
    its base and before the next (0.5.3.post1 added the v2 worker that 0.5.3 lacks)."""
    m = _RELEASE.match(text.strip())
    if m is None:
        return None
    numbers = tuple(int(part) for part in m.groups() if part is not None)
    return numbers if len(numbers) == 4 and numbers[3] else numbers[:3]


def _version(text: str, where: str) -> Version:
    version = parse_release(text)
    if version is None or version_text(version) != text.removesuffix(".post0"):
        raise RuleError(f"{TABLE}: {where}: {text!r} is not a release like 0.5.10 or 0.5.3.post1")
    return version


def _last(text: str, where: str) -> Version:
    """A row's last release: ``0.5.6`` covers its posts too, ``0.5.4.post0`` only itself."""
    version = _version(text, where)
    return version if ".post" in text else (*version, ALL_POSTS)


def _keys(raw: dict[str, object], keys: set[str], where: str) -> None:
    """A row with a key the table does not know, or without one it needs, is a rule error."""
    if set(raw) != keys:
        bad = sorted(set(raw) - keys) or sorted(keys - set(raw))
        raise RuleError(f"{TABLE}: {where}: unknown or missing key {bad[0]!r}")


def _row(raw: dict[str, object], n: int) -> EraRule:
    where = f"era row {n}"
    _keys(raw, _KEYS, where)
    if raw["workers"] not in ("v1", "both", "v2"):
        raise RuleError(f"{TABLE}: {where}: workers must be v1, both or v2")
    lists = (raw["v2_algorithms"], raw["forced_on"])
    if not all(isinstance(x, list) and all(isinstance(a, str) for a in x) for x in lists):
        raise RuleError(f"{TABLE}: {where}: v2_algorithms and forced_on are lists of names")
    return EraRule(
        era=str(raw["era"]),
        first=_version(str(raw["first"]), where),
        last=_last(str(raw["last"]), where) if raw["last"] else None,
        workers=str(raw["workers"]),
        switch=str(raw["switch"]),
        switch_default=bool(raw["switch_default"]),
        v2_algorithms=frozenset(lists[0]),  # type: ignore[arg-type]
        forced_on=frozenset(lists[1]),  # type: ignore[arg-type]
        others_forced_off=bool(raw["others_forced_off"]),
        topk_forces_v1=bool(raw["topk_forces_v1"]),
        why=str(raw["why"]),
    )


def _fixed(raw: dict[str, object], n: int) -> FixedRule:
    where = f"fixed row {n}"
    _keys(raw, _FIXED_KEYS, where)
    if raw["path"] not in ("v1", "v2", "other"):
        raise RuleError(f"{TABLE}: {where}: path must be v1, v2 or other")
    return FixedRule(
        algorithm=str(raw["algorithm"]).upper(),
        first=_version(str(raw["first"]), where),
        last=_last(str(raw["last"]), where) if raw["last"] else None,
        worker=str(raw["worker"]),
        path=str(raw["path"]),
        why=str(raw["why"]),
    )


def _shared(raw: dict[str, object], n: int) -> SharedRule:
    where = f"shared row {n}"
    _keys(raw, _SHARED_KEYS, where)
    if raw["path"] not in ("v1", "v2", "") or bool(raw["path"]) != bool(raw["worker"]):
        raise RuleError(f"{TABLE}: {where}: path is v1 or v2 with a worker, or both empty")
    return SharedRule(
        file=str(raw["file"]),
        algorithm=str(raw["algorithm"]).upper(),
        first=_version(str(raw["first"]), where),
        last=_last(str(raw["last"]), where) if raw["last"] else None,
        worker=str(raw["worker"]),
        path=str(raw["path"]),
        why=str(raw["why"]),
    )


def _promote(raw: dict[str, object], n: int) -> PromoteRule:
    where = f"promote row {n}"
    _keys(raw, _PROMOTE_KEYS, where)
    try:
        draft, target = re.compile(str(raw["draft"])), re.compile(str(raw["target"]))
    except re.error as exc:
        raise RuleError(f"{TABLE}: {where}: {exc}") from None
    return PromoteRule(
        algorithms=frozenset(str(a).upper() for a in raw["algorithms"]),  # type: ignore[attr-defined]
        draft=draft,
        target=target,
        to=str(raw["to"]).upper(),
        first=_version(str(raw["first"]), where),
        last=_last(str(raw["last"]), where) if raw["last"] else None,
        why=str(raw["why"]),
    )


@cache
def _table() -> dict[str, list[dict[str, object]]]:
    text = resources.files("spectrace.rules").joinpath(TABLE).read_text("utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{TABLE}: {exc}") from None


@cache
def era_rules() -> tuple[EraRule, ...]:
    """The table, oldest release first (read once: it is package data, never changed)."""
    return tuple(_row(raw, n) for n, raw in enumerate(_table().get("era", []), 1))


@cache
def fixed_rules() -> tuple[FixedRule, ...]:
    return tuple(_fixed(raw, n) for n, raw in enumerate(_table().get("fixed", []), 1))


@cache
def shared_rules() -> tuple[SharedRule, ...]:
    return tuple(_shared(raw, n) for n, raw in enumerate(_table().get("shared", []), 1))


@cache
def promote_rules() -> tuple[PromoteRule, ...]:
    return tuple(_promote(raw, n) for n, raw in enumerate(_table().get("promote", []), 1))


def promoted(algorithm: str, draft: str, newest: Version | None) -> PromoteRule | None:
    """The rule that rewrites ``algorithm`` for a run loading ``draft`` on a release no newer
    than ``newest`` (None: any), or None. A release before the rule keeps the algorithm."""
    for rule in promote_rules():
        if algorithm.upper() in rule.algorithms and rule.draft.search(draft) is not None and (
            newest is None or rule.first <= newest
        ):
            return rule
    return None


# a sentence or log line telling the rewrite: "promoting --speculative-algorithm NEXTN to
# FROZEN_KV_MTP" (SGLang's own start-up line), "auto-promotes the algorithm from NEXTN to
# FROZEN_KV_MTP", "NEXTN -> FROZEN_KV_MTP", "NEXTN 被自动升级为 FROZEN_KV_MTP"
_PROMOTING = re.compile(
    r"(?i)promot|rewr[io]t|upgrad|\bswitch\w*\b|\bturn\w* into\b|\bconvert|\breplac|->|→|=>"
    r"|升级|提升|改为|转为|替换|昇格|置き換"
)


def _algorithm_at(text: str, name: str) -> int:
    """Where ``text`` names the algorithm ``name`` as a word (FROZEN_KV_MTP, Frozen-KV MTP), or -1."""
    spelled = r"[-_ ]?".join(re.escape(part) for part in name.split("_"))
    m = re.search(rf"(?i)(?<![A-Za-z0-9_]){spelled}(?![A-Za-z0-9_])", text)
    return m.start() if m is not None else -1


def promotion_told(text: str) -> PromoteRule | None:
    """The [[promote]] row a line tells as done: one of its algorithms named before the one it
    becomes, with a word of rewriting between or before them; the run's algorithm is then the
    later one, whatever flag the launch passed."""
    if _PROMOTING.search(text) is None:
        return None
    for rule in promote_rules():
        to = _algorithm_at(text, rule.to)
        if to < 0:
            continue
        before = [at for a in rule.algorithms if 0 <= (at := _algorithm_at(text, a)) < to]
        if before and _PROMOTING.search(text, 0, to) is not None:
            return rule
    return None


def promotable(model: str) -> bool:
    """Some [[promote]] row rewrites the algorithm of a run serving ``model`` (its drafts'
    architecture exists for that model family only)."""
    return any(rule.target.search(model) is not None for rule in promote_rules())


@cache
def _multi_layer_targets() -> tuple[re.Pattern[str], ...]:
    out = []
    for n, raw in enumerate(_table().get("multi_layer", []), 1):
        if set(raw) != {"target", "why"}:
            raise RuleError(f"{TABLE}: multi_layer row {n}: keys are target, why")
        try:
            out.append(re.compile(str(raw["target"])))
        except re.error as exc:
            raise RuleError(f"{TABLE}: multi_layer row {n}: bad target: {exc}") from None
    return tuple(out)


def multi_layer_target(text: str) -> bool:
    """The text names a model whose EAGLE/MTP the server runs on the multi-layer EAGLE workers
    by itself ([[multi_layer]] rows: MiMo-V2, Step-3.5)."""
    return any(p.search(text) is not None for p in _multi_layer_targets())


@cache
def off_rules() -> tuple[OffRule, ...]:
    rows = []
    for n, raw in enumerate(_table().get("off", []), 1):
        if set(raw) != {"flag", "first", "why"}:
            raise RuleError(f"{TABLE}: off row {n}: keys are flag, first, why")
        rows.append(OffRule(str(raw["flag"]), _version(str(raw["first"]), f"off row {n}"), str(raw["why"])))
    return tuple(rows)


@cache
def rule_flags() -> frozenset[str]:
    """Launch flags the rows read besides the era's: the draft path ([[promote]]), [[off]]'s."""
    return frozenset({"speculative_draft_model_path", *(rule.flag for rule in off_rules())})


def first_release(algorithm: str) -> Version | None:
    """The first release with a worker for ``algorithm`` ([[fixed]] rows: DFLASH, DSPARK, ...);
    None for the EAGLE family's and others the era rows hold from the table's start. A text
    bounded below it cannot have run that algorithm on sglang."""
    firsts = [rule.first for rule in fixed_rules() if rule.algorithm == algorithm]
    return min(firsts) if firsts else None


@cache
def published() -> tuple[tuple[Version, date], ...]:
    """(release, the day it was first uploaded), oldest first ([published] of the table)."""
    rows = []
    for text, day in _table().get("published", {}).items():  # type: ignore[union-attr]
        if not isinstance(day, date):
            raise RuleError(f"{TABLE}: published: {text!r} needs a date like 2026-01-23")
        rows.append((_version(text, "published"), day))
    return tuple(sorted(rows))


def newest_at(day: date) -> Version | None:
    """The newest release whose code a run on ``day`` can hold: SGLang's main branch of that
    day ships by the second release first published after it at the latest (the first may
    have been cut before the day). None when the table cannot bound it: fewer than two
    releases after the day, or a day before the table starts (a clock that was not set).
    The rule is release_dates.bound, shared with vLLM, vLLM-Ascend and TensorRT-LLM."""
    bound = release_dates.newest_at("sglang", day)
    return None if bound is None else _version(str(bound), "published")


def latest_at(day: date) -> Version | None:
    """The newest main-line release first published at least a week before ``day``: the
    release an issue posted that day means by "the bug persists in the latest version" (a
    week of slack for a release the writer had not pulled yet); None before the table."""
    rows = release_dates.mainline(release_dates.published("sglang"))
    before = day - timedelta(days=7)
    found = max((release for release, first in rows if first <= before), default=None)
    return None if found is None else _version(str(found), "published")


def v1_gone() -> Version:
    """The first release without the v1 (non-overlap) worker classes."""
    return next(r.first for r in era_rules() if r.workers == "v2")


def _holds(first: Version, last: Version | None, release: Version) -> bool:
    return first <= release and (last is None or release <= last)


def era_before(release: str) -> str | None:
    """The one era every release before ``release`` (``0.5.2``) falls in, or None when
    the releases before it span several eras (a launch option newer releases refuse bounds
    the run from above only)."""
    parts = release.split(".")[:3]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    bound = (int(parts[0]), int(parts[1]), int(parts[2]))
    eras = {r.era for r in era_rules() if r.first < bound}
    return eras.pop() if len(eras) == 1 else None


def rules_for(era: str | None, release: Version | None = None) -> tuple[EraRule, ...]:
    """The rows a log leaves possible: the row of its printed release, else its era's rows,
    else every row."""
    rows = era_rules()
    if release is not None:
        exact = tuple(r for r in rows if _holds(r.first, r.last, release))
        if exact:
            return exact
    return tuple(r for r in rows if r.era == era) or rows if era else rows


def fixed_for(algorithm: str, era: str | None, release: Version | None) -> tuple[FixedRule, ...]:
    """The [[fixed]] rows of ``algorithm`` the log leaves possible, oldest first."""
    spans = [(r.first, r.last) for r in rules_for(era, release)]
    if release is not None:
        spans = [(release, release)]
    return tuple(f for f in fixed_rules() if f.algorithm == algorithm
                 and any(f.covers(first, last) for first, last in spans))  # fmt: skip


def contradicts(rule: EraRule, facts: RunFacts) -> bool:
    """A final dump value the release could not have printed: it forced the overlap scheduler
    off for this algorithm, yet the dump says disable_overlap_schedule=False."""
    algo = _ALIASES.get(facts.algorithm, facts.algorithm)
    return (
        rule.others_forced_off and algo not in rule.v2_algorithms and facts.disable_final is False
    )


def overlap_in(rule: EraRule, facts: RunFacts) -> tuple[bool, str]:
    """(overlap scheduler on, i.e. the V2 worker?, why) under one release range's rule."""
    algo = _ALIASES.get(facts.algorithm, facts.algorithm)
    if rule.workers != "both":
        return rule.workers == "v2", rule.why
    if algo not in rule.v2_algorithms:
        return False, f"{facts.algorithm} has no overlap (v2) worker on sglang {rule.span()}"
    if facts.disable_final is not None:
        return not facts.disable_final, f"disable_overlap_schedule={facts.disable_final}"
    if facts.pp is not None and facts.pp > 1:
        return False, f"pp_size={facts.pp} turns the overlap scheduler off"
    return _switched(rule, algo, facts)


def _switched(rule: EraRule, algo: str, facts: RunFacts) -> tuple[bool, str]:
    shown = facts.beta if rule.switch == "enable_beta_spec" else facts.env
    if rule.switch == "enable_beta_spec":
        on = shown is True
        why = f"enable_beta_spec={shown!r} (off by default)"
    elif shown is not None:
        on, why = shown, f"SGLANG_ENABLE_SPEC_V2={shown} as the log set it"
    elif not rule.switch_default:
        on = False
        why = "SGLANG_ENABLE_SPEC_V2 not set in the log (off by default before 0.5.11)"
    else:
        on, why = True, "spec v2 on by default (SGLANG_ENABLE_SPEC_V2 not set in the log)"
    if not on:
        return False, why
    if rule.topk_forces_v1 and facts.topk is not None and facts.topk > 1:
        return False, f"speculative_eagle_topk={facts.topk} forces the overlap scheduler off"
    if algo not in rule.forced_on and facts.disable_request is True:
        return False, "--disable-overlap-schedule on the command line (kept on this release)"
    return True, why
