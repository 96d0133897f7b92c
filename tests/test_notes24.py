"""SGLang notes files and runbooks (issue 11, session 24, NOTES).

Field notes name versions that are not SGLang's (a product's own image tag, "switched from
v0.1.1"), compare SGLang with vLLM in tables whose cells name vLLM's classes, and runbooks list
the log lines a start must show. Last session's sealed round 67 got two wrong verdicts from the
first two shapes: a product's ``sglang-v0.1.0-rc6`` tag decided the v1 worker for a run on a
v2-only release, and a vLLM proposer named in a comparison row decided an SGLang DFLASH run.
Every line below is our own.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from real_logs_helpers import crash_path, probed_path, run

from spectrace.assemblers.sglang_version import bare_releases, sglang_releases, speculates
from spectrace.dialects._time import stamp_day

EAGLE_LAUNCH = ("- Launch: python -m sglang.launch_server --model-path /models/kimi "
                "--speculative-algorithm EAGLE --speculative-num-steps 3")  # fmt: skip
CRASH = "- Draft worker init failed: ValueError: 'DeepseekV3ForCausalLMNextN' is not a registered model"


# ---- a number older than SGLang's speculative workers is no speculative run's release ---------

@pytest.mark.parametrize("release, speculating", [
    ((0, 1, 0), False), ((0, 3, 6), False), ((0, 4, 1), False),  # EAGLE came in 0.4.1.post2
    ((0, 4, 1, 2), True), ((0, 5, 15), True), ((0, 0, 0), True),  # 0.0.0: an untagged main
])  # fmt: skip
def test_speculates(release: tuple[int, ...], speculating: bool) -> None:
    assert speculates(release) is speculating


def test_a_products_tag_names_no_sglang_release() -> None:
    assert sglang_releases("image=rocm/infera:sglang-v0.1.0-rc6 per user") == set()
    assert bare_releases("mem-fraction 0.85, image rc6 (user switched from v0.1.1)") == set()
    assert sglang_releases("docker pull rocm/sgl-dev:sglang-0.5.14-rocm720") == {(0, 5, 14)}


@pytest.mark.parametrize("said", [
    "- Image: registry.example.com/acme/appliance:sglang-v0.2.3-rc4 (the appliance's own release line).",
    "- CHANGE: image rc4 (user switched from v0.2.1), TP8, EAGLE 3 steps.",
    "- We run the vendor's sglang 0.3.1 build of its gateway.",
])  # fmt: skip
def test_another_products_version_decides_no_era(tmp_path: Path, said: str) -> None:
    path = probed_path(tmp_path, ["# Bring-up log: Kimi MTP on our appliance", said, EAGLE_LAUNCH, CRASH])
    assert path.worker_class is None
    assert path.conditional is not None and "EAGLEWorkerV2" in path.conditional


@pytest.mark.parametrize("said, worker", [
    ("- Image: lmsysorg/sglang:v0.5.2-cu126", "EAGLEWorker"),  # v1 only then
    ("- Image: rocm/sgl-dev:sglang-0.5.14-rocm720", "EAGLEWorkerV2"),  # v2 only then
    ("- pip install sglang==0.4.1.post2", "EAGLEWorker"),  # EAGLE's first release
])  # fmt: skip
def test_sglang_releases_still_decide(tmp_path: Path, said: str, worker: str) -> None:
    path = probed_path(tmp_path, ["# Bring-up log: Kimi MTP", said, EAGLE_LAUNCH, CRASH])
    assert path.worker_class == worker


# ---- a class in a table comparing engines is its column's engine's ----------------------------

def _compared(row: str) -> list[str]:
    return [
        "# SGLang DFlash on two RTX PRO 6000", "",
        "Serving Qwen3-32B with the z-lab DFlash draft. Warm-up done, steady state below.", "",
        "```", "Decode batch ... accept len: 3.10, accept rate: 0.21, gen throughput (token/s): 41.2", "```", "",
        "## SGLang vs vLLM on the same box", "",
        "| Metric | SGLang | vLLM 0.25.0 |", "|---|---|---|", "| Accept rate | 21% | 0.5% |", row,
    ]


@pytest.mark.parametrize("row", [
    "| Root cause | correct hidden states | DFlashProposer reads the wrong hidden states |",
    "| Code path | dflash_worker_v2.py | `vllm/v1/spec_decode/dflash.py` DFlashProposer |",
])  # fmt: skip
def test_a_compared_class_is_not_the_run(tmp_path: Path, row: str) -> None:
    path = probed_path(tmp_path, _compared(row))
    assert path.worker_class is None
    assert path.conditional is not None and "DFlashWorkerV2" in path.conditional


def test_another_engines_class_in_prose_is_not_the_sglang_run(tmp_path: Path) -> None:
    lines = ["# SGLang DFlash notes", "", "SGLang logs spec decode stats per decode batch:",
             "Decode batch ... accept len: 4.38, accept rate: 0.23, gen throughput (token/s): 10.53", "",
             "Always use SGLang for DFlash on hybrid targets; in vLLM the DFlashProposer drops the hidden states."]
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "DFlashProposer"


def test_the_runs_own_class_still_decides(tmp_path: Path) -> None:
    """Near miss: a vLLM run naming its own proposer as what failed."""
    lines = ["# vLLM DFlash crash",
             "We serve Qwen3-32B with vllm serve /models/qwen3-32b --speculative-config "
             "'{\"method\": \"dflash\", \"model\": \"z-lab/qwen3-dflash\", \"num_speculative_tokens\": 7}'",
             "The engine dies right after start-up; the DFlashProposer fails while reading hidden states."]
    assert probed_path(tmp_path, lines).worker_class == "DFlashProposer"


# ---- a year-less stamp gives no day ------------------------------------------------------------

_SITE = "/usr/local/lib/python3.12/dist-packages/vllm"


def _frame(path: str, lineno: int, function: str, code: str) -> list[str]:
    return [f'  File "{path}", line {lineno}, in {function}', f"    {code}"]


_WARMUP = [*_frame(f"{_SITE}/v1/worker/gpu_worker.py", 254, "compile_or_warm_up_model",
                   "self.model_runner._dummy_sampler_run("),
           *_frame(f"{_SITE}/v1/worker/gpu_model_runner.py", 1765, "_dummy_sampler_run",
                   "dummy_spec_decode_metadata = SpecDecodeMetadata.make_dummy("),
           *_frame(f"{_SITE}/v1/spec_decode/metadata.py", 38, "make_dummy",
                   "cu_num_draft_tokens = torch.from_numpy(cu_num_draft_tokens).to(device)")]  # fmt: skip


def test_a_yearless_stamp_leaves_the_threads_day(tmp_path: Path) -> None:
    """vLLM's ``ERROR 05-21 11:59:44`` names no year: the thread's own day bounds the release
    (read as 1900 it bounded nothing, and every later proposer stayed in the condition)."""
    crash = ["EngineCore failed to start.", "Traceback (most recent call last):", *_WARMUP,
             "RuntimeError: CUDA error: an illegal memory access was encountered"]
    lines = ["vllm-project/vllm · issue #15000 · open", "# [Bug]: engine dies at warm-up", "",
             "alice · description · 2025-05-21", "",
             *[f"ERROR 05-21 11:59:44 [core.py:493] {t}" for t in crash]]
    path = crash_path(run(tmp_path, lines))
    assert path.conditional is not None and "EagleProposer" in path.conditional
    assert "DFlashProposer" not in path.conditional and "Gemma4Proposer" not in path.conditional


def test_stamp_day() -> None:
    assert stamp_day(datetime(1900, 12, 5, 14, 3, 11)) is None
    assert stamp_day(datetime(1901, 1, 2, 0, 0, 1)) is None  # a year-less log past New Year
    assert stamp_day(datetime(2026, 12, 5, 14, 3, 11)) == date(2026, 12, 5)

