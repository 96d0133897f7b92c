"""Session 37 (FIXN): runs a thread tells in words that the fresh open rounds left unread.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, store_thread

# --- a comment re-running its own runs ("Re-ran full E2E after ...", "Reran the benchmark on
# ..."), the method told in prose beside it: the rerun is the writer's run, so the method named
# for both arms is the run's, on a pull request that adds support for something else ---


@pytest.mark.parametrize(("lines", "classes", "said"), [
    # a ROCm PR comment: the rerun, the arms in prose, an env block, the serve line cut
    (store_thread("vllm-project/vllm", "pull request", 51234,
                  "[ROCm][Spec Decode] Support speculative decode with a new paged attention kernel",
                  "2026-07-20", [
                      "Re-ran the full E2E after the rebase onto main. Head compared with the nightly in one image.", "",
                      "Both arms: TP8, BF16 KV cache, EAGLE3 with 4 speculative tokens, 2048 in / 512 out.", "",
                      "```bash", "export VLLM_ROCM_USE_AITER=1", "export VLLM_ROCM_USE_AITER_MHA=0",
                      "# draft: a local copy of the EAGLE3 head", "```"], author="rocm-dev", post="comment"),
     "EagleProposer|EagleSpeculator", "EAGLE3 with 4 speculative tokens"),
    # a CUDA PR comment in a bullet list: the rerun opens a clause after a greeting
    (store_thread("vllm-project/vllm", "pull request", 51300,
                  "[Spec Decode][Perf] Support speculative decoding with a fused sampler",
                  "2026-06-02", [
                      "Thanks for the review. Reran the benchmark on 2x H100 after the fix:", "",
                      "- setup: Qwen3-32B, TP2, MTP with 2 speculative tokens in both arms",
                      "- the PR arm keeps the same acceptance"], author="perf-dev", post="comment"),
     "EagleProposer|MTPSpeculator", "MTP with 2 speculative tokens"),
    # the same shape on SGLang's tracker: the re-test told in a clause, the algorithm in words
    (store_thread("sgl-project/sglang", "pull request", 23456,
                  "[Feature] Support speculative decoding with a paged draft KV cache",
                  "2026-02-10", [
                      "Rebased on main; re-tested both arms on 8x H200 with EAGLE3 speculative decoding "
                      "(3 steps, topk 1, 4 draft tokens) and the outputs match."], author="sgl-dev", post="comment"),
     "EAGLEWorker|EAGLEWorkerV2", "re-tested both arms"),
], ids=["vllm-rocm-env", "vllm-bullets", "sglang-clause"])  # fmt: skip
def test_a_comment_rerunning_its_arms_tells_the_method_it_ran(
    tmp_path: Path, lines: list[str], classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    if path.worker_class is None:
        assert_verdict(path, "unknown", classes)
    else:
        assert path.worker_class in classes.split("|"), path
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # a PR adding a method whose only rerun is of its unit tests
    store_thread("vllm-project/vllm", "pull request", 51400, "[Spec Decode] Add EAGLE3 support for a new model",
                 "2026-07-01", ["Adds EAGLE3 heads for the new model family.", "",
                                "Re-ran the unit tests after the rebase; all green."]),
    # a reviewer asking for a rerun: a request, not a run
    store_thread("vllm-project/vllm", "pull request", 51401, "[Spec Decode] Support speculative decode on a new backend",
                 "2026-07-03", ["Please re-run the full E2E with EAGLE3 and 3 speculative tokens once the kernel PR lands."],
                 post="comment"),
    # a plan that will rerun the benchmark
    store_thread("sgl-project/sglang", "issue", 23500, "[Roadmap] speculative decoding benchmarks",
                 "2026-03-01", ["Next steps:", "", "- we will rerun the benchmark with EAGLE3 (3 steps, topk 1) on H200",
                                "- then compare with MTP"]),
], ids=["unit-tests", "request", "plan"])  # fmt: skip
def test_a_rerun_asked_for_planned_or_of_unit_tests_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- SGLang's spec-v2 switch set in inline code beside the speculative flags a sentence quotes
# ("`SGLANG_ENABLE_SPEC_V2=1` with `--speculative-algorithm EAGLE`, `--speculative-num-steps 3`"):
# the switch is the quoted command's, so a run the text shows takes the v2 worker at any release ---


@pytest.mark.parametrize(("lines", "said"), [
    # a recipe PR describing its config in a bold-led paragraph, then its own measured result
    (store_thread("acme/serving-recipes", "pull request", 812, "llama-fp8-h200-sglang-eagle: the EAGLE variant of the H200 recipe",
                  "2026-02-02", [
                      "**Speculative config**: `SGLANG_ENABLE_SPEC_V2=1` with `--speculative-algorithm EAGLE3`, "
                      "`--speculative-num-steps 3`, `--speculative-eagle-topk 1`, `--speculative-num-draft-tokens 4`.", "",
                      "## Results", "", "Validated on 8x H200: 2310 tok/s at c64, accept length 2.9."]),
     "SGLANG_ENABLE_SPEC_V2=1"),
    # an issue post in the first person, the switch and the flags in one sentence of code spans
    (store_thread("sgl-project/sglang", "issue", 17001, "[Bug] throughput drop with EAGLE at high concurrency",
                  "2026-01-28", [
                      "I serve Llama-3.1-70B with `SGLANG_ENABLE_SPEC_V2=1` and `--speculative-algorithm EAGLE "
                      "--speculative-num-steps 5 --speculative-num-draft-tokens 6`; at c128 I measured 410 tok/s "
                      "against 980 tok/s without speculation."]),
     "SGLANG_ENABLE_SPEC_V2=1"),
    # a bullet list of the setup, env and flags as separate spans on one item
    (store_thread("sgl-project/sglang", "pull request", 17050, "[Perf] faster draft extend for NEXTN",
                  "2026-01-15", [
                      "Benchmark setup:", "",
                      "- env `SGLANG_ENABLE_SPEC_V2=true`, flags `--speculative-algorithm NEXTN` `--speculative-num-steps 2`",
                      "- DeepSeek-V3 on 8x H200, TP8", "",
                      "Measured on 8x H200: 1450 tok/s before, 1610 tok/s after."]),
     "SGLANG_ENABLE_SPEC_V2=true"),
], ids=["recipe-paragraph", "issue-sentence", "bullet"])  # fmt: skip
def test_the_switch_quoted_beside_the_flags_decides_the_v2_worker(tmp_path: Path, lines: list[str], said: str) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v2", "EAGLEWorkerV2")
    assert any(said in e.text for e in path.evidence), path.evidence


def test_the_switch_a_sentence_takes_away_is_not_the_commands(tmp_path: Path) -> None:
    lines = store_thread("sgl-project/sglang", "issue", 17002, "[Bug] EAGLE slower than expected",
                         "2026-01-28", [
                             "I serve Llama-3.1-70B without `SGLANG_ENABLE_SPEC_V2=1`, just `--speculative-algorithm EAGLE "
                             "--speculative-num-steps 5 --speculative-num-draft-tokens 6`; at c128 I measured 410 tok/s."])
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "EAGLEWorkerV2", path


@pytest.mark.parametrize("lines", [
    # a recipe page listing the switch and the flags for the reader to copy
    ["# Serving Llama with EAGLE3 on H200", "", "## Configuration", "",
     "Set `SGLANG_ENABLE_SPEC_V2=1` and pass `--speculative-algorithm EAGLE3`, `--speculative-num-steps 3`, "
     "`--speculative-eagle-topk 1` and `--speculative-num-draft-tokens 4` to the server.", "",
     "## Tuning", "", "Raise the draft tokens for long outputs."],
    # a template PR adding a recipe entry, no run of its own
    store_thread("acme/serving-recipes", "pull request", 813, "add a template for EAGLE recipes", "2026-02-03", [
        "Adds a template entry. Recipes should set `SGLANG_ENABLE_SPEC_V2=1` with `--speculative-algorithm EAGLE3` "
        "and `--speculative-num-steps 3`; fill in your model and results."]),
], ids=["docs-page", "template-pr"])  # fmt: skip
def test_the_switch_and_flags_on_a_page_or_template_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
