"""A sentence that measures the method's own gain (a speedup, an "N.Nx" factor, an acceptance
length) is that method's run, so its "works" or "fine" is the run's result, not another run's:
"MTP finally works on DGX Spark, with a real speedup" (hard-wrapped on a forum page, read whole)
was set apart as a plain run's words and the run's family lost. Near misses: a family that works
beside another that crashes, a run that works without the method. Our own lines; a probe crash
at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.spec_prose import set_apart
from spectrace.path_base import word_guards
from tests.real_logs_helpers import probed_path

_WRAPPED = ["TL;DR - Multi-Token Prediction (MTP / EAGLE) on the hybrid model finally",
            "works on four GB10 boxes, with a real speedup, on a current SGLang dev build."]


_POST = [*_WRAPPED, "1. Hardware / software", "| Component | Value |", "|---|---|",
         "| SGLang | 0.5.13-dev (image: someone/gb10-sglang:0.5.13-dev-mtp) |", "2. The recipe",
         "--model-path org/Big-Model-NVFP4", "--trust-remote-code", "--tp-size 4 --pp-size 1 # four nodes, s"]


@pytest.mark.parametrize("head", [
    ["Big model + MTP on four GB10 boxes via SGLang: MTP pays off, 1.7x single-stream - Forums", ""],
    ["https://forums.example.com/t/big-model-mtp-on-four-gb10-boxes-via-sglang/373625", ""],
    [],
])  # fmt: skip
def test_a_measured_gain_keeps_the_method(tmp_path: Path, head: list[str]) -> None:
    """The post's cut recipe shows no speculative flag; its TL;DR, wrapped, names the method."""
    path = probed_path(tmp_path, [*head, *_POST])
    assert path.worker_class in ("EAGLEWorker", "EAGLEWorkerV2") or "EAGLEWorker" in (path.conditional or ""), path


@pytest.mark.parametrize("sentence", [
    "ngram works fine but EAGLE crashes at 2x the load.",
    "It works without MTP, so the draft is the problem.",
    "EAGLE works fine; the plain server crashes.",
])  # fmt: skip
def test_works_beside_a_failure_or_without_the_method_stays_apart(sentence: str) -> None:
    assert set_apart(sentence), sentence


def test_the_gain_sentence_names_its_family() -> None:
    assert word_guards("With EAGLE3 it works: 1.8x decode speedup.") == [("EAGLE3", None)]
