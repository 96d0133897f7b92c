"""The worker path read from a thread's words when no launch line shows it (issue 11 recall).

A saved thread often states the run's algorithm only in its title (with the thread's day
bounding the release), in an environment bullet, in a PR title or as a vLLM line the run
printed. Each case here is one such thread of our own; the user must see the path decided (or
a condition naming the run's class) with the line of the thread that says it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run
from test_never_wrong import SGL_CRASH, VLLM_CRASH
from test_never_wrong_threads import (
    ASCEND_CRASH,
    ASCEND_REPO,
    SGL_OVERLAP_CRASH,
    SGL_REPO,
    TRT_REPO,
    V0_CRASH,
    VLLM_REPO,
    thread,
)  # fmt: skip

TITLE = 3  # the line thread() puts the title on (header, labels, title, blank, byline, post)

# name -> (thread, (value, class) decided, or ("unknown", "A|B") a condition naming each class,
#          the line that says it, a word the evidence shows)
DECIDED = {
    "SGLang: a title naming EAGLE3 on a thread of Sep 2025 (0.5.4 or older: v1)": (thread(
        SGL_REPO, "[Bug] EAGLE3 illegal memory access on Falcon-Orbit-32B", "2025-09-10",
        "Happens after a few hundred requests with the EAGLE3 draft.", "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "EAGLE3"),
    "SGLang: a draft repo in a model repo's title, Aug 2025": (thread(
        "acme/Falcon-Orbit", "KeyError loading Falcon-Orbit-32B-EAGLE3 draft in SGLang", "2025-08-01",
        "When I launch SGLang with Falcon-Orbit-32B and the Falcon-Orbit-32B-EAGLE3 draft it "
        "fails during weight loading:",
        "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "EAGLE3"),
    "SGLang: a PR fixing STANDALONE speculative decoding, Dec 2025": (thread(
        SGL_REPO, "[Spec] Fix KV index overflow in STANDALONE speculative decoding", "2025-12-10",
        "## Problem", "With a small draft (STANDALONE), long batches fail with:", "```", *SGL_CRASH, "```",
        kind="pull request",
    ), ("v1", "StandaloneWorker"), TITLE, "STANDALONE"),
    "SGLang: a title naming NEXTN (MTP), Jul 2025": (thread(
        SGL_REPO, "[Bug] DeepSeek-V3 NEXTN (MTP) crash with DP attention", "2025-07-15",
        "MTP on, dp attention on, crashes at decode:", "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "NEXTN"),
    "SGLang: a title naming NGRAM": (thread(
        SGL_REPO, "[Bug] NGRAM speculative decoding crash with long prompts", "2025-11-20",
        "Prompts over 32k tokens:", "```", *SGL_CRASH, "```",
    ), ("other", "NGRAMWorker"), TITLE, "NGRAM"),
    "SGLang: a title naming EAGLE3 and v0.5.14 (v2 only)": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash on v0.5.14 with DP attention", "2026-07-01",
        "```", *SGL_CRASH, "```",
    ), ("v2", "EAGLEWorkerV2"), TITLE, "EAGLE3"),
    "SGLang: environment bullets with sglang 0.5.8 and EAGLE3": (thread(
        SGL_REPO, "[Bug] illegal memory access at decode", "2026-02-01",
        "### Environment", "- sglang: 0.5.8", "- speculative algorithm: EAGLE3, topk 1, 3 steps",
        "- GPU: 8x H200", "", "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), 8, "EAGLE3"),
    "SGLang: a title naming EAGLE3 on a thread of May 2026 (0.5.10 v1, later v2)": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with long context", "2026-05-20", "```", *SGL_CRASH, "```",
    ), ("unknown", "EAGLEWorker|EAGLEWorkerV2"), TITLE, "EAGLE3"),
    "vLLM: an environment bullet with method=mtp and vLLM 0.13.0": (thread(
        "acme/orbit-ocr", "[Bug] vLLM EngineCore crash when serving orbit-ocr", "2026-01-15",
        "## Environment", "- vLLM version: 0.13.0",
        "- Speculative decoding enabled (method=mtp, num_speculative_tokens=2)", "- GPU: H100",
        "", "```", *VLLM_CRASH, "```",
    ), ("other", "EagleProposer"), 8, "method=mtp"),
    "vLLM: the run's own 'Detected MTP model' line": (thread(
        VLLM_REPO, "[Bug]: crash at first decode with DeepSeek-V3", "2026-01-10",
        "```", "INFO 01-09 10:00:01 [eagle.py:900] Detected MTP model. Sharing target model "
        "embedding weights with the draft model.", *VLLM_CRASH, "```",
    ), ("other", "EagleProposer"), 7, "Detected MTP model"),
    "vLLM: a PR title fixing the ngram proposer": (thread(
        VLLM_REPO, "[Bugfix][Spec Decode] Fix ngram proposer crash with empty prompt", "2026-01-10",
        "Repro before the fix:", "```", *VLLM_CRASH, "```", kind="pull request",
    ), ("other", "NgramProposer"), TITLE, "ngram"),
    "vLLM: a title naming eagle3 over V1 engine frames": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash at high concurrency", "2025-10-20",
        "```", *VLLM_CRASH, "```",
    ), ("other", "EagleProposer"), TITLE, "eagle3"),
    "vLLM-Ascend: environment bullets with v0.18.0rc1 and method mtp": (thread(
        ASCEND_REPO, "[Bug]: crash at decode on A3", "2026-04-02",
        "### Environment", "- vllm-ascend: v0.18.0rc1",
        "- speculative_config: {method: mtp, num_speculative_tokens: 1}", "", "```",
        *ASCEND_CRASH, "```",
    ), ("other", "AscendEagleProposer"), 8, "mtp"),
    "SGLang: a title naming EAGLE3 alone, Sep 2025": (thread(
        SGL_REPO, "[Bug] EAGLE3 illegal memory access on Falcon-Orbit-32B", "2025-09-10",
        "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "EAGLE3"),
    "vLLM: a maintainer saying the run uses the built-in MTP drafter": (thread(
        VLLM_REPO, "[Bug]: DeepSeek-V3 crash at decode", "2026-01-10", "```", *VLLM_CRASH, "```",
        "", "maint-x · comment · 2026-01-11",
        "Your run uses the built-in MTP drafter (method mtp); the proposer's CUDA graph is the "
        "culprit.",
    ), ("other", "EagleProposer"), 16, "MTP drafter"),
    "SGLang: a title spelling it Eagle-3, Sep 2025": (thread(
        SGL_REPO, "[Bug] Eagle-3 draft crashes on Falcon-Orbit-32B", "2025-09-10",
        "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "Eagle"),
    "vLLM: a fork's PR adding an Eagle3 verifier, failing on the V1 engine": (thread(
        "acme-labs/vllm", "[Eagle3] Add Falcon-Orbit as verifier for Eagle3 speculation",
        "2025-08-20", "Falcon-Orbit + vLLM v1 engine fails before this PR:", "```", *VLLM_CRASH,
        "```", kind="pull request",
    ), ("other", "EagleProposer"), TITLE, "Eagle3"),
    "TensorRT-LLM: Medusa in the title, the version and the heads in the post": (thread(
        TRT_REPO, "Inference Falcon-Orbit-1B + Medusa failed", "2025-01-10",
        "TensorRT-LLM version: 0.16.0", "Built with 4 medusa heads, run with examples/run.py:",
        "```", "Traceback (most recent call last):",
        '  File "/opt/TensorRT-LLM/examples/run.py", line 887, in <module>', "    main(args)",
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: medusa paths", "```",
    ), ("other", "MedusaDecodingLayer"), TITLE, "Medusa"),
    "vLLM: a Chinese title saying vLLM 0.13.0 crashes once MTP is turned on": (thread(
        VLLM_REPO, "[Bug]: 开启 MTP 后 vLLM 0.13.0 崩溃", "2026-01-10", "```", *VLLM_CRASH, "```",
    ), ("other", "EagleProposer"), TITLE, "MTP"),
    "vLLM: a PR title fixing an EAGLE3 crash": (thread(
        VLLM_REPO, "[Spec Decode] Fix EAGLE3 crash with chunked prefill", "2025-10-20",
        "Before:", "```", *VLLM_CRASH, "```", kind="pull request",
    ), ("other", "EagleProposer"), TITLE, "EAGLE3"),
    "vLLM: a PR title fixing an MTP crash": (thread(
        VLLM_REPO, "[Bugfix] Fix MTP crash with data parallel", "2025-10-20",
        "Repro:", "```", *VLLM_CRASH, "```", kind="pull request",
    ), ("other", "EagleProposer"), TITLE, "MTP"),
    "SGLang: a PR title fixing an NGRAM crash": (thread(
        SGL_REPO, "[Spec] Fix NGRAM crash when the draft budget is exceeded", "2025-12-10",
        "```", *SGL_CRASH, "```", kind="pull request",
    ), ("other", "NGRAMWorker"), TITLE, "NGRAM"),
    "SGLang: a [Spec V2] PR title over the overlap loop's frame": (thread(
        SGL_REPO, "[Spec V2] Fix EAGLE overlap worker crash on retract", "2025-12-10",
        "```", *SGL_OVERLAP_CRASH, "```", kind="pull request",
    ), ("v2", "EAGLEWorkerV2"), TITLE, "EAGLE"),
    "SGLang: a draft repo named in the post as the run's draft, Oct 2025": (thread(
        SGL_REPO, "[Bug] crash after 200 requests", "2025-10-01",
        "We serve acme/Falcon-Orbit-32B with acme/Falcon-Orbit-32B-EAGLE3 as the draft model.",
        "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), 6, "Falcon-Orbit-32B-EAGLE3"),
    "SGLang: a PR title alone naming STANDALONE, Dec 2025": (thread(
        SGL_REPO, "[Spec] Fix KV index overflow in STANDALONE speculative decoding", "2025-12-10",
        "## Problem", "With a small draft, long batches fail with:", "```", *SGL_CRASH, "```",
        kind="pull request",
    ), ("v1", "StandaloneWorker"), TITLE, "STANDALONE"),
    "SGLang: a draft repo in the title alone, Aug 2025": (thread(
        "acme/Falcon-Orbit", "KeyError loading Falcon-Orbit-32B-EAGLE3 draft in SGLang", "2025-08-01",
        "When I launch SGLang with the target and its draft it fails during weight loading:",
        "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "EAGLE3"),
    "SGLang: a title naming MTP for DeepSeek, Jun 2025": (thread(
        SGL_REPO, "[Bug] DeepSeek-R1 MTP crash under high load", "2025-06-10",
        "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "MTP"),
    "SGLang: a title naming MTP, the reporter's release in a later comment": (thread(
        SGL_REPO, "[Bug] DeepSeek V3.2 MTP fails with an assertion", "2025-12-12",
        "```", *SGL_CRASH, "```", "", "zed-u · comment · 2025-12-13", "Which version?", "",
        "ivy · comment · 2025-12-13", "sglang v0.5.6.post1",
    ), ("v1", "EAGLEWorker"), TITLE, "MTP"),
    "SGLang: a Chinese title saying the crash came once MTP was turned on, Aug 2025": (thread(
        SGL_REPO, "[Bug] 开启MTP后服务崩溃", "2025-08-15",
        "开启MTP之后，服务在解码阶段崩溃：", "```", *SGL_CRASH, "```",
    ), ("v1", "EAGLEWorker"), TITLE, "MTP"),
    "vLLM: an EAGLE title on a thread of Nov 2024 over V0 frames (V0's MultiStepWorker)": (thread(
        VLLM_REPO, "[Bug]: EAGLE speculative decoding crash", "2024-11-20", "```", *V0_CRASH, "```",
    ), ("other", "MultiStepWorker"), TITLE, "EAGLE"),
    "vLLM: an eagle title on a thread of Feb 2025, no frames (before EagleProposer, 0.8.2)": (thread(
        VLLM_REPO, "[Bug]: eagle speculative decoding crash with long prompts", "2025-02-10",
        "Crash after a few requests:", "```",
        "RuntimeError: CUDA error: an illegal memory access was encountered", "```",
    ), ("other", "MultiStepWorker"), TITLE, "eagle"),
    "vLLM: a title naming ngram and vLLM 0.6.3 (V0's NGramWorker)": (thread(
        VLLM_REPO, "[Bug]: ngram speculative decoding crash in vLLM 0.6.3", "2024-10-30",
        "```", *V0_CRASH, "```",
    ), ("other", "NGramWorker"), TITLE, "ngram"),
    "vLLM: a 2024 PR titled as the Medusa implementation, its branch's crash (V0 MedusaWorker)": (
        thread(VLLM_REPO, "[Speculative Decoding] Medusa implementation with Top-1 proposer",
               "2024-06-10", "Implements Medusa heads as a proposer.", "",
               "usr-d · comment · 2024-06-20", "Running this branch:", "```", *V0_CRASH, "```",
               kind="pull request"),
        ("other", "MedusaWorker"), TITLE, "Medusa"),
    "vLLM: a 2024 PR adding EAGLE, a crash in a later comment (V0 MultiStepWorker)": (thread(
        VLLM_REPO, "[Speculative decoding] Add EAGLE with a top-1 proposer", "2024-07-01",
        "This PR adds EAGLE to spec decode.", "", "usr-c · comment · 2024-08-10", "Tried it:",
        "```", *V0_CRASH, "```", kind="pull request",
    ), ("other", "MultiStepWorker"), TITLE, "EAGLE"),
    "vLLM: a title naming 'Suffix Speculative Decoding' and v0.12.0": (thread(
        VLLM_REPO, "[Bug]: Suffix Speculative Decoding crashes in v0.12.0", "2025-12-20",
        "```", *VLLM_CRASH, "```",
    ), ("other", "SuffixDecodingProposer"), TITLE, "Suffix"),
    "vLLM-Ascend: 'can not run with mtp' is a failure with MTP, not MTP set apart": (thread(
        ASCEND_REPO, "[Bug]: DeepSeek-R1 can not run with mtp on v0.11.0rc1", "2025-11-20",
        "```", *ASCEND_CRASH, "```",
    ), ("other", "MtpProposer"), TITLE, "mtp"),  # v0.11.0rc1 builds MtpProposer (deepseek_mtp) only
    "vLLM-Ascend: a title naming v0.18.0rc1 and mtp": (thread(
        ASCEND_REPO, "[Bug]: v0.18.0rc1 mtp with graph mode crashes on A3", "2026-04-02",
        "```", *ASCEND_CRASH, "```",
    ), ("other", "AscendEagleProposer"), TITLE, "mtp"),
    "vLLM-Ascend: a title 'serve mtp==3' beside a pip bullet naming the release": (thread(
        ASCEND_REPO, "0.20.2rc1 Falcon-Orbit serve mtp==3 acceptance very low then crash",
        "2026-06-01", "- vllm_ascend 0.20.2rc1", "```", *ASCEND_CRASH, "```",
    ), ("other", "AscendEagleProposer"), TITLE, "mtp"),
    "vLLM: a title saying the method 'proposes draft tokens' (the proposer's verb, no proposal)": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 speculative decoding proposes draft tokens past the budget",
        "2025-09-10", "```", *VLLM_CRASH, "```",
    ), ("other", "EagleProposer"), TITLE, "eagle"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(DECIDED))
def test_the_thread_s_words_decide_the_path_with_their_line(tmp_path: Path, name: str) -> None:
    lines, (value, classes), lineno, word = DECIDED[name]
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert_verdict(path, value, classes)
    shown = [e for e in path.evidence if e.lineno == lineno]
    assert shown, f"no evidence from line {lineno}: {[(e.lineno, e.text) for e in path.evidence]}"
    assert any(word.lower() in e.text.lower() for e in shown), [e.text for e in shown]
