"""TensorRT-LLM's engine-flow Draft-Target-Model run (examples/run.py with a draft engine): its
own start-up lines name the mode, the target engine takes the draft tokens from outside."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path


def test_run_py_draft_target_lines_name_the_external_draft_tokens_path() -> None:
    lines = ["[TensorRT-LLM] TensorRT-LLM version: 0.16.0",
             "[01/05/2025-10:00:00] [TRT-LLM] [I] draft_len: 3",
             "[01/05/2025-10:00:00] [TRT-LLM] [I] Device(s) for draft model: [1]",
             "[01/05/2025-10:00:00] [TRT-LLM] [I] Device(s) for target model: [0]"]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.framework) == (
        "other", "ExternalDraftTokensLayer", "trtllm")
    assert path.family == "DRAFT_TARGET"
    alone = global_worker_path(collect(lines[0], lines[1]))  # a draft length alone: no mode
    assert alone.worker_class is None


def test_a_sentence_naming_ngram_on_a_release_whose_default_backend_is_pytorch() -> None:
    said = "Turning on NGram speculative decoding together with two LoRA adapters breaks it."
    path = global_worker_path(collect("- TensorRT-LLM 1.2.0 on two L40S", said))
    assert (path.value, path.family) == ("unknown", "NGRAM")
    assert "NGramDrafter" in path.conditional and "NGramWorker" in path.conditional
    assert path.evidence[0].reason.startswith("named in the text")
    # before 1.0 the default backend ran the engine's own NGram workflow; no release: unknown
    assert global_worker_path(collect("- TensorRT-LLM 0.19.0", said)).worker_class is None
    assert global_worker_path(collect(said)).worker_class is None
    # a config line states the method: the sentence adds nothing against it
    yaml = collect("- TensorRT-LLM 1.2.0", said, "  decoding_type: MTP", "  use_mtp_vanilla: true")
    assert global_worker_path(yaml).worker_class == "MTPWorker"
