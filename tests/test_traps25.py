"""Texts with no run of their own get no path, runs that also reason about code keep theirs
(issue 11, session 25, TRAPS).

The shapes: a harness's source file cut before its imports (a licence tag, a module docstring
naming the worker class, a builder); a speculative-draft trainer's hidden-state capture crashing
inside the engine's model runner; a bug report built from reading code (links to source lines on
main, code names quoted, the issue form's environment left as the form gave it); a fix pull
request whose only "evidence" is the issue it closes, an error quoted for the condition the code
raises it under, a degenerate acceptance figure, a flag named inside a sentence, or a unit test
that passed. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, roots, run

from spectrace.assemblers.documents import source_file
from spectrace.assemblers.run_prose import fix_evidence
from spectrace.assemblers.run_shown import unit_check
from spectrace.worker_path import WorkerPath


def probed(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path of the root causes (the text's own and a probe's)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]


def _said(path: WorkerPath) -> str:
    return f"{path.worker_class or ''} {path.conditional or ''}"


# ---- a harness's source file ----------------------------------------------------------------

HARNESS = [
    "# SPDX-License-Identifier: Apache-2.0",
    'r"""Acceptance harness for the Orion-2 DFlash drafter.',
    "",
    "Reports the mean accepted length, the TPOT of both legs and the speedup of the drafted leg.",
    "Export the stats dir before launch: the MPI ranks (where DFlashWorker lives) are spawned first.",
    '"""',
    "",
    "def make_llm(args):",
    "    from tensorrt_llm import LLM",
    "    from tensorrt_llm.llmapi.llm_args import DFlashDecodingConfig",
    "    spec = DFlashDecodingConfig(max_draft_len=args.k, speculative_model=args.drafter)",
    "    return LLM(model=args.model, speculative_config=spec)",
]


def test_harness_source_file_cut_before_its_imports_shows_no_run(tmp_path: Path) -> None:
    assert source_file(HARNESS)
    assert_no_path(tmp_path, HARNESS)


def test_harness_without_licence_tag_but_module_docstring(tmp_path: Path) -> None:
    assert_no_path(tmp_path, HARNESS[1:])


def test_prose_with_a_definition_is_no_module() -> None:
    assert not source_file(["We launched the server and saw:", "def make_llm(args):", "    return 1"])
    assert not source_file(['"""', "notes", '"""'])  # a quoted block, no definition


# ---- a trainer's hidden-state capture --------------------------------------------------------

CAPTURE = [
    "sgl-project/SpecForge · pull request #901 · open · Python",
    "# fix(eagle3): allocate the memory pool in the EAGLE3 target model", "",
    "kwu · description · 2026-09-02", "## Summary", "",
    "On main (pinned to sglang 0.5.15) `prepare_hidden_states.py --model-type eagle3` dies at once:", "",
    "```",
    "Traceback (most recent call last):",
    '  File "/opt/trainer/specforge/modeling/target/eagle3_target_model.py", line 88, in _extend',
    "    batch = ScheduleBatch.init_new(req_to_token_pool=self.model_runner.req_to_token_pool)",
    '  File "/usr/lib/python3/site-packages/sglang/srt/managers/schedule_batch.py", line 1702, in init_new',
    "    device=req_to_token_pool.device,",
    "AttributeError: 'NoneType' object has no attribute 'device'",
    "```",
]


@pytest.mark.parametrize("frame", [
    '  File "/opt/trainer/specforge/modeling/target/eagle3_target_model.py", line 88, in _extend',
    '  File ".../eagle3_target_model.py", line 88, in _extend',  # a paste that cut the folders
])
def test_trainer_capture_crash_names_no_worker(tmp_path: Path, frame: str) -> None:
    lines = [frame if "eagle3_target_model.py" in ln else ln for ln in CAPTURE]
    assert_no_path(tmp_path, lines)


def test_speculators_hidden_state_generator_crash(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "vllm-project/speculators · issue #777 · open · Python",
        "# EAGLE-3 data generation fails for Orion-2", "",
        "lee · description · 2026-08-20",
        "Traceback (most recent call last):",
        '  File "/src/speculators/data_generation/vllm_hidden_states_generator.py", line 210, in generate',
        "    outputs = self.llm.generate(prompts)",
        '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu_model_runner.py", line 2310, in execute_model',
        "    hidden = self.model(input_ids)",
        "RuntimeError: shape mismatch in the aux hidden states",
    ])


def test_trainer_thread_with_a_serving_worker_frame_keeps_its_run(tmp_path: Path) -> None:
    path = probed(tmp_path, [
        "sgl-project/SpecForge · issue #902 · open · Python",
        "# Trained EAGLE3 draft crashes the server on sglang 0.5.2", "",
        "mo · description · 2026-01-10",
        "python -m sglang.launch_server --model X --speculative-algorithm EAGLE3 --speculative-draft-model-path ./d",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/sglang/srt/managers/scheduler.py", line 2100, in event_loop',
        "    self.run_batch(batch)",
        '  File "/usr/lib/python3/site-packages/sglang/srt/speculative/eagle_worker.py", line 300, in verify',
        "    x = self.draft()",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ])
    assert "EAGLEWorker" in _said(path)


# ---- a bug report built from reading code ----------------------------------------------------

CODE_REPORT = [
    "sgl-project/sglang · issue #50001 · open · Python",
    "# [Bug] NEXTN verify skips the draft-token all-reduce on tp>1", "",
    "rk · description · 2026-08-01", "### Describe the bug", "",
    "In the verify path (`python/sglang/srt/speculative/eagle_info.py`), the greedy branch takes "
    "`torch.argmax(logits)` per rank and never all-reduces `accept_lens` or `verified_id`:",
    "- greedy: https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/speculative/eagle_info.py#L410-L422",
    "- sampling: https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/speculative/eagle_info.py#L500-L512",
    "The branch condition also covers `_is_npu`, so those backends always take it. When two ranks "
    "see near-tied logits, each keeps a different count of draft tokens.",
]


def test_code_reading_report_with_source_links_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, CODE_REPORT)


def test_vllm_form_left_unfilled_with_line_links_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "vllm-project/vllm · issue #70001 · open · Python",
        "# [Bug]: [PD + SpecDec] lookahead block freed on the wrong side", "",
        "mq · description · 2026-06-01",
        "### Your current environment", "", "```text", "Your output of `python collect_env.py` here", "```", "",
        "### Describe the bug", "",
        "With disaggregated prefill and speculative decoding (EAGLE), the lookahead workaround "
        "([scheduler.py:L812-820](https://github.com/vllm-project/vllm/blob/main/vllm/v1/core/sched/scheduler.py#L812-L820)) "
        "only clears lookahead on the decode side, so the prefill side keeps one extra block.",
        "The connector then trims the first block "
        "([worker.py:L1900-1910](https://github.com/vllm-project/vllm/blob/main/vllm/distributed/kv_transfer/worker.py#L1900-L1910)).",
    ])


@pytest.mark.parametrize("extra", [
    "I hit this on 0.5.12 serving Orion-2 with NEXTN on 8xH200: the server hangs after an hour.",
    "Our TP2 deployment crashes with a NCCL timeout every few hours because of it.",
])
def test_code_reading_beside_the_writers_own_run_keeps_its_run(tmp_path: Path, extra: str) -> None:
    path = probed(tmp_path, [*CODE_REPORT, "", extra])
    assert "EAGLEWorker" in _said(path)


# ---- fix pull requests -----------------------------------------------------------------------

FIX_HEAD = ["vllm-project/vllm · pull request #80001 · open · Python",
            "# [Bugfix][Spec Decode] Route DSpark through the DFlash proposer", "",
            "tz · description · 2026-08-10", "## Purpose", ""]


@pytest.mark.parametrize("body", [
    ["Fixes #79999.", "", "`use_dflash()` only checks `\"dflash\"`, so DSpark never builds `DFlashProposer`."],
    ["1. **Head count mismatch**: `RuntimeError: metadata must have shape (n)` when draft and target "
     "GQA ratios differ.", "2. DSpark is not routed through `DFlashProposer`, which causes `ValueError` crashes."],
    ["Without FlashAttention on the target, full CUDA graphs leave acceptance stuck near 1.0."],
    ["`--speculative-config` with method dspark could fall back to the EAGLE proposer.",
     "- Require --speculative-config to name the drafter for DSpark."],
    ["DSpark builds no `DFlashProposer` today.", "", "## Test Result", "",
     "- `pytest -q tests/unit/spec/test_routing.py`: 6 passed", "- Focused regression tests: 3 passed",
     "- `ruff check`: passed"],
], ids=["issue-closed", "error-for-a-condition", "degenerate-figure", "flags-in-sentences", "unit-tests"])
def test_fix_pr_without_a_run_of_its_own_gets_no_path(tmp_path: Path, body: list[str]) -> None:
    assert_no_path(tmp_path, FIX_HEAD + body)


@pytest.mark.parametrize("body", [
    ["Repro on v0.21.0 with `vllm serve X --speculative-config '{\"method\": \"dspark\"}'`: "
     "`RuntimeError: metadata must have shape (n)` at the first step."],
    ["Acceptance length with DSpark falls from 3.4 to 1.6 on the Orion-2 drafter."],
    ["## Test Result", "", "- `pytest tests/v1/e2e/test_spec_decode.py -k dspark`: 4 passed"],
], ids=["repro", "measured", "e2e-test"])
def test_fix_pr_with_a_run_of_its_own_keeps_its_path(tmp_path: Path, body: list[str]) -> None:
    path = probed(tmp_path, FIX_HEAD + ["`use_dflash()` only checks `\"dflash\"`.", ""] + body)
    assert "DSpark" in _said(path) or "DFlash" in _said(path), path


@pytest.mark.parametrize(("line", "evidence"), [
    ("Fixes #79999", False),
    ("That path raises `ValueError` while serving.", False),
    ("`RuntimeError: bad shape` when the draft has fewer heads.", False),
    ("Error: `RuntimeError: bad shape` at the first verify step.", True),
    ("acceptance collapses to 1.0 under CUDA graphs", False),
    ("acceptance length drops to 1.7 from 3.2", True),
    ("`--speculative-algorithm EAGLE3` with no draft path might silently fall back to the target.", False),
    ("--speculative-algorithm EAGLE3 --speculative-draft-model-path ./d \\", True),
])
def test_fix_evidence_rows(line: str, evidence: bool) -> None:
    assert fix_evidence(line) is evidence


@pytest.mark.parametrize(("line", "unit"), [
    ("- `pytest -q test/registered/unit/spec/test_x.py`: 6 passed.", True),
    ("tests/v1/kv_offload/test_factory.py: 33 passed", True),
    ("Focused regression tests: 3 passed", True),
    ("- `pytest tests/v1/e2e/test_spec_decode.py`: 4 passed", False),
    ("tests/v1/spec_decode/test_eagle.py: 12 passed", False),
    ("pytest tests/spec_decode/e2e/test_mtp_correctness.py", False),
    ("vllm serve X with 3 passed health checks", False),  # shown by its serve command
    ("platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0", False),  # names no test
    ("===== 4 passed in 12.3s =====", False),
])
def test_unit_check(line: str, unit: bool) -> None:
    assert unit_check(line) is unit
