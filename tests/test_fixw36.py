"""Session 36 (FIXW): the plugin platform told by an environment row.

A vLLM bug report's environment block whose rows set the backend, platform or device to the
vllm-ascend plugin or its NPUs ("Backend: vLLM Ascend", "- **Device**: Ascend 910B3",
"| Hardware | Ascend NPU |") places the run on the plugin: its proposer or speculator class
for the method, never vLLM's own GPU class. A how-to naming the same rows with no run of the
writer's gets no path.

Each test writes its own lines and asserts what a user sees through the public pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, probed_path
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
