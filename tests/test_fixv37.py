"""Session 37 (FIXV): texts that reason about code or quote a config check, and show no run.

A bug report that analyses a code path nobody ran ("the fallback is dead code today", "it
would pick the wrong layers if it ever ran", "can never be correct", "a hand-written config
would hit this") names its method only as the code's case: no class, no condition. A pull
request (or a report) quoting a config check that refused a missing draft field ("the path to
the draft weights must be specified") shows the launch stopped at its arguments: no worker was
built, so no path either. The same texts with the writer's own run past that point (a launch
and a traceback through the worker, a crash after the fixed config) keep their path. Each test
writes its own lines in the shape of the text class it covers."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, probed_path, roots, run, store_thread
from spectrace.worker_path import WorkerPath


def said_paths(tmp_path: Path, lines: list[str]) -> str:
    """What every crash of the text (its own and a probe appended) says: classes and conditions."""
    paths: list[WorkerPath] = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return " ; ".join(p.worker_class or p.conditional or "" for p in paths)

# --- 1. a bug report that is an analysis of a code path nobody ran ---

SGL_ANALYSIS = store_thread("sgl-project/sglang", "issue", 41230,
                            "[Bug] DFlash draft config: layer-id fallback picks the wrong taps", "2026-10-02", [
    "## Describe the bug", "",
    "`DraftConfig.pick_layers` (`python/sglang/srt/speculative/dflash_helpers.py`) recomputes the "
    "tap layers when a draft config leaves them out. That recomputation can never be correct:", "",
    "1. The taps are fixed when the draft is trained; the loader cannot guess them.",
    "2. Every published DFlash draft we looked at lists its taps, so the branch is dead code today, "
    "and its guess would be wrong for most of them if it ever ran.",
    "3. For `org/Example-30B-DFlash2` the guess has the same count but other ids, so a config "
    "without the key would silently hit this with no warning.", "",
    "Upstream is dropping the helper and making the key required."])  # fmt: skip

VLLM_ANALYSIS = store_thread("vllm-project/vllm", "issue", 53310,
                             "[Bug]: EAGLE3 aux-layer default picks layers the head never saw", "2026-09-14", [
    "### 🐛 Describe the bug", "",
    "In `vllm/v1/spec_decode/eagle.py` the default for the auxiliary hidden-state layers is only used "
    "when the draft's config has no list; if that branch ever ran it would read layers the head was "
    "not trained on.",
    "No released EAGLE3 head omits the list, so the default is dead code; a hand-made config would hit it."])  # fmt: skip

TRT_ANALYSIS = store_thread("NVIDIA/TensorRT-LLM", "issue", 9120,
                            "[Bug] MTP drafter picks the wrong layer count for two-module checkpoints", "2026-08-21", [
    "## Description", "",
    "`resolve_mtp_layers()` in `tensorrt_llm/_torch/speculative/mtp_helpers.py` falls back to a "
    "formula when `num_nextn_predict_layers` is absent.",
    "The formula can never be correct for checkpoints with two MTP modules, and if it were to run "
    "the drafter would load the wrong weights. Every checkpoint sets the field, so this is dead code."])  # fmt: skip


@pytest.mark.parametrize("text", [SGL_ANALYSIS, VLLM_ANALYSIS, TRT_ANALYSIS], ids=["sglang", "vllm", "trtllm"])
def test_a_code_analysis_of_a_path_nobody_ran_gets_no_path(tmp_path: Path, text: list[str]) -> None:
    assert_no_path(tmp_path, text)


def test_the_same_analysis_with_the_writers_crashed_launch_keeps_its_path(tmp_path: Path) -> None:
    ran = [*SGL_ANALYSIS, "",
           "I hit it myself when I launched with a draft config missing the key:", "",
           "```",
           "python -m sglang.launch_server --model-path org/Example-30B --speculative-algorithm DFLASH "
           "--speculative-draft-model-path org/Example-30B-DFlash2",
           "```"]  # fmt: skip
    path = probed_path(tmp_path, ran)
    said = path.worker_class or path.conditional or ""
    assert "DFlashWorker" in said, path


# --- 2. a config check refusing a missing draft field, quoted by a fix PR or met by a run ---

def _fix_pr(repo: str, number: int, title: str, said: list[str], error: str) -> list[str]:
    return store_thread(repo, "pull request", number, title, "2026-03-09", [
        "#### Overview:", "", *said, "", "which fixes:", "```", error, "```"], state="merged")  # fmt: skip


DYNAMO_FIX = _fix_pr("ai-dynamo/dynamo", 3120, "fix: update disagg example configs for trtllm 1.2.0rc3 field renames", [
    "The new TensorRT-LLM release renamed a few fields; this updates the example YAMLs.",
    "1. `eagle_weights_path` is now `speculative_model_dir`"],
    "ERROR ... Path to EAGLE3 weights must be specified.")  # fmt: skip
RECIPES_FIX = _fix_pr("vllm-project/recipes", 88, "Fix MTP recipe for the vLLM 0.19.0 config schema", [
    "The draft checkpoint key moved; without it the config check refuses the recipe."],
    "ValueError: the draft checkpoint directory must be provided for MTP with a separate draft")  # fmt: skip
USER_RUN = store_thread("NVIDIA/TensorRT-LLM", "issue", 9344, "[Bug] trtllm-serve exits at start with Eagle3 config",
                        "2026-05-11", [
    "I started trtllm-serve with this extra config:", "", "```yaml",
    "speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 3", "```", "",
    "and it exits right away:", "```", "ValueError: Path to EAGLE3 weights must be specified.", "```"])  # fmt: skip


@pytest.mark.parametrize("text", [DYNAMO_FIX, RECIPES_FIX, USER_RUN], ids=["dynamo-pr", "recipe-pr", "user-run"])
def test_a_refused_missing_draft_field_shows_no_worker(tmp_path: Path, text: list[str]) -> None:
    assert_no_path(tmp_path, text)


def test_a_run_that_got_past_the_check_and_crashed_keeps_its_path(tmp_path: Path) -> None:
    ran = [*USER_RUN, "",
           "After adding `speculative_model_dir` it starts, then crashes in the first step:", "```",
           "Traceback (most recent call last):",
           '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py", '
           "line 1010, in _executor_loop",
           "    self._forward_step(scheduled_batch)",
           '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/speculative/eagle3.py", '
           "line 412, in forward",
           "    hidden = self.draft_model(inputs)",
           "RuntimeError: CUDA error: an illegal memory access was encountered", "```"]  # fmt: skip
    said = said_paths(tmp_path, ran)
    assert "Eagle3" in said or "EAGLE" in said, said


def test_a_required_field_that_is_no_draft_is_no_refused_method(tmp_path: Path) -> None:
    # a config check on a field of no speculative setting does not stop a speculative run's path
    ran = ["python -m sglang.launch_server --model-path org/Example-8B --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path org/Example-8B-Eagle3",
           "ValueError: the tokenizer path must be specified when skip_tokenizer_init is off", "",
           "Traceback (most recent call last):",
           '  File "/opt/sgl/python/sglang/srt/speculative/eagle_worker.py", line 300, in forward_batch_generation',
           "    self.draft(batch)",
           "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    said = said_paths(tmp_path, ran)
    assert "EAGLEWorker" in said, said
