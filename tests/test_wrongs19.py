"""Texts that show no run of the three engines get no path, and no class the text contradicts
(issue 11, session 19): a maintainer's code reading of the current source (``not_run
._code_readings``), another engine's run by its own API, package or tracker
(``rules/paths/other_engines.toml``), a config quoted inside a question (``not_run
.asked_config``), and a model runner v2 class where the text puts the run on the V1 runner
(``vllm_runner._contradicted``). Each with a near miss that keeps its verdict.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, probed_path, roots, run


# ---- a code reading of the current source is no run ----

CODE_READINGS = {
    "sglang-index": [
        "sgl-project/sglang · issue #41001 · open",
        "# [Bug] EAGLE draft extend reuses freed KV slots after retraction", "",
        "maint-a · comment · 2026-10-02",
        "Traced on current main (`7d41c0aa9e`): `scheduler.py:1712` frees the slots while `eagle_info.py:244` keeps "
        "the old lengths, and `eagle_worker_v2.py:598` still says `# TODO: handle retract in overlap mode`.",
        "Could you share the launch command and sglang version where you hit it?"],
    "vllm-web": [
        "[Bug]: MTP drafter reads a stale hidden state with PP · Issue #58110 · vllm-project/vllm", "",
        "reviewer-b commented on Aug 30, 2026", "",
        "Reading the current source, `vllm/v1/spec_decode/eagle.py:731` takes the aux layers from the target and "
        "`gpu_model_runner.py:3120` fills them on the last rank only; there is a `# FIXME(pp)` right above it.",
        "Could you post the exact vllm serve command and version?"],
    "bare-head": [
        "Checked against HEAD (c3f0e19b72): python/sglang/srt/speculative/multi_layer_eagle_worker_v2.py:402 indexes "
        "the draft backends by step, and `cuda_graph_runner.py:515` still has `# TODO(spec): capture per-step backends`.",
        "Please paste your launch flags (num-steps, topk, cuda graph) so we can tell which path you took."],
    "chinese": [
        "sgl-project/sglang · issue #42231 · open", "# NEXTN overlap 下 accept length 统计错位", "",
        "dev-d · comment · 2026-10-20",
        "看了一下当前 main 的代码（`9ab3c7e1d0`）：`eagle_worker_v2.py:655` 的 accept_length 在 overlap 下是下一个 batch 的，"
        "`# TODO: sync accept len` 还在。", "能否提供一下启动命令和 sglang 版本？"],
}


@pytest.mark.parametrize("name", sorted(CODE_READINGS))
def test_a_code_reading_of_the_current_source_is_no_run(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, CODE_READINGS[name])


def test_the_reporters_own_launch_under_a_code_reading_keeps_its_path(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #41002 · open", "# [Bug] EAGLE topk 1 dies after retraction", "",
             "user-e · description · 2026-10-01", "SGLang 0.5.17 on 8xH200.",
             "python -m sglang.launch_server --model-path acme/Orbit-70B --tp 8 --speculative-algorithm EAGLE "
             "--speculative-draft-model-path acme/Orbit-70B-eagle --speculative-num-steps 3 --speculative-eagle-topk 1 "
             "--speculative-num-draft-tokens 4", "",
             "maint-a · comment · 2026-10-02",
             "Traced on current main (`7d41c0aa9e`): `scheduler.py:1712` frees the slots while `eagle_info.py:244` "
             "keeps the old lengths. Could you share whether overlap was on?"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


# ---- another engine's run names no class of ours ----

OTHER_ENGINES = {
    "openvino-api": ["Speculative decoding with draft_model() aborts on Arc B580", "",
                     "import openvino_genai as ov_genai",
                     'draft = ov_genai.draft_model("qwen3-0.6b-ov", "GPU")',
                     'pipe = ov_genai.LLMPipeline("qwen3-14b-ov", "GPU", draft_model=draft)',
                     "RuntimeError: Exception from src/cpp/src/speculative_decoding/impl.cpp:214: Check failed"],
    "openvino-tracker": ["Speculative decoding (`draft_model()`) crashes with sampling · Issue #4301 · openvinotoolkit/openvino.genai",
                         "", "user-o opened this issue on Jul 20, 2026", "",
                         "Plain draft-model pairing (not EAGLE) with do_sample=True crashes in the sampler."],
    "neuron-config": ["EAGLE fused speculation fails to compile on trn2", "",
                      "Using `NeuronConfig(speculation_length=5, enable_eagle_speculation=True)` with an EAGLE draft, "
                      "the fused speculation model fails to compile."],
    "tgi-tracker": ["huggingface/text-generation-inference · issue #3402 · open",
                    "# Medusa speculation returns empty tokens", "", "user-t · description · 2026-02-02",
                    "With a Medusa model and --speculate 3 one request in twenty comes back empty."],
    "mlx-command": ["mlx_lm.generate --model mlx-community/Qwen3-30B-A3B-4bit --draft-model mlx-community/Qwen3-0.6B-4bit "
                    "--num-draft-tokens 3", "ValueError: shapes (1,3,151936) and (1,4,151936) cannot be broadcast"],
}


@pytest.mark.parametrize("name", sorted(OTHER_ENGINES))
def test_another_engines_run_getsassert_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, OTHER_ENGINES[name])


def test_a_vllm_run_comparing_with_another_engine_keeps_its_class(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #24512 · open", "# [Bug]: EAGLE3 crashes with an FP8 target on 0.10.1", "",
             "user-v · description · 2025-08-30", "vLLM 0.10.1",
             "vllm serve acme/Orbit-8B-FP8 --speculative-config '{\"method\": \"eagle3\", \"model\": "
             "\"acme/Orbit-8B-eagle3\", \"num_speculative_tokens\": 3}'",
             "The engine dies at the first request. The same pair works with llama-server -md, and with "
             "OpenVINO GenAI's ov_genai.draft_model() too."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


# ---- a config asked about in a question is no run ----

ASKED = {
    "cjk-tail": ["vllm-project/vllm-ascend · issue #9300 · open", "# A3 部署 GLM-5 长上下文方案", "",
                 "user-z · comment · 2026-06-01",
                 "--speculative-config '{\"num_speculative_tokens\": 3, \"method\": \"deepseek_mtp\"}'  这个还是不支持吧"],
    "cjk-backticks": ["sgl-project/sglang · issue #40113 · open", "# H20 上 DeepSeek-V3.2 128K 的方案", "",
                      "user-z · comment · 2026-06-03",
                      "`--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1` 这个配置在 128K 下能用吗？",
                      "", "maint-y · comment · 2026-06-04", "显存比较紧张，建议先关闭 MTP 跑通长上下文。"],
    "english": ["[Usage] FP8 KV with MTP · Issue #31023 · vllm-project/vllm", "", "user-q commented on Nov 12, 2025", "",
                "Does `--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'` work with "
                "`--kv-cache-dtype fp8` on 0.11.1, or is it not supported yet?"],
    "question-above-yaml": ["NVIDIA/TensorRT-LLM · issue #10878 · open", "# DeepSeek-R1 FP4 with long inputs", "",
                            "user-k · comment · 2026-02-09",
                            "Is this supported with the PyTorch backend on B200, or not yet?",
                            "speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 3"],
}


@pytest.mark.parametrize("name", sorted(ASKED))
def test_a_config_asked_about_is_no_run(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, ASKED[name])


def test_a_question_over_the_writers_own_crash_keeps_its_class(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #28411 · open", "# [Bug]: MTP crashes at startup on 0.11.0", "",
             "user-s · description · 2025-10-20",
             "I ran vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --speculative-config '{\"method\": \"qwen3_next_mtp\", "
             "\"num_speculative_tokens\": 2}' on vLLM 0.11.0 and it crashes loading the drafter. Is MTP supported?"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


# ---- the V1 runner stated: never the model runner v2's class ----

DSPARK = "--speculative-config '{\"method\": \"dspark\", \"model\": \"acme/Orbit-32B-DSpark\", \"num_speculative_tokens\": 5}'"
V1_RUNS = {
    "commented-env": ["# DSpark drafter fails at load on our dev image", "", "```bash", "# environment:",
                      "#   VLLM_USE_V2_MODEL_RUNNER=0", f"vllm serve acme/Orbit-32B {DSPARK}", "```"],
    # (in an issue: a compose file saved alone is a file of settings, no run: ``not_run._config_file``)
    "compose-env": ["vllm-project/vllm · issue #52313 · open", "# [Bug]: DSpark load fails in compose", "",
                    "user-k · description · 2026-08-03",
                    "services:", "  vllm:", "    environment:", '      VLLM_USE_V2_MODEL_RUNNER: "0"',
                    f"    command: vllm serve acme/Orbit-32B {DSPARK}"],
    "v1-frame": [f"vllm serve acme/Orbit-32B {DSPARK}", "Traceback (most recent call last):",
                 '  File "/usr/lib/python3/dist-packages/vllm/v1/spec_decode/llm_base_proposer.py", line 1190, in load_model',
                 "    self._maybe_share_lm_head(target_language_model)",
                 "AttributeError: 'DSparkDraftModel' object has no attribute 'head'"],
    "v1-file-in-prose": ["vllm-project/vllm · issue #52312 · open", "# [Bug]: DSpark load fails", "",
                         "user-j · description · 2026-08-02",
                         "DSpark crashes every worker at load in `vllm/v1/spec_decode/llm_base_proposer.py` (embedding sharing)."],
}


@pytest.mark.parametrize("name", sorted(V1_RUNS))
def test_a_dspark_run_on_the_v1_runner_never_gets_the_mrv2_class(tmp_path: Path, name: str) -> None:
    for crash in roots(run(tmp_path, [*V1_RUNS[name], "", *PROBE])):
        path = crash.worker_path
        assert path is not None and path.worker_class != "DSparkSpeculator", path
        assert "DSparkSpeculator" not in (path.conditional or ""), path
        assert path.value == "unknown" and "DSparkProposer" in (path.conditional or ""), path


def test_a_dspark_run_on_mrv2_keeps_the_speculator(tmp_path: Path) -> None:
    lines = [f"vllm serve acme/Orbit-32B {DSPARK}", "Traceback (most recent call last):",
             '  File "/usr/lib/python3/dist-packages/vllm/v1/worker/gpu/spec_decode/dspark/speculator.py", line 240, in propose',
             "    idx = self.block_index[req_ids]", "IndexError: index 64 is out of bounds for dimension 0 with size 64"]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "DSparkSpeculator")


def test_a_code_reading_under_a_title_telling_the_reporters_setup_keeps_the_run(tmp_path: Path) -> None:
    """The title tells the reporter's run (its release and card): a maintainer reading the source
    in a reply does not take that run away."""
    lines = ["vllm-project/vllm · issue #55801 · open",
             "# [Bug]: MTP + FlashInfer illegal memory access still on v0.27.1 (RTX 5090, max-num-seqs=1)", "",
             "maint-c · comment · 2026-09-08",
             "Reading the source at your build (`6e448d0ea9bf`, the v0.27.1 tag): `scheduler.py:641` copies the "
             "placeholder and `flashinfer.py:1234` is where the earlier error surfaces, not from a run."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|MTPSpeculator")


def test_a_failure_on_a_main_build_citing_source_lines_is_a_run(tmp_path: Path) -> None:
    """A bare report of a crash on a build of main that cites the source lines it went through
    (no request for anyone's config) tells the writer's run: the era condition stays."""
    lines = ["Built from main (`abc1234f`), the EAGLE worker crashes at `eagle_worker.py:828` when topk > 1, "
             "see `eagle_utils.py:310` (`# TODO: topk>1 in overlap`)."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorkerV2|EAGLEWorker")


@pytest.mark.parametrize("sentence", [
    "To use EAGLE with SGLang, you pass --speculative-algorithm EAGLE and a draft model path.",
    "To enable EAGLE on SGLang, add --speculative-algorithm EAGLE --speculative-num-steps 3 to the launch.",
])  # fmt: skip
def test_a_how_to_sentence_telling_the_reader_what_to_pass_is_no_run(tmp_path: Path, sentence: str) -> None:
    assert_no_path(tmp_path, [sentence])


def test_the_writers_own_launch_told_the_same_way_keeps_its_path(tmp_path: Path) -> None:
    lines = ["To use EAGLE with SGLang I passed --speculative-algorithm EAGLE --speculative-num-steps 3 "
             "and the scheduler crashed."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_transformers_assisted_generation_is_no_vllm_run(tmp_path: Path) -> None:
    """``assistant_model=draft_model`` is Transformers' assisted generation: the variable named
    ``draft_model`` is no vLLM method (it was decided ``DraftModelProposer``)."""
    lines = ["Assisted decoding with a small draft crashes when sampling", "",
             'draft_model = AutoModelForCausalLM.from_pretrained("acme/Orbit-0.5B")',
             "out = model.generate(**inputs, assistant_model=draft_model, do_sample=True)",
             "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0"]  # fmt: skip
    assert_no_path(tmp_path, lines)
