"""Session 35 (FIXE): misses of the rebuilt open nets r63/r64 (NETA) and r69/r70 (NETB).

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, probed_path
from spectrace.path_base import family_words

# --- a family word naming source files is code, not a method the run used ---


@pytest.mark.parametrize("text", [
    "Back in 2025 the same checks were duplicated across the MTP/Eagle sampler files.",
    "The guard was first added to the EAGLE worker source files and later moved.",
    "该断言最早写在 Medusa 相关的代码文件里，后来合并到了基类。",
    "このチェックは以前 NGRAM のソースファイルにありました。",
    "This lived in the medusa proposer file before the refactor.",
])  # fmt: skip
def test_a_family_word_before_a_source_file_names_no_family(text: str) -> None:
    assert family_words(text) == set()


@pytest.mark.parametrize(("text", "family"), [
    ("We launched it with our MTP config file on four GPUs.", "MTP"),
    ("The EAGLE3 draft model files were downloaded from the hub.", "EAGLE3"),
    ("Serving Llama with EAGLE on our cluster fails after the files are loaded.", "EAGLE"),
    ("We serve our chat model with EAGLE and the files from our bucket.", "EAGLE"),
])  # fmt: skip
def test_a_config_or_model_file_keeps_its_family(text: str, family: str) -> None:
    assert family in family_words(text)


def _trt_fix_pr(history: str) -> list[str]:
    return ["NVIDIA/TensorRT-LLM · pull request #4242 · merged · Python",
            "# [None][fix] Keep the server up when a speculative request asks for top logprobs",
            "", "kara-m · description · 2026-04-02", "## Summary",
            "- Requests asking for top logprobs under speculative decoding hit an assert and the worker exits.",
            "", "### Background",
            "Our team saw the worker exit in production while serving a large coder model with MTP speculative decoding.",
            "", "### History", history, "", "## Test plan",
            "- [x] Rolled out to our production fleet, no exits since"]  # fmt: skip


@pytest.mark.parametrize("history", [
    "These checks came from an earlier PR that spread them over separate MTP/Eagle sampler files.",
    "First written in the Eagle3 and MTP worker source files, then merged into one base class.",
    "- 2025: checks copied into the eagle/ngram sampler files",
])  # fmt: skip
def test_trtllm_fix_pr_history_of_files_adds_no_family(tmp_path: Path, history: str) -> None:
    path = probed_path(tmp_path, _trt_fix_pr(history))
    assert path.value == "unknown" and path.conditional, path
    assert "MTPWorker" in path.conditional and "MTPEagleWorker" in path.conditional
    assert "Eagle3OneModelWorker" not in path.conditional and "ModelDrafter" not in path.conditional
    assert "NGram" not in path.conditional, path.conditional
    assert any("in production" in e.text for e in path.evidence), path.evidence


def test_sglang_run_with_a_file_history_decides_its_own_family(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [
        "Facts from our side:", "",
        "- We run it in production (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4, page size 1).",
        "- The same check once sat in the NGRAM source files as well."])  # fmt: skip
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path


def test_a_code_tour_naming_the_sampler_files_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Where the speculative samplers live", "",
        "The MTP/Eagle sampler files were merged into one base class; this page walks through it.",
        "Each subclass overrides the acceptance step, see the individual Eagle3 worker source files."])  # fmt: skip


# --- a cited source file of one method's own vLLM package names that speculator ---


@pytest.mark.parametrize("lines", [
    # a bare comment: the writer's load failure, the package file cited with its line
    ["Our DSpark drafter never loads on vLLM 0.28: the draft loader "
     "(v1/worker/gpu/spec_decode/dspark/utils.py:48) dies with AttributeError: 'LlamaConfig' "
     "object has no attribute 'hc_mult' on both of our 4090 boxes."],
    # a bullet list of findings, the path with its package prefix in inline code
    ["Findings after two days on this:",
     "- the crash is raised in `vllm/v1/worker/gpu/spec_decode/dspark/utils.py:61` while building the drafter",
     "- we reproduced it on an A100 and an L40S with the same image"],
    # a Chinese report
    ["我们在 vLLM 0.28.1 上加载 DSpark 草稿模型时崩溃，报错位置 v1/worker/gpu/spec_decode/dspark/utils.py:52，"
     "错误是 KeyError: 'hc_mult'。"],
], ids=["comment", "bullets", "chinese"])  # fmt: skip
def test_a_cited_file_of_the_dspark_package_names_its_speculator(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "DSparkSpeculator"), path
    assert any("dspark/utils.py" in e.text for e in path.evidence), path.evidence


def test_a_file_of_a_package_several_families_share_names_no_speculator(tmp_path: Path) -> None:
    # the EAGLE package's helpers serve EAGLE and EAGLE3 runs alike: the file names no class
    path = probed_path(tmp_path, [
        "The drafter fails to load on our box: v1/worker/gpu/spec_decode/eagle/utils.py:40 raises "
        "KeyError: 'norm.weight' right after the target weights load."])  # fmt: skip
    assert path.worker_class is None, path


@pytest.mark.parametrize("lines", [
    ["# Reading the DSpark loader", "",
     "This note walks through how the draft config is resolved. The entry point is get_draft_quant_config "
     "in v1/worker/gpu/spec_decode/dspark/utils.py:48, which reads the quantization block.",
     "It then hands the result to the model registry."],
    ["How to debug a DSpark drafter that will not load:",
     "1. Set a breakpoint at v1/worker/gpu/spec_decode/dspark/utils.py:48 and print the draft config.",
     "2. If the config lacks hc_mult, check the architecture name in config.json."],
], ids=["code-tour", "how-to"])  # fmt: skip
def test_a_doc_citing_the_dspark_package_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- the writer's repeated boots of their own run are a run ---


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a report's summary: the method and engine named, the boots counted with their outcomes
    (["## Summary", "", "GLM-4.6 with MTP3 on vLLM, tensor parallel 6.",
      "Four clean restarts of one unchanged container each crashed somewhere different.",
      "Setting MTP=0 avoids it."],
     "unknown", "EagleProposer"),
    # first person, counted restarts and what they produced
    (["Context for the maintainers:", "",
      "Qwen3-32B, vLLM nightly, EAGLE3 draft with 3 speculative tokens.",
      "We restarted the container 6 times; four of the restarts produced the garbled output."],
     "unknown", "EagleProposer"),
    # Chinese: restarted five times, three garbled
    (["环境：vLLM 0.27.1，DSpark 草稿模型，TP=2。", "重启了五次，其中三次输出乱码。"],
     "other", "DSparkSpeculator"),
], ids=["summary-boots", "restarted-n-times", "chinese-restarts"])  # fmt: skip
def test_the_writers_repeated_boots_show_a_run(tmp_path: Path, lines: list[str], value: str, classes: str) -> None:
    path = probed_path(tmp_path, lines)
    if value == "unknown":
        assert path.value == "unknown" and classes in (path.conditional or ""), path
    else:
        assert (path.value, path.worker_class) == (value, classes), path
    assert not any("shows a run" in m for m in path.missing), path.missing


@pytest.mark.parametrize("lines", [
    ["# Troubleshooting MTP drafts", "",
     "If you restart the server three times and it still fails, set MTP=0 and file a bug.",
     "On each restart the draft cache is rebuilt from the checkpoint; plan for two minutes."],
    ["## Deployment checklist (vLLM 0.27.1, MTP k=2)", "",
     "- Reboot the node twice after installing the driver.",
     "- You should see the same banner on every boot."],
], ids=["troubleshooting", "checklist"])  # fmt: skip
def test_a_guide_that_counts_restarts_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- SGLang's main at a commit is a build of main: the thread's day bounds its release ---


def _sgl_issue(day: str, body: list[str]) -> list[str]:
    return ["sgl-project/sglang · issue #40001 · open · Python",
            "# Scheduler stalls while a trace is exported under speculative decoding", "",
            f"rivka · description · {day}", *body]  # fmt: skip


@pytest.mark.parametrize("body", [
    # a measured heading naming main at a commit beside the method
    ["## Impact measured (H100 x8, TP8, main @ 4c5d6e7f, MTP steps=3/topk=1/draft=4)",
     "Serving froze for 19 s on every export."],
    # an environment bullet: a commit, then a parenthesis saying it is main's
    ["## Environment", "- sglang @ 4c5d6e7f (main, 2026-08-12), TP4 on 4x H100",
     "- launch: `python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE --tp 4`"],
    # the code pointer of a root-cause section, main at a commit in inline code
    ["Measured on our 8x H100 server with EAGLE3 (3 steps, topk 1, 4 draft tokens): serving froze for 19 s.",
     "In `python/sglang/srt/managers/scheduler.py` (`main` at `4c5d6e7f`) the export runs inline."],
], ids=["measured-heading", "env-bullet", "code-pointer"])  # fmt: skip
def test_main_at_a_commit_dated_past_the_v2_only_release_decides_v2(tmp_path: Path, body: list[str]) -> None:
    path = probed_path(tmp_path, _sgl_issue("2026-08-15", body))
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path
    assert any("a build of main" in e.reason for e in path.evidence), path.evidence


def test_main_at_a_commit_posted_soon_after_the_v2_only_release_stays_a_condition(tmp_path: Path) -> None:
    # a main build may be a month older than its post: before the v1 worker was gone
    path = probed_path(tmp_path, _sgl_issue("2026-06-20", [
        "## Impact measured (H100 x8, TP8, main @ 4c5d6e7f, MTP steps=3/topk=1/draft=4)",
        "Serving froze for 19 s on every export."]))  # fmt: skip
    assert path.worker_class is None and "EAGLEWorker" in (path.conditional or ""), path


def test_the_main_thread_at_a_commit_is_no_build_of_main(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _sgl_issue("2026-08-15", [
        "The scheduler froze for 19 s on our EAGLE3 server (3 steps, topk 1, 4 draft tokens).",
        "The export runs on the scheduler main thread (`scheduler.py:3639` at 4c5d6e7f)."]))  # fmt: skip
    assert not any("a build of main" in e.reason for e in path.evidence), path.evidence


def test_a_guide_building_main_at_a_commit_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Trying speculative decoding on a source build", "",
        "1. Check out sglang main @ 4c5d6e7f and install it with `pip install -e python`.",
        "2. Launch with `--speculative-algorithm EAGLE3` and your draft path.",
        "3. You should see the accept length in the decode log."])  # fmt: skip
