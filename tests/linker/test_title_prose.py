"""A method named in a bug's title or its own prose, with a release or only the post's day, over
a crash that names no worker: the era join picks the class the framework's release (or the
releases out on that day) ran for the method, or a condition naming every era's class. The same
words in a feature request, a question or a blog narration name no run. Texts are our own, in the
shapes of public threads (ADV's s13 harness, /work/coord/adv_cases/s13)."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

SP = "/usr/local/lib/python3.12/dist-packages"
VLLM_CORE_CRASH = [
    "Traceback (most recent call last):",
    f'  File "{SP}/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
V0_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/conda/lib/python3.10/site-packages/vllm/engine/llm_engine.py", line 1386, in step',
    "    outputs = self.model_executor.execute_model(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
TORCH_CRASH = [
    "Traceback (most recent call last):",
    f'  File "{SP}/torch/nn/modules/module.py", line 1751, in _call_impl',
    "    return forward_call(*args, **kwargs)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
TRT_CRASH = [
    "Traceback (most recent call last):",
    f'  File "{SP}/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 1210, in _executor_loop',
    "    batch_outputs = self._forward_step(scheduled_batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
PROBE_CRASH = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
               "RuntimeError: probe crash"]  # fmt: skip
VLLM_REPO, TRT_REPO = "vllm-project/vllm", "NVIDIA/TensorRT-LLM"


def thread(repo: str, title: str, day: str, *post: str, labels: str = "bug") -> list[str]:
    """A saved issue: header, labels, title, the description's byline and body."""
    return [f"{repo} · issue #13270 · open · Python", f"labels: {labels}", f"# {title}", "",
            f"ivy · description · {day}", *post]  # fmt: skip


# (title, day, body sentence, crash, value, classes): value "unknown" = a condition naming them
RUNS = {
    "title: method on a V1 release": (
        "[Bug]: EAGLE-3 crash on vLLM 0.10.1", "2025-08-25",
        "Serving Llama-3.1-8B with an EAGLE-3 draft dies after ~100 requests.", TORCH_CRASH,
        "other", "EagleProposer"),
    "title: ngram on a V1 release, core frame only": (
        "[Bug]: ngram speculative decoding on vLLM 0.11.0 crashes with long prompts", "2025-10-22",
        "With ngram spec decode the server dies:", VLLM_CORE_CRASH, "other", "NgramProposer"),
    "title: ngram on a V0 release": (
        "[Bug]: ngram speculative decoding on vLLM 0.6.4 crashes", "2024-11-28",
        "Prompt lookup (ngram) decoding crashes with batch 32.", V0_CRASH, "other", "NGramWorker"),
    "title: Medusa on a V1 release": (
        "[Bug]: Medusa on vLLM 0.10.2 gives NaN, then the engine dies", "2025-09-22",
        "Medusa speculative decoding with 3 heads:", VLLM_CORE_CRASH, "other", "MedusaProposer"),
    "prose: method and release in the reporter's sentence": (
        "[Bug]: CUDA graph capture fails", "2025-09-20",
        "We serve Qwen3-8B with eagle3 speculative decoding on vllm 0.10.2 and the engine dies at "
        "startup:", VLLM_CORE_CRASH, "other", "EagleProposer"),
    "prose: the MLP speculator on a V0 release": (
        "[Bug]: accelerator speculator crashes", "2024-08-20",
        "We use the MLP speculator (ibm-ai-platform/llama3-8b-accelerator) with vLLM 0.5.4 and TP 2.",
        TORCH_CRASH, "other", "MLPSpeculatorWorker"),
    "day only: an EAGLE-3 title in the V1 era": (
        "[Bug]: eagle3 draft with Llama-4-Scout crashes at startup", "2025-09-12",
        "Using an EAGLE-3 head for Llama-4-Scout:", VLLM_CORE_CRASH, "other", "EagleProposer"),
    "day only: an EAGLE draft in the V0 era": (
        "[Bug]: EAGLE draft model gives wrong tokens then crashes", "2024-10-15",
        "With an EAGLE draft (--speculative-model yuhuili/EAGLE-LLaMA3-Instruct-8B) the engine fails:",
        TORCH_CRASH, "other", "MultiStepWorker"),
    "day only: EAGLE-3 when MRV2 may be the default": (
        "[Bug]: eagle3 illegal memory access with Qwen3-235B", "2026-08-20",
        "EAGLE-3 speculative decoding on 8x B200:", VLLM_CORE_CRASH, "unknown",
        "EagleProposer|EagleSpeculator"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(RUNS))
def test_a_method_in_a_bugs_title_or_prose_takes_its_eras_class(tmp_path: Path, name: str) -> None:
    title, day, sentence, crash, value, classes = RUNS[name]
    lines = thread(VLLM_REPO, title, day, "### 🐛 Describe the bug", sentence, "```", *crash, "```")
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), value, classes)


def test_trtllm_mtp_in_a_title_names_both_mtp_workers(tmp_path: Path) -> None:
    """MTP on TensorRT-LLM runs MTPEagleWorker or the vanilla MTPWorker by checkpoint and
    options the title does not give: a condition naming both, never one decided."""
    lines = thread(TRT_REPO, "[Bug] MTP on TensorRT-LLM 1.0.0 crashes with DeepSeek-R1", "2025-09-15",
                   "MTP speculative decoding with 3 nextn layers crashes under load.", "```",
                   *TRT_CRASH, "```")  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="report.md"))
    assert path.value == "unknown" or path.worker_class in ("MTPWorker", "MTPEagleWorker"), path
    if path.value == "unknown":
        assert_verdict(path, "unknown", "MTPEagleWorker|MTPWorker")


# the same words where no run is shown: a request, a question, narration, a plan
NO_RUN = {
    "a feature request's title": thread(
        VLLM_REPO, "[Feature]: EAGLE-3 for Qwen3-MoE on vLLM 0.10.1", "2025-08-14",
        "### 🚀 The feature, motivation and pitch", "Please accept eagle3 drafts for Qwen3-MoE.",
        labels="feature request"),
    "a usage question's title": thread(
        VLLM_REPO, "[Usage]: Medusa on vLLM 0.11.0?", "2025-10-12",
        "### How would you like to use vllm", "Is medusa still supported, or was it removed?",
        labels="usage"),
    "second-person narration with a release": thread(
        VLLM_REPO, "Blog: speculative decoding in vLLM", "2025-09-01",
        "Once you've got EAGLE-3 running on vLLM 0.10.1, you'll see the metrics line every 10 s.",
        labels=""),
    "a plan to enable the method after an upgrade": thread(
        VLLM_REPO, "[Usage]: plan for eagle3", "2025-12-01",
        "We will enable eagle3 once we upgrade to 0.12.0 next month. Any pitfalls?", labels="usage"),
    "a TensorRT-LLM question naming a release": thread(
        TRT_REPO, "Eagle3 one-model vs two-model on 1.1?", "2025-11-01",
        "On 1.1.0, what differs between eagle3_one_model true and false?", labels="question"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(NO_RUN))
def test_the_same_words_with_no_run_decide_nothing(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, [*NO_RUN[name], *PROBE_CRASH], name="report.md"))
    assert path.value not in ("v1", "v2", "other", "none"), path


# the framework named in a title on another project's tracker (a wrapper, a deployment stack, a
# transfer engine): the title's framework and release take the method's era class
WRAPPER_TITLES = {
    "TensorRT-LLM named in a Dynamo title: both MTP workers": (
        "ai-dynamo/dynamo", "[BUG]: DeepSeek-R1 MTP on TRT-LLM 1.0.0 crashes", "2025-09-20",
        "MTP with 3 layers dies after warmup:", "unknown", "MTPEagleWorker|MTPWorker"),
    "vLLM named in a deployment stack's title": (
        "llm-d/llm-d", "[Bug] eagle3 on vLLM 0.10.2 crashes the decode pod", "2025-09-22",
        "Our decode pod dies:", "other", "EagleProposer"),
    "SGLang named in a transfer engine's title": (
        "kvcache-ai/Mooncake", "sglang 0.5.2: EAGLE3 crash with the Mooncake transfer engine", "2025-09-25",
        "PD disaggregation with EAGLE3:", "v1", "EAGLEWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(WRAPPER_TITLES))
def test_a_framework_named_in_another_projects_title_places_the_run(tmp_path: Path, name: str) -> None:
    repo, title, day, sentence, value, classes = WRAPPER_TITLES[name]
    lines = [f"{repo} · issue #77 · open · Python", "labels: bug", f"# {title}", "",
             f"ivy · description · {day}", sentence, "```", *TORCH_CRASH, "```"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), value, classes)


def test_a_feature_request_on_a_wrappers_tracker_decides_nothing(tmp_path: Path) -> None:
    lines = ["llm-d/llm-d · issue #78 · open · Python", "labels: enhancement",
             "# [Feature] eagle3 on vLLM 0.10.2 for the decode pod", "", "ivy · description · 2025-09-22",
             "Please support it.", *PROBE_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="report.md"))
    assert path.value not in ("v1", "v2", "other", "none") and not path.conditional, path


# session 14 (ADV s14): an engine's pull-request title naming a method with a release or a day,
# over a body that adds, moves, guards or refactors code, or bumps another recipe's image: the
# title names the component, not a run (neither a class nor a condition)
SGL_REPO, RECIPES = "sgl-project/sglang", "SemiAnalysisAI/InferenceX"
RELATIVE_PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
                  "RuntimeError: spectrace probe"]  # fmt: skip


def pull(repo: str, title: str, day: str, *body: str) -> list[str]:
    """A merged pull request as the collectors save it (no labels line)."""
    return [f"{repo} · pull request #24102 · merged · Python", f"# {title}", "", f"ivy · description · {day}", *body]


PR_TITLES_NO_RUN = {
    "a refactor of the v2 worker for a release": pull(
        SGL_REPO, "[Refactor] split EAGLEWorkerV2.forward_batch_generation for 0.5.12", "2026-05-18",
        "Moves the draft step into a helper; no behaviour change.", "- [x] Format your code"),
    "a move of a proposer class, a month in the title": pull(
        VLLM_REPO, "[Refactor] move DraftModelProposer into spec_decode/draft_model.py (2026-01)", "2026-01-14",
        "Pure move; EagleProposer no longer carries the draft-model branch.", "## Test Plan", "CI."),
    "a method added for a model family, tests to come": pull(
        SGL_REPO, "Support NGRAM speculative decoding for hybrid Mamba models (v0.5.9)", "2026-02-20",
        "NGRAMWorker assumed a full-attention pool; copy mamba states on accept.", "## Accuracy Tests", "TODO"),
    "a speculator added to the model runner v2 with its release": pull(
        VLLM_REPO, "[Spec Decode][MRV2] add DSparkSpeculator (v0.25.0)", "2026-06-30",
        "Adds the DSpark speculator to the model runner v2.", "## Test Plan", "Unit tests; e2e to follow."),
    "an image bump of the plain sibling of an MTP recipe": pull(
        RECIPES, "Update dsv4-fp4-b300-vllm (STP only) to v0.24.0", "2026-07-05",
        "Bumps `dsv4-fp4-b300-vllm` to `vllm/vllm-openai:v0.24.0`; the MTP recipe is not part of this PR.",
        "## Test plan", "- [ ] sweep"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(PR_TITLES_NO_RUN))
def test_a_pull_requests_title_naming_the_code_it_changes_is_no_run(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, [*PR_TITLES_NO_RUN[name], *RELATIVE_PROBE], name="report.md"))
    assert path.worker_class is None and not path.conditional, path


# a recipe title naming an image tag (a release) and a method, the body only recipe names or a
# disclosure: the release's class, a condition holding it, or unknown; never another class
IMAGE_TITLES = {
    "a vLLM image tag and an (+mtp) recipe": (pull(
        RECIPES, "Update glm4.6-fp8-h200-vllm (+mtp) vLLM image to v0.21.0", "2026-05-20",
        "Recipes touched: `glm4.6-fp8-h200-vllm`, `glm4.6-fp8-h200-vllm-mtp`",
        "- [x] full-sweep-enabled sweep passes."), {"EagleProposer"}),
    "an SGLang ROCm image tag and an MTP recipe": (pull(
        RECIPES, "Update kimi-k2-fp8-mi355x-sglang-mtp to lmsysorg/sglang:v0.5.20-rocm700-mi35x", "2026-09-21",
        "This PR was written with an AI assistant."), {"EAGLEWorkerV2"}),
    "Dynamo's runtime tag (Dynamo's release, not SGLang's) with EAGLE MTP": ([
        "ai-dynamo/dynamo · issue #5800 · open · Python", "# [BUG]: SGLang MTP decode worker hangs", "",
        "ivy · description · 2026-02-15", "Image `nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.6.1`", "```",
        "python3 -m dynamo.sglang --model-path deepseek-ai/DeepSeek-R1 --tp 8 --speculative-algorithm EAGLE "
        "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "```",
        "Hangs after warmup."], {"EAGLEWorker", "EAGLEWorkerV2"}),
}  # fmt: skip


@pytest.mark.parametrize("name", list(IMAGE_TITLES))
def test_an_image_tag_in_a_recipe_title_never_names_another_class(tmp_path: Path, name: str) -> None:
    lines, classes = IMAGE_TITLES[name]
    path = crash_path(run(tmp_path, [*lines, *RELATIVE_PROBE], name="report.md"))
    if path.value in ("v1", "v2", "other", "none"):
        assert path.worker_class in classes, path
    elif path.conditional:
        assert any(c in path.conditional for c in classes), path
