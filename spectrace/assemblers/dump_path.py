"""The worker path implied by the final values in a ``server_args=`` dump (LOG_FORMATS.md 1.6).

The dump is printed after SGLang forced ``disable_overlap_schedule`` for speculation, so
algorithm + overlap (+ multi-layer flag, + the release era a warning told) name the class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from spectrace.assemblers.pyrepr import SourceText
from spectrace.assemblers.sglang_eras import (
    EraRule,
    RunFacts,
    Version,
    contradicts,
    first_release,
    fixed_for,
    overlap_in,
    rules_for,
    version_text,
)

EAGLE_FAMILY = {"EAGLE", "EAGLE3", "NEXTN", "STANDALONE"}
_ENV = "SGLANG_ENABLE_SPEC_V2"
V2_ONLY_ERAS = {"0.5.13+", "0.5.17+"}
_SHOWN = (
    "speculative_algorithm",
    "disable_overlap_schedule",
    "speculative_eagle_topk",
    "enable_multi_layer_eagle",
)


@dataclass(frozen=True, slots=True)
class DumpVerdict:
    """Where the dump points, which class it names, and the fields it rests on."""

    points_to: str | None
    worker_class: str | None
    reason: str
    excerpt: str  # "server_args=ServerArgs(…, speculative_algorithm='EAGLE3', …)"
    condition: str | None = None  # "v2 (EAGLEWorkerV2) if sglang >= 0.5.11, else v1 (...)"


def _show(name: str, value: object) -> str:
    return f"{name}={value.text if isinstance(value, SourceText) else repr(value)}"


def _excerpt(values: Mapping[str, object]) -> str:
    parts = [_show(name, values[name]) for name in _SHOWN if name in values]
    return "server_args=ServerArgs(…, " + ", …, ".join(parts) + ", …)"


def _base_class(algo: str, values: Mapping[str, object]) -> str:
    """The v1 class (V2 adds ``V2``); ``create_worker`` reads the multi-layer flag only for
    ``is_eagle()`` algorithms (EAGLE, EAGLE3, NEXTN), never STANDALONE (0.5.8-0.5.23)."""
    if values.get("enable_multi_layer_eagle") is True and algo != "STANDALONE":
        return "MultiLayerEagleWorker"
    return "StandaloneWorker" if algo == "STANDALONE" else "EAGLEWorker"


def verdict_from_dump(
    values: Mapping[str, object],
    era: str | None,
    spec_v2_env: object = None,
    release: Version | None = None,
    newest: Version | None = None,
) -> DumpVerdict | None:
    """The dump's verdict, or None when neither the dump nor the release's defaults decide.

    ``spec_v2_env``: SGLANG_ENABLE_SPEC_V2 as the log set it (env vars are never dumped);
    ``release``: the sglang release the log prints (its own era row, not the whole era's);
    ``newest``: the newest release the log's dates allow (``sglang_eras.newest_at``).
    """
    if "speculative_algorithm" not in values:
        return None
    raw = values["speculative_algorithm"]
    algo = str(raw).upper() if raw is not None else "NONE"
    excerpt = _excerpt(values)
    if algo == "NONE":  # the plain TpModelWorker ran: a verdict, not a lack of one
        return DumpVerdict(
            "none",
            "TpModelWorker",
            "server_args dump: speculative decoding is off "
            "(speculative_algorithm=None), no speculative worker ran",
            excerpt,
        )
    if algo == "NGRAM":
        return DumpVerdict(
            "other",
            "NGRAMWorker",
            "server_args dump: speculative_algorithm='NGRAM' -> NGRAMWorker",
            excerpt,
        )
    if algo not in EAGLE_FAMILY:  # DFLASH, FROZEN_KV_MTP, DSPARK, UNO: one class per release
        return _fixed_verdict(algo, raw, era, release, excerpt)
    return _eagle_verdict(algo, values, era, excerpt, spec_v2_env, release, newest)


def _fixed_verdict(
    algo: str, raw: object, era: str | None, release: Version | None, excerpt: str
) -> DumpVerdict:
    """An algorithm whose worker follows the release alone ([[fixed]] rows of the era table)."""
    rows = fixed_for(algo, era, release)
    if not rows and (backported := _backported_verdict(algo, release, excerpt)) is not None:
        return backported
    if not rows:
        return DumpVerdict(None, None, f"server_args dump: speculative_algorithm={raw!r}: the era "
                           "table names no worker for it (a frame from its worker would)", excerpt)  # fmt: skip
    if len({(r.path, r.worker) for r in rows}) == 1:
        row = rows[0]
        on = f"sglang {version_text(release)}" if release else "every release that has it"
        return DumpVerdict(row.path, row.worker, f"server_args dump: speculative_algorithm="
                           f"'{algo}' on {on}: {row.why} -> {row.path} ({row.worker})", excerpt)  # fmt: skip
    parts = [f"{r.path} ({r.worker})" for r in rows]
    later = rows[-1]
    sentence = (f"{parts[-1]} if sglang >= {version_text(later.first)}, else {parts[0]}"
                if len(rows) == 2 else "; ".join(parts))  # fmt: skip
    lacking = (
        f"the log tells the era {era}, not the release" if era else "no sglang version in the log"
    )
    reason = f"server_args dump: speculative_algorithm='{algo}': {sentence} ({lacking})"
    return DumpVerdict(None, None, reason, excerpt, condition=sentence)


def _backported_verdict(algo: str, release: Version | None, excerpt: str) -> DumpVerdict | None:
    """Where the log's release predates ``algo``, the build that took the flag carries it (a
    vendor fork, a dev build of main with it backported): the one worker upstream gives the
    algorithm on every release that has it, as a condition (a fork may build it on another)."""
    first = first_release(algo)
    rows = fixed_for(algo, None, None)
    if release is None or first is None or release >= first or len({(r.path, r.worker) for r in rows}) != 1:
        return None
    row = rows[0]
    condition = (f"{row.path} ({row.worker}) if this build runs {algo} as SGLang does from "
                 f"{version_text(row.first)} on (sglang {version_text(release)} predates it: a fork "
                 "or a dev build carrying it)")  # fmt: skip
    reason = f"launch: speculative_algorithm='{algo}': {row.why}; {condition}"
    return DumpVerdict(None, None, reason, excerpt, condition=condition)


def _facts(algo: str, values: Mapping[str, object], env: object) -> RunFacts:
    def flag(name: str) -> bool | None:
        value = values.get(name)
        return value if isinstance(value, bool) else None

    def number(name: str) -> int | None:
        value = values.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return RunFacts(
        algo,
        disable_final=flag("disable_overlap_schedule"),
        disable_request=flag("disable_overlap_request"),
        env=env if isinstance(env, bool) else None,
        beta=flag("enable_beta_spec"),
        topk=number("speculative_eagle_topk"),
        pp=number("pp_size"),
    )


def _possible(
    era: str | None, release: Version | None, facts: RunFacts, newest: Version | None = None
) -> tuple[EraRule, ...]:
    """The era rows the log leaves possible. A log that sets SGLANG_ENABLE_SPEC_V2 comes from
    a release that reads it (0.5.5-0.5.16): nobody sets a switch their server ignores; a log
    dated before a release came out is not from it."""
    rows = rules_for(era, release)
    if release is None and newest is not None:
        rows = tuple(r for r in rows if r.first <= newest) or rows
    if release is None and facts.env is not None:
        reading = tuple(r for r in rows if r.switch == _ENV)
        return reading or rows
    return rows


def _eagle_verdict(
    algo: str,
    values: Mapping[str, object],
    era: str | None,
    excerpt: str,
    env: object,
    release: Version | None = None,
    newest: Version | None = None,
) -> DumpVerdict | None:
    """The era table's answer for every release the log leaves possible (one when it names
    its release): all agree -> a verdict; they differ -> a conditional one."""
    base = _base_class(algo, values)
    facts = _facts(algo, values, env)
    rows = _possible(era, release, facts, newest)
    outcomes = [(rule, *overlap_in(rule, facts)) for rule in rows]
    possible = [o for o in outcomes if not contradicts(o[0], facts)] or outcomes
    if len({on for _, on, _ in possible}) > 1:
        return _conditional(algo, base, possible, excerpt, era)
    rule, on, why = possible[-1]
    points_to, worker = ("v2", base + "V2") if on else ("v1", base)
    if rule.workers == "v2" and (era is not None or release is not None):
        shown = version_text(release) if release else era
        reason = (f"server_args dump: {algo} on sglang {shown}, where the v1 worker no longer "
                  "exists -> v2 whatever the overlap setting")  # fmt: skip
    elif facts.disable_final is True and rule.workers != "v2":
        topk = facts.topk
        note = f"; speculative_eagle_topk={topk} (v2 needs topk=1)" if topk and topk > 1 else ""
        reason = (f"server_args dump: speculative_algorithm='{algo}' with "
                  f"disable_overlap_schedule=True -> v1 ({base}, non-overlap){note}")  # fmt: skip
    elif facts.disable_final is False:
        reason = (f"server_args dump: speculative_algorithm='{algo}' with "
                  f"disable_overlap_schedule=False -> v2 ({base}V2, overlap)")  # fmt: skip
    else:
        shown = version_text(release) if release else era or "any release"
        if release is None and facts.env is not None and len({o[0].era for o in possible}) > 1:
            span = EraRule.span(replace(possible[0][0], last=possible[-1][0].last))
            shown = f"{span} (the releases that read {_ENV}, which the log sets)"
        reason = (f"server_args dump: speculative_algorithm='{algo}' but no disable_overlap_"
                  f"schedule; sglang {shown}: {why} -> {points_to} ({worker})")  # fmt: skip
    if release is None and newest is not None and rows != _possible(era, None, facts):
        reason += f" (the log's dates: sglang {version_text(newest)} or older)"
    return DumpVerdict(points_to, worker, reason, excerpt)


def _conditional(
    algo: str,
    base: str,
    outcomes: list[tuple[EraRule, bool, str]],
    excerpt: str,
    era: str | None,
) -> DumpVerdict:
    """ "v2 (EAGLEWorkerV2) if sglang >= 0.5.11, else v1 (EAGLEWorker)": the ranges of
    releases that agree, in release order, each with the worker it would run."""
    ranges: list[tuple[EraRule, EraRule, bool]] = []
    for rule, on, _why in outcomes:
        if ranges and ranges[-1][2] == on:
            ranges[-1] = (ranges[-1][0], rule, on)
        else:
            ranges.append((rule, rule, on))

    def path(on: bool) -> str:
        return f"v2 ({base}V2)" if on else f"v1 ({base})"

    if len(ranges) == 2:
        (_, _, early), (later, _, late) = ranges
        sentence = f"{path(late)} if sglang >= {version_text(later.first)}, else {path(early)}"
    else:
        parts = []
        for first, last, on in ranges:
            span = EraRule.span(replace(first, last=last.last))
            parts.append(f"{path(on)} on sglang {span}")
        sentence = "; ".join(parts)
    lacking = (
        f"the log tells the era {era}, not the release" if era else "no sglang version in the log"
    )
    reason = f"server_args dump: speculative_algorithm='{algo}': {sentence} ({lacking})"
    return DumpVerdict(None, None, reason, excerpt, condition=sentence)


def verdict_from_launch(
    flags: Mapping[str, object],
    era: str | None,
    spec_v2_env: object = None,
    release: Version | None = None,
    newest: Version | None = None,
) -> DumpVerdict | None:
    """No dump, but a launch command (``flags``: name -> value) and maybe a release: the
    release's rule decides as it would for a dump. The command's ``--disable-overlap-schedule``
    is a request the server may overrule (``forced_on`` in the era table)."""
    if flags.get("speculative_algorithm") is None:
        return None
    keep = ("speculative_algorithm", "speculative_eagle_topk", "enable_multi_layer_eagle",
            "pp_size", "enable_beta_spec")  # fmt: skip
    values = {name: flags[name] for name in keep if name in flags}
    if flags.get("disable_overlap_schedule") is True:
        values["disable_overlap_request"] = True
    verdict = verdict_from_dump(values, era, spec_v2_env, release, newest)
    if verdict is None:
        return None
    shown = ", ".join(f"{name}={value!r}" for name, value in values.items()
                      if name != "disable_overlap_request")  # fmt: skip
    if values.get("disable_overlap_request"):
        shown += ", --disable-overlap-schedule"
    why = verdict.reason.split(": ", 1)[-1].replace(" but no disable_overlap_schedule", "")
    return DumpVerdict(
        verdict.points_to,
        verdict.worker_class,
        f"launch command (no server_args dump): {why}",
        f"launch command: {shown}",
        condition=verdict.condition,
    )
