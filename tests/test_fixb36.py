"""Session 36 (FIXB): the name a results report gives its measured arm ("Profile: mtp-v23",
"variant = eagle3-k4") names the arm's speculative family by a segment of its own.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.path_base import family_words


@pytest.mark.parametrize(("text", "names"), [
    ("**Profile:** mtp-v23", {"MTP"}),
    ("variant = eagle3-k4", {"EAGLE3"}),
    ("- arm: dflash_b16, rate 2", {"DFLASH"}),
    ("Preset: `qwen3-nextn-tp8`", {"MTP"}),
    ("run_name: llama70b-eagle-t2", {"EAGLE"}),
    ("Profile: baseline-no-mtp", set()),  # the arm runs without the method
    ("variant: mtp-off", set()),
    ("profile: eagle3-vs-mtp", set()),  # two methods: a comparison's name, no one arm
    ("Model: acme/llama-eagle3-head", set()),  # a model id is no arm's name
], ids=["bold-profile", "variant", "arm-underscore", "preset-backticks", "run-name", "no-mtp", "off",
        "two", "model-id"])  # fmt: skip
def test_an_arm_name_names_its_family_by_its_own_segment(text: str, names: set[str]) -> None:
    assert family_words(text) == names


_BENCH = ["============ Serving Benchmark Result ============",
          "Successful requests:                     120",
          "Benchmark duration (s):                  402.18",
          "Output token throughput (tok/s):         74.90",
          "Mean TPOT (ms):                          38.22",
          "---------------Speculative Decoding---------------",
          "Acceptance rate (%):                     52.10",
          "Acceptance length:                       3.08",
          "=================================================="]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # a generated vLLM bench page: its header names the profile, the model and the tool
    (["# Run C - chat replay at 0.5 rps", "", "**Profile:** mtp-r4", "**Model:** google/gemma-4-31B-it",
      "", "## Command", "", "```bash",
      "vllm bench serve --model google/gemma-4-31B-it --dataset-name sharegpt --num-prompts 120 --request-rate 0.5",
      "```", "", "## Results", "", *_BENCH],
     "unknown", "Gemma4Proposer|Gemma4Speculator", "mtp-r4"),
    # a YAML record of one arm measured on a vLLM release
    (["experiment: sweep-07", "variant: eagle3-k4", "engine: vLLM 0.14.1", "results:",
      "  output_tok_s: 612.4", "  acceptance_length: 2.71", "  acceptance_rate_pct: 44.0"],
     "other", "EagleProposer", "eagle3-k4"),
    # an SGLang results list whose arm is named with an underscore
    (["## Sweep results (2026-03-02)", "", "- engine: SGLang 0.5.9", "- arm: eagle3_topk4",
      "- decode: 188 tok/s on one H200", "- accept length 3.4"],
     "v1", "EAGLEWorker", "eagle3_topk4"),
], ids=["vllm-bench-page", "yaml-record", "sglang-list"])  # fmt: skip
def test_a_report_naming_its_arm_decides_the_family(tmp_path: Path, lines: list[str], value: str,
                                                    classes: str, said: str) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text for e in path.evidence), path.evidence


def test_a_quick_start_page_naming_a_profile_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Benchmarking guide", "", "## Quick start", "",
        "Pick a profile first; the defaults are below.", "", "**Profile:** mtp-v2", "**Tool:** vllm", "",
        "To run the benchmark, execute the following command:", "",
        "```bash", "vllm bench serve --model google/gemma-4-31B-it --num-prompts 100", "```", "",
        "## Expected output", "", "The tool prints a block like the one below.", "", *_BENCH])  # fmt: skip


# a generated sweep report: its arm runs EAGLE-3 on a vLLM release its workload table names; its
# closing list plans work on another engine, and its verdict sets the arm against the plain one
_SWEEP = ["# Sweep 2 - latency report", "", "**Generated:** 2026-03-11 09:12:40 UTC", "",
          "| # | Label | max-num-seqs | Description |", "|---|---|---|---|",
          "| 0 | plain | 256 | no speculation |",
          "| 1 | spec-a | 64 | EAGLE-3 drafter, num_speculative_tokens=4 |", "",
          "## Results - output throughput (tok/s)", "", "| Rate | plain | spec-a |", "|---|---|---|",
          "| 1.0 | 410 | 388 |", "| 2.0 | 780 | 512 |", "",
          "The spec-a arm's acceptance length was 1.04, and it failed the TPOT target at 2.0 rps.", ""]  # fmt: skip
_TOOL = ["## Workload", "", "| Parameter | Value |", "|---|---|",
         "| Tool | `vllm bench serve` (vLLM 0.15.0) |", "| Prompts | 200 |"]  # fmt: skip


@pytest.mark.parametrize("closing", [
    # the plan as the paragraph's last sentence
    ["### Conclusion", "",
     "The EAGLE-3 arm is slower than no speculation at every rate. Possible next steps:", "",
     "1. Retry with a BF16 target.", "2. Compare against the TensorRT-LLM numbers of sweep 1.", ""],
    # the plan under its own heading
    ["## Next steps", "", "- Rerun the sweep on SGLang 0.5.9 with the same drafter.", "- Re-measure at rate 3.0.", ""],
    # a Chinese caption
    ["结论：EAGLE-3 在所有速率下都比不开投机更慢。", "", "下一步：", "- 在 SGLang 上重跑这组测试", ""],
], ids=["paragraph-caption", "heading", "chinese-caption"])  # fmt: skip
def test_a_report_planning_another_engine_keeps_its_own(tmp_path: Path, closing: list[str]) -> None:
    path = probed_path(tmp_path, [*_SWEEP, *closing, *_TOOL])
    assert_verdict(path, "other", "EagleProposer")


def test_a_plan_with_next_steps_and_no_run_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Speculative decoding rollout plan", "", "## Goal", "",
        "Cut p99 TPOT for the chat tier with EAGLE-3 on vLLM 0.15.0.", "", "## Next steps", "",
        "1. Launch `vllm serve acme/chat-70b --speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/chat-70b-eagle3\", \"num_speculative_tokens\": 3}'`.",
        "2. Run `vllm bench serve` at rates 1-3 and fill in the table.", "",
        "| Rate | TPOT p99 |", "|---|---|", "| 1.0 | TBD |", "| 2.0 | TBD |"])  # fmt: skip


# Chinese and Japanese reports glue the engine's name to their words ("vllm版本为0.10.1",
# "用sglang部署"): the name and its release are still the run's
@pytest.mark.parametrize(("lines", "value", "classes"), [
    (["推理服务报错 #3", "lin-w · description · 2025-10-11",
      "我用的vllm版本为0.10.1，用eagle3部署Qwen3-8B，一发请求就报错，服务退出。",
      "RuntimeError: CUDA error: an illegal memory access was encountered"],
     "other", "EagleProposer"),
    (["开启投机解码后服务崩溃 #8", "zhao-q · description · 2026-01-20",
      "我们用sglang部署Llama-3.1-8B，sglang版本为0.5.9，开启EAGLE3后一发请求就报错，服务直接退出。",
      "RuntimeError: CUDA error: an illegal memory access was encountered"],
     "v1", "EAGLEWorker"),
    (["投機的デコードでクラッシュ #5", "sato-k · description · 2025-10-11",
      "vLLMバージョン: 0.10.1 で eagle3 を有効にして起動すると、最初のリクエストで落ちます。",
      "RuntimeError: CUDA error: an illegal memory access was encountered"],
     "other", "EagleProposer"),
], ids=["vllm-zh", "sglang-zh", "vllm-ja"])  # fmt: skip
def test_a_cjk_report_names_its_engine_and_release(tmp_path: Path, lines: list[str], value: str,
                                                   classes: str) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(e.lineno == 3 for e in path.evidence), path.evidence


def test_a_cjk_deployment_guide_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# 部署指南", "", "## 环境要求", "", "- vllm版本为0.10.1", "- 一张 H100", "", "## 启动服务", "",
        "运行以下命令，用eagle3启动服务：", "", "```bash",
        "vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/qwen3-8b-eagle3\", \"num_speculative_tokens\": 3}'",
        "```"])  # fmt: skip
