"""A family's frame plus the model runner's draft step -> the proposer class, by release.

vLLM and vLLM-Ascend tracebacks often stop in code that names a family but no class: a draft
model's file or a plugin's patch of it (``vllm_ascend/patch/worker/patch_deepseek_mtp.py``),
under the V1 model runner's ``propose_draft_token_ids``. The runner's frame says the run drafts
through a proposer (not model runner v2's speculators, not V0's workers); the family frame says
which family; the engine's ``[[method]]`` rows (generated from its releases) say which class
runs that family in which release. One class in every release both files exist in decides;
several give a conditional by release; a release range the rows do not cover gives nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise
from types import MappingProxyType

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.dump_path import DumpVerdict, verdict_from_launch
from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.sglang_eras import Version as Release
from spectrace.assemblers.sglang_eras import multi_layer_target, parse_release
from spectrace.path_evidence import StackFrame
from spectrace.path_frames import FrameSignature, family_methods, frame_signature
from spectrace.path_terms import term_matches

_RUNNER_FRAMEWORKS = ("vllm", "vllm_ascend")
_V2_RUNNER = ("worker/gpu/", "worker/v2/")  # model runner v2 drafts through speculators
# SGLang families whose worker the era rules pick (v1 or v2), as the launch flags that say them
_SGLANG_FAMILIES: Mapping[str, Mapping[str, object]] = MappingProxyType({
    "EAGLE": {"speculative_algorithm": "EAGLE"},
    "EAGLE3": {"speculative_algorithm": "EAGLE3"},
    "NEXTN": {"speculative_algorithm": "NEXTN"},
    "STANDALONE": {"speculative_algorithm": "STANDALONE"},
    "MULTI_LAYER_EAGLE": {"speculative_algorithm": "EAGLE", "enable_multi_layer_eagle": True},
})  # fmt: skip


@dataclass(frozen=True, slots=True)
class FamilyVerdict:
    """What a family frame under the runner's draft step names: one class, or a sentence."""

    frame: StackFrame
    signature: FrameSignature
    runner: StackFrame  # the model runner's draft step (propose_draft_token_ids)
    runner_signature: FrameSignature
    worker: str | None  # one class in every release the frames allow
    condition: str | None  # else: "AscendEagleProposer if vllm-ascend >= 0.12.0rc1, else ..."


def family_evidence(frames: list[StackFrame]) -> list[Evidence]:
    """The family frame's evidence: "other" with its class, or the conditional by release."""
    found = family_verdict(frames)
    if found is None:
        return []
    sf, sig = found.frame, found.signature
    engine = sig.framework.replace("_", "-")
    reason = (f"{sf.kind} in {sig.name}: {sig.what}; {engine} runs the {sig.family} family "
              "under the model runner's draft step on")  # fmt: skip
    run, rsig = found.runner, found.runner_signature
    step = Evidence(
        run.source, run.lineno, run.text, f"{run.kind} in {rsig.name}: {rsig.what}", None
    )
    if found.worker is not None:
        reason += f" {found.worker} -> other ({found.worker})"
        return [Evidence(sf.source, sf.lineno, sf.text, reason, "other", found.worker), step]
    reason += f" {found.condition} (no {engine} version in the log)"
    return [Evidence(sf.source, sf.lineno, sf.text, reason, None, None, found.condition), step]


def _version(text: str) -> Version | None:
    try:
        return Version(text.removeprefix("v")) if text else None
    except InvalidVersion:
        return None


def _span(releases: tuple[str, str]) -> tuple[Version, Version] | None:
    first, last = _version(releases[0]), _version(releases[1])
    return (first, last) if first is not None and last is not None else None


@cache
def _workers(framework: str, family: str) -> Mapping[str, tuple[str, str]]:
    """Class -> (first, last) release the engine runs ``family`` on it, from its method rows."""
    spans: dict[str, tuple[str, str]] = {}
    for worker, first, last in family_methods(framework, family):
        old = spans.get(worker)
        if old is None:
            spans[worker] = (first, last)
            continue
        lo = min((old[0], first), key=lambda v: _version(v) or Version("0"))
        hi = max((old[1], last), key=lambda v: _version(v) or Version("0"))
        spans[worker] = (lo, hi)
    return MappingProxyType(spans)


def _runner(frames: Iterable[StackFrame]) -> tuple[StackFrame, FrameSignature] | None:
    """The V1 model runner's draft step among the frames (a function row, not runner v2's)."""
    for sf in frames:
        sig = frame_signature(sf.frame)
        if (sig is not None and sig.function and sig.points_to is None
                and sig.framework in _RUNNER_FRAMEWORKS
                and not any(part in sig.name for part in _V2_RUNNER)):  # fmt: skip
            return sf, sig
    return None


def family_verdict(frames: list[StackFrame]) -> FamilyVerdict | None:
    """The proposer a family frame names under the runner's draft step, or None."""
    found = _runner(frames)
    if found is None:
        return None
    runner = found[1]
    for sf in frames:
        sig = frame_signature(sf.frame)
        if (sig is None or sig.points_to or not sig.family or sig.function
                or sig.framework != runner.framework):  # fmt: skip
            continue
        verdict = _by_release(sig, runner)
        if verdict is not None:
            return FamilyVerdict(sf, sig, *found, *verdict)
    return None


def _by_release(
    sig: FrameSignature, runner: FrameSignature
) -> tuple[str | None, str | None] | None:
    """(class, None) when one class runs the family wherever both files exist; (None, the
    conditional) when the class changed with the release; None when a release is uncovered."""
    a, b = _span(sig.releases), _span(runner.releases)
    if a is None or b is None or max(a[0], b[0]) > min(a[1], b[1]):
        return None
    low, high = max(a[0], b[0]), min(a[1], b[1])
    spans = {w: s for w, r in _workers(sig.framework, sig.family).items()
             if (s := _span(r)) is not None and s[0] <= high and low <= s[1]}  # fmt: skip
    if not spans or min(s[0] for s in spans.values()) > low:
        return None  # the oldest releases the files exist in run the family on no known class
    if len(spans) == 1:
        return next(iter(spans)), None
    ordered = sorted(spans, key=lambda w: spans[w][0], reverse=True)
    if any(spans[new][0] <= spans[old][1] for new, old in pairwise(ordered)):
        return None  # two classes in one release: the method, not the release, picks
    engine = sig.framework.replace("_", "-")
    parts = [f"{w} if {engine} >= {spans[w][0]}" for w in ordered[:-1]]
    return None, ", else ".join(parts) + f", else {ordered[-1]}"


def sglang_family_evidence(
    frames: Iterable[StackFrame], config: RunConfig, newest: Release | None = None
) -> list[Evidence]:
    """An SGLang frame in a file one EAGLE-type family's runs alone execute, whichever worker
    drives them (a draft graph runner, the NPU backend's, a draft model): the run speculates
    with that family, so the era rules say its worker (a conditional without a release)."""
    for sf in frames:
        sig = frame_signature(sf.frame)
        family = _SGLANG_FAMILIES.get(sig.family) if sig is not None else None
        if sig is None or family is None or sig.framework != "sglang" or sig.points_to:
            continue
        flags = {k: f.value for k, f in config.flags.items() if f.origin == "launch_command"}
        switch = config.flags.get("SGLANG_ENABLE_SPEC_V2")
        release = parse_release(config.version or "") if config.engine == "sglang" else None
        verdict = verdict_from_launch({**flags, **family}, config.era,
                                      switch.value if switch else None, release, newest)  # fmt: skip
        if verdict is None:
            continue
        why = verdict.reason.split(": ", 1)[-1]
        reason = f"{sf.kind} in {sig.name}: {sig.what}; the {sig.family} family on sglang: {why}"
        found = Evidence(sf.source, sf.lineno, sf.text, reason, verdict.points_to,
                         verdict.worker_class, verdict.condition)  # fmt: skip
        if "enable_multi_layer_eagle" not in family and multi_layer_target(sig.name):
            multi = verdict_from_launch({**flags, **family, "enable_multi_layer_eagle": True},
                                        config.era, switch.value if switch else None, release,
                                        newest)  # fmt: skip
            found = _either(found, multi) if "enable_multi_layer_eagle" not in flags else found
        return [found]
    return _hook_evidence(frames, config, newest)


def _hook_evidence(
    frames: Iterable[StackFrame], config: RunConfig, newest: Release | None
) -> list[Evidence]:
    """An SGLang frame in a model hook that only some families' runs call
    (``set_dflash_layers_to_capture``: ``path_terms``' hook rows): the run speculates with one
    of them; one family gives its worker by the era rules, several a condition over theirs."""
    for sf in frames:
        if "sglang/" not in sf.frame.file.replace("\\", "/"):
            continue
        name = sf.frame.function
        hooks = [t for t in term_matches(name) if t.kind == "hook" and (t.start, t.end) == (0, len(name))]
        if not hooks:
            continue
        flags = {k: f.value for k, f in config.flags.items() if f.origin == "launch_command"}
        switch = config.flags.get("SGLANG_ENABLE_SPEC_V2")
        release = parse_release(config.version or "") if config.engine == "sglang" else None
        found = [verdict_from_launch({**flags, "speculative_algorithm": family}, config.era,
                                     switch.value if switch else None, release, newest)
                 for family in hooks[0].families]  # fmt: skip
        if any(v is None or not (v.condition or v.worker_class) for v in found):
            return []  # a family the era rules cannot place: no verdict over part of them
        verdicts = [v for v in found if v is not None]
        reason = (f"{sf.kind} in {sf.frame.function}: a model hook SGLang's runner calls for "
                  f"{'/'.join(hooks[0].families)} runs alone")  # fmt: skip
        if len(verdicts) == 1 and verdicts[0].condition is None:
            (one,) = verdicts
            return [Evidence(sf.source, sf.lineno, sf.text,
                             f"{reason} -> {one.points_to} ({one.worker_class})", one.points_to,
                             one.worker_class)]  # fmt: skip
        said = [v.condition or f"{v.points_to} ({v.worker_class})" for v in verdicts]
        condition = " or ".join(f"({c})" if " if " in c else c for c in dict.fromkeys(said))
        return [Evidence(sf.source, sf.lineno, sf.text, f"{reason}: {condition}", None, None,
                         condition)]  # fmt: skip
    return []


def _either(found: Evidence, multi: DumpVerdict | None) -> Evidence:
    """A draft model's file of a model the server runs on the multi-layer EAGLE workers by
    itself ([[multi_layer]] rows: ``mimo_v2_nextn.py``), no flag saying whether it did (the
    releases before the server did so ran EAGLE's): the family's worker or the multi-layer one."""
    said = [found.condition or f"{found.points_to} ({found.worker_class})"]
    if multi is not None and (multi.condition or multi.worker_class):
        said.append(multi.condition or f"{multi.points_to} ({multi.worker_class})")
    condition = " or ".join(f"({c})" if " if " in c else c for c in dict.fromkeys(said))
    reason = (f"{found.reason.split(' -> ', 1)[0]}; the model's MTP runs on the multi-layer EAGLE "
              f"workers where the server turns them on for it: {condition}")
    return replace(found, reason=reason, points_to=None, worker_class=None, condition=condition)
