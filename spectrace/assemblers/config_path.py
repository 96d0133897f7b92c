"""The worker path a run's collected SGLang config implies: the last server_args dump's final
values, else a launch command, else what the report's sentences name, each read through the
era rule (``dump_path``) for the release, era and date bound the log shows.

Kept apart from the collector (config.py), which gathers the facts line by line; this is
one pure step over what it gathered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from spectrace.assemblers.dump_path import DumpVerdict, verdict_from_dump, verdict_from_launch
from spectrace.assemblers.run_config import Evidence, FlagValue, trim
from spectrace.assemblers.sglang_eras import (
    OffRule,
    PromoteRule,
    Version,
    first_release,
    off_rules,
    promoted,
    version_text,
)
from spectrace.assemblers.spec_prose import PROSE_REASON, prose_verdict
from spectrace.dialects.base import LogLine

PLAIN_REASON = "launch command shown whole, no --speculative-algorithm"  # its "none" verdict


@dataclass(frozen=True, slots=True)
class Bounds:
    """What the log says of the release: its era, the release it prints, the newest its dates
    allow, and whether its sentences state both settings of SGLANG_ENABLE_SPEC_V2."""

    era: str | None
    release: Version | None
    newest: Version | None
    both_settings: bool = False
    enabled: bool = False  # a sentence says the algorithm it names was on for the run
    tested: bool = False  # the algorithm is what a named SGLang test runs, its switch unknown
    knobs: bool = False  # a command sets EAGLE knobs (topk, steps) but no algorithm flag
    v2_named: bool = False  # a sentence says the run was on "Eagle V2" (SGLang's spec v2)
    forced_v2: str | None = None  # the V2 class a served model's hook may force (MiMo: multi-layer)


# a command's settings only the EAGLE-type workers read: set with no --speculative-algorithm
# (an RL trainer's `--sglang-speculative-*` pass-through, a cut paste), the algorithm the text
# names is the one they configure
EAGLE_KNOBS = ("speculative_eagle_topk", "speculative_num_steps", "enable_multi_layer_eagle")
_KNOB_KEEP = (*EAGLE_KNOBS, "disable_overlap_schedule", "pp_size")


def config_evidence(
    flags: Mapping[str, FlagValue],
    server_args: Mapping[str, object],
    dump_line: LogLine | None,
    bounds: Bounds,
    plain: LogLine | None = None,
) -> list[Evidence]:
    """The dump's verdict (the server's final values), else the launch command's, else the
    text's; one evidence at the line it rests on, or none. ``plain``: the first line of a
    whole sglang command, which says speculation is off when nothing names an algorithm."""
    switch = flags.get("SGLANG_ENABLE_SPEC_V2")
    if dump_line is None and plain is not None and not _speculation_named(flags):
        reason = f"{PLAIN_REASON}: speculation off (SGLang's default algorithm is none)"
        return [Evidence(plain.source, plain.lineno, trim(plain.raw), reason, "none")]
    env = switch.value if switch is not None else None
    era, release, newest = bounds.era, bounds.release, bounds.newest
    algo, named = flags.get("speculative_algorithm"), flags.get("named_algorithm")
    if dump_line is not None and "speculative_algorithm" in server_args:
        verdict = verdict_from_dump(server_args, era, env, release, newest)
        where = (dump_line.source, dump_line.lineno)
    elif algo is not None and (off := _off(flags)) is not None:  # the flag outranks the algorithm
        flag, rule = off
        reason = f"launch command: {rule.why} (sglang {version_text(rule.first)}+): no speculative worker"
        return [Evidence(flag.source, flag.lineno, f"--{rule.flag.replace('_', '-')}", reason,
                         "none", "TpModelWorker")]  # fmt: skip
    elif algo is not None:  # no dump (or one cut before its speculative fields): the launch
        launch, rule = _promoted({k: f.value for k, f in flags.items() if f.origin == "launch_command"},
                                 release or newest)  # fmt: skip
        if switch is None and bounds.both_settings:  # "tried with =0 and =1": either ran
            verdict = _either_setting(lambda on: verdict_from_launch(launch, era, on, release, newest))
        else:
            verdict = verdict_from_launch(launch, era, env, release, newest)
        where = (algo.source, algo.lineno)
        if verdict is not None and rule is not None:
            said = f"{algo.value} with draft {launch.get('speculative_draft_model_path')}"
            why = f"{said}: {rule.why} (sglang {version_text(rule.first)}+)"
            verdict = replace(verdict, reason=f"{verdict.reason}; {why}")
    elif named is not None:
        knobs = {k: f.value for k, f in flags.items() if k in _KNOB_KEEP and f.origin == "launch_command"}
        verdict = named_verdict(named, switch, bounds, knobs if bounds.knobs else None)
        verdict = _multi_layer(verdict, named, flags.get("enable_multi_layer_eagle"))
        where = (switch.source, switch.lineno) if switch else (named.source, named.lineno)
    else:
        return []
    if verdict is None:
        return []
    if bounds.forced_v2 and verdict.points_to == "v1" and dump_line is None:
        verdict = _model_forced(verdict, flags, bounds.forced_v2)
    return [Evidence(*where, verdict.excerpt, verdict.reason, verdict.points_to,
                     verdict.worker_class, verdict.condition)]  # fmt: skip


_MULTI_CLASSES = {"EAGLEWorker": "MultiLayerEagleWorker", "EAGLEWorkerV2": "MultiLayerEagleWorkerV2"}
_EAGLE_CLASS = re.compile(r"\b(EAGLEWorker(?:V2)?)\b")


def _multi_layer(
    verdict: DumpVerdict | None, named: FlagValue, multi: FlagValue | None
) -> DumpVerdict | None:
    """An EAGLE-type algorithm written beside ``--enable-multi-layer-eagle`` (a sentence or a
    doc's benchmark config, no command): ``create_worker`` builds the multi-layer EAGLE class
    of the same path (0.5.8+: ``MultiLayerEagleWorker[V2]``), never EAGLEWorker[V2]."""
    if verdict is None or multi is None or multi.value is not True or multi.origin == "launch_command":
        return verdict
    if str(named.value).upper() not in ("EAGLE", "EAGLE3", "NEXTN"):
        return verdict
    swap = lambda text: _EAGLE_CLASS.sub(lambda m: _MULTI_CLASSES[m.group(1)], text)  # noqa: E731
    worker = _MULTI_CLASSES.get(verdict.worker_class or "", verdict.worker_class)
    return DumpVerdict(verdict.points_to, worker,
                       f"{swap(verdict.reason)} (--enable-multi-layer-eagle, line {multi.lineno})",
                       verdict.excerpt, swap(verdict.condition) if verdict.condition else None)  # fmt: skip


def _off(flags: Mapping[str, FlagValue]) -> tuple[FlagValue, OffRule] | None:
    """The launch flag of an [[off]] row the command sets, with its row."""
    for rule in off_rules():
        flag = flags.get(rule.flag)
        if flag is not None and flag.value is True and flag.origin == "launch_command":
            return flag, rule
    return None


def _promoted(
    launch: dict[str, object], newest: Version | None
) -> tuple[dict[str, object], PromoteRule | None]:
    """The launch's algorithm as the server rewrites it from its draft checkpoint before any
    worker is picked ([[promote]] rows: EAGLE with a Gemma-4 assistant draft is FROZEN_KV_MTP
    from 0.5.12); unchanged otherwise."""
    algorithm, draft = launch.get("speculative_algorithm"), launch.get("speculative_draft_model_path")
    if not isinstance(algorithm, str) or not isinstance(draft, str):
        return launch, None
    rule = promoted(algorithm, draft, newest)
    return (launch, None) if rule is None else ({**launch, "speculative_algorithm": rule.to}, rule)


def _speculation_named(flags: Mapping[str, FlagValue]) -> bool:
    """Some line names an algorithm, the spec-v2 switch or a spec setting: a command without
    the flag is then not the run's whole story (a baseline, a cut paste)."""
    names = ("speculative_algorithm", "named_algorithm", "SGLANG_ENABLE_SPEC_V2",
             "speculative_draft_model_path", "speculative_num_steps", "speculative_eagle_topk",
             "speculative_num_draft_tokens", "eagle_draft_graph", "enable_multi_layer_eagle")  # fmt: skip
    return any(name in flags for name in names)


def named_verdict(
    named: FlagValue,
    switch: FlagValue | None,
    bounds: Bounds,
    knobs: Mapping[str, object] | None = None,
) -> DumpVerdict | None:
    """An algorithm named in the text, nothing launched shown (or a command's EAGLE knobs
    without its algorithm flag): with the spec-v2 setting the text states, or alone where
    the release it names leaves one worker."""
    if switch is not None and (not isinstance(switch.value, bool) or bounds.both_settings):
        return None  # a text comparing both settings names neither
    if bounds.tested and switch is None:
        return _tested_verdict(str(named.value), bounds)
    if bounds.v2_named and switch is None:
        return _v2_verdict(str(named.value), bounds)
    if switch is None and bounds.release is None and not bounds.enabled:
        return None  # an algorithm named alone may be one the report only discusses
    first, newest = first_release(str(named.value)), bounds.release or bounds.newest
    if first is not None and newest is not None and newest < first:
        return None  # no release the text allows had it: the name is not the run's algorithm
    setting = switch.value if switch is not None else None
    if switch is None and bounds.both_settings:  # the switch named with either value possible
        return _either_setting(lambda on: prose_verdict(str(named.value), on, bounds.era, bounds.release,
                                                        bounds.newest, knobs))  # type: ignore[arg-type]
    verdict = prose_verdict(str(named.value), setting, bounds.era, bounds.release, bounds.newest, knobs)  # type: ignore[arg-type]
    stated = switch is not None or bounds.enabled  # the era's condition is then the run's
    return verdict if stated or verdict is None or verdict.points_to else None


def _model_forced(verdict: DumpVerdict, flags: Mapping[str, FlagValue], forced: str) -> DumpVerdict:
    """A launch verdict of v1 for a model whose ServerArgs hook sets SGLANG_ENABLE_SPEC_V2 (and
    multi-layer EAGLE) itself on the releases that carry it (MiMo-V2-Flash, Step-3.5, DeepSeek-V4):
    the launch's own switch does not decide, so the verdict is a condition on that hook."""
    multi = flags.get("enable_multi_layer_eagle")
    v2 = "MultiLayerEagleWorkerV2" if (multi and multi.value) else forced
    v1 = "MultiLayerEagleWorker" if v2.startswith("MultiLayer") else verdict.worker_class
    condition = (f"v2 ({v2}) if this model's ServerArgs hook turned spec v2 on (its release "
                 f"carries it), else v1 ({v1})")  # fmt: skip
    return DumpVerdict(None, None, f"{verdict.reason}; but {condition}", verdict.excerpt,
                       condition=condition)  # fmt: skip


_NO_V2_BEFORE = (0, 5, 3, 2)  # the first release with EAGLEWorkerV2 (0.5.3.post2)


def _v2_verdict(algorithm: str, bounds: Bounds) -> DumpVerdict | None:
    """The text says the run was on SGLang's "Eagle V2" / spec v2 worker: the V2 class of the
    algorithm where the log's release could have it (never before 0.5.3.post2)."""
    on = prose_verdict(algorithm, True, bounds.era, bounds.release, bounds.newest)
    newest = bounds.release or bounds.newest
    if on is None or (newest is not None and newest < _NO_V2_BEFORE):
        return None
    if on.points_to == "v2":
        worker = on.worker_class
    elif on.condition is not None and "EAGLEWorkerV2" in on.condition and algorithm in _V2_NAMED:
        worker = "EAGLEWorkerV2"
    else:
        return None
    reason = f"{PROSE_REASON}: {algorithm} on 'Eagle V2' (SGLang's spec v2 overlap worker) -> v2 ({worker})"
    return DumpVerdict("v2", worker, reason, f"{algorithm} (Eagle V2)")


_V2_NAMED = ("EAGLE", "EAGLE3", "NEXTN")  # the algorithms "Eagle V2" runs on EAGLEWorkerV2


def _tested_verdict(algorithm: str, bounds: Bounds) -> DumpVerdict | None:
    """A test of SGLang's suite sets SGLANG_ENABLE_SPEC_V2 itself or not: the era rule under
    both settings; one answer decides, two are a condition on the test's setting."""
    verdict = _either_setting(
        lambda on: prose_verdict(algorithm, on, bounds.era, bounds.release, bounds.newest),
        "the test sets",
    )
    if verdict is None or verdict.condition is None:
        return verdict and replace(verdict, reason=f"named SGLang test of {algorithm}: {verdict.reason}")
    reason = f"named SGLang test of {algorithm}, {PROSE_REASON}: {verdict.condition}"
    return DumpVerdict(None, None, reason, f"{algorithm} (a test)", condition=verdict.condition)


def _either_setting(
    verdict_at: Callable[[bool], DumpVerdict | None], who: str = "the run had"
) -> DumpVerdict | None:
    """The era rule under both SGLANG_ENABLE_SPEC_V2 settings (a test sets it itself, a text
    names both): one answer decides, two are a condition on the setting."""
    on, off = verdict_at(True), verdict_at(False)
    if on is None or off is None:
        return None
    if (on.points_to, on.worker_class, on.condition) == (off.points_to, off.worker_class, off.condition):
        return off
    either = lambda v: f"{v.points_to} ({v.worker_class})" if v.points_to else f"({v.condition})"  # noqa: E731
    condition = f"{either(on)} if {who} SGLANG_ENABLE_SPEC_V2=1, else {either(off)}"
    return DumpVerdict(None, None, f"both SGLANG_ENABLE_SPEC_V2 settings named: {condition}",
                       off.excerpt, condition=condition)  # fmt: skip
