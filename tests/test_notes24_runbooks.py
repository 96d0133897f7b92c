"""Runbooks, checklists and scripts about a speculative SGLang start show no run (issue 11,
session 24, NOTES).

A runbook tells the reader which log lines a start must show ("want: ...", "启动日志必须确认："),
which results to expect and which failures they may meet ("## If it doesn't reproduce", "## 常见
错误和处理"); a launch script's comments say why a setting was chosen ("0.70 OOMs at conc"). Last
session's sealed round 67 gave two such runbooks paths. The document reader now skips these
lines when it looks for the writer's own run or failure. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import probed_path

# ---- a runbook's expected lines, checklists and failure modes are no run ------------------------

RUNBOOK = [
    "# Reproduction kit — MTP on one node", "",
    "Goal: Qwen3-Next with EAGLE on one node, coherent output and real acceptance.", "",
    "## 0. Prerequisites", "",
    "- **Machine:** one 8x H200 node (we used node-7).",
    "- **Image:** `lmsysorg/sglang:v0.5.9-cu129`.", "",
    "## 1. Launch", "",
    "    bash launch.sh",
    "    # + EAGLE flags: --speculative-algorithm EAGLE --speculative-num-steps 3",
    "    #   --speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "",
    "Confirm the draft head loaded without the shape crash:", "",
    "    docker logs mtp 2>&1 | grep 'Load weight end'",
    '    # want: "Load weight end ... type=Qwen3NextForCausalLMMTP"  (NO tensor-mismatch)', "",
    "## Expected output", "",
    "- Draft head loads (no shape crash), accept len 3.1-3.6, ~150 tok/s single-stream.", "",
    "## If it doesn't reproduce", "",
    "- **Shape crash `2048 vs 4096`** at draft load → the patch is not mounted.",
    "- **Probe hangs** → the precompute env is missing.",
]
RUNBOOK_ZH = [
    "# 1P1D PD 分离：Decode 开启 DSpark", "", "更新时间：2026-08-27", "",
    "## 4. Decode 服务", "", "Decode 实际使用的关键参数：", "", "```text",
    "--disaggregation-mode decode", "--speculative-algorithm DSPARK", "--speculative-attention-mode decode", "```", "",
    "## 6. 启动顺序和检查", "", "启动日志必须确认：", "", "```text",
    "Decode: disaggregation_mode='decode'", "Decode: speculative_algorithm='DSPARK'",
    "Decode: cuda graph: True", "```", "",
    "不能只改 `CUDA_VISIBLE_DEVICES`；否则可能出现 bootstrap",
    "失败、RDMA 注册失败或 Mooncake transfer timeout。", "",
    "## 9. 性能测试模板", "", "正式结果至少记录：", "", "```text", "Out tok/s", "Mean TTFT", "```", "",
    "## 10. 常见错误和处理", "", "### 10.1 Decode bootstrap 失败", "", "1. 两侧 IB 设备是否对应。",
]
SCRIPT = [
    "#!/usr/bin/env bash", "# PD decode leg with MTP on the decode side.", "set -euo pipefail",
    'IMAGE="${IMAGE:-lmsysorg/sglang:v0.5.9-cu129}"',
    "NEXTN_PATCH=/mnt/share/nextn_patch/deepseek_nextn.py   # MY 1-line fix",
    "# decode mem-frac 0.80 (0.70 OOMs at conc=64)",
    'MTP_FLAGS="--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1"',
    'python3 -m sglang.launch_server --model-path "$MODEL" --tp-size 8 $MTP_FLAGS &',
    'python bench.py --port 30000 || echo "bench failed, continuing"',
]


@pytest.mark.parametrize("lines", [RUNBOOK, RUNBOOK_ZH, SCRIPT], ids=["runbook", "runbook-zh", "script"])
def test_a_runbook_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and path.conditional is None


@pytest.mark.parametrize("lines, said", [
    # the writer's own run told beside the runbook's sections
    ([*RUNBOOK[:4], "We ran it on 2026-07-27 and the draft load crashed with a shape mismatch.", *RUNBOOK[4:]],
     "EAGLEWorker"),
    # a Chinese notes file telling its own failed start above the same checklist
    (["# DSpark 启动记录", "", "我们用 sglang 0.5.16 部署 DSPARK，启动时崩溃。", "", *RUNBOOK_ZH[14:24]],
     "DSparkWorkerV2"),
])  # fmt: skip
def test_a_run_beside_a_checklist_keeps_its_path(tmp_path: Path, lines: list[str], said: str) -> None:
    path = probed_path(tmp_path, lines)
    assert said in f"{path.worker_class} {path.conditional}"


OVERLAY = [
    "# DFlash overlay for pip sglang 0.5.18", "", "## Installation", "",
    "Apply it over `site-packages/sglang/` after every pip (re)install.", "",
    "## Why surgical and not wholesale", "",
    "The reference overlay targets the cookbook image; its appended files are image-vintage.", "",
    "| File | What it is |", "|---|---|",
    "| `srt/speculative/dflash_worker_v2.py` | upstream main — the DFlash worker |", "",
]
VALIDATED = ("Validated on an RTX PRO 6000 (SM120): server log shows "
             "`Initialized DFLASH draft runner. ..., model=DFlashDraftModel, block_size=8`.")
UPDATING = ["", "## Updating", "",
            "Once a pip release ships it natively, run stock `sglang.launch_server --speculative-algorithm DFLASH`."]


def test_a_readme_quoting_its_validation_output_shows_its_run(tmp_path: Path) -> None:
    assert probed_path(tmp_path, [*OVERLAY, VALIDATED, *UPDATING]).worker_class == "DFlashWorkerV2"


def test_a_readme_naming_only_its_test_rig_shows_no_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [*OVERLAY, "Tested on an RTX PRO 6000 (SM120).", *UPDATING])
    assert path.worker_class is None and path.conditional is None
