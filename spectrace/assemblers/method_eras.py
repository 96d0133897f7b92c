"""A speculative method -> every class it has had across a framework's releases.

A run its text places only by words or by the tracker it was filed on (an issue wiki's page,
an issue dump, "MTP on vLLM crashes") may be of any release: no version line, release or day
bounds it, so no one era's class may stand for it. This is the one table of the classes a
method has had, era by era, for vLLM (V0's worker, the V1 runner's proposer, each MRV2
speculator) and for the vllm-ascend plugin (vLLM's V0 workers on the plugin's V0 releases, its
early V1 proposer files, its [[method]] rows), built from the tables:
rules/paths/vllm.toml and vllm_v0 (through vllm_proposers), vllm_runner.toml, vllm_ascend.toml
and vllm_plugin_hand.toml's [[v0]] span (through vllm_plugins).
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from spectrace.assemblers.vllm_plugins import ascend_rows, early_proposers, plugin_v0_span
from spectrace.assemblers.vllm_proposers import family_v0_worker
from spectrace.assemblers.vllm_release import parse_release
from spectrace.assemblers.vllm_runner import runner_table
from spectrace.path_frames import method_signature


@dataclass(frozen=True, slots=True)
class EraClass:
    """One class a method ran on, and where (the era and its releases, in words)."""

    cls: str
    where: str
    first: Version | None  # the era's first release of its framework (None: before the tables)

    def said(self) -> str:
        """``MultiStepWorker on V0's spec decode (vLLM before the V1 engine)``."""
        return f"{self.cls} on {self.where}"


def vllm_eras(method: str, v1: str) -> tuple[EraClass, ...]:
    """vLLM's classes for ``method``: V0's worker where V0 ran the method or its family
    (``family_v0_worker``), ``v1`` (the V1 runner's class for it), each MRV2 speculator."""
    out: list[EraClass] = []
    if (v0 := family_v0_worker(method)) is not None:
        out.append(EraClass(v0[0], "V0's spec decode (vLLM before the V1 engine)", None))
    out.append(EraClass(v1, "the V1 model runner", None))
    out += [EraClass(r.cls, f"the model runner v2 (vLLM {r.first}-{r.last})", r.first)
            for r in runner_table().speculators if r.method == method and r.cls != v1]  # fmt: skip
    return tuple(out)


def plugin_eras(method: str, newest: Version | None = None) -> tuple[EraClass, ...]:
    """vllm-ascend's classes for ``method``, oldest first: vLLM's V0 worker on the plugin's V0
    releases, its v0.9.x V1 proposer files, its [[method]] rows. Not its MRV2 speculators: the
    plugin's MRV2 runs only with VLLM_USE_V2_MODEL_RUNNER=1, never by default (vllm_runner.toml).
    With ``newest`` (the newest release the text's day allows) the eras begun by then: the V1
    ones alone once the plugin's V0 releases had ended (as vLLM's own day rule reads a day
    after its V1 class shipped), V0's too while the newest release still shipped it."""
    v0: list[EraClass] = []
    span = plugin_v0_span("vllm_ascend")
    if span is not None and (worker := family_v0_worker(method)) is not None:
        v0.append(EraClass(worker[0], f"vLLM's V0 spec decode (vllm-ascend {span[0]}-{span[1]})",
                           parse_release(span[0])))  # fmt: skip
    family = (method_signature("vllm", method) or ("", ""))[0]
    rows = early_proposers(family) + ascend_rows(method) if family else ascend_rows(method)
    v1 = [EraClass(cls, f"vllm-ascend {first}-{last}", parse_release(first)) for cls, first, last in rows]
    if newest is None:
        return tuple(dict.fromkeys(v0 + v1))
    dated = [e for e in v1 if e.first is not None and e.first <= newest]
    last_v0 = parse_release(span[1]) if span is not None else None
    if dated and (last_v0 is None or newest > last_v0):  # the plugin's V0 releases had ended
        return tuple(dict.fromkeys(dated))
    return tuple(dict.fromkeys([e for e in v0 if e.first is not None and e.first <= newest] + dated))


def era_condition(eras: tuple[EraClass, ...]) -> str:
    """The condition naming each era's class: ``A on <era>; B on <era>``."""
    return "; ".join(e.said() for e in eras)
