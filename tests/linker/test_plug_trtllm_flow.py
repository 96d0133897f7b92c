"""TensorRT-LLM's engine flow told in words (session 15, PLUG): the decoding layer a mode runs.

Before the PyTorch backend (0.17) or where the text shows the engine flow (``trtllm-build``, a
draft and a target executor), a family named for the writer's run is the engine's decoding
layer for its mode: Medusa -> MedusaDecodingLayer, draft-target and prompt lookup ->
ExternalDraftTokensLayer (both build with ``draft_tokens_external``).
Our own lines, in the shapes of TensorRT-LLM's issue threads.
"""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "serve.py", line 1, in <module>',
    "RuntimeError: request failed",
]


def _trt(title: str, day: str, body: list[str], repo: str = "NVIDIA/TensorRT-LLM") -> list[str]:
    return [f"{repo} · issue #9001 · open · Python", "labels: bug", f"# {title}", "",
            f"someone · description · {day}", *body, "", *_PROBE]  # fmt: skip


def test_medusa_heads_checkpoint_before_pytorch_is_the_medusa_layer(tmp_path: Path) -> None:
    """A Medusa heads checkpoint named alone, in 2024 (engine flow only): MedusaDecodingLayer."""
    lines = _trt("output changed after upgrading from 0.10.0 to 0.11.0", "2024-08-20", [
        "I build vicuna-13b-v1.3 with medusa-vicuna-13b-v1.3 heads on 4 A100s.",
        "After the upgrade the first tokens differ and decoding is slower.",
    ])
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MedusaDecodingLayer")


def test_draft_and_target_executors_are_external_draft_tokens(tmp_path: Path) -> None:
    """A draft and a target executor orchestrated by the writer (the engine flow), in the
    PyTorch era: the draft-target mode's ExternalDraftTokensLayer."""
    lines = _trt("Hang with draft-target speculative decoding under load", "2025-06-03", [
        "We run a draft executor (Llama 3.2 1B) and a target executor (Llama 3.1 70B, TP 4).",
        "With 3 concurrent clients both GPUs stay at 100% and nothing returns.",
    ])
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "ExternalDraftTokensLayer")


def test_ngram_before_pytorch_is_prompt_lookup_external_tokens(tmp_path: Path) -> None:
    """n-gram (prompt lookup) on a 2024 release runs the engine's draft_tokens_external mode."""
    lines = _trt("wrong output with n-gram speculative decoding on 0.13", "2024-10-15", [
        "Using n-gram speculative decoding with max_draft_len 8 the summaries repeat themselves.",
    ])
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "ExternalDraftTokensLayer")


def test_eagle_status_question_before_pytorch_gets_no_engine_layer(tmp_path: Path) -> None:
    """Never wrong: EAGLE named on TensorRT-LLM's tracker in 2024, asking when the engine will
    run it: a day before 0.17 does not show the engine's EAGLE ran."""
    lines = _trt("When will EAGLE decoding run in the C++ runtime?", "2024-10-20", [
        "I see EAGLE commits in the latest version but no runtime code for it yet.",
    ])
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "EagleDecodingLayer", path
    assert "EagleDecodingLayer" not in (path.conditional or ""), path


def test_draft_target_in_pytorch_era_without_engine_flow_is_no_layer(tmp_path: Path) -> None:
    """Never wrong: "draft/target" in 2025 with no engine-flow sign may be the PyTorch
    backend's draft-target (ModelDrafter): no engine layer is decided."""
    lines = _trt("draft/target model OOM on H100", "2025-09-10", [
        "Running draft/target with Qwen3-32B and Qwen3-0.6B the server runs out of memory.",
    ])
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "ExternalDraftTokensLayer", path
    assert "ExternalDraftTokensLayer" not in (path.conditional or ""), path


def test_eagle3_with_executors_gets_no_engine_layer(tmp_path: Path) -> None:
    """Never wrong: EAGLE-3 never ran on the engine flow, so executors named beside it give
    no engine layer."""
    lines = _trt("Eagle3 hang with two executors", "2025-07-01", [
        "We use two executors and an Eagle3 draft for Llama 3.3 70B; requests hang.",
    ])
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class not in ("EagleDecodingLayer", "ExternalDraftTokensLayer"), path


def test_draft_target_words_in_a_vllm_thread_name_no_trtllm_layer(tmp_path: Path) -> None:
    """Never wrong: "draft/target" on vLLM's tracker is vLLM's draft model, not a TRT layer."""
    lines = _trt("[Bug]: draft/target speculative decoding crash", "2025-08-01", [
        "vllm serve Qwen/Qwen3-32B with a draft/target setup crashes after warmup.",
    ], repo="vllm-project/vllm")
    path = crash_path(run(tmp_path, lines))
    assert not (path.worker_class or "").endswith("Layer"), path


def test_feature_request_for_draft_target_executors_is_no_run(tmp_path: Path) -> None:
    """Never wrong: a request asking for draft/target with two executors names a wish."""
    lines = [
        "NVIDIA/TensorRT-LLM · issue #9101 · open · Python", "labels: feature request",
        "# [Feature]: support draft/target model speculative decoding in the LLM API", "",
        "someone · description · 2024-09-10",
        "Would it be possible to run draft/target with two executors from the LLM API? "
        "Today only the C++ example does it.", "", *_PROBE,
    ]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


def test_plain_engine_with_draft_target_named_as_another_run_is_no_layer(tmp_path: Path) -> None:
    """Never wrong: a plain engine build; draft/target named only for an earlier run that worked."""
    lines = _trt("Llama 3 8B gives garbage on 0.12 after upgrade", "2024-09-12", [
        "Plain build without Medusa, no speculative decoding: "
        "trtllm-build --checkpoint_dir ./ckpt --output_dir ./engine",
        "The draft/target comparison from last month worked fine on 0.11.",
    ])
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path
