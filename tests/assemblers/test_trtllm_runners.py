"""A TensorRT-LLM run shown only by the program that wrapped it (NVIDIA Dynamo's TensorRT-LLM
worker, its runtime image, a ``dynamo serve`` graph's TensorRT-LLM components, Triton's backend)
or by its engine YAML's keys: the family the text names is read as TensorRT-LLM's (round 30's
Dynamo threads came back unknown). Texts naming several engines' programs place none."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.trtllm_runners import RunnerReader
from spectrace.dialects.base import LogLine

# a crash inside Dynamo's own handler: no TensorRT-LLM frame, no engine from the frames
DYNAMO_CRASH = ["Traceback (most recent call last):",
                '  File "/opt/dynamo/venv/lib/python3.12/site-packages/dynamo/trtllm/'
                'request_handlers/handler_base.py", line 412, in generate',
                "    async for res in self.engine.llm.generate_async(**kwargs):",
                "RuntimeError: Executor worker returned error"]  # fmt: skip
MTP = "MTPEagleWorker|MTPWorker"


def _line(text: str, lineno: int = 1) -> LogLine:
    return LogLine("t.log", lineno, 0, text, text, "plain", "")


def test_the_dynamo_worker_command_places_a_title_family_on_trtllm(tmp_path: Path) -> None:
    lines = ["ai-dynamo/dynamo · issue #8123 · open · Rust",
             "# [BUG]: decode worker dies under load when MTP is on (DeepSeek-V3)",
             "someone · description · 2025-11-03",
             "trtllm-llmapi-launch python3 -m dynamo.trtllm --model-path /models/dsv3 \\",
             "  --served-model-name dsv3 --disaggregation-mode decode \\",
             "  --extra-engine-args /configs/decode.yaml", *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "trtllm"
    assert_verdict(path, "unknown", MTP)


def test_a_recipe_naming_the_tensorrtllm_runtime_image_and_mtp_rows(tmp_path: Path) -> None:
    """A benchmark recipe: the image is the run's engine, its scenario table names MTP."""
    lines = ["some-lab/serving-recipes · pull request #310 · merged · Python",
             "# GB300 DeepSeek-V3.2 disaggregated configs",
             "someone · description · 2026-05-12",
             "- image: `nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.9.0`",
             "| ISL/OSL | Mode | Workers |", "|---|---|---|",
             "| 8k1k | MTP (3 draft tokens) | 2P1D |", *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "trtllm"
    assert_verdict(path, "unknown", MTP)


def test_an_old_dynamo_graph_with_trtllm_workers_and_an_eagle_title(tmp_path: Path) -> None:
    """Dynamo 0.3's ``dynamo serve`` graph: its TensorRTLLMWorker component runs the LLM API,
    so an Eagle title is TensorRT-LLM's Eagle condition, not vLLM's or SGLang's EAGLE."""
    lines = ["# Llama 4 Maverick with Eagle hangs after a few requests",
             "cd /workspace/examples/tensorrt_llm",
             "dynamo serve graphs.agg:Frontend -f ./configs/llama4/eagle/eagle_agg.yaml",
             "TensorRTLLMWorker:",
             '  engine_args: "./configs/llama4/eagle/engine_configs/agg_config.yaml"',
             *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "trtllm"
    assert path.conditional is not None and "Eagle3OneModelWorker" in path.conditional


def test_an_engine_yaml_alone_places_the_run_on_trtllm(tmp_path: Path) -> None:
    """A ConfigMap's engine YAML (keys only TensorRT-LLM's LLM API spells) under an MTP title."""
    lines = ["# [BUG]: prefill worker OOM with MTP after upgrade",
             "  decode-engine-config.yaml: |",
             "    tensor_parallel_size: 8",
             "    enable_attention_dp: true",
             "    cuda_graph_config:",
             "      max_batch_size: 64",
             "    kv_cache_config:",
             "      free_gpu_memory_fraction: 0.7", *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "trtllm"
    assert_verdict(path, "unknown", MTP)


def test_the_dynamo_worker_builds_the_pytorch_backend(tmp_path: Path) -> None:
    """``dynamo.trtllm`` passes backend="pytorch": an NGram title is the PyTorch backend's
    NGram condition, where a bare TensorRT-LLM run (engine flow or PyTorch) names nothing."""
    lines = ["# NGram speculation returns garbage after the first request",
             "python3 -m dynamo.trtllm --model-path Qwen/Qwen3-8B --extra-engine-args agg.yaml",
             *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "trtllm"
    assert_verdict(path, "unknown", "NGramDrafter|NGramWorker")


def test_a_yaml_backend_outranks_the_dynamo_default(tmp_path: Path) -> None:
    lines = ["# NGram speculation returns garbage",
             "python3 -m dynamo.trtllm --model-path Qwen/Qwen3-8B --extra-engine-args agg.yaml",
             "backend: tensorrt", *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and "NGramDrafter" not in (path.conditional or "")


# --- never wrong: texts that name several engines' programs, or keys in code ---


def test_a_readme_naming_every_dynamo_backend_places_none(tmp_path: Path) -> None:
    """Dynamo's docs list each backend's worker: the MTP the page names is no one engine's."""
    lines = ["# Serving DeepSeek-R1 with MTP on Dynamo",
             "python -m dynamo.vllm --model deepseek-ai/DeepSeek-R1 &",
             "python -m dynamo.trtllm --model-path deepseek-ai/DeepSeek-R1 &",
             *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework != "trtllm"
    assert path.worker_class is None and not (path.conditional or "").count("MTPEagleWorker")


def test_python_signatures_are_no_engine_yaml() -> None:
    """``kv_cache_config: KVCacheConfig,`` in a listed signature is Python, not YAML."""
    reader = RunnerReader()
    for i, text in enumerate(["    kv_cache_config: KVCacheConfig,",
                              "    moe_config: FusedMoEConfig | None = None,",
                              "    cuda_graph_config: CUDAGraphConfig,"], 1):  # fmt: skip
        reader.feed(_line(text, i))
    assert reader.trtllm() is None


@pytest.mark.parametrize(
    "other",
    ["image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.0",
     "python3 -m dynamo.sglang --model-path m --speculative-algorithm EAGLE"],
)
def test_another_engines_program_beside_trtllm_places_none(other: str) -> None:
    reader = RunnerReader()
    reader.feed(_line("image: nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.7.0", 1))
    reader.feed(_line(other, 2))
    assert reader.trtllm() is None


def test_one_engine_yaml_key_is_not_enough() -> None:
    reader = RunnerReader()
    reader.feed(_line("kv_cache_config:", 1))
    reader.feed(_line("  free_gpu_memory_fraction: 0.8", 2))
    assert reader.trtllm() is not None  # two TensorRT-LLM-only keys
    single = RunnerReader()
    single.feed(_line("enable_attention_dp: true", 1))
    assert single.trtllm() is None


@pytest.mark.parametrize(
    ("line", "backend"),
    [("trtllm-bench --model Qwen/Qwen3-8B throughput --dataset d.jsonl --backend pytorch "
      "--extra_llm_api_options spec.yaml", "pytorch"),
     ("trtllm-bench -m meta-llama/Llama-3.1-8B throughput --engine_dir /engines/llama --dataset d",
      "tensorrt"),
     ("$ trtllm-bench --model m latency --backend=_autodeploy", "_autodeploy")],
)  # fmt: skip
def test_trtllm_bench_states_its_backend_only_in_its_options(line: str, backend: str) -> None:
    """trtllm-bench's default backend changed across releases: only the option says which."""
    from spectrace.assemblers.trtllm_config import trtllm_spec_flags

    assert trtllm_spec_flags(line) == {"backend": backend}
    assert trtllm_spec_flags("trtllm-bench --model m throughput --dataset d.jsonl") == {}


def test_an_ngram_title_over_a_pytorch_trtllm_bench_is_the_pytorch_ngram_condition(
    tmp_path: Path,
) -> None:
    lines = ["# NGram drafting crashes after warmup",
             "trtllm-bench --model Qwen/Qwen3-8B throughput --dataset d.jsonl --backend pytorch "
             "--extra_llm_api_options ngram.yaml", *DYNAMO_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "NGramDrafter|NGramWorker")


def test_a_tensorrt_llm_image_named_beside_a_vllm_crash_leaves_the_crash_vllms(
    tmp_path: Path,
) -> None:
    """A comparison against TensorRT-LLM's image names no run of this crash: the crash's own
    vLLM frames place it, and the MTP of the title is vLLM's."""
    lines = ["# MTP on DeepSeek-R1 crashes after a few minutes",
             "We compared against nvcr.io/nvidia/tensorrt-llm/release:1.0.0 on the same node.",
             "Traceback (most recent call last):",
             '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 700, '
             "in run_engine_core",
             "    engine_core.run_busy_loop()",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "vllm" and "MTPEagleWorker" not in (path.conditional or "")


def test_named_engines_lists_every_engines_wrapper() -> None:
    from spectrace.assemblers.trtllm_runners import named_engines

    lines = [_line("| vLLM | nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0 |", 1),
             _line("| TRT-LLM | nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.6.0 |", 2),
             _line("plain prose", 3)]  # fmt: skip
    assert named_engines(lines) == {"vllm", "trtllm"}
    assert named_engines(lines[2:]) == frozenset()
