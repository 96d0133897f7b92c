"""TensorRT-LLM's speculative settings (the extra_llm_api_options YAML pasted beside a log,
run.py's draft_len line) and its iteration log as load (lines written by us in those shapes)."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.load import LOAD_LITERALS, parse_load_line
from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.dialects.detect import LineParser
from spectrace.linker import global_worker_path


def test_pasted_yaml_and_command_give_engine_and_spec_flags() -> None:
    config = collect(
        "trtllm-serve serve /m --backend pytorch --tp_size 8 --extra_llm_api_options x.yaml",
        "speculative_config:",
        "  decoding_type: MTP",
        "  max_draft_len: 3  # draft tokens per step",
        "  speculative_model_dir: '/models/eagle3-draft'",
    )
    flags = {name: flag.value for name, flag in config.flags.items()}
    assert config.engine == "trtllm"
    assert flags == {
        "tp_size": 8,
        "backend": "pytorch",  # PyTorch workers, not the TensorRT engine's decoding layers
        "speculative_config.method": "mtp",
        "speculative_config.num_spec_tokens": 3,
        "speculative_config.model": "/models/eagle3-draft",
    }


def test_run_py_draft_len_line_and_lookalikes() -> None:
    config = collect("[02/19/2025-11:44:14] [TRT-LLM] [I] draft_len: 3")
    assert config.flags["speculative_config.num_spec_tokens"].value == 3
    assert trtllm_spec_flags("max_draft_len: 3 tokens and more text") == {}
    assert trtllm_spec_flags("the decoding_type: is unknown here") == {}


def test_cpp_runtime_max_draft_len_and_its_zero() -> None:
    config = collect("[TensorRT-LLM][INFO] TRTGptModel maxDraftLen: 4")
    assert (config.engine, config.flags["speculative_config.num_spec_tokens"].value) == (
        "trtllm",
        4,
    )
    assert trtllm_spec_flags("TRTGptModel maxDraftLen: 0") == {"speculative_config.method": None}


def test_trtllm_iteration_log_is_a_load_sample() -> None:
    text = (
        "[01/16/2026-06:20:17] [TRT-LLM] [RANK 1] [I] iter = 5559, host_step_time = 50.5ms, "
        "num_scheduled_requests: 3, states = {'num_ctx_requests': 2, 'num_ctx_tokens': 16384, "
        "'num_generation_tokens': 0}"
    )
    assert any(lit.decode() in text for lit in LOAD_LITERALS)
    sample = parse_load_line(LineParser("t.log").parse(text.encode(), 1, 0))
    assert sample is not None and (sample.running_req, sample.rank) == (3, "rank1")


# ---- one-model vs two-model EAGLE-3 (round 7 #33, round 8 #07 #32) ------------------------


def _eagle_yaml(*extra: str) -> list[str]:
    return ["speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 3",
            "  speculative_model_dir: /m/eagle3-head", *extra]  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "worker"),
    [(("  eagle3_one_model: true",), "Eagle3OneModelWorker"),
     (("  eagle3_one_model: false",), "ModelDrafter")],
)  # fmt: skip
def test_eagle3_one_model_picks_the_pytorch_worker(extra, worker) -> None:
    path = global_worker_path(collect(*_eagle_yaml(*extra)))
    assert (path.value, path.worker_class, path.family) == ("other", worker, "EAGLE3")


def test_without_eagle3_one_model_the_default_is_stated_as_a_condition() -> None:
    path = global_worker_path(collect(*_eagle_yaml()))
    assert path.value == "unknown" and path.worker_class is None
    assert path.conditional is not None and path.conditional.startswith("Eagle3OneModelWorker")
    assert "ModelDrafter" in path.conditional
    assert "eagle3_one_model" in path.missing[0] and "sglang" not in " ".join(path.missing)


def test_the_tensorrt_engine_backend_names_no_pytorch_worker() -> None:
    lines = ["trtllm-serve /m/base --backend trt --extra_llm_api_options spec.yml",
             *_eagle_yaml("  eagle3_one_model: false")]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert path.value == "other" and path.worker_class is None and path.family == "EAGLE"


def test_the_engines_own_max_draft_len_zero_says_speculation_is_off() -> None:
    path = global_worker_path(collect("[TensorRT-LLM][INFO] TRTGptModel maxDraftLen: 0"))
    assert (path.value, path.worker_class, path.missing) == ("none", None, ())
    assert global_worker_path(collect("[TRT-LLM] [I] draft_len: 0")).value == "unknown"


def test_the_engine_flows_eagle_example_script_names_the_engines_eagle() -> None:
    config = collect(
        "python3 /app/tensorrt_llm/examples/eagle/convert_checkpoint.py --model_dir /m \\",
        "    --output_dir /ckpt --max_draft_len 63 --num_eagle_layers 4",
    )
    path = global_worker_path(config)
    assert (path.value, path.framework, path.family) == ("other", "trtllm", "EAGLE")
    assert path.worker_class is None  # the TRT engine's own EAGLE, no PyTorch worker
