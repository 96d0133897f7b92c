"""vLLM and TensorRT-LLM speculative config readers (issue 11 item 4): every shape gives a
method with its file and line, and the method names a family through rules/paths [[method]]
rows. Lines are written by us in the shapes public threads show."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.assemblers.vllm_config import speculative_repr_flags
from spectrace.assemblers.vllm_proposers import proposer_verdict


def family(framework: str, value: str) -> str:
    """The family the framework's [[method]] rows give a value (case-insensitive)."""
    text = resources.files("spectrace.rules").joinpath(f"paths/{framework}.toml").read_text()
    rows = {r["value"].lower(): r["family"] for r in tomllib.loads(text)["method"]}
    return rows[value.lower()]


# ---- vLLM ---------------------------------------------------------------------------------


def test_speculative_config_repr_in_an_exception_line_gives_method_and_line() -> None:
    config = collect(
        "INFO 07-02 10:11:10 [api_server.py:1351] vLLM API server version 0.10.1",
        "RuntimeError: draft shape mismatch for SpeculativeConfig(method='deepseek_mtp', "
        "model='deepseek-ai/DeepSeek-V3', num_spec_tokens=1)",
    )
    method = config.flags["speculative_config.method"]
    assert (method.value, method.source, method.lineno) == ("deepseek_mtp", "run.log", 2)
    assert config.flags["speculative_config.num_spec_tokens"].value == 1
    assert family("vllm", method.value) == "MTP"
    evidence = [e for e in config.path_evidence if e.worker_class]
    assert evidence and evidence[0].lineno == 2 and evidence[0].worker_class == "EagleProposer"


def test_engine_line_cut_inside_the_repr_keeps_what_it_has() -> None:
    config = collect(
        "INFO 05-12 03:04:05 [core.py:69] Initializing a V1 LLM engine (v0.9.1) with config: "
        "model='/w/DeepSeek-R1', speculative_config=SpeculativeConfig(method='eagle3', "
        "model='/w/eagle3-draft', num_spec_t"
    )
    flags = {k: f.value for k, f in config.flags.items()}
    assert flags["speculative_config.method"] == "eagle3"
    assert flags["speculative_config.model"] == "/w/eagle3-draft"
    assert "speculative_config.num_spec_tokens" not in flags  # cut: never guessed
    assert config.version == "0.9.1" and family("vllm", "eagle3") == "EAGLE3"


def test_v0_draft_model_name_tells_the_method_only_when_it_says_it() -> None:
    eagle = speculative_repr_flags(
        "speculative_config=SpeculativeConfig(draft_model='yuhuili/EAGLE-LLaMA3-Instruct-8B', "
        "num_spec_tokens=5)"
    )
    plain = speculative_repr_flags("SpeculativeConfig(draft_model='Qwen/Qwen2-0.5B', num_spec_tokens=4)")
    assert eagle["speculative_config.method"] == "eagle"
    assert "speculative_config.method" not in plain and plain["speculative_config.num_spec_tokens"] == 4


def test_ascend_non_default_args_name_the_mtp_method() -> None:
    config = collect(
        "INFO 09-01 12:00:00 [utils.py:326] non-default args: {'model': '/data/DeepSeek-R1-W8A8', "
        "'tensor_parallel_size': 16, 'speculative_config': {'method': 'deepseek_mtp', "
        "'num_speculative_tokens': 1}, 'additional_config': {'torchair_graph_config': "
        "{'enabled': True}}}"
    )
    assert config.flags["speculative_config.method"].value == "deepseek_mtp"
    assert family("vllm_ascend", "deepseek_mtp") == "MTP"


@pytest.mark.parametrize(
    ("method", "version", "proposer"),
    [("suffix", None, "SuffixDecodingProposer"), ("dflash", None, "DFlashProposer"),
     ("mtp", None, "EagleProposer"), ("eagle3", "0.10.1", "EagleProposer"),
     ("[ngram]", "0.11.0", "NgramProposer"), ("ngram", "0.6.1", "NGramWorker"),
     ("medusa", "0.6.1", "MedusaWorker"), ("draft_model", "0.9.2", "MultiStepWorker"),
     ("qwen3_next_mtp", "0.11.0", "EagleProposer")],
)
def test_each_method_gets_the_class_its_release_runs(
    method: str, version: str | None, proposer: str
) -> None:
    reason, points_to, got = proposer_verdict(method, version)
    assert (points_to, got) == ("other", proposer) and method.strip("[]") in reason


def test_a_v0_spelling_without_a_release_names_both_and_never_guesses() -> None:
    for version in (None, "0.8.5"):  # no release; a release that ships both engines
        reason, points_to, got = proposer_verdict("[ngram]", version, legacy=True)
        assert (points_to, got) == ("other", None)
        assert "NgramProposer" in reason and "NGramWorker" in reason
    assert proposer_verdict("ngram", "0.8.5", v1=True, legacy=True)[2] == "NgramProposer"
    assert proposer_verdict("ngram", "0.8.5")[2] == "NgramProposer"  # V1 spelling, V1 default


def test_v0_launch_flags_give_no_v1_class() -> None:
    config = collect(
        "docker run --gpus all vllm/vllm-openai --model /m --speculative-model \"[ngram]\" "
        "--num-speculative-tokens 5 --use-v2-block-manager"
    )
    method = config.flags.get("speculative_config.method")
    evidence = [e for e in config.path_evidence if "speculative method" in e.reason]
    assert method is not None and method.value in ("ngram", "[ngram]")
    assert evidence and all(e.worker_class is None for e in evidence)


def test_an_unknown_method_names_no_proposer() -> None:
    assert proposer_verdict("my_plugin_method")[1:] == (None, None)


# ---- TensorRT-LLM -------------------------------------------------------------------------


def test_llm_args_dump_gives_decoding_type_one_model_and_draft() -> None:
    config = collect(
        "[10/02/2025-08:00:01] [TRT-LLM] [I] TorchLlmArgs(model='/m/Llama-3.3-70B', "
        "tensor_parallel_size=4, speculative_config=EagleDecodingConfig(max_draft_len=3, "
        "speculative_model_dir='/m/eagle3', eagle3_one_model=True, eagle_choices=None), "
        "kv_cache_config=KvCacheConfig(free_gpu_memory_fraction=0.8))"
    )
    flags = {k: f.value for k, f in config.flags.items()}
    assert config.engine == "trtllm"
    assert flags["speculative_config.method"] == "eagle"
    assert flags["speculative_config.one_model"] is True
    assert flags["speculative_config.num_spec_tokens"] == 3
    assert config.flags["speculative_config.method"].lineno == 1


@pytest.mark.parametrize(
    ("lines", "one_model"),
    [
        # the older YAML key, two-model EAGLE
        (["speculative_decoding_config:", "    decoding_type: Eagle", "    max_draft_len: 4",
          "    eagle3_one_model: False"], False),
        # the same section pasted as JSON: quoted keys, trailing commas
        (['  "speculative_config": {', '    "decoding_type": "Eagle",', '    "max_draft_len": 3,',
          '    "eagle3_one_model": true', "  }"], True),
    ],
)
def test_a_pasted_section_gives_method_and_one_model_with_lines(
    lines: list[str], one_model: bool
) -> None:
    flags = {k: (f.value, f.lineno) for k, f in collect(*lines).flags.items()}
    assert flags["speculative_config.method"] == ("eagle", 2)
    assert flags["speculative_config.one_model"] == (one_model, 4)


@pytest.mark.parametrize(
    ("line", "method", "fam"),
    [
        ("trtllm-build --checkpoint_dir ckpt --speculative_decoding_mode lookahead_decoding "
         "--max_draft_len 63", "lookahead_decoding", "LOOKAHEAD"),
        ("[TRT-LLM] [I] spec_dec_mode=SpeculativeDecodingMode.EAGLE3_ONE_MODEL", "eagle3_one_model",
         "EAGLE3"),
        ("[TRT-LLM] [I] llm_args speculative_config={'decoding_type': 'NGram', 'max_draft_len': 4}",
         "ngram", "NGRAM"),
        ("    speculative_decoding_mode: draft_tokens_external", "draft_tokens_external",
         "DRAFT_TARGET"),
        ("  decoding_type: MTP", "mtp", "MTP"),
        ("built with `speculative_decoding_mode=lookahead_decoding` on TRT-LLM 0.20.0",
         "lookahead_decoding", "LOOKAHEAD"),
        ("x = MTPDecodingConfig(num_nextn_predict_layers=3)", "mtp", "MTP"),
    ],
)
def test_each_shape_names_a_method_with_a_family(line: str, method: str, fam: str) -> None:
    assert trtllm_spec_flags(line)["speculative_config.method"] == method
    assert family("trtllm", method) == fam


def test_vllm_decoding_config_and_a_bare_none_are_not_trtllm() -> None:
    assert trtllm_spec_flags("decoding_config=DecodingConfig(backend='xgrammar'), seed=0") == {}
    assert trtllm_spec_flags("speculative_config=None, seed=0") == {}
    assert trtllm_spec_flags("TorchLlmArgs(speculative_config=None, seed=0)") == {
        "speculative_config.method": None
    }


def test_an_error_naming_the_method_is_config_evidence() -> None:
    config = collect(
        "(EngineCore_DP0 pid=4021) ERROR 08-02 10:00:01 [core.py:708] ValueError: "
        "Unsupported speculative method: 'mtp'"
    )
    method = config.flags["speculative_config.method"]
    assert (method.value, method.lineno, config.engine) == ("mtp", 1, "vllm")
    assert trtllm_spec_flags("ValueError: Invalid decoding type: Eagle3") == {
        "speculative_config.method": "eagle3"
    }
    assert collect("the speculative method looked fine").flags == {}


def test_trtllm_config_section_on_one_line() -> None:
    one = trtllm_spec_flags(
        '{"speculative_config": {"decoding_type": "MTP", "num_nextn_predict_layers": 2}, '
        '"kv_cache_config": {"enable_block_reuse": false}}'
    )
    assert one == {"speculative_config.method": "mtp", "speculative_config.num_spec_tokens": 2}
    flow = trtllm_spec_flags("speculative_config: {decoding_type: DraftTarget, max_draft_len: 5}")
    assert family("trtllm", str(flow["speculative_config.method"])) == "DRAFT_TARGET"
    # vLLM's JSON has no decoding_type: not TensorRT-LLM's
    assert trtllm_spec_flags('--speculative-config \'{"method": "eagle3", "model": "d"}\'') == {}


def test_a_yaml_key_a_diff_adds_is_read_and_prose_with_a_plus_is_not() -> None:
    added = trtllm_spec_flags("+  decoding_type: NGram")
    assert added == trtllm_spec_flags("  decoding_type: NGram")
    assert added["speculative_config.method"] == "ngram"
    assert trtllm_spec_flags("+1 for decoding_type: NGram, works here") == {}


def test_a_refused_method_names_the_family_but_no_proposer() -> None:
    """'Unsupported speculative method' means the server built no proposer for it: the
    method is kept as the flag the user set, and no evidence points to a class."""
    config = collect(
        "(EngineCore_DP0 pid=7) ERROR 08-02 10:00:01 [core.py:708] ValueError: "
        "Unsupported speculative method: 'mtp'"
    )
    assert config.flags["speculative_config.method"].value == "mtp"
    assert config.path_evidence and all(
        e.points_to is None and e.worker_class is None for e in config.path_evidence
    )
    assert "refused" in config.path_evidence[0].reason
