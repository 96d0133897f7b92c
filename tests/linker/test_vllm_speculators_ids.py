"""A vLLM run serving a speculators-format checkpoint by its model id alone (round 42 21: the
speculators naming ``<verifier>-speculator.<type>``, no speculative option): vLLM reads the
checkpoint's ``speculators_model_type`` as the method, so the id with a release gives the
method's class. Lines are our own, in the shapes threads paste them."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import probed_path




@pytest.mark.parametrize(
    ("lines", "worker"),
    [
        # an issue body: collect_env's release, a bare serve command
        (["vllm-project/vllm · issue #70001 · open", "# [Bug]: speculator output loops on TP=2",
          "", "someone · description · 2026-06-02", "vLLM: 0.21.0",
          "vllm serve RedHatAI/Qwen3-32B-speculator.dflash --tensor-parallel-size 2"],
         "DFlashProposer"),
        # a citation line under the title, the old API server entry point, a pin in prose
        (["[Bug]: engine dies with a speculators checkpoint", "vllm-project/vllm#70002 · issue · open",
          "", "user · description · 2026-10-01", "I am on vllm==0.27.0.",
          "python -m vllm.entrypoints.openai.api_server --model acme/Orbit-8B-speculator.dspark"],
         "DSparkSpeculator"),
        # a bare log: a container command and the server's own version line
        (["docker run --gpus all vllm/vllm-openai:v0.20.1 --model org/gemma-4-31B-it-speculator.dflash -tp 2",
          "INFO 05-01 10:00:00 [api_server.py:1287] vLLM API server version 0.20.1"], "DFlashProposer"),
        # EAGLE-3's speculators checkpoints, as before
        (["I am using vLLM 0.11.0 on 4 GPUs.",
          "vllm serve org/Llama-3.1-8B-Instruct-speculator.eagle3 -tp 4"], "EagleProposer"),
    ],
)  # fmt: skip
def test_a_served_speculators_id_gives_its_methods_class(tmp_path: Path, lines, worker) -> None:
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class, path.framework) == ("other", worker, "vllm")
    assert "a speculators checkpoint" in path.evidence[0].reason


def test_a_release_before_the_type_is_read_gives_no_class(tmp_path: Path) -> None:
    """0.18.0 has no DFlash method at all (its speculators types refuse ``dflash``), and a
    DSpark checkpoint on 0.25.0 is not known to load: no class is named."""
    for release, model in (("0.18.0", "org/Qwen3-8B-speculator.dflash"),
                           ("0.25.0", "org/Qwen3-8B-speculator.dspark")):  # fmt: skip
        (tmp_path / release).mkdir()
        path = probed_path(tmp_path / release, [f"vLLM version: {release}", f"vllm serve {model}"])
        assert path.worker_class is None and path.value == "unknown"


def test_without_a_release_the_speculators_id_is_a_condition(tmp_path: Path) -> None:
    path = probed_path(tmp_path, ["vllm serve org/Qwen3-8B-speculator.dflash -tp 2"])
    assert path.worker_class is None
    assert path.conditional == "DFlashProposer if vLLM >= 0.20.0, else no speculation"


def test_a_plain_model_id_is_no_speculators_checkpoint(tmp_path: Path) -> None:
    """Near miss: a served model whose name only holds a family word elsewhere (``dflash`` in
    an org, a ``speculators`` folder with no type) names no method."""
    path = probed_path(tmp_path, ["vLLM: 0.21.0", "vllm serve dflash-lab/Qwen3-8B-Instruct -tp 2"])
    assert path.worker_class is None and path.conditional is None


@pytest.mark.parametrize(
    ("lines", "worker"),
    [
        # a sentence naming the served checkpoint, the release beside it
        (["vllm-project/vllm · issue #70005 · open", "# [Bug]: answers turn into loops", "",
          "someone · description · 2026-05-02",
          "We serve `RedHatAI/Qwen3-8B-speculator.dflash` on vLLM 0.20.1 and the answers loop."],
         "DFlashProposer"),
        # an environment bullet on vLLM's tracker
        (["vllm-project/vllm · issue #70006 · open", "# [Bug]: low acceptance after upgrade", "",
          "someone · description · 2025-11-02", "- vLLM: 0.11.0",
          "- Model: org/Llama-3.1-8B-Instruct-speculator.eagle3"], "EagleProposer"),
    ],
)  # fmt: skip
def test_a_speculators_id_named_in_words_gives_its_methods_class(tmp_path: Path, lines, worker) -> None:
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", worker)
    assert "a speculators checkpoint" in path.evidence[0].reason


@pytest.mark.parametrize(
    "line",
    [
        "Has anyone served RedHatAI/Qwen3-8B-speculator.dflash on vLLM 0.21.0?",
        "We plan to try RedHatAI/Qwen3-8B-speculator.dflash on vLLM 0.21.0 next week.",
        "On vLLM 0.21.0 we serve Qwen3-8B without speculative decoding; org/Qwen3-8B-speculator.dflash is next.",
    ],
)
def test_a_speculators_id_asked_about_or_planned_names_nothing(tmp_path: Path, line: str) -> None:
    head = ["vllm-project/vllm · issue #70007 · open", "# [Usage]: speculators", "",
            "someone · description · 2026-05-02"]  # fmt: skip
    path = probed_path(tmp_path, [*head, line])
    assert path.worker_class is None and path.conditional is None
