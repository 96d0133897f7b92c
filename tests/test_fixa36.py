"""Session 36 (FIXA): runs shown by a launch's own draft, by a release and a method told around
a cut launch, and by SGLang's accept length reported for a trained EAGLE draft.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, store_thread


def _issue(number: int, title: str, day: str, body: list[str], repo: str = "sgl-project/sglang") -> list[str]:
    return store_thread(repo, "issue", number, title, day, body, author="dana")


# --- the launch's own draft path is named for its method (a DFlash2 draft), and a sentence cites
# another issue's NextN report: the cited method is that issue's, never the run's EAGLE worker ---


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a compose file's folded command, the release in its image tag, the cross-reference after it
    (_issue(41020, "[Bug] scheduler dies after a few requests with the int4 drafter", "2026-09-14", [
        "The server dies after a handful of requests.", "", "```yaml", "services:", "  sglang:",
        "    image: lmsysorg/sglang:v0.5.16-cu129", "    command: >", "      python3 -m sglang.launch_server",
        "      --model-path acme/Qwen3.8-27B-int4",
        "      --speculative-draft-model-path acme/Qwen3.8-27B-DFlash2-W4A16",
        "      --speculative-num-draft-tokens 8", "      --tp 2", "```", "",
        "Cross-ref #38811: a NEXTN draft failing the same way."]),
     "v2", "DFlashWorkerV2"),
    # a one-line launch, the release in prose, the other issue's method before it
    (_issue(41077, "[Bug] illegal memory access in verify", "2026-10-02", [
        "Probably the same family of bug as #39002, which reported it on the NextN draft of GLM-5.",
        "SGLang 0.5.17 on 4x H200.", "",
        "python3 -m sglang.launch_server --model-path org/GLM-5.1-FP8 --speculative-draft-model-path "
        "org/GLM-5.1-DFlash --speculative-num-draft-tokens 6 --tp 4"]),
     "v2", "DFlashWorkerV2"),
    # a YAML config file's keys, no release: the DFlash condition, never EAGLE's
    (_issue(41101, "[Bug] drafter accepts nothing after quantization", "2026-09-30", [
        "A quantized drafter serves, but nearly every drafted token is rejected.", "",
        "config.yaml passed with --config:", "```yaml", "model-path: acme/Qwen3.8-27B-int4",
        "speculative-draft-model-path: acme/Qwen3.8-27B-DFlash2-W4A16",
        "speculative-num-draft-tokens: 8", "```", "",
        "The NextN report in #36977 fails loudly at load instead."]),
     "unknown", "DFlashWorkerV2|DFlashWorker"),
], ids=["compose", "one-line", "yaml-config"])  # fmt: skip
def test_a_launchs_own_dflash2_draft_outranks_another_issues_nextn(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert "EAGLE" not in (path.conditional or "") and "EAGLE" not in (path.worker_class or "")
    assert any("DFlash" in e.text for e in path.evidence), path.evidence


def test_a_guide_showing_a_dflash2_draft_config_and_a_nextn_issue_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# How to serve a DFlash2 drafter with SGLang", "",
        "This guide explains how to point the server at a DFlash2 draft. For NextN drafts see #36977.", "",
        "Example config (adjust the paths to your models):", "```yaml",
        "model-path: <your-target-model>", "speculative-draft-model-path: org/Qwen3.8-27B-DFlash2",
        "speculative-num-draft-tokens: 8", "```"])


# --- a comment in a pull request's thread whose writer names the engine image they run (with its
# release) and the method they use: their own run, not the PR's code; the release decides ---


def _pull_comment(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return store_thread("sgl-project/sglang", "pull request", number, title, day, body,
                        state="merged", author="kofi", post="comment")


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # "I'm running the <image>:v0.5.12 image ... with NGRAM", the launch cut after the model path
    (_pull_comment(23111, "[Feature] Support NGRAM speculative decoding for hybrid models", "2026-06-03", [
        "Thanks for this! I'm running the lmsysorg/sglang:v0.5.12-cu129 image on 2x H20 with NGRAM "
        "speculative decoding on Qwen3-Next-80B.",
        "After about an hour the scheduler stops returning tokens. Is a source build required?", "",
        "```", "python3 -m sglang.launch_server \\", "  --model-path /models/qwen3-next", "[...]", "```"]),
     "other", "NGRAMWorker", "lmsysorg/sglang:v0.5.12"),
    # a ROCm dev image, "We are testing ... with DFlash speculative decoding"
    (_pull_comment(23500, "[AMD] Enable DFLASH drafting on MI355X", "2026-05-20", [
        "We are testing the rocm/sgl-dev:v0.5.11-rocm700-mi35x image with DFlash speculative decoding "
        "for Qwen3-32B.", "Do we still need to build from source to get this PR?"]),
     "v1", "DFlashWorker", "DFLASH"),
    # the image in a code span, the method in the next sentence
    (_pull_comment(23502, "[AMD] Enable DFLASH drafting on MI355X", "2026-05-21", [
        "I am using `lmsysorg/sglang:v0.5.11-rocm720-mi30x` on MI308X for testing. My goal is DFlash "
        "speculative decoding for Qwen3-32B, but I am not sure the image has this change."]),
     "v1", "DFlashWorker", "DFLASH"),
], ids=["ngram-cut-launch", "rocm-dev-image", "code-span"])  # fmt: skip
def test_a_pr_comment_naming_the_image_its_writer_runs_shows_their_run(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # advice to the reader: which image to use
    _pull_comment(23500, "[AMD] Enable DFLASH drafting on MI355X", "2026-05-20", [
        "To try this, use the lmsysorg/sglang:v0.5.11-rocm700-mi35x image and pass --speculative-algorithm DFLASH.",
        "You will want sglang:v0.5.11 or newer."]),
    # a wish, no run yet
    _pull_comment(23500, "[AMD] Enable DFLASH drafting on MI355X", "2026-05-20", [
        "I want to use the lmsysorg/sglang:v0.5.11-rocm700-mi35x image with DFlash speculative decoding. "
        "Which steps are needed?"]),
], ids=["advice", "wish"])  # fmt: skip
def test_an_image_named_as_advice_or_a_wish_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- an issue on a draft trainer's tracker whose writer reports SGLang's accept length for the
# draft they trained: the trained draft served in SGLang (an EAGLE-type run), its day bounding
# the release ---


@pytest.mark.parametrize(("lines", "said"), [
    # an EAGLE-3 trainer's tracker, no family word at all: the trainer's family
    (_issue(31, "high top-k accuracy, low accept length", "2025-07-02", [
        "Retrained on 100k samples; top-k accuracy is 90% but the sglang accept length is 1.2."],
        repo="NickL77/BaldEagle"),
     "the sglang accept length is 1.2"),
    # a trainer of several families: the draft the training sentence names is the one served
    (_issue(812, "trained draft looks fine but accepts little", "2025-05-11", [
        "I trained an EAGLE3 draft for Qwen3-8B with the online script for 3 epochs.",
        "Training accuracy looks good, yet the accept length in SGLang is 1.3 on MT-bench."],
        repo="sgl-project/SpecForge"),
     "the accept length in SGLang is 1.3"),
    # the EAGLE authors' tracker, the figure written after the engine
    (_issue(240, "draft trained on ShareGPT: SGLang gives accept_length 1.26", "2025-04-20", [
        "Our run: SGLang gives accept_length 1.26 with the trained head on Llama-3-8B-Instruct, "
        "while the eval script here shows about 3."],
        repo="SafeAILab/EAGLE"),
     "accept_length 1.26"),
    # the engine after the figure ("... is only 1.4 when serving with sglang")
    (_issue(95, "low acceptance after training", "2025-09-01", [
        "After 4 epochs on our chat data the EAGLE-3 head looks fine offline, but the accept length is "
        "only 1.4 when serving with sglang."],
        repo="sgl-project/SpecForge"),
     "only 1.4 when serving with sglang"),
], ids=["eagle3-trainer", "specforge-eagle3", "eagle-repo", "engine-after-figure"])  # fmt: skip
def test_sglangs_accept_length_for_a_trained_draft_is_an_eagle_run(
    tmp_path: Path, lines: list[str], said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v1", "EAGLEWorker")
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # the figure is the README's, the writer asks what to expect
    _issue(32, "what accept length should I expect?", "2025-08-02", [
        "The README says the sglang accept length is 3.1 for this draft. What should I expect after 2 epochs?"],
        repo="NickL77/BaldEagle"),
    # a docs request on a trainer of several families: the figures are what to expect
    _issue(900, "[Docs] list the accept length each draft reaches", "2026-03-02", [
        "Please add a table of the sglang accept length each released draft reaches (about 3.0 for most)."],
        repo="sgl-project/SpecForge"),
    # the figure is the README's, the engine after it
    _issue(34, "my draft is far below the README", "2025-08-02", [
        "The accept length is 3.1 in sglang according to the README, and I cannot get near it offline."],
        repo="NickL77/BaldEagle"),
    # a training-only report: no serving figure
    _issue(33, "loss goes nan at step 2000", "2025-08-02", [
        "Training the EAGLE-3 head on 40k samples, the loss turns nan at step 2000 with bf16."],
        repo="NickL77/BaldEagle"),
], ids=["readme-figure", "docs-request", "readme-after", "training-only"])  # fmt: skip
def test_a_trainer_thread_with_no_measured_sglang_accept_length_of_one_draft_gets_no_path(
    tmp_path: Path, lines: list[str]
) -> None:
    assert_no_path(tmp_path, lines)


# --- the writer's own failure told with its process's exit code in parentheses ("the first 8K
# prefill OOM'd the engine (exit 137)"): only a process that ran exits, so the text shows a run ---


def _ops(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return _issue(number, title, day, body, repo="acme/serving-ops")


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a downstream tier on vLLM's V2 runner with a DFlash2 drafter
    (_ops(1064, "DFlash2 drafter for Qwen3.8-27B on vLLM: memory findings", "2026-08-19", [
        "We run the DFlash2 drafter on our vLLM tier (4x RTX 3090); DFlash2Speculator only runs on the V2 "
        "model runner, so we force use_v2_model_runner.",
        "At gmu 0.90 the engine OOMed at the first 8K prefill (exit 137); at 0.80 it survived the prefill ladder."]),
     "other", "DFlash2Speculator"),
    # vLLM's MTP draft, the failure as "OOMed the engine (exit 137)"
    (_ops(91, "MTP drafting on our vLLM tier: memory limits", "2026-03-10", [
        "Our vLLM tier serves Qwen3-Next with the MTP draft (num_speculative_tokens 2).",
        "At max-num-seqs 256 the first long batch OOMed the engine (exit 137); at 128 it held for a day."]),
     "other", "EagleProposer"),
    # SGLang's DFlash drafter on a stated release, "(exit code 137)"
    (_ops(92, "DFlash drafter on the sglang tier: memory limits", "2026-09-10", [
        "Our sglang tier serves Qwen3-32B with the DFlash drafter on sglang 0.5.16.",
        "At mem-fraction-static 0.9 the first 32K prompt OOM'd the scheduler (exit code 137); 0.8 holds."]),
     "v2", "DFlashWorkerV2"),
], ids=["vllm-dflash2-v2", "vllm-mtp", "sglang-dflash"])  # fmt: skip
def test_a_failure_told_with_its_exit_code_in_parentheses_shows_the_run(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), value, classes)


def test_a_troubleshooting_note_with_an_exit_code_as_a_condition_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _ops(90, "Troubleshooting: DFlash2 drafter on vLLM", "2026-08-03", [
        "If the engine crashes at the first prefill (exit 137), lower gpu-memory-utilization; the DFlash2 "
        "drafter on vLLM needs the V2 model runner."]))
