"""Old vLLM start-up lines (<= 0.8 ``args: Namespace(...)``) and single exception lines
classed like tracebacks, as public threads show them (lines written by us)."""

from __future__ import annotations

from asm_helpers import collect

from spectrace.assemblers.config import CONFIG_LITERALS, ConfigCollector
from spectrace.dialects.detect import LineParser

NS = "INFO 03-22 13:13:27 [api_server.py:978] args: Namespace(subparser='serve', model_tag='/m', "


def flags(*texts: str) -> dict[str, object]:
    parser, collector = LineParser("run.log"), ConfigCollector()
    for n, text in enumerate(texts, 1):
        assert any(lit.decode() in text for lit in CONFIG_LITERALS)
        collector.feed(parser.parse(text.encode(), n, 0))
    return {name: flag.value for name, flag in collector.result().flags.items()}


def test_v0_ngram_args_namespace() -> None:
    got = flags(
        NS + "tensor_parallel_size=4, speculative_config=None, speculative_model='[ngram]', "
        "num_speculative_tokens=5, ngram_prompt_lookup_max=4)"
    )
    assert got == {
        "speculative_config.model": "[ngram]",
        "speculative_config.method": "ngram",
        "speculative_config.num_spec_tokens": 5,
        "tp_size": 4,
    }


def test_namespace_with_the_json_speculative_config() -> None:
    got = flags(
        NS + 'tensor_parallel_size=2, speculative_config=\'{"method": "eagle3", '
        '"model": "d", "num_speculative_tokens": 3}\', speculative_model=None)'
    )
    assert got["speculative_config.method"] == "eagle3"
    assert got["speculative_config.num_spec_tokens"] == 3


def test_namespace_with_speculation_unset_says_off_and_a_cut_one_says_nothing() -> None:
    off = flags(NS + "speculative_config=None, speculative_model=None, tensor_parallel_size=1)")
    assert off == {"speculative_config.method": None, "tp_size": 1}
    assert flags(NS + "tensor_parallel_size=8, speculative_con") == {"tp_size": 8}


def test_a_lone_exception_line_is_classed_like_its_traceback() -> None:
    (crash,) = collect([
        "self.hidden_states[:num_tokens] = target_hidden_states",
        "RuntimeError: The expanded size of the tensor (1024) must match the existing size (4096) at non-singleton dimension 1.",
    ])  # fmt: skip
    assert (crash.exception_type, crash.crash_class) == ("RuntimeError", "shape_mismatch")


def test_flash_attention_cuda_error_form() -> None:
    (crash,) = collect(
        ["CUDA error (/src/hopper/flash_fwd_launch_template.h:166): no kernel image is available"]
    )
    assert (crash.crash_class, crash.message) == ("cuda_error", "no kernel image is available")


def test_a_launch_command_split_over_lines_gives_every_flag() -> None:
    got = flags(
        "python -u -m vllm.entrypoints.openai.api_server \\",
        '    --speculative_model "[ngram]" \\',
        "    --num_speculative_tokens 5 \\",
        "    --tensor-parallel-size 2 \\",
    )
    assert got == {
        "speculative_config.model": "[ngram]",
        "speculative_config.method": "ngram",
        "speculative_config.num_spec_tokens": 5,
        "tp_size": 2,
        "vllm_launch_cut": True,  # its last line still continues: more flags may follow
    }


def test_split_sglang_and_trtllm_commands() -> None:
    sg = flags(
        "python3 -m sglang.launch_server --model-path /m \\",
        "  --tp 8 --speculative-algorithm EAGLE3 --speculative-eagle-topk 4 \\",
        "  --disable-overlap-schedule",
    )
    assert (sg["tp_size"], sg["speculative_eagle_topk"], sg["disable_overlap_schedule"]) == (
        8,
        4,
        True,
    )
    trt = flags("trtllm-serve serve /m --backend pytorch \\", "  --tp_size 8 --ep_size 1")
    assert (trt["tp_size"], trt["ep_size"]) == (8, 1)


def test_flag_lines_without_an_open_command_are_not_read() -> None:
    assert flags("vllm serve /m --tensor-parallel-size 2", "  --tp 8") == {"tp_size": 2}


def test_v0_engine_config_names_the_draft_model() -> None:
    got = flags(
        "INFO 01-22 09:01:39 llm_engine.py:249] Initializing an LLM engine (v0.6.5) with config: "
        "model='m', speculative_config=SpeculativeConfig(draft_model='d-0.5B', num_spec_tokens=5), "
        "tokenizer='m', tensor_parallel_size=1"
    )
    assert got == {
        "speculative_config.model": "d-0.5B",
        "speculative_config.method": "draft_model",  # what vLLM 0.6.5 runs a plain draft as
        "speculative_config.num_spec_tokens": 5,
        "tp_size": 1,
    }


def test_a_wrappers_component_prefixed_engine_flags_are_vllms_args() -> None:
    """Dynamo's ``dynamo serve`` hands ``--<Component>.<arg>`` to that component's vLLM engine:
    the draft model and token count are read as vLLM's; SGLang's draft flag spelled the same
    way is not vLLM's."""
    got = flags("dynamo serve graphs.disagg:Frontend -f cfg.yaml --VllmWorker.speculative-model="
                "'/ckpt/tiny-draft' --VllmWorker.num-speculative-tokens=4")  # fmt: skip
    assert got == {"speculative_config.model": "/ckpt/tiny-draft",
                   "speculative_config.num_spec_tokens": 4,
                   "speculative_config.method": "draft_model"}  # fmt: skip  (vLLM infers it)
    got = flags("""dynamo serve g:F --Worker.speculative-config '{"method": "eagle3", "model": "d"}'""")
    assert got["speculative_config.method"] == "eagle3"
    got = flags("dynamo serve g:F --SGLangWorker.speculative-draft-model-path=/d --speculative-x")
    assert "speculative_config.model" not in got
