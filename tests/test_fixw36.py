"""Session 36 (FIXW): the plugin platform told by an environment row; an SGLang recipe's label.

A vLLM bug report's environment block whose rows set the backend, platform or device to the
vllm-ascend plugin or its NPUs ("Backend: vLLM Ascend", "- **Device**: Ascend 910B3",
"| Hardware | Ascend NPU |") places the run on the plugin: its proposer or speculator class
for the method, never vLLM's own GPU class. A how-to naming the same rows with no run of the
writer's gets no path.

2. A benchmark recipe PR naming SGLang (its title, its serving words, a config entry named
``...-sglang-...``) whose harness key reads ``spec-decoding: draft_model``: that value is the
recipe's category, not vLLM's method, so no vLLM class; DSPARK on SGLang is DSparkWorkerV2.

3. EAGLE (1/2) on a built TensorRT engine, shown by its C++ batch manager as a run prints it (a
failed check's source ``.../batch_manager/trtGptModelInflightBatching.cpp:N``, a numbered native
frame): the engine's EagleDecodingLayer, never the PyTorch backend's Eagle3 workers; a note
naming that code in a sentence shows no run.

Each test writes its own lines and asserts what a user sees through the public pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.vllm_config import ascend_signal

_PLAIN = ["vllm-project/vllm · issue #60101 · open · Python",
          "# [Bug]: draft tokens dropped after a preempted request resumes", "",
          "lin-q · description · 2026-08-12", "## Your current environment", "", "```text",
          "vLLM: v0.27.1", "Backend: vLLM Ascend, built from main", "Device: Ascend NPU", "Engine: V1",
          "speculative method=DSpark, K=5", "```", "",
          "After preemption the resumed request decodes with a shorter window."]  # fmt: skip
_BULLETS = ["vllm-project/vllm · issue #60102 · open · Python",
            "# [Bug]: acceptance falls to zero with prefix caching on", "",
            "ko-r · description · 2026-08-20", "Environment:",
            "- vLLM 0.27.1", "- **Platform**: vllm-ascend (source)", "- **Hardware**: Ascend 910B3 x8",
            "- DSpark with 4 speculative tokens", "",
            "The second identical request accepts no draft token at all."]  # fmt: skip
_TABLE = ["vllm-project/vllm · issue #60103 · open · Python",
          "# [Bug]: 推测解码开启后输出重复", "", "zhao-m · description · 2026-08-25",
          "| item | value |", "|---|---|", "| vLLM | 0.27.1 |", "| Device | Ascend NPU (A3) |",
          "| speculative method | DSpark, 3 tokens |", "",
          "开启后同一请求的输出出现重复片段。"]  # fmt: skip


@pytest.mark.parametrize("lines", [_PLAIN, _BULLETS, _TABLE], ids=["plain-rows", "bullets", "table"])
def test_an_environment_row_on_the_plugin_gives_the_plugins_class(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    said = path.worker_class or path.conditional or ""
    assert "Ascend" in said, path
    assert path.worker_class != "DSparkSpeculator" and "DSparkSpeculator on vLLM" not in said, path


@pytest.mark.parametrize(("line", "on_ascend"), [
    ("Backend: vLLM Ascend", True), ("- **Device**: Ascend 910B3", True), ("| Hardware | Ascend NPU |", True),
    ("NPU: Huawei Ascend 910B4", True),
    ("We plan to support Ascend NPUs next quarter", False), ("Backend: vLLM", False), ("Device: cuda", False),
])  # fmt: skip
def test_only_a_row_keyed_by_platform_or_device_places_the_run(line: str, on_ascend: bool) -> None:
    assert ascend_signal(line) is on_ascend


def test_a_howto_with_the_same_rows_shows_no_run(tmp_path: Path) -> None:
    lines = ["# Deploying DSpark on Ascend", "", "This guide walks through a deployment. You will need:", "",
             "- Backend: vLLM Ascend", "- Device: Ascend NPU", "",
             "Set the speculative method to DSpark in your config, then start the server."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 2. a recipe PR naming SGLang whose harness key carries a vLLM-only method value ---

def _recipe(title: str, body: list[str]) -> list[str]:
    return ["acme-labs/bench-recipes · pull request #812 · merged · Python", title, "",
            "rao-p · description · 2026-09-10", *body]  # fmt: skip


_SGLANG_RECIPES = [
    _recipe("# perf(sglang): move the H200 Qwen3 agentic recipe to DSpark",
            ["- SGLang serving switches speculative decoding to DSPARK (block size 4, 1 step, 5 draft tokens)",
             "- accepted length rises to 3.1 on the agentic trace", "",
             "The `qwen3-h200-sglang-agentic` entry now sets `spec-decoding: draft_model`."]),
    _recipe("# [sglang] B200 recipe: DSpark for the long-context workload",
            ["We moved the SGLang B200 long-context recipe to DSPARK with 6 draft tokens; throughput went up 18%.",
             "", "Config: `spec_decoding: draft_model`, `spec_steps: 1`"]),
    _recipe("# 基准配方：SGLang 改用 DSpark",
            ["SGLang 服务的推测解码改为 DSPARK（block size 5，7 个草稿 token），接受长度 3.4。", "",
             "配置项 `spec-decoding: draft_model`。"]),
]  # fmt: skip


@pytest.mark.parametrize("lines", _SGLANG_RECIPES, ids=["bullets", "prose", "chinese"])
def test_a_recipe_naming_sglang_never_gets_vllms_classes(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    said = f"{path.worker_class} {path.conditional}"
    assert "DraftModelProposer" not in said and "DSparkSpeculator" not in said, path


@pytest.mark.parametrize("lines", _SGLANG_RECIPES[1:], ids=["prose", "chinese"])
def test_a_recipe_naming_sglang_and_dspark_gets_its_worker(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "DSparkWorkerV2", path


def test_a_recipe_guide_with_the_same_words_shows_no_run(tmp_path: Path) -> None:
    lines = ["# Writing a benchmark recipe", "", "A recipe names the engine (for example SGLang) and a",
             "speculative setting such as `spec-decoding: draft_model` or DSPARK.", "",
             "Copy the template below and fill in your own values."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 3. EAGLE-1/2 on a built TensorRT engine, shown by its C++ batch manager's frames ---

_ASSERT = ("[TensorRT-LLM][ERROR] Assertion failed: draft buffers not ready "
           "(/src/trt/cpp/tensorrt_llm/batch_manager/trtGptModelInflightBatching.cpp:2210)")
_FRAME = ("3       0x7f00aa11bb22 tensorrt_llm::batch_manager::TrtGptModelInflightBatching::forwardAsync("
          "std::list<std::shared_ptr<tensorrt_llm::batch_manager::LlmRequest>> const&) + 412")
_ENGINE_EAGLE = [
    ["NVIDIA/TensorRT-LLM · issue #9100 · open · Python", "# Eagle engine aborts when the batch grows", "",
     "sun-w · description · 2025-05-02",
     "Our EAGLE-2 engine aborts once more than 12 requests are in flight:", _ASSERT],
    ["NVIDIA/TensorRT-LLM · issue #9101 · open · Python", "# crash with eagle at long inputs", "",
     "pia-d · description · 2025-04-11", "Running the built engine in EAGLE mode on 2x A100 fails:",
     "[TensorRT-LLM][ERROR] std::runtime_error: bad draft length", _FRAME],
    ["NVIDIA/TensorRT-LLM · issue #9102 · open · Python", "# Eagle 模式下大 batch 报错", "",
     "he-j · description · 2025-06-20", "用 TRT engine 跑 Eagle 2，batch 大于 8 时报错：", _ASSERT],
]  # fmt: skip


@pytest.mark.parametrize("lines", _ENGINE_EAGLE, ids=["assertion", "native-frame", "chinese"])
def test_eagle_on_the_engines_batch_manager_is_its_decoding_layer(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.worker_class in ("EagleDecodingLayer", None), path
    assert "Eagle3OneModelWorker" not in (path.conditional or ""), path


def test_the_assertion_with_eagle_words_decides_the_layer(tmp_path: Path) -> None:
    assert_verdict(probed_path(tmp_path, _ENGINE_EAGLE[0]), "other", "EagleDecodingLayer")


def test_a_design_note_naming_the_batch_manager_shows_no_run(tmp_path: Path) -> None:
    lines = ["# How EAGLE drafts flow through the C++ runtime", "",
             "This note explains the code path: `TrtGptModelInflightBatching::forwardAsync` calls the",
             "decoder, which hands EAGLE draft tokens to the layer. No benchmark here."]  # fmt: skip
    assert_no_path(tmp_path, lines)
