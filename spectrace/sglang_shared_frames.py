"""An SGLang frame in EAGLE machinery other algorithms run too, beside the run's stated algorithm.

Why: the frame table names ``eagle_worker.py``, ``eagle_info.py``, ``eagle_utils.py`` and the
EAGLE draft graph runners family EAGLE, but SGLang's STANDALONE workers subclass the EAGLE
workers and the multi-layer EAGLE, Frozen-KV MTP, NGRAM and UNO workers import those files
(``[[shared]]`` rows of rules/paths/sglang_eras.toml, read from each release's source). Such a
frame proves the run speculates on that machinery, not that it ran EAGLEWorker: where the run
states its algorithm (a flag, a dump, or the one algorithm its text names), the frame keeps the
path it proves and the stated algorithm names the class (a STANDALONE run crashing in
``eagle_worker.py`` ran ``StandaloneWorker``), or the frame only informs and the algorithm's own
era rule decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.sglang_eras import SharedRule, Version, parse_release, shared_rules
from spectrace.assemblers.dump_path import verdict_from_launch
from spectrace.path_frames import frame_signatures

_EAGLE = ("EAGLE", "EAGLE3", "NEXTN")  # one worker family (NEXTN is EAGLE's alias)
_PATH = re.compile(r"([\w.\\/-]+\.py)\b")
_READ_AS = re.compile(r"[\w -]*frame in ([\w./-]+\.py):|file named in the text \([^)]*\) in ([\w./-]+\.py):")
_EAGLE_CLASSES = ("EAGLEWorker", "EAGLEWorkerV2")
# a worker file a sentence cites with a line (``eagle_worker.py:555``; path_mention_kinds): it is
# read as the frame would be, so the stated algorithm restates it alike
_CITED = "file named in the text ("
_HEAD_END = re.compile(r" -> |; the \w+ family on sglang|: v[12] \(")


def stated_family(config: RunConfig) -> tuple[str, str] | None:
    """(family, what says it) of the run's algorithm: the flag (command, dump, kwargs) or the one
    algorithm its text names; EAGLE, EAGLE3 and NEXTN with the multi-layer flag are
    MULTI_LAYER_EAGLE (``create_worker``: the flag counts only for ``is_eagle()``)."""
    if config.engine not in (None, "sglang"):
        return None
    flag = config.flags.get("speculative_algorithm") or config.flags.get("named_algorithm")
    if flag is None or not isinstance(flag.value, str):
        return None
    algorithm = flag.value.upper()
    multi = config.flags.get("enable_multi_layer_eagle")
    if algorithm in _EAGLE and multi is not None and multi.value is True:
        return "MULTI_LAYER_EAGLE", f"{algorithm} with --enable-multi-layer-eagle"
    return ("EAGLE" if algorithm in _EAGLE else algorithm), algorithm


def _rule(evidence: Evidence, family: str, newest: Version | None) -> SharedRule | None:
    """The [[shared]] row of the frame (or cited line) ``evidence`` rests on, for ``family``."""
    head = evidence.reason.split(":", 1)[0]
    if "frame" not in head and not head.startswith(_CITED):
        return None
    found = _READ_AS.match(evidence.reason) or _PATH.search(evidence.text)
    if found is None:
        return None
    path = (found.group(found.lastindex or 1) or "").replace("\\", "/")
    for rule in shared_rules():
        if rule.algorithm == family and rule.covers(newest) and (
            path == rule.file or path.endswith("/" + rule.file)
        ):
            return rule
    return None


def _names_eagle(evidence: Evidence) -> bool:
    """The evidence votes EAGLE's own workers (a class, or a condition naming them)."""
    if evidence.worker_class in _EAGLE_CLASSES:
        return True
    return evidence.condition is not None and any(c in evidence.condition for c in _EAGLE_CLASSES)


def restate(
    evidence: Sequence[Evidence], config: RunConfig, newest: Version | None = None
) -> list[Evidence]:
    """``evidence`` with each vote of a shared EAGLE file's frame restated for the run's stated
    algorithm (unchanged when the run states EAGLE, states nothing, or the algorithm never runs
    that file); where no vote is left, the stated algorithm's own era verdict is added. With
    no algorithm stated, EAGLE's class stands: EAGLE, EAGLE3 and NEXTN run these files far more
    than the subclasses do, and the samples' frame-only crashes are EAGLE's (a condition over
    every subclass made each of them unknown). A sentence saying multi-layer EAGLE was on turns
    every non-frame EAGLE vote multi-layer."""
    if config.engine in (None, "sglang"):  # words saying multi-layer EAGLE was on
        evidence = [_multi_layer(e, config) for e in evidence]
    stated = stated_family(config)
    if stated is None or stated[0] == "EAGLE":
        return list(evidence)
    family, said = stated
    release = parse_release(config.version or "") if config.engine == "sglang" else None
    bound = release or newest
    out: list[Evidence] = []
    changed = False
    for e in evidence:
        if (loop := _loop_class(e, family, bound)) is not None:  # the scheduler's loop: its path
            changed = True
            reason = f"{e.reason}; the run's algorithm is {said} -> {e.points_to} ({loop})"
            out.append(replace(e, reason=reason, worker_class=loop, family=family))
            continue
        rule = _rule(e, family, bound) if _names_eagle(e) else None
        if rule is None:
            out.append(e)
            continue
        changed = True
        head = _HEAD_END.split(e.reason, 1)[0]  # the frame and its file, not its vote
        if rule.worker:
            why = f"the run's algorithm is {said}: {rule.why}"
            reason = f"{head}; {why} -> {rule.path} ({rule.worker})"
            out.append(replace(e, reason=reason, points_to=rule.path, worker_class=rule.worker,
                               condition=None, family=family))  # fmt: skip
        else:
            why = f"the run's algorithm is {said}: {rule.why}"
            reason = f"{head}; {why}, so the frame names no worker"
            out.append(replace(e, reason=reason, points_to=None, worker_class=None, condition=None))
    if changed and not any(e.points_to or e.condition for e in out):
        out += _stated_verdict(config, family, newest)
    return out


_MULTI = {"EAGLEWorker": "MultiLayerEagleWorker", "EAGLEWorkerV2": "MultiLayerEagleWorkerV2"}
_EAGLE_CLASS = re.compile(r"\b(EAGLEWorker(?:V2)?)\b")


def _multi_layer(evidence: Evidence, config: RunConfig) -> Evidence:
    """A vote of the run's config or words for EAGLE's own worker (a launch, a named algorithm,
    the era join), where a sentence says multi-layer EAGLE was on ("multi-layer EAGLE
    auto-enabled"): ``create_worker`` builds ``MultiLayerEagleWorker[V2]`` on the same path.
    Frames keep their vote (the frame table knows the multi-layer files)."""
    multi = config.flags.get("enable_multi_layer_eagle")
    if multi is None or multi.origin != "prose" or "frame" in evidence.reason.split(":", 1)[0]:
        return evidence
    if not _names_eagle(evidence):
        return evidence
    swap = lambda text: _EAGLE_CLASS.sub(lambda m: _MULTI[m.group(1)], text)  # noqa: E731
    reason = f"{swap(evidence.reason)}; multi-layer EAGLE is on (line {multi.lineno})"
    worker = _MULTI.get(evidence.worker_class or "", evidence.worker_class)
    condition = swap(evidence.condition) if evidence.condition else None
    return replace(evidence, reason=reason, worker_class=worker, condition=condition)


# families whose workers the scheduler's event loops run as they run EAGLE's (the multi-layer
# EAGLE and STANDALONE workers have a v1 and a v2 class each): a loop vote's path is theirs too
_LOOP_FAMILIES = ("MULTI_LAYER_EAGLE", "STANDALONE")


def _loop_class(evidence: Evidence, family: str, bound: Version | None) -> str | None:
    """The stated family's class on the path a scheduler event-loop vote names (``normal event
    loop (spec v1 for EAGLE) -> v1 (EAGLEWorker)``): the one class of the family's frame rows on
    that path a release up to ``bound`` (None: any) holds; None for any other vote."""
    if (family not in _LOOP_FAMILIES or evidence.worker_class not in _EAGLE_CLASSES
            or evidence.points_to not in ("v1", "v2") or "event loop" not in evidence.reason):  # fmt: skip
        return None
    found = {sig.worker_class for sig in frame_signatures()
             if sig.framework == "sglang" and sig.family == family and sig.worker_class
             and sig.points_to == evidence.points_to and _holds(sig.releases, bound)}  # fmt: skip
    return next(iter(found)) if len(found) == 1 else None


def _holds(releases: tuple[str, str], bound: Version | None) -> bool:
    """A release up to ``bound`` can hold a file of ``releases`` (first, last)."""
    first = parse_release(releases[0]) if releases[0] else None
    return bound is None or first is None or first <= bound


def _stated_verdict(config: RunConfig, family: str, newest: Version | None) -> list[Evidence]:
    """The stated algorithm's era verdict, at the line that states it: the shared frame proved
    the run speculates on the EAGLE machinery, so the one algorithm the text names is the run's."""
    flag = config.flags.get("speculative_algorithm") or config.flags.get("named_algorithm")
    if flag is None:
        return []
    switch = config.flags.get("SGLANG_ENABLE_SPEC_V2")
    setting = switch.value if switch is not None and isinstance(switch.value, bool) else None
    algorithm = str(flag.value).upper()
    flags: dict[str, object] = {"speculative_algorithm": algorithm}
    if family == "MULTI_LAYER_EAGLE":
        flags["enable_multi_layer_eagle"] = True
    release = parse_release(config.version or "") if config.engine == "sglang" else None
    verdict = verdict_from_launch(flags, config.era, setting, release, newest)
    if verdict is None or not (verdict.points_to or verdict.condition):
        return []
    why = verdict.reason.split(": ", 1)[-1]
    reason = f"the run's algorithm, stated beside a frame in shared EAGLE machinery: {why}"
    return [Evidence(flag.source, flag.lineno, verdict.excerpt, reason, verdict.points_to,
                     verdict.worker_class, verdict.condition)]  # fmt: skip
