"""Runs told in prose (a PR's validation or repro, a field report) against texts that show no
run (a fix PR reasoning about code, a review thread, a recipe leaving speculation off) (issue
11, session 23, RUNPROSE).

The line between the two is one words table (``rules/paths/run_prose.toml``): a fix pull
request shows a run where its description shows something of one (the issue it fixes, a
release or image, a counted rig, an error's output, a repro, a run told with its outcome); a
review's web copy ("bob reviewed on Jul 3") is code under review; "MTP is left disabled by
default" is no run's method; "Measured on the GEN worker of a ... run", "reproduced the original
failure", "**before:** CUDA OOM at boot" and "hit the crash in production" tell a run. Last
session's sealed rounds failed on these shapes both ways; every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, roots, run

from spectrace.assemblers.run_prose import fix_evidence, review_opener, spec_off, told_run
from spectrace.worker_path import WorkerPath


def probed(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path of the root causes (the text's own and a probe's)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]


def _said(path: WorkerPath) -> str:
    return f"{path.worker_class or ''} {path.conditional or ''}"


# ---- a fix PR that reasons about code shows no run ------------------------------------------

SGL_FIX_HEAD = ["sgl-project/sglang · pull request #41002 · open · Python",
                "# [Fix] Keep EAGLE3 draft positions aligned under ragged verify", "",
                "ana-dev · description · 2026-10-02", "## Motivation", ""]
SGL_FIX_BODY = [
    "This PR fixes two problems exposed by EAGLE3 ragged verification:", "",
    "1. Draft positions assumed a uniform verify width. Reshaping the packed tokens to a dense",
    "   matrix either failed or silently mixed request rows.",
    "2. The graph tier padding received negative positions, which later surfaced as an",
    "   asynchronous illegal memory access.", "",
    "## Modifications", "", "- Map packed tokens through the ragged offsets.",
    "- Keep the dense path unchanged.",
]
VLLM_FIX = [
    "vllm-project/vllm · pull request #61234 · merged · Python",
    "# [Bugfix] Fix DFlash draft attention metadata on SM100", "",
    "jdoe · description · 2026-10-04", "## Purpose", "",
    "DFlash drafts on Blackwell lost most of their acceptance or crashed when the drafter used the "
    "FlashInfer prefill wrapper; Hopper was fine.", "",
    "Root cause: the draft attention builder claimed full-graph support for non-causal attention, "
    "so a captured `run()` was replayed after `plan()` returned new buffers.", "",
    "Fixes:", "- Pick FLASH_ATTN whenever the draft attention is non-causal.",
    "- Only claim `UNIFORM_BATCH` for causal attention.",
]
ASCEND_FIX = [
    "vllm-project/vllm-ascend · pull request #14001 · open · C++",
    "# [BugFix] Fix MTP draft weight reload after RL weight sync", "",
    "kzhang · description · 2026-09-30",
    "### What this PR does / why we need it?",
    "The RL weight update reached the target but not the MTP draft (`model_runner.drafter`); the "
    "draft stayed on its initial weights while the target changed.", "",
    "- `NPUWorker`: bind the draft to the transfer engine on `start_weight_update`.", "",
    "### How was this patch tested?", "Unit tests",
    "- `tests/ut/worker/test_worker_v1.py`: draft bind on start",
]
TRT_FIX = [
    "[None][fix] Fix one-model MTP draft length under attention DP #20111",
    "https://github.com/NVIDIA/TensorRT-LLM/pull/20111",
    "Closed · mli · 2026-09-21", "",
    "## Description", "",
    "The one-model MTP path read `max_draft_len` from the global config instead of the rank's "
    "spec config, so under attention DP each rank sized its draft buffers for the whole group.", "",
    "## Test Coverage", "", "- `tests/unittest/_torch/speculative/test_mtp.py` updated",
]
PLUGIN_FIX = [
    "# [Bugfix] Fix EAGLE3 hidden-state capture in the Arctic runner patch",
    "https://github.com/snowflakedb/ArcticInference/pull/301",
    "Open · rsam · 2026-08-11", "",
    "## Summary", "",
    "The patched runner captured the aux hidden states before the final norm, so EAGLE3 drafts "
    "would see the wrong layer outputs. This moves the capture after the norm.",
]


@pytest.mark.parametrize("lines", [SGL_FIX_HEAD + SGL_FIX_BODY, VLLM_FIX, ASCEND_FIX, TRT_FIX, PLUGIN_FIX],
                         ids=["sglang", "vllm", "ascend-unit-tests", "trtllm-web-copy", "plugin-web-copy"])
def test_fix_pr_reasoning_about_code_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("extra", [
    ["", "Repro (v0.5.19 image, 8xH200, `--speculative-algorithm EAGLE3 --tp 8`): crash at the first verify."],
    ["", "Error: `RuntimeError: shape '[4, -1]' is invalid for input of size 10`"],
    ["", "## Accuracy Tests", "- On main this reproduced the original failure when the batch shrank 4->3."],
    ["", "## Before (wrong positions)", "```", "draft decode forward positions=tensor([8])", "```"],
    ["", "## Test plan", "- [x] Verified the draft positions with debug logging"],
], ids=["repro", "error-output", "reproduced", "before-section", "ticked-check"])
def test_fix_pr_with_evidence_keeps_its_run(tmp_path: Path, extra: list[str]) -> None:
    path = probed(tmp_path, SGL_FIX_HEAD + SGL_FIX_BODY + extra)
    assert "EAGLEWorker" in _said(path)


# ---- a review thread is code under review -----------------------------------------------------

@pytest.mark.parametrize("opener", [
    "coderabbitai[bot] reviewed on Sep 3, 2026",
    "gemini-code-assist[bot] reviewed on Oct 1, 2026",
    "coderabbitai reviewed on Sep 3, 2026",
    "**copilot-pull-request-reviewer[bot]**:",
])
def test_review_thread_names_no_run(tmp_path: Path, opener: str) -> None:
    lines = [
        "[TRTLLM-19001][feat] Forward spec state through the VL wrapper #20002",
        "https://github.com/NVIDIA/TensorRT-LLM/pull/20002", "Merged", "",
        opener, "tensorrt_llm/_torch/models/modeling_vl.py:812", "```diff",
        "+            spec_metadata=spec_metadata,", "```",
        "_Functional Correctness_ | _Minor_",
        "# Confirm the wrapper returns the one-model MTP dictionary rather than logits.",
    ]
    assert review_opener(opener)
    assert_no_path(tmp_path, lines)


def test_review_opener_near_misses() -> None:
    assert not review_opener("I reviewed the logs and the draft crashes at the first verify.")
    assert not review_opener("alice · comment · 2026-09-03")
    assert not review_opener("alice-dev reviewed on Jul 3")  # a human's review may report a run


# ---- speculation left off by default ---------------------------------------------------------

@pytest.mark.parametrize("sentence", [
    "- Speculative decoding (MTP) and expert parallel both stay disabled by default.",
    "Speculative decoding stays off by default in this recipe.",
    "EAGLE3 is kept disabled in the default profile.",
    "MTP 默认关闭，需要时再打开。",
])
def test_recipe_leaving_speculation_off_shows_no_method(tmp_path: Path, sentence: str) -> None:
    assert spec_off(sentence)
    lines = ["eugr/spark-vllm-docker · pull request #301 · open · Shell", "# Add GLM-5 Flash recipe", "",
             "bobk · comment · 2026-09-19", "Refreshed the recipe against main.", "",
             "- Defaults: 128K context, fp8 KV, prefix caching.", sentence,
             "- The generated `vllm serve` command is printed by run-recipe.sh."]
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("sentence", [
    "MTP is disabled by default, so I enabled it with --speculative-config and it crashes at load.",
    "MTP is enabled; expert parallel is left disabled by default.",
    "The crash only shows with EAGLE3, which is off by default.",
    "This bug will not trigger if MTP is disabled, however the performance will hurt.",
    "MTP is disabled in my second run and it still hangs.",
])
def test_speculation_off_near_misses(sentence: str) -> None:
    assert not spec_off(sentence)


# ---- runs told in prose -----------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "Measured on the decode worker of a DEP16 disaggregated deployment, two arms that differ in one line:",
    "- The older Qwen3.8+DSpark compact qualification run reproduced the original",
    "On main this reproduced the same crash at the first verify.",
    "- **before:** `CUDA OOM` during start-up at `--mem-fraction-static 0.78`",
    "- after: boots at 0.80 with a correctly sized pool",
    "- Replayed two 1,700-token requests; both returned HTTP 200 with CUDA graphs on.",
    "dual-max just hit the #1052 crash in production",
    "Cell A, stock. Boots with the same warning and PIECEWISE, fp8 KV.",
    "Benchmarked on 8xH100 with EAGLE3: 1.9x over the plain server.",
    "我们用 sglang 0.5.18 部署 Kimi-K3（DSPARK），启动时崩溃：",
    "EAGLE3 で起動したところ、最初のリクエストでエラーが出ました。",
    "MTP로 실행했더니 첫 요청에서 에러가 났습니다.",
    "Мы запустили MTP на 0.28, и движок упал на первом запросе.",
    "Lancé con EAGLE3 y el servidor falló al arrancar.",
])
def test_told_run_lines(line: str) -> None:
    assert told_run(line)


@pytest.mark.parametrize("line", [
    "I have not reproduced the failure yet.",
    "We could not reproduce the crash on H100.",
    "Before: the code reshaped positions into a dense matrix.",
    "This PR fixes the crash reported in production deployments.",
    "Tested by unit tests only.",
    "- `pytest tests/spec/test_mtp.py`",
    "The server returns HTTP 500 when the draft fails.",
    "如果启动时崩溃，请检查显存设置。",
    "Если сервер упал, проверьте логи.",
])
def test_told_run_near_misses(line: str) -> None:
    assert not told_run(line)


@pytest.mark.parametrize("line", [
    "- vLLM version: v0.18.0",
    "image `lmsysorg/sglang:v0.5.19`", "Tested on 4× MI350X", "TP8 on B200",
    '<img width="100" alt="err" src="https://example.invalid/a.png" />',
    "Error: `AttributeError: 'EagleDraftWorker' object has no attribute 'x'`",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "Repro (v0.5.19 image, 8×H200):", "复现步骤：",
    "Acceptance length with EAGLE3 falls from 3.1 to 1.2 with fp8 KV.",
    "The Qwen3-Next EAGLE3 server crashes at startup on gfx942 GPUs.",
    "- [x] Verified position IDs are correct in draft decode steps with debug logging",
    "## Before (incorrect positions)",
    "Fixed the index and ran the benchmark again: OK.",
])
def test_fix_evidence(line: str) -> None:
    assert fix_evidence(line)


@pytest.mark.parametrize("line", [
    "After [#12876](https://github.com/org/repo/pull/12876), weight load lives in the engine.",
    "DFlash drafts on Blackwell crashed with an illegal memory access; Hopper was fine.",
    "- `tests/ut/worker/test_worker_v1.py`: draft bind on start",
    "Root cause: `seq_len // draft_token_num` does not describe a ragged layout.",
    "Right after the first sync the MTP acceptance fell to 0% and the rollouts turned to noise.",
    "Shapes that do not divide evenly fail at once; shapes that do can spill across requests.",
    "- [ ] Run Eagle speculative decoding e2e test",
    "Before this change the positions were advanced too early.",
    "Ran the unit tests in tests/spec_decode.",
    # the issue a fix closes is that thread's run (session 25: R72 04, R63 02 were traps)
    "Fixes #7809", "closes vllm-project/vllm#50021",
])
def test_fix_evidence_near_misses(line: str) -> None:
    assert not fix_evidence(line)


def test_trtllm_pr_measured_run_is_the_dspark_drafter(tmp_path: Path) -> None:
    lines = [
        "NVIDIA/TensorRT-LLM · pull request #21001 · merged · Python",
        "# [TRTLLM-17001][feat] Latent-KV standalone DSpark drafter for Kimi-K3", "",
        "zhou · description · 2026-10-01", "## Description", "",
        "Adds a latent-KV standalone DSpark drafter beside the GQA one.", "",
        "Measured on the GEN worker of a DEP8 disaggregated run, two arms differing only in "
        "`speculative_model`:", "",
        "| per rank | GQA drafter | latent drafter |", "|---|---|---|",
        "| KV capacity | 1,201,004 tok | 1,702,554 tok |",
    ]
    path = probed(tmp_path, lines)
    assert path.worker_class == "DSparkWorker"


def test_fix_pr_reproduced_run_decides(tmp_path: Path) -> None:
    lines = [
        "fix(spec): map ragged verify positions for DSpark #39001",
        "https://github.com/sgl-project/sglang/pull/39001",
        "Closed · kwong · 2026-09-02", "",
        "## Motivation", "", "The compact verify step packs a different number of tokens for each request.", "",
        "## Accuracy Tests", "",
        "- `test/registered/spec/dspark/test_ragged_verify.py`: 2 of 2 passed on a local CUDA box.",
        "- The older Qwen3.8+DSpark compact qualification run reproduced the original",
        "  failure when the batch shrank 4->3.",
    ]
    path = probed(tmp_path, lines)
    assert path.worker_class == "DSparkWorkerV2"


# ---- the writer's own run told in another language, above the engine's traceback --------------

SGL_TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2900, in run_scheduler_process',
    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 340, in __init__',
    "    self.init_model_worker()",
    "RuntimeError: CUDA out of memory",
]


@pytest.mark.parametrize("told", [
    "我们用 sglang 部署 Kimi-K3（DSPARK 投机解码），启动时崩溃：",
    "sglang で DSPARK を有効にして起動したところ、エラーが出ました：",
    "Мы запустили sglang с DSPARK, и сервер упал при старте:",
    "Desplegamos sglang con DSPARK y falló al arrancar:",
])
def test_run_told_in_other_languages_above_a_traceback(tmp_path: Path, told: str) -> None:
    (crash,) = roots(run(tmp_path, ["# Kimi-K3 DSPARK", told, *SGL_TRACEBACK]))
    assert crash.worker_path is not None and crash.worker_path.worker_class == "DSparkWorkerV2"
