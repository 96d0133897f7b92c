"""A vLLM speculative config naming only a draft model: the method and class vLLM infers from
it, by release (issue 11, round 7). Lines are written by us in the shapes threads show."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.vllm_methods import infer
from spectrace.linker import global_worker_path

VERSION = "INFO 06-17 20:29:40 [api_server.py:1287] vLLM API server version {}"
# vLLM's own fallback line: the run is on the V1 model runner (from 0.22 a release may default to
# the model runner v2, whose classes differ; these tests are about the method, test_vllm_runner
# about the runner)
V1_RUNNER = ("WARNING 06-17 20:29:40 [vllm.py:717] Model Runner V2 does not yet support LoRA; "
             "using the V1 model runner instead.")  # fmt: skip
ARGS = (
    "INFO 06-17 20:29:40 [cli_args.py:309] non-default args: {{'model': 'org/Big-70B', "
    "'tensor_parallel_size': 4, 'speculative_config': {{'model': '{}', "
    "'num_speculative_tokens': 5}}}}"
)


def test_a_plain_draft_model_on_0_9_2_ran_v0s_multistep_worker() -> None:
    config = collect(VERSION.format("0.9.2.dev7+gabc"), ARGS.format("org/Small-1B"))
    path = global_worker_path(config)
    assert (path.value, path.worker_class, path.family) == ("other", "MultiStepWorker",
                                                            "DRAFT_MODEL")  # fmt: skip
    assert path.evidence[0].lineno == 2 and "infers 'draft_model'" in path.evidence[0].reason


def test_the_version_line_after_the_config_still_decides() -> None:
    config = collect(ARGS.format("org/Small-1B"), VERSION.format("0.18.0"))
    assert global_worker_path(config).worker_class == "DraftModelProposer"


def test_without_a_release_the_verdict_is_conditional_and_asks_for_the_version() -> None:
    config = collect(
        "python -m vllm.entrypoints.openai.api_server --model org/Big-70B "
        '--speculative_config \'{"model": "org/Small-1B", "num_speculative_tokens": 5}\''
    )
    path = global_worker_path(config)
    assert path.value == "unknown" and path.worker_class is None
    assert path.conditional is not None
    assert "MultiStepWorker (V0) if vLLM <= 0.9.2" in path.conditional
    assert "DraftModelProposer if vLLM >= 0.17" in path.conditional
    assert any("vLLM version" in m for m in path.missing)


def test_releases_that_refuse_a_method_less_draft_model_name_no_proposer() -> None:
    config = collect(VERSION.format("0.12.0"), ARGS.format("org/Small-1B"))
    path = global_worker_path(config)
    assert path.worker_class is None and path.value == "unknown"
    assert any("refuses a draft model" in e.reason for e in path.evidence)


@pytest.mark.parametrize(
    ("model", "version", "method", "worker"),
    [("yuhuili/EAGLE-LLaMA3-Instruct-8B", "0.8.2", "eagle", "MultiStepWorker"),
     ("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "0.9.0", "eagle", "MultiStepWorker"),
     ("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "0.8.4", "draft_model", "MultiStepWorker"),
     ("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "0.11.0", "eagle3", "EagleProposer"),
     ("org/Qwen3-8B_eagle3", "0.10.2", "eagle3", "EagleProposer"),
     # 0.10.1.1 still read "eagle3-" as eagle (its config.py); "_eagle3" matched no name rule
     ("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "0.10.1.1", "eagle", "EagleProposer"),
     ("org/Qwen3-8B_eagle3", "0.10.1", "draft_model", None),
     ("z-lab/Qwen3-8B-DFlash", "0.20.0", "dflash", "DFlashProposer")],
)  # fmt: skip
def test_each_release_applies_its_own_name_rule(model, version, method, worker) -> None:
    found = infer(model, version)
    assert found is not None and (found.method, found.worker) == (method, worker)


def test_a_v0_flag_with_a_plain_draft_model_is_v0_and_shell_variables_are_not_names() -> None:
    config = collect(
        "python -m vllm.entrypoints.openai.api_server --model org/Big --speculative-model "
        "org/Small-0.5B --num-speculative-tokens 4"
    )
    assert global_worker_path(config).worker_class == "MultiStepWorker"
    assert infer("${draft_path}", None) is None  # a JSON's variable: no name, no release
    assert infer("[ngram]", "0.9.2") is None


def test_a_v0_engine_line_never_names_a_v1_proposer() -> None:
    """``Initializing a V0 LLM engine (v0.8.4)``: V0 ran (SpecDecodeWorker + NGramWorker) even
    on a release whose V1 engine had NgramProposer."""
    config = collect(
        "INFO 04-20 16:25:43 [llm_engine.py:243] Initializing a V0 LLM engine (v0.8.4) with "
        "config: model='/m/Coder-32B', speculative_config=SpeculativeConfig(method='ngram', "
        "model=None, num_spec_tokens=5), tokenizer='/m/Coder-32B', seed=0"
    )
    assert global_worker_path(config).worker_class == "NGramWorker"


def test_a_v0_draft_model_left_as_a_shell_variable_names_multistep_unless_a_head() -> None:
    config = collect(
        "python -m vllm.entrypoints.openai.api_server --model ${base} --speculative-model "
        "${draft_path} --num-speculative-tokens 3"
    )
    path = global_worker_path(config)
    assert path.value == "unknown" and path.conditional is not None
    assert path.conditional.startswith("MultiStepWorker (V0) unless ${draft_path}")
    assert path.missing[0].startswith("the line that sets ${draft_path}")


def test_a_deepseek_v3_target_with_only_a_token_count_drafts_with_its_own_mtp() -> None:
    config = collect(
        "python -m vllm.entrypoints.openai.api_server --tensor-parallel-size 8 "
        "--model deepseek-ai/DeepSeek-R1 --trust-remote-code --num-speculative-tokens 1"
    )
    path = global_worker_path(config)
    assert (path.worker_class, path.family) == ("MultiStepWorker", "MTP")
    assert "own MTP layers" in path.evidence[0].reason
    distill = collect(
        "vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --num-speculative-tokens 1"
    )
    assert "speculative_config.method" not in distill.flags
    v1 = collect(VERSION.format("0.10.1"), "vllm serve deepseek-ai/DeepSeek-V3 "
                 "--speculative-config '{\"num_speculative_tokens\": 1}'")  # fmt: skip
    assert global_worker_path(v1).worker_class == "EagleProposer"


def test_v0_keyword_arguments_of_llm_in_a_script_name_the_draft_model() -> None:
    config = collect(
        "llm = LLM(",
        '    model="facebook/opt-6.7b",',
        '    speculative_model="facebook/opt-125m",',
        "    num_speculative_tokens=5,",
        ")",
    )
    path = global_worker_path(config)
    assert (path.value, path.worker_class) == ("other", "MultiStepWorker")
    assert path.evidence[0].lineno == 3


def test_vllms_engine_line_with_speculative_config_none_says_speculation_is_off() -> None:
    config = collect(
        "INFO 03-01 10:00:00 [core.py:75] Initializing a V1 LLM engine (v0.10.1) with config: "
        "model='/m', speculative_config=None, tokenizer='/m', tensor_parallel_size=2"
    )
    assert global_worker_path(config).value == "none"


def test_v0s_speculative_model_flag_with_a_head_ran_on_v0() -> None:
    """``--speculative-model`` is gone after 0.8.2 and 0.8.0-0.8.2's V1 oracle falls back to V0
    for anything but ngram: an EAGLE or Medusa head named there ran on V0's worker."""
    for line, worker in (
        ("> python3 benchmarks/benchmark_latency.py --model org/Qwen2-7B --speculative-model "
         "org/EAGLE-Qwen2-7B --num_speculative_tokens 4 --use-v2-block-manager", "MultiStepWorker"),
        ("vllm serve org/m --speculative-model /heads/medusa --num-speculative-tokens 3",
         "MedusaWorker"),
    ):  # fmt: skip
        path = global_worker_path(collect(line))
        assert (path.value, path.worker_class) == ("other", worker)
    ngram = global_worker_path(collect("vllm serve org/m --speculative-model [ngram]"))
    assert ngram.worker_class is None and ngram.conditional  # 0.8.x ran ngram on V1


def test_a_served_speculators_checkpoint_carries_its_method_from_0_10_1() -> None:
    lines = ("I am using vLLM 0.11.0 on 4 GPUs.",
             "vllm serve org/Qwen3-8B-speculator.eagle3 --tensor-parallel-size 4")  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.family) == ("other", "EagleProposer", "EAGLE3")
    assert path.evidence[0].lineno == 2
    unknown = global_worker_path(collect(lines[1]))
    assert unknown.conditional == "EagleProposer if vLLM >= 0.10.1, else no speculation"
    old = global_worker_path(collect("We pin vllm==0.9.2 here.", lines[1]))
    assert old.worker_class is None and old.value == "unknown"


def test_a_vllm_release_in_prose_does_not_make_an_sglang_run_vllms() -> None:
    config = collect("It was faster than vllm 0.6.0 last year.",
                     "python -m sglang.launch_server --model m --speculative-algorithm EAGLE3")  # fmt: skip
    assert config.engine == "sglang" and config.version is None


def test_a_draft_named_like_an_mtp_head_names_both_and_asks_for_its_config() -> None:
    config = collect(VERSION.format("0.23.0"), ARGS.format("/m/custom-7b-mtp-head"))
    path = global_worker_path(config)
    assert path.value == "unknown" and path.conditional is not None
    assert path.conditional.startswith("EagleProposer (mtp) if /m/custom-7b-mtp-head's")
    assert "DraftModelProposer (draft_model)" in path.conditional
    assert "model_type" in path.missing[0]
    ascend = collect("export HCCL_BUFFSIZE=512", VERSION.format("0.23.0"),
                     ARGS.format("/m/custom-7b-mtp-head"))  # fmt: skip
    cond = global_worker_path(ascend).conditional or ""
    assert "AscendEagleProposer (mtp)" in cond and "AscendDraftModelProposer" in cond


# ---- published MTP-head checkpoints: vLLM rewrites their model_type (round 9 #11) ----------


@pytest.mark.parametrize(
    ("release", "worker"),
    [("0.23.0", "Gemma4Proposer"), ("0.34.0", "Gemma4Speculator")],
)  # fmt: skip
def test_a_gemma_4_assistant_draft_is_an_mtp_head_with_its_own_proposer(release, worker) -> None:
    config = collect(V1_RUNNER, VERSION.format(release), ARGS.format("/m/gemma-4-12B-it-assistant"))
    path = global_worker_path(config)
    assert (path.value, path.worker_class, path.family) == ("other", worker, "MTP")
    assert f"vLLM {release} infers 'mtp'" in path.evidence[0].reason


def test_on_ascend_the_gemma_4_assistant_runs_the_plugins_mtp_proposer() -> None:
    config = collect(V1_RUNNER, "Running on vllm-ascend 0.23.0 with vllm 0.23.0",
                     ARGS.format("/m/gemma-4-31B-it-assistant"))  # fmt: skip
    path = global_worker_path(config)
    assert (path.value, path.worker_class, path.framework) == ("other", "AscendEagleProposer",
                                                               "vllm_ascend")  # fmt: skip


def test_an_explicit_mtp_method_with_a_gemma_4_assistant_names_its_proposer() -> None:
    line = ("INFO [cli_args.py:309] non-default args: {'model': 'g/gemma-4-12B-it', "
            "'speculative_config': {'method': 'mtp', 'model': 'g/gemma-4-12B-it-assistant', "
            "'num_speculative_tokens': 1}}")
    path = global_worker_path(collect(V1_RUNNER, VERSION.format("0.25.0"), line))
    assert (path.value, path.worker_class) == ("other", "Gemma4Proposer")
    plain = line.replace("g/gemma-4-12B-it-assistant", "org/Model-MTP")
    assert global_worker_path(collect(V1_RUNNER, VERSION.format("0.25.0"), plain)).worker_class == "EagleProposer"


def test_without_a_release_an_mtp_checkpoint_gives_the_release_condition() -> None:
    path = global_worker_path(collect(ARGS.format("deepseek-ai/DeepSeek-V3")))
    assert path.value == "unknown" and path.family == "MTP"
    assert path.conditional is not None
    assert path.conditional.startswith("EagleProposer (mtp) if vLLM >= 0.10.0, MultiStepWorker (V0)")
    old = global_worker_path(collect(VERSION.format("0.9.2"), ARGS.format("deepseek-ai/DeepSeek-V3")))
    assert old.worker_class == "MultiStepWorker"
    distill = infer("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "0.18.0")
    assert distill is not None and distill.worker == "DraftModelProposer"


def test_a_speculative_config_that_is_not_json_still_names_its_method() -> None:
    """Round 11 study #06: a bullet quoting ``--speculative-config '{"method":"dflash", k=7}'``
    (shorthand, not JSON) beside a vLLM release in prose."""
    config = collect(V1_RUNNER, "- vLLM 0.27.1 from PyPI",
                     "- Draft: org/Q-DFlash, `--speculative-config '{\"method\":\"dflash\", k=7}'`")  # fmt: skip
    path = global_worker_path(config)
    assert (path.value, path.worker_class, path.family) == ("other", "DFlashProposer", "DFLASH")
    assert path.evidence[0].lineno == 3


@pytest.mark.parametrize(
    ("line", "worker", "family"),
    [("WARNING 05-02 10:00:01 [speculative.py:552] method `glm4_moe_mtp` is deprecated and "
      "replaced with mtp.", "EagleProposer", "MTP"),
     ("(APIServer pid=7) WARNING 05-02 10:00:01 [speculative.py:722] Enabling "
      "num_speculative_tokens > 1 will run multiple times of forward on same MTP layer,which "
      "may result in lower acceptance rate", "EagleProposer", "MTP"),
     ("WARNING 05-02 10:00:01 [speculative.py:821] Defaulted num_speculative_tokens to 24 for "
      "suffix decoding.", "SuffixDecodingProposer", "SUFFIX")],
)  # fmt: skip
def test_a_warning_speculative_config_logs_for_one_method_names_it(line, worker, family) -> None:
    path = global_worker_path(collect(V1_RUNNER, VERSION.format("0.23.0"), line))
    assert (path.value, path.worker_class, path.family) == ("other", worker, family)
    assert path.evidence[0].lineno == 3
    on_034 = global_worker_path(collect(VERSION.format("0.34.0"), line))
    assert on_034.worker_class in ("MTPSpeculator", "SuffixSpeculator")


@pytest.mark.parametrize(
    ("arch", "worker", "family"),
    [("Qwen3NextMTP", "EagleProposer", "MTP"), ("PEagleDraftModel", "EagleProposer", "EAGLE3"),
     ("EagleDeepSeekMTPModel", "EagleProposer", "EAGLE"), ("DFlashDraftModel", "DFlashProposer", "DFLASH"),
     ("Qwen3NextForCausalLM", None, None), ("Gemma4MTPModel", "Gemma4Proposer", "MTP")],
)  # fmt: skip
def test_a_drafts_resolved_architecture_names_its_method(arch, worker, family) -> None:
    line = f"(EngineCore_DP0 pid=1) INFO 05-02 10:00:03 [model.py:611] Resolved architecture: {arch}"
    path = global_worker_path(collect(V1_RUNNER, VERSION.format("0.23.0"), line))
    assert (path.worker_class, path.family) == (worker, family)


@pytest.mark.parametrize(
    ("model", "release", "worker"),
    [("baidu/ERNIE-4.5-21B-A3B-PT", "0.23.0", "EagleProposer"),
     ("baidu/ERNIE-4.5-0.3B-PT", "0.23.0", "DraftModelProposer"),  # a dense ERNIE: no MTP head
     ("deepseek-ai/DeepSeek-V4-Flash", "0.21.0", "EagleProposer")],
)  # fmt: skip
def test_more_published_mtp_checkpoints(model, release, worker) -> None:
    assert global_worker_path(collect(V1_RUNNER, VERSION.format(release), ARGS.format(model))).worker_class == worker
