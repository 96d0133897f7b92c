"""Never wrong: a line (or the clause holding the family) naming only another framework than
the run's is that framework's run (path_run.names_other_framework: path_gather._elsewhere_aside,
path_named, path_era).

Our own lines: an SGLang report saying the same model works "on TensorRT-LLM 1.0 with an EAGLE3
draft", a TensorRT-LLM report whose table row is "| vLLM 0.9.1 | eagle3 |", a vLLM report
naming MTP "on SGLang 0.5.4"; each run's own command is plain and its crash names no worker.
Before, the other framework's family took the run's path (v1 EAGLEWorker, Eagle3OneModelWorker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import crash_path, run

_SGLANG_CRASH = [
    "```",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 2611,'
    " in run_scheduler_process",
    "    scheduler.event_loop_normal()",
    '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/model_executor/model_runner.py",'
    " line 2070, in forward",
    "    return self._forward_raw(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "```",
]
_TRT_CRASH = [
    "```",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py",'
    " line 1210, in _executor_loop",
    "    batch_outputs = self._forward_step(scheduled_batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "```",
]
_VLLM_CRASH = [
    "```",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 701, in'
    " run_engine_core",
    "    engine_core.run_busy_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "```",
]

CASES = {
    "sglang report, tensorrt-llm eagle3 works": [
        "sgl-project/sglang · issue #14001 · open · Python", "labels: bug",
        "# [Bug] scheduler dies with Qwen3-30B-A3B after an hour", "",
        "someone · description · 2025-11-04",
        "The same model on TensorRT-LLM 1.0 with an EAGLE3 draft works.",
        "Our SGLang server crashes:", "```",
        "python3 -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp 4 --port 30000",
        "```", *_SGLANG_CRASH, "sglang: 0.5.4"],
    "tensorrt-llm report, a vllm eagle3 table row": [
        "NVIDIA/TensorRT-LLM · issue #9001 · open · Python", "labels: bug",
        "# [Bug] executor loop dies with Llama-3.3-70B", "",
        "someone · description · 2025-08-14",
        "| engine | method | tok/s |", "|---|---|---|", "| vLLM 0.9.1 | eagle3 | 250 |",
        "| TensorRT-LLM 0.21.0 | none | 240 |", "```",
        "trtllm-serve meta-llama/Llama-3.3-70B-Instruct --backend pytorch --tp_size 4",
        "```", *_TRT_CRASH],
    "vllm report, sglang mtp works": [
        "vllm-project/vllm · issue #30001 · open · Python", "labels: bug",
        "# [Bug]: EngineCore dies under load with Qwen3-32B", "",
        "someone · description · 2025-11-20",
        "SGLang 0.5.4 with MTP serves the same checkpoint without trouble.", "```",
        "vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2", "```", *_VLLM_CRASH],
    # the line names the run's framework too, but the family sits in the other one's clause
    "vllm report, a tensorrt-llm mtp fallback clause": [
        "vllm-project/vllm · issue #31100 · open · Python", "labels: bug",
        "# [Bug]: EngineCore dies under load with Qwen3-32B", "",
        "someone · description · 2025-11-20",
        "Our fallback is TensorRT-LLM with MTP, but we would like to stay on vLLM.", *_VLLM_CRASH],
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_another_frameworks_family_is_not_the_runs(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, CASES[name]))
    assert path.worker_class is None and not path.conditional, path


# a downstream report naming a family on a framework as off or as a counterfactual: the
# framework named in words joins no family (path_base.family_words reads neither as the run's)
_WORDED = {
    "off a few words on": "We had Medusa on vLLM switched off for this sweep.",
    "a counterfactual": "With Medusa on vLLM the numbers would probably double.",
}


@pytest.mark.parametrize("name", list(_WORDED))
def test_a_family_named_off_or_as_a_wish_joins_nothing(tmp_path: Path, name: str) -> None:
    lines = ["acme-labs/bench · issue #8 · open · Shell", "# Llama-4 throughput after the driver update",
             "", "someone · description · 2026-03-01", _WORDED[name],
             "Output token throughput (tok/s): 512.0", "", "Traceback (most recent call last):",
             '  File "probe.py", line 1, in <module>', "RuntimeError: probe"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path

