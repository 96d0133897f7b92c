"""A vLLM report that names its draft checkpoint in a first-person sentence ("I use X as the
speculative model") gives the run's draft model: vLLM infers the method from it by release
(an ibm-fms ``-accelerator`` head is an MLP speculator, V0's ``MLPSpeculatorWorker``). A sentence
that asks, suggests or plans names no run's draft. Every line is written by us."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run
from test_never_wrong_threads import VLLM_REPO, thread

CRASH = ["Traceback (most recent call last):", '  File "bench.py", line 12, in <module>',
         "RuntimeError: spectrace test"]  # fmt: skip


def test_mlp_accelerator_named_as_the_speculative_model(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Performance]: no speedup from speculation", "2024-10-02",
                   "We run org/granite-8b with ibm-ai-platform/granite-8b-accelerator (see its "
                   "card) as the speculative model through LLM(). The vllm version is 0.6.2.",
                   *CRASH)  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, "t.md")), "other", "MLPSpeculatorWorker")


def test_small_draft_named_in_a_sentence_is_the_v0_draft_worker(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Bug]: crash with a small draft model", "2024-09-20",
                   "I served Llama-3.1-70B-Instruct on 4 GPUs, and I used "
                   "meta-llama/Llama-3.2-1B-Instruct as the draft model.", *CRASH)  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, "t.md")), "other", "MultiStepWorker")


@pytest.mark.parametrize("sentence", [
    "Could I use ibm-ai-platform/granite-8b-accelerator as the speculative model?",
    "You can use ibm-ai-platform/granite-8b-accelerator as the speculative model.",
    "We plan to use ibm-ai-platform/granite-8b-accelerator as the speculative model next week.",
    "We would try ibm-ai-platform/granite-8b-accelerator as the draft model if it were supported.",
])
def test_a_sentence_not_about_the_run_names_no_draft(tmp_path: Path, sentence: str) -> None:
    # a day after 0.7.2 (V1 could speculate): the title's era alone leaves no V0 condition
    lines = thread(VLLM_REPO, "[Bug]: crash when speculating", "2025-03-10", sentence, *CRASH)
    path = crash_path(run(tmp_path, lines, "t.md"))
    assert path.worker_class is None and path.conditional is None, path


def _cut_launch(intro: str, cut: bool = True) -> list[str]:
    end = "  --speculative-" if cut else "  --port 8000"
    return [intro, "", "```", "vllm serve org/Qwen3-8B \\", "  --max-model-len 8192 \\", end, "```",
            "INFO 09-01 10:00:00 [api_server.py:1800] vLLM API server version 0.10.1", *CRASH]  # fmt: skip


def test_the_sentence_introducing_a_cut_launch_names_its_method(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Bug]: ngram crash under load", "2025-09-01",
                   *_cut_launch("For the n-gram run I launched vLLM like this:"))  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, "t.md")), "other", "NgramProposer")


@pytest.mark.parametrize("intro", [
    "For the EAGLE3 and n-gram baselines we launched vLLM with:",  # two methods: which one?
    "Should I launch EAGLE3 with this command:",  # a question
])
def test_an_intro_naming_no_one_method_of_the_run_sets_none(tmp_path: Path, intro: str) -> None:
    lines = thread(VLLM_REPO, "[Bug]: crash under load", "2025-09-01", *_cut_launch(intro))
    path = crash_path(run(tmp_path, lines, "t.md"))
    assert path.worker_class is None, path  # (the text's methods may stay a condition)


def test_a_complete_plain_launch_takes_no_method_from_its_intro(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Bug]: crash under load", "2025-09-01",
                   *_cut_launch("For the EAGLE3 comparison I launched vLLM with:", cut=False))  # fmt: skip
    path = crash_path(run(tmp_path, lines, "t.md"))
    assert path.worker_class is None, path


def test_a_vllm_image_beside_another_engines_image_places_no_run_on_vllm(tmp_path: Path) -> None:
    # two wrappers' runtime images in one comparison: neither engine is the run's by its image
    rows = ["| engine | container | MTP tok/s |", "|--|--|--|",
            "| vLLM | nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1 | 900 |",
            "| TensorRT-LLM | nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.7.1 | 1100 |"]  # fmt: skip
    lines = ["# Results: MTP with vLLM against TensorRT-LLM, both served by Dynamo", *rows, *CRASH]
    path = crash_path(run(tmp_path, lines, "a.md"))
    assert "Proposer" not in (path.worker_class or "") + (path.conditional or ""), path
