"""Run configuration from the lines SGLang and vLLM really print (LOG_FORMATS.md 1.3-1.5, 2.3).

Every line here is written by us in the engines' exact formats.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spectrace.assemblers.config import CONFIG_LITERALS, ConfigCollector
from spectrace.assemblers.pyrepr import SourceText, parse_call_kwargs, split_top_level
from spectrace.assemblers.run_config import RunConfig
from spectrace.dialects.base import LogLine

TS = "[2026-02-27 20:48:55] "

# A dump with awkward values: commas, brackets and quotes inside strings, lists, dicts as
# strings, an object repr and a function repr (LOG_FORMATS.md 1.3).
DUMP = (
    "server_args=ServerArgs(model_path='/models/moe, large [v2]', tokenizer_path=\"it's/here\", "
    "tokenizer_mode='auto', skip_tokenizer_init=False, dtype='auto', mem_fraction_static=0.82, "
    "max_running_requests=48, cuda_graph_max_bs=160, cuda_graph_bs=[1, 2, 4, 8, 10, 12, 16], "
    "json_model_override_args='{\"a\": [1, 2]}', "
    "lora_paths=[LoRARef(lora_id='0f3c', lora_name='a', lora_path='/l/a', pinned=False)], "
    "custom_sigquit_handler=<function handler at 0x7f3a2c1b5e40>, tp_size=8, "
    "speculative_algorithm='EAGLE3', speculative_draft_model_path='/models/eagle3, draft', "
    "speculative_num_steps=5, speculative_eagle_topk=4, speculative_num_draft_tokens=16, "
    "speculative_accept_threshold_single=1.0, enable_multi_layer_eagle=False, "
    "disable_overlap_schedule=True, log_level='info')"
)
WARN_057 = (
    "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative algorithm. "
    "You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental overlap scheduler. "
)


def line(text: str, lineno: int = 1, header: str = "", source: str = "run.log") -> LogLine:
    """A LogLine as a dialect hands it over: header peeled off ``text``, kept in ``raw``."""
    return LogLine(source, lineno, 0, text, header + text, "sglang", "", headed=bool(header))


def collect(*texts: str, header: str = "") -> RunConfig:
    """Feed the lines the pipeline would: those holding one of CONFIG_LITERALS."""
    collector = ConfigCollector()
    for i, text in enumerate(texts, start=1):
        if any(lit.decode() in text for lit in CONFIG_LITERALS):
            collector.feed(line(text, i, header))
    return collector.result()


def values(config: RunConfig) -> dict[str, object]:
    return {name: flag.value for name, flag in config.flags.items()}


def test_dump_fields_parsed_exactly_with_their_line() -> None:
    config = collect("Load weight begin. avail mem=78.84 GB", DUMP, header=TS)
    assert values(config) == {
        "cuda_graph_max_bs": 160,
        "cuda_graph_bs": [1, 2, 4, 8, 10, 12, 16],
        "tp_size": 8,
        "speculative_algorithm": "EAGLE3",
        "speculative_num_steps": 5,
        "speculative_eagle_topk": 4,
        "speculative_num_draft_tokens": 16,
        "enable_multi_layer_eagle": False,
        "disable_overlap_schedule": True,
    }
    flag = config.flags["disable_overlap_schedule"]
    assert (flag.source, flag.lineno, flag.origin) == ("run.log", 2, "server_args")
    args = config.server_args
    assert args["model_path"] == "/models/moe, large [v2]"
    assert args["tokenizer_path"] == "it's/here"
    assert args["json_model_override_args"] == '{"a": [1, 2]}'
    assert args["custom_sigquit_handler"] == SourceText("<function handler at 0x7f3a2c1b5e40>")
    assert args["lora_paths"] == SourceText(
        "[LoRARef(lora_id='0f3c', lora_name='a', lora_path='/l/a', pinned=False)]"
    )
    assert config.engine == "sglang"


def test_dump_evidence_names_v1_and_the_topk_reason() -> None:
    config = collect("sglang: 0.5.9", DUMP)
    first = config.path_evidence[0]
    assert (first.points_to, first.worker_class, first.lineno) == ("v1", "EAGLEWorker", 2)
    assert "disable_overlap_schedule=True" in first.text
    assert "speculative_eagle_topk=4 (v2 needs topk=1)" in first.reason


def test_truncated_dump_keeps_whole_fields_and_drops_the_cut_one() -> None:
    cut = DUMP[: DUMP.index("disable_overlap_schedule=True") + len("disable_overlap_schedule=Tr")]
    config = collect(cut)
    assert values(config)["speculative_num_draft_tokens"] == 16
    assert "disable_overlap_schedule" not in config.flags  # "Tr" is not trusted as True
    # the deciding field is gone: only the release would settle it (topk=4 keeps 0.5.11 on v1)
    (ev,) = config.path_evidence
    assert ev.points_to is None
    assert ev.condition == "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"


def test_truncated_inside_a_string_is_tolerated() -> None:
    config = collect("server_args=ServerArgs(model_path='/m', tp_size=2, served_model_name='ab, c")
    assert values(config) == {"tp_size": 2}


def test_split_top_level_respects_quotes_brackets_and_reprs() -> None:
    pieces, complete = split_top_level("a='x, y', b=[1, (2, 3)], c=<function f at 0x1>, d={'k': 1}")
    assert pieces == ["a='x, y'", "b=[1, (2, 3)]", "c=<function f at 0x1>", "d={'k': 1}"]
    assert complete
    assert split_top_level("a='unterminated, b=1")[1] is False


def test_call_kwargs_never_evaluates_code() -> None:
    parsed, complete = parse_call_kwargs("X(a=__import__('os').system('true'), b=1)")
    assert parsed == {"a": SourceText("__import__('os').system('true')"), "b": 1}
    assert complete


@pytest.mark.parametrize(
    ("text", "points_to", "env", "overlap_disabled", "era"),
    [
        (
            "Beta spec is enabled for eagle speculative decoding and overlap schedule is turned on.",
            "v2", None, False, "0.5.4-0.5.6",
        ),
        (
            "Overlap scheduler is disabled because of using eagle speculative decoding.",
            "v1", None, True, "0.4.x-0.5.3",
        ),
        (
            "Overlap scheduler is disabled because of using eagle3 and standalone speculative decoding.",
            "v1", None, True, "0.5.4",
        ),
        (
            "Overlap scheduler is disabled because of using eagle3 or standalone speculative decoding.",
            "v1", False, True, "0.5.5-0.5.6",
        ),
        (
            "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on.",
            "v2", True, False, "0.5.7-0.5.10",
        ),
        (WARN_057, "v1", False, True, "0.5.7-0.5.10"),
        (
            "Spec v1 is used for eagle/eagle3/standalone speculative decoding because spec v2 "
            "currently only supports topk = 1.",
            "v1", None, True, "0.5.11-0.5.12",
        ),
        (
            "Spec v1 is used for eagle/eagle3/standalone speculative decoding because "
            "SGLANG_ENABLE_SPEC_V2=False.",
            "v1", False, True, "0.5.11-0.5.12",
        ),
        (
            "Spec v1 is used for eagle/eagle3/standalone speculative decoding because overlap "
            "schedule is disabled.",
            "v1", None, True, "0.5.11-0.5.12",
        ),
        (
            "Spec v2 is enabled by default for eagle/eagle3/standalone speculative decoding.",
            "v2", True, False, "0.5.11-0.5.12",
        ),
        (
            "Non-overlap (synchronous) spec v2 is used for eagle/eagle3/standalone speculative decoding.",
            "v2", None, True, "0.5.13+",
        ),
        (
            "Overlap spec v2 is enabled by default for eagle/eagle3/standalone speculative decoding.",
            "v2", None, False, "0.5.13+",
        ),
        (
            "The overlap scheduler and mixed chunked prefill are disabled because of using ngram "
            "speculative decoding.",
            "other", None, True, "0.5.4+",
        ),
    ],
)  # fmt: skip
@pytest.mark.parametrize("header", ["", TS])
def test_each_warning_version(
    text: str, points_to: str, env: bool | None, overlap_disabled: bool, era: str, header: str
) -> None:
    config = collect(text, header=header)
    (evidence,) = config.path_evidence
    assert evidence.points_to == points_to
    assert evidence.text == header + text
    assert config.era == era
    assert config.flags["disable_overlap_schedule"].value is overlap_disabled
    assert config.flags["disable_overlap_schedule"].origin == "warning"
    got_env = config.flags.get("SGLANG_ENABLE_SPEC_V2")
    assert (got_env.value if got_env else None) is env


def test_v2_refusal_and_removed_env_notices() -> None:
    refused = collect(
        "ValueError: Spec v2 currently only supports topk = 1 for speculative decoding."
    )
    assert values(refused) == {"SGLANG_ENABLE_SPEC_V2": True}
    assert refused.path_evidence[0].points_to is None
    removed = collect(
        "SGLANG_ENABLE_SPEC_V2 has been removed: speculative decoding always runs the V2 worker. "
        "Use --disable-overlap-schedule to select the non-overlap (synchronous) path."
    )
    assert removed.path_evidence[0].points_to == "v2"
    assert "SGLANG_ENABLE_SPEC_V2" not in removed.flags


def test_dump_outranks_warning_and_warning_outranks_launch_env() -> None:
    config = collect(
        "SGLANG_ENABLE_SPEC_V2=true python -m sglang.launch_server --model-path /m --tp 8",
        WARN_057,
        DUMP.replace("disable_overlap_schedule=True", "disable_overlap_schedule=False"),
    )
    assert config.flags["disable_overlap_schedule"].value is False  # the dump's final value
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].value is False  # the warning proves the effect
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].origin == "warning"
    assert [e.points_to for e in config.path_evidence] == ["v2", None, "v1"]


def test_sglang_launch_command_flags_and_env() -> None:
    config = collect(
        "SGLANG_ENABLE_SPEC_V2=0 python3 -m sglang.launch_server --model-path /models/moe "
        "--speculative-algorithm EAGLE3 --speculative-draft-model-path /d --speculative-num-steps 5 "
        "--speculative-eagle-topk 4 --speculative-num-draft-tokens=16 --tp 8 "
        "--disable-overlap-schedule --speculative-disable-batch-threshold 8 --port 30000"
    )
    assert values(config) == {
        "speculative_algorithm": "EAGLE3",
        "speculative_draft_model_path": "/d",  # its checkpoint may rewrite the algorithm
        "speculative_num_steps": 5,
        "speculative_eagle_topk": 4,
        "speculative_num_draft_tokens": 16,
        "tp_size": 8,
        "disable_overlap_schedule": True,
        "speculative_disable_batch_threshold": 8,
        "SGLANG_ENABLE_SPEC_V2": False,
    }
    assert {f.origin for f in config.flags.values()} == {"launch_command"}


def test_exported_env_line() -> None:
    config = collect("+ export SGLANG_ENABLE_SPEC_V2=True")
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].value is True
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].origin == "env"


VLLM_CONFIG = (
    "Initializing a V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', "
    "speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', "
    "num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', skip_tokenizer_init=False, "
    "tokenizer_mode=auto, revision=None, dtype=torch.bfloat16, max_seq_len=8192, "
    "tensor_parallel_size=2, pipeline_parallel_size=1, enforce_eager=False, "
    "served_model_name=meta-llama/Llama-3.1-8B-Instruct, "
    'compilation_config={"level":3,"cudagraph_capture_sizes":[4,2,1],"use_inductor":true}'
)


def test_vllm_engine_config_line() -> None:
    config = collect(VLLM_CONFIG)
    assert values(config) == {
        "speculative_config.method": "eagle3",
        "speculative_config.num_spec_tokens": 3,
        "speculative_config.model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
        "tp_size": 2,
    }
    assert (config.engine, config.version) == ("vllm", "0.11.0")
    (evidence,) = config.path_evidence
    assert (evidence.points_to, evidence.worker_class) == ("other", "EagleProposer")


def test_vllm_data_parallel_size_reads_as_dp_size() -> None:
    engine = collect(
        VLLM_CONFIG.replace(
            "pipeline_parallel_size=1,", "pipeline_parallel_size=1, data_parallel_size=2,"
        )
    )
    args = collect(
        "non-default args: {'model': 'm', 'tensor_parallel_size': 2, 'data_parallel_size': 4}"
    )
    assert (engine.flags["dp_size"].value, args.flags["dp_size"].value) == (2, 4)


def test_vllm_without_speculation_and_ngram_args() -> None:
    off = collect(
        "Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-8B', "
        "speculative_config=None, tokenizer='Qwen/Qwen3-8B', dtype=torch.bfloat16"
    )
    assert off.flags["speculative_config.method"].value is None
    assert off.path_evidence[0].points_to == "none"  # the engine says speculation is off
    args = collect(
        "non-default args: {'model': 'Qwen/Qwen3-8B', 'tensor_parallel_size': 4, "
        "'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 5, "
        "'prompt_lookup_max': 4}}"
    )
    assert values(args) == {
        "speculative_config.method": "ngram",
        "speculative_config.num_spec_tokens": 5,
        "tp_size": 4,
    }
    assert args.path_evidence[0].worker_class == "NgramProposer"


def test_vllm_serve_with_speculative_config_json() -> None:
    config = collect(
        "vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --speculative-config "
        '\'{"method": "eagle", "model": "yuhuili/EAGLE-LLaMA3.1-Instruct-8B", '
        '"num_speculative_tokens": 4}\''
    )
    assert values(config) == {
        "tp_size": 2,
        "speculative_config.method": "eagle",
        "speculative_config.num_spec_tokens": 4,
        "speculative_config.model": "yuhuili/EAGLE-LLaMA3.1-Instruct-8B",
    }


def test_captured_graph_sizes_from_the_capture_line() -> None:
    config = collect("Capture cuda graph bs [1, 2, 4, 8, 10, 12, 14, 16]", header=TS)
    assert config.flags["cuda_graph_bs"].value == [1, 2, 4, 8, 10, 12, 14, 16]
    assert config.flags["cuda_graph_bs"].origin == "capture_log"


@pytest.mark.parametrize(
    ("replace", "era_line", "points_to", "worker"),
    [
        ("disable_overlap_schedule=False", None, "v2", "EAGLEWorkerV2"),
        ("enable_multi_layer_eagle=True", "sglang: 0.5.9", "v1", "MultiLayerEagleWorker"),
        ("speculative_algorithm='NGRAM'", None, "other", "NGRAMWorker"),
        (
            "disable_overlap_schedule=True",
            "Non-overlap (synchronous) spec v2 is used for eagle/eagle3/standalone speculative decoding.",
            "v2", "EAGLEWorkerV2",
        ),
    ],
)  # fmt: skip
def test_dump_verdicts(replace: str, era_line: str | None, points_to: str, worker: str) -> None:
    name = replace.split("=")[0]
    start = DUMP.index(name + "=")
    end = DUMP.index(",", start) if DUMP.find(",", start) != -1 else len(DUMP) - 1
    dump = DUMP[:start] + replace + DUMP[end:]
    config = collect(*([era_line] if era_line else []), dump)
    assert (config.path_evidence[0].points_to, config.path_evidence[0].worker_class) == (
        points_to,
        worker,
    )


def test_speculation_off_points_to_the_plain_worker() -> None:
    config = collect(
        "server_args=ServerArgs(model_path='/m', speculative_algorithm=None, tp_size=1)"
    )
    (evidence,) = config.path_evidence
    assert (evidence.points_to, evidence.worker_class) == ("none", "TpModelWorker")
    assert "speculative decoding is off" in evidence.reason


def test_dynamic_disable_marker_informs_and_sets_its_threshold() -> None:
    config = collect("Dynamic speculation disable enabled (threshold=8)", header=TS)
    assert config.flags["speculative_disable_batch_threshold"].value == 8
    (evidence,) = config.path_evidence
    assert evidence.points_to is None and evidence.lineno == 1


def test_unrelated_lines_change_nothing() -> None:
    config = collect(
        "Load weight begin. avail mem=78.84 GB",
        "Ignore import error when loading sglang.srt.models.glm_ocr: No module named 'x'",
        header=TS,
    )
    assert config.flags == {} and config.path_evidence == [] and config.engine is None


@settings(max_examples=200, deadline=None)
@given(
    literal=st.sampled_from(
        [lit.decode() for lit in CONFIG_LITERALS] + ["server_args=ServerArgs("]
    ),
    tail=st.text(alphabet=st.sampled_from("ab=(),[]{}<>'\"\\: -_0123456789xTrue"), max_size=80),
)
def test_any_line_with_a_literal_is_handled_without_error(literal: str, tail: str) -> None:
    collector = ConfigCollector()
    collector.feed(line(literal + tail, 1))
    collector.feed(line("x " + literal + "9" * 5000 + tail, 2))
    config = collector.result()
    assert all(flag.lineno in (1, 2) for flag in config.flags.values())


def test_vllm_api_server_version_line() -> None:
    config = collect("vLLM API server version 0.11.0")
    assert (config.engine, config.version) == ("vllm", "0.11.0")
    assert config.flags == {}


def test_one_run_has_no_separate_runs_and_restarts_split_by_start_up() -> None:
    assert collect(WARN_057, DUMP).runs == ()
    config = collect(WARN_057, DUMP, "Capture cuda graph bs [1, 2]", WARN_057, DUMP)
    assert [run.start for run in config.runs] == [("run.log", 2), ("run.log", 5)]
    assert [[e.lineno for e in run.path_evidence] for run in config.runs] == [[2, 1], [5, 4]]
    assert config.runs[0].flags["cuda_graph_bs"].value == [1, 2]  # what was really captured
    assert config.runs[1].flags["cuda_graph_bs"].value == [1, 2, 4, 8, 10, 12, 16]  # the dump's


def test_an_unset_dump_value_does_not_hide_a_stated_one() -> None:
    config = collect(
        "python -m sglang.launch_server --model-path /m --speculative-eagle-topk 4",
        "server_args=ServerArgs(model_path='/m', speculative_eagle_topk=None, cuda_graph_bs=None)",
        "Capture cuda graph bs [1, 2, 4]",
    )
    assert config.flags["speculative_eagle_topk"].origin == "launch_command"
    assert config.flags["cuda_graph_bs"].value == [1, 2, 4]


def test_an_unfinished_graph_capture_keeps_its_batch_size() -> None:
    bar = "Capturing batches (bs={bs} avail_mem=20.45 GB):  {pct}%|███▌      | {n}/23 [00:04<00:07,  1.90it/s]"
    failed = collect(bar.format(bs=160, pct=0, n=0), bar.format(bs=48, pct=35, n=8))
    assert (failed.flags["capture_bs"].value, failed.flags["capture_bs"].lineno) == (48, 2)
    done = collect(bar.format(bs=48, pct=35, n=8), bar.format(bs=1, pct=100, n=23))
    assert "capture_bs" not in done.flags
    ended = collect(
        bar.format(bs=1, pct=96, n=22),
        "Capture cuda graph end. Time elapsed: 35.21 s. mem usage=1.05 GB. avail mem=69.07 GB.",
    )
    assert "capture_bs" not in ended.flags


def test_vllm_v0_speculative_flags() -> None:
    config = collect(
        "vllm serve facebook/opt-6.7b --speculative-model facebook/opt-125m "
        "--num-speculative-tokens 5 --tensor-parallel-size 2"
    )
    assert values(config) == {
        "speculative_config.model": "facebook/opt-125m",
        "speculative_config.method": "draft_model",  # vLLM's default for a plain draft
        "speculative_config.num_spec_tokens": 5,
        "tp_size": 2,
    }


@pytest.mark.parametrize(("raw", "value"), [("Y", True), ("no", False), ("maybe", "maybe")])
def test_env_values_read_as_sglang_reads_them(raw: str, value: object) -> None:
    config = collect(f"export SGLANG_ENABLE_SPEC_V2={raw}")
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].value == value
