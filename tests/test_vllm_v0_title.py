"""A vLLM report placing its speculative run on V0 by its title (issue 11, rounds 23 and 25).

``[Spec Decode][V0] Enable LoRA on the draft model`` with V0's engine error is a V0 draft-model
run: ``MultiStepWorker``. A 2024 report titled "Speculative Decode + OpenTelemetry not working"
whose traceback only goes through V0's engine ran ``SpecDecodeWorker``. Never from a text
whose frames show ``vllm/v1/``, nor from V0-looking frames once V1 was the default engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import VLLM_REPO, thread

_V0_ENGINE = ["Traceback (most recent call last):",
              '  File "/usr/local/lib/python3.10/dist-packages/vllm/engine/async_llm_engine.py", '
              "line 56, in _log_task_completion", "    return_value = task.result()",
              '  File "/usr/local/lib/python3.10/dist-packages/vllm/executor/gpu_executor.py", '
              "line 130, in execute_model_async", "    output = await self.driver_worker.execute_model(",
              "AttributeError: 'NoneType' object has no attribute 'spans'"]  # fmt: skip
_ERROR = ["ERROR 01-09 10:00:00 engine.py:135] RuntimeError: shape mismatch in lora_a"]
_V1_CORE = ["Traceback (most recent call last):",
            '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
            "    engine_core.run_busy_loop()",
            "AttributeError: 'NoneType' object has no attribute 'spans'"]  # fmt: skip

CASES = {
    "a [V0] PR about the draft model with V0's error -> MultiStepWorker": (thread(
        VLLM_REPO, "[Spec Decode][V0] Enable LoRA on the draft model", "2025-01-10",
        "The adapter is applied to the draft model too. Before this the engine fails:",
        "```", *_ERROR, "```", kind="pull request",
    ), "MultiStepWorker"),
    "a [V0] n-gram title -> NGramWorker": (thread(
        VLLM_REPO, "[Bug][V0] ngram speculative decoding hangs with prefix caching", "2025-02-10",
        "```", *_ERROR, "```",
    ), "NGramWorker"),
    "a 2024 spec-decode title over V0's engine frames -> SpecDecodeWorker": (thread(
        VLLM_REPO, "[Bug]: Speculative Decode + OpenTelemetry not working", "2024-09-10",
        "```", *_V0_ENGINE, "```",
    ), "SpecDecodeWorker"),
    "a 2024 spec-decode title naming Medusa over V0's engine frames -> MedusaWorker": (thread(
        VLLM_REPO, "[Bug]: Medusa speculative decoding crashes with tracing on", "2024-09-10",
        "```", *_V0_ENGINE, "```",
    ), "MedusaWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_v0_title_names_the_v0_worker(tmp_path: Path, name: str) -> None:
    lines, cls = CASES[name]
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert (path.value, path.worker_class) == ("other", cls), path


NEVER = {
    "a spec-decode title over V1 frames": thread(
        VLLM_REPO, "[Bug]: Speculative Decode + OpenTelemetry not working", "2024-12-10",
        "```", *_V1_CORE, "```"),
    "V0-looking frames in a 2025 text (V1 the default engine)": thread(
        VLLM_REPO, "[Bug]: Speculative Decode + OpenTelemetry not working", "2025-09-10",
        "```", *_V0_ENGINE, "```"),
    "a [V0] tag on a thread with no family and no V0 frames": thread(
        VLLM_REPO, "[V0][Spec Decode] Remove the deprecated worker", "2025-05-10",
        "```", *_ERROR, "```", kind="pull request"),
    "a [V0] title on SGLang's tracker": thread(
        "sgl-project/sglang", "[Bug][V0] draft model crashes", "2025-05-10", "```", *_ERROR, "```"),
    "a [V0] draft-model title that says the run had no speculation": thread(
        VLLM_REPO, "[Bug][V0] draft model LoRA", "2025-05-10",
        "We run without speculative decoding; the crash is in the target.", "```", *_ERROR, "```"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NEVER))
def test_no_v0_worker_where_the_text_does_not_put_the_run_on_v0(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, NEVER[name], name="thread.md"))
    assert path.worker_class not in ("MultiStepWorker", "SpecDecodeWorker", "NGramWorker"), path
