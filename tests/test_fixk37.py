"""Session 37 (FIXK): changelog and sync lists, SGLang runs told in a pull request's or a
comment's own prose, plugins' own classes.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, run, store_thread

# --- a changelog, release notes or a fork's sync list: each item is a landed change's title with
# its number; the method words it names are that change's code, not a run (any language) ---


def _merged(repo: str, title: str, body: list[str]) -> list[str]:
    return store_thread(repo, "pull request", 88, title, "2026-09-11", body, state="merged")


@pytest.mark.parametrize("lines", [
    # a fork's daily sync of upstream, in Chinese: a metric word in one title, another engine in
    # another's (each used to name the run's engine and method)
    _merged("acme-ai/sglang-fork", "Sync upstream main 20260911", [
        "# 一、推理引擎", "",
        "- `[B200] 接入 TRT-LLM 的 MLA decode kernel` (#41024)：新增后端。",
        "- ROCm：DSpark accept length 修复 (#41002)、host 开销降低 (#41010)。", "",
        "# 二、其它", "", "- 文档更新 (#41033)。"]),
    # a cherry-pick list of an engine's own patch release, one item per change
    _merged("vllm-project/vllm", "Cherry-picks for v0.30.1", [
        "- [Spec Decode] DFlash accept length fix (#30011)", "- [Bugfix] tokenizer (#30015)"]),
    # release notes as GitHub writes them: author and pull request address per item
    _merged("acme/vllm-fork", "Sync upstream (week 37)", [
        "## Included", "",
        "- [Spec Decode] vLLM eagle3 acceptance rate fix (#30011)", "- [Bugfix] tokenizer (#30015)",
        "* [Core] prefix cache eviction order by @devtwo in https://github.com/vllm-project/vllm/pull/30019"]),
    # numbered items with Markdown links, Japanese
    _merged("NVIDIA/TensorRT-LLM", "release/1.3 への取り込み", [
        "1. [fix] MTP accept length 修正 (#9011)",
        "2. [chore] 依存関係の更新 ([#9015](https://github.com/NVIDIA/TensorRT-LLM/pull/9015))"]),
], ids=["sync-zh", "cherry-picks", "release-notes", "numbered-links-ja"])  # fmt: skip
def test_a_changelog_or_sync_lists_items_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_a_bug_reports_related_change_item_leaves_its_own_launch_standing(tmp_path: Path) -> None:
    lines = store_thread("sgl-project/sglang", "issue", 5200, "[Bug] draft OOM after upgrade", "2026-02-10", [
        "Launch:", "",
        "python -m sglang.launch_server --model-path org/Target --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path org/Target-EAGLE3 --tp 8",
        "", "Related:", "", "- [Spec] Fix NGRAM cache growth (#5101)", "",
        "Traceback (most recent call last):",
        '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 3100, in run_event_loop',
        "    self.process_batch(batch)", "torch.OutOfMemoryError: CUDA out of memory."])
    path = crash_path(run(tmp_path, lines))

    assert path.worker_class is not None and not path.conditional, path
    assert any(e.lineno == 7 for e in path.evidence), path.evidence


# --- a pull request enabling or adding a method whose own prose tells the failure its author met
# while validating it on a named model or accelerator, with the error lines: the PR's own run ---

_ERR = ["```text", "torch.AcceleratorError: HIP error: an illegal memory access was encountered", "```"]


@pytest.mark.parametrize(("lines", "value", "cls", "said"), [
    # an SGLang ROCm PR: the sentence "while validating ... with MODEL, ALGO ... exposed ..."
    (store_thread("sgl-project/sglang", "pull request", 6100, "[AMD] Enable tree sampling on ROCm", "2026-09-03", [
        "## Motivation", "",
        "While validating the new sampler with Qwen3-235B-A22B, NEXTN with topk 4 exposed a second bug in "
        "the draft KV copy:", "", "```text", "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to "
        "access memory beyond the largest legal address. code: 0x29", "```", "", "## Modifications", "",
        "- `python/sglang/srt/speculative/eagle_info.py`: page-aware copy"]),
     "v2", "EAGLEWorkerV2", "While validating the new sampler"),
    # an SGLang feature PR: "When benchmarking ALGO on 8x B200 the server crashed with:"
    (store_thread("sgl-project/sglang", "pull request", 6120, "Support EAGLE3 top-k > 1 on Blackwell", "2026-10-01", [
        "## Motivation", "", "When benchmarking EAGLE3 on 8x B200 the scheduler hung after the first verify "
        "step; py-spy showed the tree mask build:", "", *_ERR, "", "## Modifications", "", "- build the mask per page"]),
     "v2", "EAGLEWorkerV2", "EAGLE3"),
    # the failure told on the accelerator in its own sentence, the method in the sentence above
    (store_thread("sgl-project/sglang", "pull request", 6133, "[AMD] Enable page-aware draft cache copy", "2026-08-20", [
        "## Motivation", "", "EAGLE with topk 2 and page size 64 copies slots as page rows.", "",
        "On MI300X this failed during draft extend, before verify:", "", *_ERR]),
     "v2", "EAGLEWorkerV2", "EAGLE with topk 2"),
], ids=["validating-model", "benchmarking-rig", "on-rig-failed"])  # fmt: skip
def test_a_pull_requests_own_failure_told_while_validating_shows_its_run(
    tmp_path: Path, lines: list[str], value: str, cls: str, said: str
) -> None:
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, value, cls)
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # a pull request reasoning about what could fail: a condition, no failure met
    store_thread("sgl-project/sglang", "pull request", 6140, "[Feature] Enable EAGLE top-k > 1 on ROCm", "2026-09-10", [
        "## Motivation", "", "When testing EAGLE with topk 4 on MI300X the copy could fail if the page "
        "size is 64, so this PR adds a page-aware copy.", "", "## Modifications", "", "- page-aware copy"]),
    # a guide telling the reader what to do when their validation fails
    ["# Validating speculative decoding on ROCm", "",
     "When validating EAGLE3 on MI300X, check the accept length first; if the server crashed, rerun with "
     "AMD_SERIALIZE_KERNEL=3.", "", "1. Launch the server.", "2. Send the sample prompts."],
], ids=["pr-condition", "guide"])  # fmt: skip
def test_a_failure_supposed_or_advised_while_validating_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- a comment copied alone from a roadmap, feature-request or RFC thread, reporting the run its
# writer finished with the acceptance figures abbreviated (AL, AR): its run, not the thread's wish
# (an issue's day bounds SGLang's release only from above: NEXTN stays the release's condition) ---


@pytest.mark.parametrize(("lines", "value", "cls", "said"), [
    # a roadmap comment: the draft named in a scope list, figures in a fenced block
    (store_thread("sgl-project/sglang", "issue", 7001, "[Roadmap] Kimi-K3 DSpark on Blackwell", "2026-07-20", [
        "Status, 2026-07-20:", "", "- Target: `org/Kimi-K3`", "- Draft: `org/Kimi-K3-dspark`", "",
        "```text", "DSpark mean AL: 3.92", "DSpark mean AR: 48.5%", "```"], post="comment"),
     "v2", "DSparkWorkerV2", "DSpark mean AL: 3.92"),
    # a feature request's comment, one line of both figures after the method
    (store_thread("sgl-project/sglang", "issue", 7010, "[Feature] EAGLE3 for the new MoE models", "2026-09-14", [
        "Tried the branch on 8x H200 for a day.", "", "EAGLE3 (topk 1, 3 steps) AL/AR: 3.10 / 61.2% over 300 prompts."],
        post="comment"),
     "unknown", "EAGLEWorkerV2|EAGLEWorker", "EAGLE3 (topk 1, 3 steps)"),
    # an RFC comment, the figure as a key=value pair in a bullet
    (store_thread("sgl-project/sglang", "issue", 7020, "[RFC] NEXTN draft sharing across DP ranks", "2026-10-02", [
        "Numbers from our staging cluster with the prototype:", "",
        "- NEXTN, 2 steps: AL=2.71, 0 errors over 512 prompts"], post="comment"),
     "unknown", "EAGLEWorkerV2|EAGLEWorker", "NEXTN, 2 steps"),
], ids=["roadmap-dspark", "feature-eagle3", "rfc-nextn"])  # fmt: skip
def test_a_request_threads_comment_reporting_its_own_run_shows_it(
    tmp_path: Path, lines: list[str], value: str, cls: str, said: str
) -> None:
    path = crash_path(run(tmp_path, [*lines, "", *PROBE]))
    assert_verdict(path, value, cls)
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # the roadmap's own opening post: the figures are its targets
    store_thread("sgl-project/sglang", "issue", 7030, "[Roadmap] Kimi-K3 DSpark on Blackwell", "2026-07-01", [
        "Goals for this quarter:", "", "- DSpark target AL: 4.0", "- DSpark target AR: 50%"]),
    # a comment on a feature request quoting the paper's figures, asking
    store_thread("sgl-project/sglang", "issue", 7040, "[Feature] DSpark for GLM", "2026-07-05", [
        "The paper claims DSpark AL: 4.5 on GLM; could SGLang support it?"], post="comment"),
], ids=["roadmap-goals", "comment-asks"])  # fmt: skip
def test_a_request_threads_targets_or_quoted_figures_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- a thread on ROCm ATOM's tracker about its plugin mode inside vLLM or SGLang ("[atom-vllm]",
# "the ATOM vLLM plugin"): the host engine ran with its own speculative classes (ATOM's tree
# patches vLLM's proposers in place), not ATOM's own server ---


@pytest.mark.parametrize(("lines", "value", "cls"), [
    # a plugin-mode PR validating DSpark: a results table and measured acceptance
    (store_thread("ROCm/ATOM", "pull request", 2101, "[atom-vllm] DSpark draft for Qwen4 in plugin mode", "2026-09-02", [
        "Runs the Qwen4 DSpark draft through vLLM with ATOM's kernels.", "", "## Test results", "",
        "| arm | gsm8k | tok/s |", "|---|---|---|", "| DSpark, 4 tokens | 0.951 | 2210 |", "",
        "Mean acceptance length 3.1 over the run."], state="merged"),
     "other", "DSparkSpeculator"),
    # a bug on the plugin mode, named in words, with the measured failure told
    (store_thread("ROCm/ATOM", "issue", 2140, "DSpark accept rate collapses with the vLLM plugin on MI355X", "2026-09-20", [
        "With the ATOM vLLM plugin, DSpark on Kimi-K3 measured acceptance 12% (it was 55% on stock vLLM ROCm)."]),
     "other", "DSparkSpeculator"),
    # an SGLang plugin-mode PR: SGLang's DSpark worker
    (store_thread("ROCm/ATOM", "pull request", 2160, "[atom-sglang] DSpark verify on MI350", "2026-08-30", [
        "## Validation", "", "SGLang with the ATOM plugin, GLM-5.2 DSpark, TP4 on MI350:", "",
        "```text", "DSpark mean AL: 3.74", "```"], state="merged"),
     "v2", "DSparkWorkerV2"),
], ids=["vllm-pr-table", "vllm-issue-words", "sglang-pr"])  # fmt: skip
def test_a_thread_on_atoms_plugin_mode_is_the_host_engines_run(
    tmp_path: Path, lines: list[str], value: str, cls: str
) -> None:
    path = crash_path(run(tmp_path, [*lines, "", *PROBE]))
    assert_verdict(path, value, cls)
    assert any("DSpark" in e.text for e in path.evidence), path.evidence


def test_a_thread_on_atoms_own_server_stays_atoms(tmp_path: Path) -> None:
    lines = store_thread("ROCm/ATOM", "pull request", 2180, "[spec] DSpark for Kimi-K3 in the native server", "2026-09-05", [
        "## Test results", "", "python -m atom.entrypoints.openai_server --model org/Kimi-K3 --method dspark", "",
        "Mean acceptance length 3.0 over the run."], state="merged")
    assert_no_path(tmp_path, lines)
