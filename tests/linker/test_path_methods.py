"""A configured method maps through the engine's [[method]] rows (rules/paths/*.toml): the
family and worker class come from the table, not from the spelling of the value."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import run

from spectrace.path_frames import method_signature

TRT_CRASH = [
    "[12/03/2026-10:00:00] [TRT-LLM] [E] Error in the executor loop",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py", '
    "line 310, in _run",
    "    self.engine.step()",
    "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: out of blocks",
]


def test_a_trtllm_mode_names_its_family_and_class(tmp_path: Path) -> None:
    lines = ["trtllm-build --checkpoint_dir /ck --output_dir /eng "
             "--speculative_decoding_mode lookahead_decoding --max_batch_size 8", *TRT_CRASH]  # fmt: skip
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.family) == ("other", "LookaheadDecodingLayer",
                                                            "LOOKAHEAD")  # fmt: skip


def test_one_spelling_with_two_classes_names_no_class() -> None:
    # TRT-LLM's engine mode EAGLE is EagleDecodingLayer, a YAML `decoding_type: Eagle` is one-
    # or two-model in the PyTorch backend: compared case-insensitively they are one key
    assert method_signature("trtllm", "Eagle") == ("EAGLE", "")
    assert method_signature("trtllm", "eagle3_one_model") == ("EAGLE3", "Eagle3OneModelWorker")
    assert method_signature("trtllm", "no_such_mode") is None


def test_vllm_frames_with_no_config_ask_for_vllm_lines(tmp_path: Path) -> None:
    lines = [
        "ERROR 12-03 10:00:00 [core.py:700] EngineCore failed to start.",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/dist-packages/vllm/v1/worker/gpu_model_runner.py", '
        "line 2400, in load_model",
        "    self.drafter.load_model(self.model)",
        '  File "/usr/lib/python3/dist-packages/vllm/v1/spec_decode/llm_base_proposer.py", '
        "line 120, in load_model",
        "    self.model = get_model(vllm_config=self.vllm_config)",
        "ValueError: draft model has no lm_head",
    ]
    crash = next(i for i in run(tmp_path, lines).incidents if i.exception_type == "ValueError")
    path = crash.worker_path
    assert path is not None and path.value == "unknown"
    assert path.framework == "vllm"
    assert any("--speculative-config" in need for need in path.missing)
    assert not any("server_args=ServerArgs" in need for need in path.missing)


def test_a_v0_spelling_with_no_release_is_conditional_on_the_engine(tmp_path: Path) -> None:
    lines = ["python -m vllm.entrypoints.openai.api_server --model /models/m "
             '--speculative-model "[ngram]" --num-speculative-tokens 5 --ngram-prompt-lookup-max 4',
             "Traceback (most recent call last):",
             '  File "/srv/app.py", line 3, in <module>',
             "RuntimeError: our own probe crash"]  # fmt: skip
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None and path.value == "unknown" and path.worker_class is None
    assert path.conditional == "NgramProposer if vLLM runs its V1 engine, else NGramWorker (V0)"
    assert path.missing[0].startswith("the vLLM version or engine line")
