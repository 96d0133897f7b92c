"""The linker's verdict on an incident: which speculative worker path ran, and why.

Defined apart from the linker so that an Incident can carry it while data still flows one
way (incidents -> linker): the linker imports incidents, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass

from spectrace.assemblers.run_config import Evidence


# a ``missing`` entry that no line could settle: the run stopped before any worker was built, so
# it is the verdict's only explanation and renderers label it apart (``missing_label``)
NO_WORKER_RAN = "nothing in the text, no worker ran: "
# the explanation of a text none of whose lines has a run's form (assemblers/run_forms): what
# it lacks, not a line a user could paste beside the same words
NO_RUN_SHOWN = "nothing in the text shows a run: "


def missing_label(need: str) -> tuple[str, str]:
    """The label a renderer puts before one ``missing`` entry, and the words after it: a run
    that never built a worker is told as such ("no worker ran: ..."), and so is a text with no
    line in a run's form ("no run shown: ..."), not as a line the user could paste to settle
    the path."""
    if need.startswith(NO_WORKER_RAN):
        return "no worker ran", need[len(NO_WORKER_RAN):]
    if need.startswith(NO_RUN_SHOWN):
        return "no run shown", need[len(NO_RUN_SHOWN):]
    return "would settle it", need


@dataclass(frozen=True, slots=True)
class PathStep:
    """One path reader's finding (``--explain-path``): what it found (a word, a framework, a
    release, a rule's outcome), whether it went on to the verdict, and why, with its line."""

    reader: str  # "framework", "family word", "release", "day", "rule", "verdict"
    found: str
    kept: bool
    why: str
    source: str = ""
    lineno: int = 0


@dataclass(frozen=True, slots=True)
class WorkerPath:
    value: str  # "v1" | "v2" | "other" | "none" (speculation off) | "unknown"
    worker_class: str | None  # "EAGLEWorker", "EAGLEWorkerV2", "NGRAMWorker", "EagleProposer"...
    evidence: tuple[Evidence, ...]
    conflict: str | None = None  # a sentence when evidence disagrees
    framework: str | None = None  # "sglang" | "vllm" | "vllm_ascend" | "trtllm"
    family: str | None = None  # "EAGLE3", "NEXTN", "MTP", "NGRAM", "MULTI_LAYER_EAGLE", ...
    # value "unknown" but the release would settle it: "v2 (EAGLEWorkerV2) if sglang >= 0.5.11,
    # else v1 (EAGLEWorker)"
    conditional: str | None = None
    missing: tuple[str, ...] = ()  # for "unknown": the lines that would settle it, quickest first
    trace: tuple[PathStep, ...] = ()  # each reader's finding, under --explain-path only
