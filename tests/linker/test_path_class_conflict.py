""" "other" verdicts disagree by class: frames naming one family's class against a config naming
another family's is a conflict the report says, while a plugin's subclass, V0's wrapper and its
proposer, or a class with no family of its own never are."""

from __future__ import annotations

from spectrace.assemblers.run_config import Evidence
from spectrace.linker import decide


def frame(worker: str, lineno: int = 10) -> Evidence:
    return Evidence("run.log", lineno, f'File "/x/{worker}.py", line 1, in f',
                    f"traceback frame in {worker}.py: {worker}", "other", worker)  # fmt: skip


def config(worker: str) -> Evidence:
    return Evidence("run.log", 2, "decoding_type: x", f"TensorRT-LLM config: -> ({worker})",
                    "other", worker)  # fmt: skip


def test_a_class_of_another_family_in_the_config_is_a_conflict() -> None:
    path = decide([frame("LookaheadDecodingLayer"), config("MTPWorker")])
    assert path.worker_class == "LookaheadDecodingLayer"
    assert path.conflict is not None
    assert "other (LookaheadDecodingLayer)" in path.conflict and "MTPWorker" in path.conflict


def test_classes_of_one_family_or_none_never_conflict() -> None:
    for evidence in (
        [frame("AscendEagleProposer"), config("EagleProposer")],  # the plugin's subclass
        [frame("MultiStepWorker"), frame("SpecDecodeWorker", 11)],  # V0 wrapper + proposer
        [frame("ModelDrafter"), config("Eagle3OneModelWorker")],  # ModelDrafter: no family
        [frame("MtpProposer"), frame("AscendEagleProposer", 12)],  # one kind: frames of a stack
    ):
        assert decide(evidence).conflict is None, evidence
