"""The class a frame names in a file whose class changed between releases, by the run's release.

vllm-ascend's ``spec_decode/eagle_proposer.py`` held ``EagleProposer`` up to v0.15.0rc1 and
``AscendEagleProposer`` from v0.16.0rc1; its ``ngram_proposer.py``, ``medusa_proposer.py`` and
``suffix_proposer.py`` were renamed the same way. The path tables write such a file's classes
by release range (``workers``, generated from the frameworks' trees), so a frame there names
the class of the release the text states (the plugin's own, or the one paired with the vLLM
release), else the one class every release the text's days allow held, else a condition over
all of them: never the newest class alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType

from packaging.version import Version

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.vllm_finish import newest_release, paired_release
from spectrace.assemblers.vllm_release import parse_release, spans_holding
from spectrace.path_frames import FrameSignature, frame_signatures, renamed

_LABELS = {"vllm": "vllm", "vllm_ascend": "vllm-ascend", "sglang": "sglang"}


@dataclass(frozen=True, slots=True)
class RunRelease:
    """What the text says of one framework's release: the release itself (and how it was
    found), and the newest release the text's days allow."""

    release: Version | None
    said: str
    newest: Version | None


@dataclass(frozen=True, slots=True)
class FrameClass:
    """A renamed file's frame read with the run's release: the class (points_to "other"), or
    a condition over the classes its releases held, or neither (that release's file named
    none), and why."""

    points_to: str | None
    worker: str | None
    condition: str | None
    why: str


def run_releases(config: RunConfig) -> Mapping[str, RunRelease]:
    """framework -> the run's release as the config read it: vLLM's printed or stated release,
    vllm-ascend's own (``platform_release``) or the one paired with vLLM's, SGLang's."""
    out: dict[str, RunRelease] = {}
    vllm = parse_release(config.version) if config.engine == "vllm" else None
    out["vllm"] = RunRelease(vllm, f"vllm {vllm}" if vllm else "", newest_release(config, "vllm"))
    plugin = config.flags.get("platform_release")
    paired = paired_release(config.version) if config.engine == "vllm" else None
    own = parse_release(plugin.value) if plugin is not None else None
    ascend = own or parse_release(paired)
    said = (f"vllm-ascend {ascend}" + ("" if own else f" (the release paired with vLLM {vllm})")
            if ascend else "")  # fmt: skip
    out["vllm_ascend"] = RunRelease(ascend, said, newest_release(config, "vllm_ascend"))
    sglang = parse_release(config.version) if config.engine == "sglang" else None
    out["sglang"] = RunRelease(sglang, f"sglang {sglang}" if sglang else "", None)
    return MappingProxyType(out)


@cache
def _newest(framework: str) -> Version | None:
    """The newest release the framework's table was read from."""
    lasts = [parse_release(s.releases[1]) for s in frame_signatures() if s.framework == framework]
    return max((v for v in lasts if v is not None), default=None)


def _ranges(spans: tuple[tuple[str, str, str], ...], pick) -> dict[str, list[tuple[str, str]]]:
    """class -> its runs of neighbouring spans (first, last), for the classes ``pick`` takes
    from each span's ``Own|Sub|...``."""
    out: dict[str, list[tuple[str, str]]] = {}
    last: dict[str, int] = {}
    for n, (cls, first, end) in enumerate(spans):
        for name in pick(cls.split("|")) if cls else ():
            if last.get(name) == n - 1:
                out[name][-1] = (out[name][-1][0], end)
            else:
                out.setdefault(name, []).append((first, end))
            last[name] = n
    return out


def _condition(sig: FrameSignature, spans: tuple[tuple[str, str, str], ...]) -> str:
    """Each class the file held with its releases, then the proposers deriving from its
    classes (they run its code too), then the releases where it named none."""
    label = _LABELS.get(sig.framework, sig.framework)

    def said(ranges: list[tuple[str, str]]) -> str:
        return ", ".join(f"{label} {a}-{b}" for a, b in ranges)

    own = _ranges(spans, lambda names: names[:1])
    subs = _ranges(spans, lambda names: names[1:])
    parts = [f"{cls} on {said(r)}" for cls, r in own.items()]
    if subs:
        parts.append("or a proposer deriving from its classes: "
                     + ", ".join(f"{cls} ({said(r)})" for cls, r in subs.items()))
    none = [(a, b) for cls, a, b in spans if not cls]
    if none:
        parts.append(f"no class of its own on {said(none)}")
    return "; ".join(parts)


def frame_class(sig: FrameSignature, run: RunRelease | None) -> FrameClass | None:
    """The class a frame in a renamed file names (None for a file that named one class in
    every release: its row's own class stands)."""
    if not renamed(sig):
        return None
    spans = sig.workers
    label = _LABELS.get(sig.framework, sig.framework)
    newest = _newest(sig.framework)
    if run is not None and run.release is not None:
        held = list(spans_holding(run.release, spans, newest))
        if len(held) == 1 and held[0][0] and "|" not in held[0][0]:
            cls, first, last = held[0]
            why = f"{run.said} held {cls} in it ({label} {first}-{last})"
            return FrameClass("other", cls, None, why)
        if len(held) == 1 and held[0][0]:  # its proposer, or another deriving from it
            condition = _condition(sig, (held[0],))
            return FrameClass(None, None, condition, f"{run.said}: {condition}")
        if len(held) == 1:
            return FrameClass(None, None, None, f"{run.said}: the file named no class of its own")
        if len(held) > 1:  # a dev build between two tags: what either held
            condition = _condition(sig, tuple(held))
            return FrameClass(None, None, condition, f"{run.said}, a build between two tags: {condition}")
    if run is not None and run.newest is not None:
        dated = tuple(s for s in spans if (parse_release(s[1]) or run.newest) <= run.newest)
        if dated and len({s[0] for s in dated}) == 1 and dated[0][0] and "|" not in dated[0][0]:
            cls = dated[0][0]
            why = (f"the text's dates allow {label} {run.newest} at the newest: {cls} "
                   f"({label} {dated[0][1]}-{dated[-1][2]})")
            return FrameClass("other", cls, None, why)
    condition = _condition(sig, spans)
    return FrameClass(None, None, condition, f"the file's class changed by release: {condition}")


@cache
def _renamed_rows() -> tuple[FrameSignature, ...]:
    return tuple(s for s in frame_signatures() if renamed(s) and s.function is None)


def reread(evidence: Sequence[Evidence], releases: Mapping[str, RunRelease]) -> list[Evidence]:
    """Votes of a renamed file a line names without a frame (a log line it wrote, a frame
    copied into prose, ``eagle_proposer.py:288`` in a sentence) read with the run's release
    like its frames; a class the text names itself (``EagleProposer.propose``, a sentence's
    class) stays."""
    out: list[Evidence] = []
    for e in evidence:
        row = next((r for r in _renamed_rows() if f" in {r.name}: " in e.reason), None)
        own = e.worker_class is not None and f"{e.worker_class}." in e.text
        if row is None or e.worker_class is None or ", defined in " in e.reason or own:
            out.append(e)
            continue
        found = frame_class(row, releases.get(row.framework))
        if found is None:
            out.append(e)
            continue
        head = e.reason.split(" -> ", 1)[0]
        reason = f"{head}; {found.why}" + (f" -> {found.points_to} ({found.worker})"
                                           if found.points_to else "")  # fmt: skip
        out.append(replace(e, reason=reason, points_to=found.points_to,
                           worker_class=found.worker, condition=found.condition))
    return out
