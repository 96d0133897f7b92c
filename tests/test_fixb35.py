"""Session 35 (FIXB): the run's own runner switch in every place it is set, design docs,
tutorials and plans that show no run, and bench-client reports that show one.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it) through the public
pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, roots, run

_EAGLE3 = ('--speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", '
           '"num_speculative_tokens": 3}\'')  # fmt: skip
_ENGINE_DIES = [
    "(EngineCore_DP0 pid=51) ERROR 11-04 09:12:13 [core.py:710] EngineCore encountered a fatal error.",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]  # fmt: skip


# --- 1. the model runner v2 switch set for the run's own server, wherever it is set ---

# an issue digest whose body was flattened into one paragraph: the template's "Your current
# environment", a comparison with the V1 runner, then the switch on the serve line among
# options whose names hold "no" and "disable"
_DIGEST = [
    "# vllm-project/vllm#51234: [Model Runner V2][Performance]: EAGLE-3 decode slower than on the V1 runner",
    "",
    "| 字段 | 值 |",
    "| --- | --- |",
    "| 状态 | open |",
    "",
    "## 正文摘录",
    "",
    "### Your current environment ### 🐛 Describe the bug Our team compared the V2 runner with the old one "
    "using an EAGLE-3 head on eight H20 cards, and the V2 one loses about 12% at 32 concurrent requests. "
    "Launch used: > VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8 "
    f"--no-enable-prefix-caching --disable-log-requests {_EAGLE3} client > vllm bench serve "
    "--model meta-llama/Llama-3.1-70B-Instruct --num-prompts 320 --max-concurrency 32",
]  # fmt: skip

# docker run -e, with --disable-log-stats on the same line
_DOCKER = [
    "Title: EAGLE3 draft crashes in the sampler with the new runner", "",
    "We start the container like this:", "",
    "docker run --gpus all -e VLLM_USE_V2_MODEL_RUNNER=1 -p 8000:8000 vllm/vllm-openai:v0.20.1 "
    f"--model meta-llama/Llama-3.1-8B-Instruct {_EAGLE3} --disable-log-stats --no-enable-chunked-prefill", "",
    "After about 200 requests the engine dies:", "", *_ENGINE_DIES,
]  # fmt: skip

# a Kubernetes env: entry, its name and value on two lines
_K8S = [
    "Our deployment crashes at start-up on every replica since the upgrade to v0.21.0:", "",
    "```yaml", "containers:", "  - name: vllm", "    image: vllm/vllm-openai:v0.21.0", "    env:",
    "      - name: VLLM_USE_V2_MODEL_RUNNER", '        value: "1"', "    args:",
    "      - --model", "      - Qwen/Qwen3-32B", "      - --speculative-config",
    '      - \'{"method": "eagle3", "model": "Tengyunw/qwen3_32b_eagle3", "num_speculative_tokens": 3}\'',
    "      - --disable-log-requests", "```", "", "Pod log:", "", *_ENGINE_DIES,
]  # fmt: skip

# the title's tag names the runner; the body's serve line has no switch
_TITLE_TAG = [
    "Issue #52001: [MRV2][Bug]: eagle3 drafting gives garbage after preemption", "",
    "With eagle3 (3 speculative tokens) on Llama-3.1-8B, vLLM 0.20.1, our outputs turn to garbage once "
    "requests are preempted; we run it on two L40S.", "",
    f"vllm serve meta-llama/Llama-3.1-8B-Instruct {_EAGLE3}",
]  # fmt: skip


@pytest.mark.parametrize(("lines", "switch"), [
    (_DIGEST, 9), (_DOCKER, 5), (_K8S, 9), (_TITLE_TAG, 1),
], ids=["digest-one-paragraph", "docker-e-with-disable-option", "k8s-env-entry", "title-tag"])  # fmt: skip
def test_the_runs_own_v2_switch_decides_the_mrv2_speculator(tmp_path: Path, lines: list[str], switch: int) -> None:
    """The class is MRV2's, and the reason names the line that set the runner."""
    crashes = roots(run(tmp_path, lines))
    path = crashes[0].worker_path if crashes else probed_path(tmp_path, lines)
    assert path is not None
    assert (path.value, path.worker_class) == ("other", "EagleSpeculator"), path
    assert any(f"on the model runner v2 (line {switch})" in e.reason for e in path.evidence), path.evidence


def test_both_runners_run_and_none_said_to_crash_gives_both_classes(tmp_path: Path) -> None:
    lines = ["Both runners crash the same way on v0.20.1 with an eagle3 draft:", "",
             f"VLLM_USE_V2_MODEL_RUNNER=0 vllm serve meta-llama/Llama-3.1-8B-Instruct {_EAGLE3}",
             f"VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct {_EAGLE3}", "",
             *_ENGINE_DIES[1:]]  # fmt: skip
    for crash in roots(run(tmp_path, lines)):
        path = crash.worker_path
        assert path is not None and path.worker_class is None, path
        assert_verdict(path, "unknown", "EagleProposer|EagleSpeculator")


def test_a_switch_the_writer_only_offers_sets_no_runner(tmp_path: Path) -> None:
    """A maintainer's "could you try" over the same one-paragraph serve line: the V1 runner's
    class by the release, as before (the switch is advice, not the run's)."""
    lines = ["Crash with eagle3 on vLLM 0.20.1:", "", f"vllm serve meta-llama/Llama-3.1-8B-Instruct {_EAGLE3}", "",
             *_ENGINE_DIES[1:], "",
             "Could you try VLLM_USE_V2_MODEL_RUNNER=1 vllm serve with --no-enable-prefix-caching instead?"]  # fmt: skip
    for crash in roots(run(tmp_path, lines)):
        path = crash.worker_path
        assert path is not None and (path.value, path.worker_class) == ("other", "EagleProposer"), path


def test_a_howto_setting_the_switch_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Trying the model runner v2 with EAGLE-3", "",
        "This guide shows how to switch vLLM to the model runner v2 and serve an EAGLE-3 draft.", "",
        "1. Set the switch and start the server:", "", "```bash",
        f"VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --no-enable-prefix-caching {_EAGLE3}",
        "```", "", "2. Send a request with `curl` and compare the latency with the V1 runner.",
    ])  # fmt: skip


# --- 2. a design or implementation doc's example config and tests to run are no run ---

_ZH_DESIGN = [
    "# EAGLE-3 双草稿流水线设计", "",
    "本文说明在 MRV2 上串联两个 EAGLE-3 草稿头的实现：`planner.py` 负责轮次，`merge.py` 合并候选。", "",
    "## 配置", "", "需要开启 `VLLM_USE_V2_MODEL_RUNNER=1`。例如：", "", "```bash",
    "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve /models/target-70B \\",
    '  --speculative-config \'{"method":"eagle3","model":"/models/draft-a","num_speculative_tokens":6}\'',
    "```", "", "请把示例路径换成实际模型。第二个草稿头缺少权重时会报错；暂不支持 PP。", "",
    "## 验证", "", "端到端用例仍需在真机上执行验证：", "", "```bash",
    "VLLM_USE_V2_MODEL_RUNNER=1 pytest -q \\", "  tests/v1/e2e/test_dual_eagle.py", "```", "",
    "目前还没有真机吞吐数据。",
]  # fmt: skip
# "比如：" over the example; "否则会报错" a condition; the e2e test "尚未在真机上执行"
_ZH_EXAMPLE_BIRU = [
    "# NGRAM 与 EAGLE 混合提议器实现说明", "",
    "混合提议器放在 `spec_decode/hybrid/` 下：`router.py` 选择提议来源，`fallback.py` 处理回退。", "",
    "## 启动参数", "", "比如：", "", "```bash", "vllm serve /models/Qwen3-14B \\",
    '  --speculative-config \'{"method":"eagle","model":"/models/eagle-14B","num_speculative_tokens":4}\'',
    "```", "", "草稿与目标的词表必须一致，否则会报错。", "",
    "## 测试", "", "以下端到端测试尚未在真机上执行：", "", "```bash",
    "pytest -q tests/e2e/spec_decode/test_hybrid_proposer.py", "```",
]  # fmt: skip
# Traditional Chinese: "範例：", "如果缺少 ... 則報錯", "仍須 ... 驗證："
_TW_DESIGN = [
    "# MTP 深度自適應 設計文件", "", "本設計在 MRV2 上依接受率調整 MTP 深度，程式碼位於 `spec_decode/adaptive_mtp/`。", "",
    "## 設定", "", "範例：", "", "```bash", "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve /models/DeepSeek-V3 \\",
    '  --speculative-config \'{"method":"mtp","num_speculative_tokens":3}\'', "```", "",
    "如果缺少 MTP 權重則報錯。", "", "## 驗證", "", "仍須在實機上執行驗證：", "", "```bash",
    "VLLM_USE_V2_MODEL_RUNNER=1 pytest -q tests/e2e/spec_decode/test_adaptive_mtp.py", "```",
]  # fmt: skip
_JA_DESIGN = [
    "# DFlash 二段ドラフト 設計メモ", "", "MRV2 上で DFlash ドラフトを二段に重ねる実装の設計。", "",
    "## 設定", "", "設定例：", "", "```bash", "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve /models/base-8B \\",
    '  --speculative-config \'{"method":"dflash","model":"/models/dflash-8B","num_speculative_tokens":12}\'',
    "```", "", "ドラフトが見つからない場合はエラーになる。PP は未対応。", "", "## 検証", "", "実機では未検証：", "",
    "```bash", "VLLM_USE_V2_MODEL_RUNNER=1 pytest -q tests/e2e/spec_decode/test_two_stage_dflash.py", "```",
]  # fmt: skip
_EN_DESIGN = [
    "# Design: chained MTP heads on the V2 runner", "",
    "This note describes how the chained-head proposer plugs into MRV2: `chain/adapter.py` wraps the head.", "",
    "## Configuration", "", "For example:", "", "```bash", "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve /models/target \\",
    '  --speculative-config \'{"method":"mtp","num_speculative_tokens":4}\'', "```", "",
    "Replace the example paths with real checkpoints. Pipeline parallelism is not supported yet.", "",
    "## Validation", "", "Still needs to be validated on real hardware:", "", "```bash",
    "VLLM_USE_V2_MODEL_RUNNER=1 pytest -q tests/e2e/spec_decode/test_chained_mtp.py", "```", "",
    "No throughput numbers exist yet.",
]  # fmt: skip


@pytest.mark.parametrize("lines", [_ZH_DESIGN, _ZH_EXAMPLE_BIRU, _TW_DESIGN, _JA_DESIGN, _EN_DESIGN],
                         ids=["zh-liru", "zh-biru", "zh-hant", "ja", "en"])  # fmt: skip
def test_a_design_docs_example_config_and_tests_to_run_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_a_chinese_report_of_the_writers_own_failing_launch_still_decides(tmp_path: Path) -> None:
    """The near miss: the same serve line under "our launch command:" and "启动就报错" with the
    engine's record: the writer's run, on the runner its switch sets."""
    lines = ["# MRV2 下 EAGLE-3 启动就报错", "", "我们的启动命令如下：", "", "```bash",
             "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct \\", f"  {_EAGLE3}", "```", "",
             "vLLM 版本 0.20.1，启动就报错，缺少的不是权重：", "", "```", _ENGINE_DIES[0], _ENGINE_DIES[-1], "```"]  # fmt: skip
    for crash in roots(run(tmp_path, lines)):
        path = crash.worker_path
        assert path is not None and (path.value, path.worker_class) == ("other", "EagleSpeculator"), path
    assert roots(run(tmp_path, lines))


@pytest.mark.parametrize(("said", "met"), [
    ("缺少匹配的图时会报错，不会静默回退。", False),  # a condition: a missing graph errors
    ("词表不一致，否则失败。", False),
    ("如果我打开 MTP 就报错。", True),  # the writer in the condition: their run failed
    ("启动就报错。", True),
], ids=["missing-then-error", "otherwise-fails", "writer-in-condition", "failed-at-start"])  # fmt: skip
def test_a_failure_word_inside_a_condition_tells_no_failure_met(said: str, met: bool) -> None:
    from spectrace.assemblers.documents import own_run

    assert own_run(said) is met


# --- 3. vLLM on Neuron (the vllm-neuron plugin) never runs vLLM's CUDA proposer ---

_NEURON_SERVE = ('vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 32 --speculative-config '
                 '\'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-70B", "num_speculative_tokens": 4}\'')  # fmt: skip
_CORE_DIES = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.10/site-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    "RuntimeError: NRT error: execution failed",
]  # fmt: skip


@pytest.mark.parametrize("lines", [
    # the plugin's pip name and a frame of its runner
    ["Setup: trn2.48xlarge, pip install vllm-neuron (0.3.1), eagle3 draft for Llama-3.1-70B.", "", _NEURON_SERVE, "",
     "Traceback (most recent call last):",
     '  File "/opt/venv/lib/python3.11/site-packages/vllm_neuron/worker/neuron_model_runner.py", line 412, in execute_model',
     "    output = self.model(**inputs)", "RuntimeError: Neuron compilation failed for the fused speculation graph"],
    # the plugin's own block of --additional-config
    ["Server dies on the first request with the eagle3 draft:", "",
     _NEURON_SERVE.replace("--tensor-parallel-size 32",
                           "--additional-config '{\"neuron_config\": {\"enable_bucketing\": true}}'"), "", *_CORE_DIES],
    # the product named in the writer's sentence
    ["We run vLLM Neuron 0.4.0 on Trainium2 with an EAGLE3 draft and the server crashes after warmup.", "",
     _NEURON_SERVE, "", *_CORE_DIES],
], ids=["pip-and-frame", "neuron-config-block", "product-name"])  # fmt: skip
def test_a_run_on_the_neuron_plugin_gets_no_cuda_proposer(tmp_path: Path, lines: list[str]) -> None:
    crashes = roots(run(tmp_path, lines))
    assert crashes
    for crash in crashes:
        path = crash.worker_path
        assert path is not None and path.worker_class is None, path
        assert "EagleProposer" not in (path.conditional or ""), path.conditional


def test_a_cuda_report_citing_the_neuron_repository_keeps_its_proposer(tmp_path: Path) -> None:
    """The near miss: on vLLM's tracker a comment naming the plugin's repository is a comparison."""
    lines = ["vllm-project/vllm · issue #50321 · open", "",
             "# [Bug]: EAGLE3 illegal memory access on H100 with vLLM 0.11.0", "",
             f"vllm serve meta-llama/Llama-3.1-8B-Instruct {_EAGLE3}", "", *_ENGINE_DIES, "",
             "bob commented on Oct 3, 2025", "", "The vllm-project/vllm-neuron repository has a similar report."]  # fmt: skip
    for crash in roots(run(tmp_path, lines)):
        path = crash.worker_path
        assert path is not None and (path.value, path.worker_class) == ("other", "EagleProposer"), path


# --- 3b. a tutorial's sample output and illustrative table are no run's ---

_TUTORIAL = [
    "# Tutorial: Serve Llama-3.1-70B with an EAGLE-3 draft on H100", "",
    "<!-- Content type: procedural-tutorial -->", "",
    "In this tutorial you will launch a vLLM server with an EAGLE-3 draft, benchmark it, and compare it",
    "with a plain server.", "", "## Step 1: Launch the server", "", "```bash",
    "vllm serve meta-llama/Llama-3.1-70B-Instruct \\", "    --tensor-parallel-size 4 \\",
    '    --speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-70B", '
    '"num_speculative_tokens": 3}\'', "```", "", "## Step 2: Benchmark", "",
    "`vllm bench serve` prints a block like this one when the server drafts:", "", "```text",
    "---------------Speculative Decoding---------------", "Acceptance rate (%):                     61.20",
    "Acceptance length:                       2.84", "```", "", "## Results", "", ":::{note}",
    "The numbers below are illustrative; measure on your own traffic.", ":::", "",
    "| GPU | Metric | Plain | EAGLE-3 |", "| --- | --- | --- | --- |",
    "| 4x H100 | output throughput (tok/s) | 410.5 | 702.3 |", "| 4x H100 | mean acceptance length | n/a | 2.84 |",
]  # fmt: skip
_HOWTO_SAMPLE = [
    "# How to run vLLM with ngram speculation", "", "## Launch", "", "```bash",
    'vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config \'{"method": "ngram", '
    '"num_speculative_tokens": 4, "prompt_lookup_max": 4}\'', "```", "", "## Check the acceptance", "",
    "Sample output of `vllm bench serve`:", "", "```text", "---------------Speculative Decoding---------------",
    "Acceptance rate (%):                     38.10", "Acceptance length:                       2.52", "```",
]  # fmt: skip
_ZH_TUTORIAL = [
    "# Qwen3-32B EAGLE-3 部署教程", "", "本教程介绍如何用 vLLM 启动带 EAGLE-3 草稿的服务并做压测。", "",
    "## 第一步：启动服务", "", "```bash", "vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2 \\",
    '  --speculative-config \'{"method":"eagle3","model":"Tengyunw/qwen3_32b_eagle3","num_speculative_tokens":3}\'',
    "```", "", "## 第二步：压测", "", "下面的结果仅供参考：", "", "| 配置 | 输出吞吐 (tok/s) | 平均接受长度 |",
    "| --- | --- | --- |", "| 无投机 | 388.1 | - |", "| EAGLE-3 | 640.7 | 2.71 |",
]  # fmt: skip


@pytest.mark.parametrize("lines", [_TUTORIAL, _HOWTO_SAMPLE, _ZH_TUTORIAL], ids=["tutorial", "how-to", "zh"])
def test_a_tutorials_sample_output_and_illustrative_table_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_a_tutorial_with_the_writers_own_output_keeps_its_run(tmp_path: Path) -> None:
    """The near miss: the same page, its bench block the writer's own ("the output I got")."""
    lines = [*_TUTORIAL[: _TUTORIAL.index("## Step 2: Benchmark") + 2],
             "Here is the output I got on our 4x H100 box; your numbers will vary:", "",
             "```text", "---------------Speculative Decoding---------------",
             "Acceptance length:                       2.84", "```"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path
