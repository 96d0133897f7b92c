"""TensorRT-LLM's speculative settings (the extra_llm_api_options YAML pasted beside a log,
run.py's draft_len line) and its iteration log as load (lines written by us in those shapes)."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.load import LOAD_LITERALS, parse_load_line
from spectrace.assemblers.trtllm_config import trtllm_release, trtllm_spec_flags
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
     (("TensorRT-LLM version: 1.2.0", "  eagle3_one_model: false"), "ModelDrafter")],
)  # fmt: skip
def test_eagle3_one_model_picks_the_pytorch_worker(extra, worker) -> None:
    path = global_worker_path(collect(*_eagle_yaml(*extra)))
    assert (path.value, path.worker_class, path.family) == ("other", worker, "EAGLE3")


def test_a_two_model_request_with_no_release_is_a_condition_over_both() -> None:
    # from 1.3.0rc25 the config validators set eagle3_one_model false back to one-model
    path = global_worker_path(collect(*_eagle_yaml("  eagle3_one_model: false")))
    assert path.value == "unknown" and path.worker_class is None
    assert path.conditional is not None
    assert "ModelDrafter" in path.conditional and "Eagle3OneModelWorker" in path.conditional


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
    assert (path.value, path.worker_class, path.family) == ("other", "EagleDecodingLayer", "EAGLE")


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
    assert path.worker_class == "EagleDecodingLayer"  # the TRT engine's own EAGLE, no _torch worker


# ---- the release named in the text settles the defaults the paste leaves out (round 10 #19) --


@pytest.mark.parametrize(
    ("line", "release"),
    [("TensorRT-LLM version: 1.2.0rc6", "1.2.0rc6"),
     ("[TensorRT-LLM] TensorRT-LLM version: 0.17.0", "0.17.0"),
     ("pip install tensorrt_llm==1.0.0", "1.0.0"),
     ("wheel: https://host/wheels/tensorrt_llm-1.2.0rc8-cp312-cp312-linux_x86_64.whl", "1.2.0rc8"),
     ("image nvcr.io/nvidia/tensorrt-llm/release:1.1.0rc2", "1.1.0rc2"),
     ("we run TRT-LLM 1.0 on H100", "1.0"),
     ("the TensorRT version: 10.9 and tensorrtllm_backend 0.17", None),
     ("see github.com/NVIDIA/TensorRT-LLM/issues/4242 and tensorrt_llm/_torch/x.py", None)],
)  # fmt: skip
def test_the_trtllm_release_is_read_where_people_write_it(line, release) -> None:
    assert trtllm_release(line) == release


def test_a_release_in_the_text_decides_the_default_one_model_eagle3() -> None:
    lines = ["System: TRTLLM version: 1.2.0rc8",
             "trtllm-serve /m/base --extra_llm_api_options spec.yml", *_eagle_yaml()]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.family) == ("other", "Eagle3OneModelWorker", "EAGLE3")
    assert "defaults to True in TensorRT-LLM 1.2.0rc8" in path.evidence[0].reason
    assert path.conditional is None


def test_the_newer_eagle3_decoding_type_reads_as_eagle() -> None:
    lines = ["TensorRT-LLM version: 1.3.0", "speculative_config:", "  decoding_type: Eagle3",
             "  max_draft_len: 3", "  speculative_model_dir: /m/head"]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class) == ("other", "Eagle3OneModelWorker")
    asked = global_worker_path(collect(*lines, "  eagle3_one_model: false"))  # coerced from rc25
    assert (asked.value, asked.worker_class) == ("other", "Eagle3OneModelWorker")
    older = ["TensorRT-LLM version: 1.2.0", *lines[1:], "  eagle3_one_model: false"]
    two = global_worker_path(collect(*older))
    assert (two.value, two.worker_class) == ("other", "ModelDrafter")


def test_before_1_0_without_a_backend_the_engine_flow_is_named_first() -> None:
    lines = ["[TensorRT-LLM] TensorRT-LLM version: 0.19.0",
             "trtllm-serve /m/base --extra_llm_api_options spec.yml", *_eagle_yaml()]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert path.value == "unknown" and path.worker_class is None
    assert path.conditional is not None
    assert path.conditional.startswith("the TensorRT engine's EAGLE (TensorRT-LLM 0.19.0")
    assert "--backend pytorch Eagle3OneModelWorker" in path.conditional


def test_a_release_line_alone_still_asks_for_the_launch() -> None:
    path = global_worker_path(collect("TensorRT-LLM version: 1.2.0"))
    assert path.value == "unknown" and path.missing and "launch" in path.missing[0]


# ---- decoding_type AUTO runs the NGram drafter (round 11 study #20) -------------------------


def test_auto_decoding_names_the_ngram_drafter_it_picks() -> None:
    lines = ["trtllm-serve org/m --backend pytorch --extra_llm_api_options low.yaml",
             "speculative_config:", "  decoding_type: AUTO"]  # fmt: skip
    path = global_worker_path(collect(*lines))
    # NGram runs NGramDrafter, or the in-forward NGramWorker of newer releases: a condition
    assert (path.value, path.worker_class, path.family) == ("unknown", None, "NGRAM")
    assert "NGramDrafter" in path.conditional and "NGramWorker" in path.conditional
    assert "off above 32 requests in flight" in path.evidence[0].reason
    ngram = global_worker_path(collect("speculative_config:", "  decoding_type: NGram",
                                       "  max_draft_len: 4"))  # fmt: skip
    assert (ngram.conditional, ngram.family) == (path.conditional, "NGRAM")


@pytest.mark.parametrize("spelling", ["DraftTarget", "Draft_Target"])
def test_draft_target_is_one_or_two_model_by_release(spelling) -> None:
    lines = ["speculative_config:", f"  decoding_type: {spelling}", "  max_draft_len: 4",
             "  speculative_model: /m/draft-1b"]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.family) == ("unknown", None, "DRAFT_TARGET")
    assert path.conditional is not None and path.conditional.startswith("DraftTargetOneModelWorker")
    assert "ModelDrafter (two-model" in path.conditional
    assert "TensorRT-LLM version" in path.missing[0]


@pytest.mark.parametrize(
    ("line", "worker", "family"),
    [("[01/20/2026-10:00:00] [TRT-LLM] [W] Eagle3 2-model is deprecated and will be removed in "
      "release 1.4.", "ModelDrafter", "EAGLE3"),
     ("[TRT-LLM] [W] 2-model style MTP is deprecated and will be removed in release 1.4.",
      "ModelDrafter", "MTP")],
)  # fmt: skip
def test_the_two_model_deprecation_warning_names_the_two_model_drafter(line, worker, family) -> None:
    path = global_worker_path(collect(line))
    assert (path.value, path.worker_class, path.family) == ("other", worker, family)


# ---- the engine flow's run.py options and Triton's draft model name the mode (round 15/16) --


@pytest.mark.parametrize(
    ("line", "method"),
    [("python3 ../run.py --engine_dir /e --medusa_choices='[[0], [0, 0], [1]]' --max_output_len 9",
      "medusa"),
     ("mpirun -n 2 python run.py --engine_dir /e --lookahead_config=[7,7,7]", "lookahead_decoding"),
     ("python run.py --engine_dir /t --draft_engine_dir /d --kv_cache_enable_block_reuse",
      "draft_tokens_external"),
     ("python3 run.py --engine_dir /t --draft_target_model_config=\"[4,[0],[1],False]\"",
      "draft_tokens_external")],
)  # fmt: skip
def test_run_py_options_name_the_engines_mode(line: str, method: str) -> None:
    config = collect(line)
    flags = {name: flag.value for name, flag in config.flags.items()}
    assert config.engine == "trtllm"
    assert (flags["speculative_config.method"], flags["backend"]) == (method, "tensorrt")


@pytest.mark.parametrize(
    ("line", "draft"),
    [('python3 tools/fill_template.py -i repo/tensorrt_llm_bls/config.pbtxt '
      'tensorrt_llm_model_name:tensorrt_llm,tensorrt_llm_draft_model_name:my_draft', True),
     ('TENSORRT_LLM_DRAFT_MODEL_NAME="small_engine"', True),
     ("scripts/launch_triton_server.py --tensorrt_llm_model_name tgt,tgt_draft --multi-model", True),
     ('tensorrt_llm_model_name:tensorrt_llm,tensorrt_llm_draft_model_name:,logits:TYPE_FP32', False),
     ('TENSORRT_LLM_DRAFT_MODEL_NAME=""', False),
     ("scripts/launch_triton_server.py --tensorrt_llm_model_name tensorrt_llm", False)],
)  # fmt: skip
def test_a_draft_model_triton_serves_beside_the_target_is_draft_target(line, draft) -> None:
    flags = trtllm_spec_flags(line)
    assert (flags.get("speculative_config.method") == "draft_tokens_external") is draft


def test_a_post_day_before_the_pytorch_backend_settles_eagles_backend() -> None:
    """A ``decoding_type: Eagle`` YAML in a post from before TensorRT-LLM 0.17 (no PyTorch
    backend yet): the TensorRT engine's EAGLE, no one-model/two-model condition; from a day
    when 0.17-0.x could have run, the engine default stays the first half of the condition."""
    yaml = ("speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 4")
    old = global_worker_path(collect("bob · description · 2024-10-02", *yaml))
    assert old.conditional is None and old.worker_class == "EagleDecodingLayer"
    assert old.family == "EAGLE"
    later = global_worker_path(collect("bob · description · 2025-03-20", *yaml))
    assert later.conditional is not None and "TensorRT engine's EAGLE" in later.conditional
