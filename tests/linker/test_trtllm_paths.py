"""TensorRT-LLM speculative paths as threads show them (session 11, TR): each case writes our
own lines in the shape of a real thread and asserts the verdict a maintainer would reach."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

CRASH = [
    "Traceback (most recent call last):",
    '  File "/app/run.py", line 12, in <module>',
    "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: output is not finite",
]


def test_medusa_engine_build_names_the_medusa_layer(tmp_path: Path) -> None:
    """Medusa runs only on the TensorRT engine (MedusaDecodingConfig.supports_backend refuses
    the PyTorch backend): a Medusa build names MedusaDecodingLayer, never a class-less family."""
    lines = [
        "NVIDIA/TensorRT-LLM · issue #4100 · closed · Python",
        "# Medusa heads on a MoE base model",
        "user · comment · 2024-06-20",
        "I converted the heads with [convert_checkpoint.py](https://github.com/NVIDIA/"
        "TensorRT-LLM/blob/abc/examples/medusa/convert_checkpoint.py) and built the engine:",
        "[06/20/2024-10:00:00] [TRT-LLM] [I] Set gpt_attention_plugin to auto.",
        *CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MedusaDecodingLayer")


def test_engine_only_decoding_types_name_their_layer(tmp_path: Path) -> None:
    """``decoding_type: Medusa`` / ``Lookahead`` in the LLM-API YAML: engine-only configs."""
    for value, layer in (("Medusa", "MedusaDecodingLayer"), ("Lookahead", "LookaheadDecodingLayer")):
        lines = ["speculative_config:", f"  decoding_type: {value}", "  max_draft_len: 4", *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", layer)
