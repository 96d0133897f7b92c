"""TensorRT-LLM's speculative settings (the extra_llm_api_options YAML pasted beside a log,
run.py's draft_len line) and its iteration log as load (lines written by us in those shapes)."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.assemblers.load import LOAD_LITERALS, parse_load_line
from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.dialects.detect import LineParser


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
    assert trtllm_spec_flags("TRTGptModel maxDraftLen: 0") == {}


def test_trtllm_iteration_log_is_a_load_sample() -> None:
    text = (
        "[01/16/2026-06:20:17] [TRT-LLM] [RANK 1] [I] iter = 5559, host_step_time = 50.5ms, "
        "num_scheduled_requests: 3, states = {'num_ctx_requests': 2, 'num_ctx_tokens': 16384, "
        "'num_generation_tokens': 0}"
    )
    assert any(lit.decode() in text for lit in LOAD_LITERALS)
    sample = parse_load_line(LineParser("t.log").parse(text.encode(), 1, 0))
    assert sample is not None and (sample.running_req, sample.rank) == (3, "rank1")
