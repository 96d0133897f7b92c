"""A decided worker path -> the hints a maintainer would add (v1 vs v2, topk, conflicts).

Filled by the linker after ``path_decide``; the texts are SGLang's selection rules in words."""

from __future__ import annotations

from spectrace.incident_model import Incident
from spectrace.path_decide import kind_of
from spectrace.worker_path import WorkerPath

_HINT_V1 = (
    "{subject} on the v1 worker (EAGLEWorker, eagle_worker.py): code changed only in "
    "eagle_worker_v2.py / eagle_info_v2.py never ran here. SGLang 0.5.5-0.5.12 picks v2 "
    "(EAGLEWorkerV2) only with the overlap scheduler on, which needs SGLANG_ENABLE_SPEC_V2=True "
    "(default from 0.5.11) and speculative_eagle_topk=1."
)
_HINT_V2_TOPK = (
    "This run is on the v2 worker (EAGLEWorkerV2) with speculative_eagle_topk={topk}, but spec "
    "v2 supports topk=1 only; an auto-chosen topk > 1 is not refused at start-up and crashes "
    "later (e.g. in _draft_extend_for_decode)."
)
_HINT_COUPLING = (
    "v1 couples speculation into batch preparation, CUDA-graph shapes and token allocation: a "
    "step that runs without speculation must also drop the batch's spec_info (on the "
    "ScheduleBatch, before prepare_for_decode), or shapes sized bs×N meet plain-decode ones. "
    "Per-step switching fits the v2 overlap path better (topk=1)."
)


def add_hints(incident: Incident, path: WorkerPath, era: str | None) -> None:
    """Append the hints the verdict calls for (v1 patched code that never ran, v2 with topk > 1,
    disagreeing evidence), each once."""
    hints: list[str] = []
    v1 = path.value == "v1" and path.worker_class in ("EAGLEWorker", "MultiLayerEagleWorker")
    before_v2 = era is not None and era.startswith("0.4")  # no v2 worker to have patched yet
    if v1 and incident.root_cause and not before_v2:
        by_frames = bool(path.evidence) and kind_of(path.evidence[0]) == "traceback frames"
        hints.append(_HINT_V1.format(subject="This crash ran" if by_frames else "This run was"))
        sm = incident.explanation
        if sm is not None and sm.unexplained and (sm.tensor or "").startswith("EagleVerifyInput"):
            hints.append(_HINT_COUPLING)
    topk = incident.flags.get("speculative_eagle_topk")
    top = topk.value if topk is not None else None
    early = era is None or not era.startswith(("0.5.13", "0.5.17"))  # v1 exists, v2 is topk=1
    if (
        path.value == "v2"
        and early
        and isinstance(top, int)
        and not isinstance(top, bool)
        and top > 1
    ):
        hints.append(_HINT_V2_TOPK.format(topk=top))
    if path.conflict:
        hints.append(f"Worker path evidence disagrees. {path.conflict}.")
    incident.hints.extend(h for h in hints if h not in incident.hints)
