"""A draft model's architecture names its family (issue 11, session 21).

A loader line, a pasted ``config.json`` or a notes line names the draft by its architecture, one
CamelCase word (``Eagle3DraftModel``, ``Qwen3DFlashDraftModel``, ``DeepSeekMTPModel``) whose family
part the word reader could not split off; with a frame in the engine's shared base proposer or
runner and a release, that family is the run's. A target's architecture names none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import PROBE, assert_verdict, roots, run


def _verdict(tmp_path: Path, lines: list[str]):
    crashes = roots(run(tmp_path, lines))
    path = crashes[0].worker_path if crashes else None
    if path is None or (path.value == "unknown" and not path.conditional):
        path = roots(run(tmp_path, [*lines, "", *PROBE]))[-1].worker_path
    assert path is not None
    return path


_BASE_FRAME = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/llm_base_proposer.py",'
    " line 640, in propose",
    "    draft_token_ids = self.model(**inputs)",
    "RuntimeError: CUDA error: device-side assert triggered",
]

CASES = {
    "notes bullet": (
        ["## Setup", "- vLLM 0.22.0, 8x H100", "- Target: Llama-3.3-70B-Instruct",
         "- Draft: Eagle3DraftModel (aux layers [2, 40, 77])", "", "## Error", *_BASE_FRAME],
        ("other", "EagleProposer"),
    ),
    "sentence naming the draft's architecture": (
        ["Notes from the 0.21.0 upgrade (vLLM). Draft model architecture: Eagle3LlamaForCausalLM,"
         " three speculative tokens.", "", *_BASE_FRAME],
        ("other", "EagleProposer"),
    ),
    "Japanese note with the draft's config.json": (
        [
            "vLLM 0.20.0 で起動すると落ちる。ドラフトの config.json:",
            "{",
            '  "architectures": ["Qwen3DFlashDraftModel"],',
            '  "block_size": 16',
            "}",
            "Traceback (most recent call last):",
            '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 3010,'
            " in load_model",
            "    self.drafter.load_model(self.model)",
            "KeyError: 'layers.0.mlp.gate_up_proj.weight'",
        ],
        ("other", "DFlashProposer"),
    ),
    "vLLM loader line": (
        [
            "INFO 10-02 11:00:01 [__init__.py:241] vLLM version 0.10.1",
            "(EngineCore_0 pid=88) INFO 10-02 11:00:30 [model.py:547] Resolved architecture: DeepSeekMTPModel",
            "(EngineCore_0 pid=88) ERROR 10-02 11:01:02 [core.py:700] EngineCore failed to start.",
            "RuntimeError: CUDA error: an illegal memory access was encountered",
        ],
        ("other", "EagleProposer"),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_draft_architecture_names_the_family(tmp_path: Path, name: str) -> None:
    lines, (value, cls) = CASES[name]
    assert_verdict(_verdict(tmp_path, lines), value, cls)


@pytest.mark.parametrize(
    "arch",
    [
        "Qwen3_5MoeForConditionalGeneration",
        "DeepseekV3ForCausalLM",
        "Eagle2_5_VLForConditionalGeneration",  # NVIDIA's Eagle 2.5 target: no EAGLE draft
        "FP4",
    ],
)
def test_a_target_architecture_names_no_family(tmp_path: Path, arch: str) -> None:
    """Near miss: the target's architecture (or a dtype after "Draft:") names no method."""
    lines = ["## Setup", "- vLLM 0.22.0", f"- Draft: {arch}", f"Resolved architecture: {arch}", "",
             *_BASE_FRAME]  # fmt: skip
    path = _verdict(tmp_path, lines)
    assert path.family is None and path.worker_class is None, path
