"""A vLLM report naming its draft checkpoint in a sentence (rounds 40 22 and 41 04: a small model
used as the draft), the way different writers put it: "with X as the draft", "Using X as draft
model", "as a draft (...)", "a small draft model (X)". vLLM infers the method from a draft with
no method by release (a plain model: draft_model, DraftModelProposer from 0.17), so the named
draft gives the class. Lines are our own, in the shapes reports take."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import probed_path

HEAD = ["vllm-project/vllm · issue #70050 · open", "# [Bug]: engine dies at start-up with speculative decoding",
        "", "someone · description · 2026-03-10"]  # fmt: skip



@pytest.mark.parametrize(
    "line",
    [
        "We run Qwen3-32B with Qwen3-0.6B as the draft on vLLM 0.24.0 and it crashes at capture.",
        "Using meta-llama/Llama-3.2-1B-Instruct as draft model for Llama-3.1-70B on vLLM 0.24.0, the server dies.",
        "I am serving gemma-4-31B-it with gemma-4-E2B-it as a draft (vllm 0.24.0) and the proposer asserts.",
        "We serve Qwen3-32B on vLLM 0.24.0 with a small draft model (Qwen3-0.6B) and the proposer asserts.",
        "With acme/Orbit-1B as the drafter, vLLM 0.24.0 fails the KV-group check.",
    ],
)  # fmt: skip
def test_a_draft_named_in_a_sentence_gives_the_draft_model_proposer(tmp_path: Path, line: str) -> None:
    path = probed_path(tmp_path, [*HEAD, line])
    assert (path.value, path.worker_class) == ("other", "DraftModelProposer")
    assert path.evidence[0].lineno == 5


def test_a_head_named_as_the_draft_is_its_method(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*HEAD, "We serve Llama-3.1-8B with org/EAGLE3-LLaMA3.1-8B as the draft on vLLM 0.20.0."])
    assert (path.value, path.worker_class) == ("other", "EagleProposer")


@pytest.mark.parametrize(
    "line",
    [
        "We could use Qwen3-0.6B as the draft on vLLM 0.24.0?",  # a question
        "We use it as the draft-model-free path on vLLM 0.24.0.",  # no checkpoint
        "Qwen3-0.6B as the draft would be worth a try on vLLM 0.24.0.",  # nobody ran it
    ],
)
def test_no_draft_from_questions_plans_or_no_checkpoint(tmp_path: Path, line: str) -> None:
    path = probed_path(tmp_path, [*HEAD, line])
    assert path.worker_class is None
