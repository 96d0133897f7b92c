"""A vLLM thread's title writing the method as vLLM's config spells it (issue 11, round 26).

``[Bug]: `ngram_gpu` speculative decoding ... returns HTTP 500`` names the run's method the way
its ``--speculative-config`` does, and ``ngram_gpu`` has a class of its own
(``NgramProposerGPU``; MRV2's ``NgramGPUSpeculator`` from 0.32), not n-gram's. A maintainer
reads the class from it; a feature request, a PR adding the value, or a title setting it apart
names nothing. Our own lines, in the shapes the threads had.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run
from test_never_wrong import VLLM_REPO, thread

_CRASH = ["Traceback (most recent call last):",
          '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 880, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
_ENV = ["### Your current environment", "vLLM Version                 : 0."]  # cut, as pasted

CASES = {
    "a backticked ngram_gpu in a bug title, Aug 2026 -> NgramProposerGPU": (thread(
        VLLM_REPO, "[Bug]: `ngram_gpu` speculative decoding returns HTTP 500 under load",
        "2026-08-17", *_ENV, "```", *_CRASH, "```",
    ), ("other", "NgramProposerGPU")),
    "ngram_gpu in a bug title with the model runner v2 on 0.32.0 -> NgramGPUSpeculator": (thread(
        VLLM_REPO, "[Bug]: ngram_gpu drafts garbage with VLLM_USE_V2_MODEL_RUNNER=1",
        "2026-11-10", "vLLM Version: 0.32.0", "```", *_CRASH, "```",
    ), ("other", "NgramGPUSpeculator")),
    "a DSpark title on vLLM's tracker (only DSparkSpeculator exists) -> DSparkSpeculator": (thread(
        VLLM_REPO, "[Bug]: GLM-5.2 + DSpark speculative decoding: RPC timeout after warmup",
        "2026-07-20", "The engine core stops answering after a few minutes.", "```", *_CRASH, "```",
    ), ("other", "DSparkSpeculator")),
    "a Suffix title with a v0.12.0 bullet -> SuffixDecodingProposer": (thread(
        VLLM_REPO, "[Bug]: Suffix Speculative Decoding returns empty output", "2025-12-12",
        "### Your current environment", "- vLLM version: v0.12.0", "```", *_CRASH, "```",
    ), ("other", "SuffixDecodingProposer")),
    "a vllm-ascend MTP title, V1-runner frames, Dec 2025 -> MtpProposer (before AscendEagleProposer)": (thread(
        "vllm-project/vllm-ascend", "[Bug]: DeepSeek-R1 can not run with mtp", "2025-12-10", "```",
        "Traceback (most recent call last):",
        '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2100, in execute_model',
        "    out = self.model(", "RuntimeError: shape mismatch", "```",
    ), ("other", "MtpProposer")),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_title_s_method_value_names_its_class(tmp_path: Path, name: str) -> None:
    lines, (value, classes) = CASES[name]
    assert_verdict(crash_path(run(tmp_path, lines, name="thread.md")), value, classes)


NEVER = {
    "a feature request for ngram_gpu": thread(
        VLLM_REPO, "[Feature]: `ngram_gpu` for structured outputs", "2026-08-17",
        "```", *_CRASH, "```", labels="feature request"),
    "a pull request adding ngram_gpu support": thread(
        VLLM_REPO, "[Spec Decode] Add `ngram_gpu` support for MRV2", "2026-08-17",
        "```", *_CRASH, "```", kind="pull request"),
    "a title that sets the value apart": thread(
        VLLM_REPO, "[Bug]: HTTP 500 under load, even without `ngram_gpu`", "2026-08-17",
        "```", *_CRASH, "```"),
    "an SGLang thread with a vLLM-spelled value": thread(
        "sgl-project/sglang", "[Bug]: `ngram_gpu` style drafting crashes", "2026-08-17",
        "```", *_CRASH, "```"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NEVER))
def test_a_title_that_names_no_run_decides_nothing(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, NEVER[name], name="thread.md"))
    assert path.worker_class not in ("NgramProposerGPU", "NgramGPUSpeculator", "NgramProposer"), path
