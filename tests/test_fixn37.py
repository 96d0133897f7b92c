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


def test_the_switch_on_a_line_without_the_method_option_is_not_the_commands(tmp_path: Path) -> None:
    # a notes page's constraint bullets: the switch beside a dtype and a scheduler option, the
    # method only in the prose of another arm; the EAGLE row above it runs with topk > 1
    lines = ["# Speculative serving notes (receipt specdec-r2, 2026-05-20)", "",
             "| model | method | plain | spec |", "|---|---|---|---|",
             "| coder | EAGLE3 (steps 4 / topk 4 / draft 8) | 180 tok/s | 300 tok/s |", "",
             "- DFlash on the MoE target: export `SGLANG_ENABLE_SPEC_V2=1`, pass `--mamba-scheduler-strategy extra_buffer` "
             "and `--dtype bfloat16`.", "- Both arms: `--speculative-draft-model-quantization unquant`."]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "EAGLEWorkerV2", path
    assert not any("SGLANG_ENABLE_SPEC_V2" in e.reason for e in path.evidence), path.evidence


# --- a recipe pull request whose diff adds the launch (an argument array or a command, every
# line "+"-prefixed) and whose own lines report running it: the added launch lines are the run's
# flags; the same diff with no run reported (a recipe only added), or under a review anchor, is
# code under change ---


def _recipe_pr(repo: str, number: int, title: str, day: str, body: list[str]) -> list[str]:
    return store_thread(repo, "pull request", number, title, day, body, state="merged", author="benchdev")


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # an SGLang argument array in a fenced diff, the result with the image it ran
    (_recipe_pr("acme/inference-bench", 2901, "qwen3-fp8-h100-sglang-mtp: the MTP variant of the H100 recipe",
                "2026-08-20", [
                    "## Summary", "", "The MTP variant of the Qwen3 H100 script:", "", "```diff", "+SPEC_ARGS=(",
                    "+    --speculative-algorithm NEXTN", "+    --speculative-num-steps 2",
                    "+    --speculative-eagle-topk 1", "+    --speculative-num-draft-tokens 3", "+)", "```", "",
                    "## Results", "", "Ran the recipe with lmsysorg/sglang:v0.5.16-cu129 on 8x H100: 1830 tok/s at c32."]),
     "v2", "EAGLEWorkerV2", "--speculative-algorithm NEXTN"),
    # a vLLM serve command added in a diff, then benchmarked
    (_recipe_pr("acme/inference-bench", 2950, "llama-8b-h100-vllm-eagle3: EAGLE3 recipe for the 8B model",
                "2026-03-10", [
                    "The serve command of the recipe:", "", "```diff", "+vllm serve meta-llama/Llama-3.1-8B-Instruct \\",
                    "+  --tensor-parallel-size 1 \\",
                    """+  --speculative-config '{"method": "eagle3", "model": "acme/llama-8b-eagle3", "num_speculative_tokens": 3}'""",
                    "```", "", "Benchmarked on 1x H100: 145 tok/s without the draft, 212 tok/s with it."]),
     "any", "EagleProposer|EagleSpeculator", "--speculative-config"),
    # the flags added bare (no array, no command), the run told in the first person
    (_recipe_pr("acme/serving-configs", 77, "deepseek-h200-sglang: turn on NEXTN for the H200 config",
                "2026-08-02", [
                    "```diff", "+  --speculative-algorithm EAGLE", "+  --speculative-num-steps 3",
                    "+  --speculative-num-draft-tokens 4", "```", "",
                    "We ran it on lmsysorg/sglang:v0.5.16 overnight: accept length 2.8, 2400 tok/s."]),
     "v2", "EAGLEWorkerV2", "--speculative-algorithm EAGLE"),
], ids=["sglang-array", "vllm-serve", "bare-flags"])  # fmt: skip
def test_a_recipe_diffs_added_launch_lines_are_the_reported_runs(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    if value == "any":
        assert path.worker_class in classes.split("|") or (
            path.value == "unknown" and path.conditional and any(c in path.conditional for c in classes.split("|"))), path
    else:
        assert_verdict(path, value, classes)
    at = next(n for n, line in enumerate(lines, 1) if said in line)  # the added line proves it
    assert any(e.lineno == at for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # the same diff added, no run reported: a recipe, not a run
    _recipe_pr("acme/inference-bench", 2902, "qwen3-fp8-h100-sglang-mtp: the MTP variant of the H100 recipe",
               "2026-08-20", [
                   "## Summary", "", "Adds the MTP variant of the Qwen3 H100 script:", "", "```diff", "+SPEC_ARGS=(",
                   "+    --speculative-algorithm NEXTN", "+    --speculative-num-steps 2", "+)", "```", "",
                   "The image stays lmsysorg/sglang:v0.5.16-cu129."]),
    # a docs PR adding a how-to's command, its figure a promise
    _recipe_pr("acme/serving-docs", 301, "docs: EAGLE3 how-to for the 8B model", "2026-03-11", [
        "```diff", "+vllm serve meta-llama/Llama-3.1-8B-Instruct \\",
        """+  --speculative-config '{"method": "eagle3", "model": "acme/llama-8b-eagle3", "num_speculative_tokens": 3}'""",
        "```", "", "Readers can expect up to 200 tok/s on one H100 with this setup."]),
    # a review anchor over the added lines: code under review, whatever a later post reports
    _recipe_pr("acme/inference-bench", 2903, "qwen3-fp8-h100-sglang-mtp: the MTP variant", "2026-08-21", [
        "benchmarks/qwen3_fp8_h100_mtp.sh:40", "```diff", "+SPEC_ARGS=(", "+    --speculative-algorithm NEXTN",
        "+    --speculative-num-steps 2", "+)", "```", "**reviewer-bot**:", "The comment above the array is stale."]),
], ids=["recipe-only", "docs-promise", "review-anchor"])  # fmt: skip
def test_a_diffs_added_launch_lines_without_a_run_show_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
