"""Saved threads whose title or prose names speculation the crashed run did not use (issue 11).

The path readers of session 9 decide from a thread's title and day, a draft repo named in the
title or prose, template bullets, maintainer prose and quoted vLLM lines. These threads name a
family or a release that is NOT the crash's: a feature request, a roadmap, a comparison, a PR
that adds a family, a draft repo as a plan, a template bullet left at its placeholder, a
release it "works in", another writer's run, an engine or model whose name holds a family
word. The verdict may be the run's class, a condition holding it, or "unknown"; never another
class, never "none" for a run that speculated, never a speculative condition for a plain run.
Every text is our own, in the shape the real-log rounds save threads in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_never_wrong import (
    ASCEND_CRASH,
    ASCEND_REPO,
    NONE,
    ORBIT,
    SGL_CRASH,
    SGL_NORMAL_CRASH,
    SGL_OVERLAP_CRASH,
    SGL_REPO,
    TRT_CRASH,
    TRT_REPO,
    V0_CRASH,
    VLLM_CRASH,
    VLLM_REPO,
    assert_right_or_undecided,
    thread,
    want,
)  # fmt: skip

CASES = {
    "SGLang: feature request title names a family the run does not use": (thread(
        SGL_REPO, "[Feature] Support DFLASH speculative decoding for Falcon-Orbit", "2025-11-02",
        "It would be great to have DFLASH here. Meanwhile our plain deployment (no "
            "speculative decoding) crashes at load:",
        "", "```", ORBIT, "```", "", "```", *SGL_CRASH, "```",
        number=41207,
    ), NONE),
    "SGLang: feature request for EAGLE3, the crash is the model without it": (thread(
        SGL_REPO, "[Feature] please add EAGLE3 support for Falcon-Orbit-32B", "2025-10-12",
        "We want EAGLE3 for this model. Right now the model itself does not even start:", "",
        "```", *SGL_CRASH, "```",
        number=41208,
    ), NONE),
    "SGLang: roadmap listing families, an unrelated CI crash in a comment": (thread(
        SGL_REPO, "[Roadmap] Speculative decoding Q1 2026: EAGLE3 overlap, STANDALONE, NGRAM, DFLASH", "2025-12-20",
        "Items:", "- [ ] EAGLE3 with overlap scheduler by default",
        "- [ ] STANDALONE draft with different tokenizer", "- [ ] DFLASH", "",
        "quinn-p · comment · 2025-12-22",
        "Off-topic but our nightly CI crashes on the basic server test:", "```", *SGL_CRASH,
        "```",
        number=40001, labels="roadmap",
    ), NONE),
    "SGLang: comparison title, launch shows NGRAM": (thread(
        SGL_REPO, "EAGLE3 vs NGRAM throughput on Falcon-Orbit: NGRAM run crashes", "2025-11-02",
        "Comparing the two. EAGLE3 is fine. The NGRAM one dies:", "", "```",
        ORBIT + " --speculative-algorithm NGRAM --speculative-num-draft-tokens 8", "```",
        "```", *SGL_CRASH, "```",
        number=41209,
    ), want("NGRAMWorker")),
    "SGLang: two families in the title, the crash's one not said": (thread(
        SGL_REPO, "Benchmark: EAGLE3 vs STANDALONE on Falcon-Orbit-32B, one of them crashes", "2025-11-02",
        "Got this traceback during the sweep, not sure which config it was from:", "", "```",
        *SGL_CRASH, "```",
        number=41210,
    ), want("EAGLEWorker", "EAGLEWorkerV2", "StandaloneWorker", decide=False)),
    "SGLang: title: works with EAGLE3, the crash is the plain run": (thread(
        SGL_REPO, "Works with EAGLE3, crashes without speculative decoding", "2025-11-02",
        "Strange: with EAGLE3 everything is fine, but when I drop the speculative flags the "
            "server crashes:",
        "", "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41211,
    ), NONE),
    "SGLang: PR adding a family, unrelated CI crash": (thread(
        SGL_REPO, "[Feature] Add UNO speculative algorithm", "2026-09-01",
        "## Motivation", "Adds UNO as a new speculative algorithm (UnoWorkerV2).", "", "## CI",
        "The failing job is unrelated (the MoE kernel test, no speculative decoding):", "```",
        *SGL_CRASH, "```",
        kind="pull request", number=42001, labels="speculative-decoding",
    ), NONE),
    "SGLang: draft repo named as a plan": (thread(
        SGL_REPO, "Falcon-Orbit-32B crashes on load (before we train Falcon-Orbit-32B-EAGLE3)", "2025-09-20",
        "We plan to publish acme/Falcon-Orbit-32B-EAGLE3 next month. First the base model has"
            " to serve, but it crashes:",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41213,
    ), NONE),
    "SGLang: template bullet left at its placeholder": (thread(
        SGL_REPO, "[Bug] illegal memory access at high concurrency", "2025-11-02",
        "### Checklist", "- [x] I searched related issues", "", "### Environment",
        "- sglang version:",
        "- speculative algorithm: <!-- e.g. EAGLE / EAGLE3 / NEXTN / NGRAM -->",
        "- GPU: 4x H100", "", "### Reproduction", "```", *SGL_CRASH, "```",
        number=41214,
    ), NONE),
    "SGLang: checkbox bullets, none checked": (thread(
        SGL_REPO, "[Bug] illegal memory access at high concurrency", "2025-11-02",
        "### Environment",
        "- Speculative decoding: [ ] EAGLE  [ ] EAGLE3  [ ] NGRAM  [x] none", "- GPU: 4x H100",
        "", "```", *SGL_CRASH, "```",
        number=41215,
    ), NONE),
    "SGLang: a release it works in is not the run's (date Jun 2026: newer)": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash on H20 (works in v0.5.3)", "2026-06-20",
        "Upgraded our image this week and now EAGLE3 crashes. v0.5.3 was fine.", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "```", *SGL_CRASH, "```",
        number=41216,
    ), want("EAGLEWorker", "EAGLEWorkerV2", decide=False)),
    "SGLang: fixed-in release in the title (v2 by era anyway)": (thread(
        SGL_REPO, "[Bug] EAGLE crash after update, fixed in v0.5.14?", "2026-08-30",
        "Still hitting this on our current image after the update. Someone said it is fixed "
            "in v0.5.14 but I do not know which version we have.",
        "```",
        ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path acme/eagle-orbit "
            "--speculative-eagle-topk 1",
        "```", "```", *SGL_CRASH, "```",
        number=41217,
    ), want("EAGLEWorker", "EAGLEWorkerV2", decide=False)),
    "SGLang: title names EAGLE3, launch shows STANDALONE": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with DP attention", "2025-11-02",
        "Actually my launch is the draft-model one:", "```",
        ORBIT + " --speculative-algorithm STANDALONE --speculative-draft-model-path "
            "acme/Falcon-Orbit-1B",
        "```", "```", *SGL_CRASH, "```",
        number=41218,
    ), want("StandaloneWorker")),
    "SGLang: two algorithms in the title, one traceback": (thread(
        SGL_REPO, "[Bug] NGRAM and EAGLE both crash with page_size > 1", "2025-11-02",
        "Both configurations give the same error:", "```", *SGL_CRASH, "```",
        number=41219,
    ), want("EAGLEWorker", "EAGLEWorkerV2", "NGRAMWorker", decide=False)),
    "SGLang: mtp only in a file name, run plain": (thread(
        SGL_REPO, "[Bug] KeyError loading model-mtp-00001-of-00002.safetensors in the base model", "2025-11-02",
        "We serve the model without speculative decoding, the loader trips over the extra "
            "shard:",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41220,
    ), NONE),
    "SGLang: 'mtp' inside SMTP": (thread(
        SGL_REPO, "[Bug] server crashes when the SMTP alert hook fires", "2025-11-02",
        "Our SMTP-based alerting plugin runs in the same container. Crash:", "```", *SGL_CRASH,
        "```",
        number=41221,
    ), NONE),
    "SGLang: 'Eagle' inside the target model's name": (thread(
        SGL_REPO, "[Bug] BaldEagle-Chat-7B chat template crash", "2025-11-02",
        "Serving acme/BaldEagle-Chat-7B (a chat finetune, nothing speculative):", "```",
        "python3 -m sglang.launch_server --model-path acme/BaldEagle-Chat-7B", "```", "```",
        *SGL_CRASH, "```",
        number=41222,
    ), NONE),
    "SGLang: crash in a 2026-10 comment on a 2025-03 issue: the comment's era (v2)": (thread(
        SGL_REPO, "[Bug] EAGLE crash with long prompts", "2025-03-01",
        "EAGLE crashes when prompts exceed 16k tokens.", "", "new-user · comment · 2026-10-20",
        "Still crashing for me on the latest image, EAGLE topk 1:", "```",
        ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path acme/eagle-orbit "
            "--speculative-eagle-topk 1",
        "```", "```", *SGL_CRASH, "```",
        number=38001,
    ), want("EAGLEWorkerV2", decide=False)),
    "SGLang: question title naming EAGLE3, run plain": (thread(
        SGL_REPO, "Is EAGLE3 supported with FP8 KV cache? (plain server crashes with FP8)", "2025-11-02",
        "Before turning EAGLE3 on I tried FP8 KV cache on the plain server and it crashes:",
        "```", ORBIT + " --kv-cache-dtype fp8_e4m3", "```", "```", *SGL_CRASH, "```",
        number=41223,
    ), NONE),
    "SGLang: docs PR title naming families, plain crash": (thread(
        SGL_REPO, "[Docs] Explain NEXTN vs EAGLE3 draft choice", "2025-11-02",
        "Docs only. While building the docs site the example server crashed:", "```", ORBIT,
        "```", "```", *SGL_CRASH, "```",
        kind="pull request", number=42002, labels="documentation",
    ), NONE),
    "SGLang: question title, side-note plain crash": (thread(
        SGL_REPO, "Why is STANDALONE slower than EAGLE? (side note: crash without spec)", "2025-11-02",
        "Side note, unrelated to the question: without any speculative decoding the server "
            "crashed once:",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41224,
    ), NONE),
    "SGLang: draft repo in the title, crash reproduced without it": (thread(
        SGL_REPO, "[Bug] crash with acme/Falcon-Orbit-32B-EAGLE3? no, with the plain model", "2025-10-01",
        "I first thought it was the acme/Falcon-Orbit-32B-EAGLE3 draft, but it also crashes "
            "with the plain model and no draft:",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41225,
    ), NONE),
    "SGLang: maintainer prose names MTP drafter as not used": (thread(
        SGL_REPO, "[Bug] DeepSeek-V3 crash at prefill", "2025-10-01",
        "Launch:", "```",
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8", "```",
        "```", *SGL_CRASH, "```", "", "maint-x · comment · 2025-10-02",
        "You are not using the built-in MTP drafter here (no --speculative-algorithm), so "
            "this is not the NEXTN bug from #39000.",
        number=41226,
    ), NONE),
    "vLLM: feature request, plain vllm serve": (thread(
        VLLM_REPO, "[Feature]: support DFlash speculative decoding for Falcon-Orbit", "2026-01-10",
        "Please add DFlash. For now plain serving crashes:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```",
        number=30101, labels="feature request",
    ), NONE),
    "vLLM: env bullet with placeholder methods": (thread(
        VLLM_REPO, "[Bug]: illegal memory access under load", "2026-01-10",
        "### Your current environment", "- vLLM version: 0.11.0",
        "- Speculative decoding: method=<eagle|eagle3|mtp|ngram>, num_speculative_tokens=<n>",
        "", "### 🐛 Describe the bug", "```", *VLLM_CRASH, "```",
        number=30102,
    ), NONE),
    "vLLM: env bullet says none, mtp is staging": (thread(
        VLLM_REPO, "[Bug]: illegal memory access under load", "2026-01-10",
        "### Your current environment", "- vLLM version: 0.11.0",
        "- Speculative decoding: none (method=mtp only in our staging cluster)", "", "```",
        *VLLM_CRASH, "```",
        number=30103,
    ), NONE),
    "vLLM: vLLM line quoted from docs as not seen": (thread(
        VLLM_REPO, "[Usage]: how do I know MTP is active?", "2026-01-10",
        "The docs say the log should show `Detected MTP model. Sharing target model embedding"
            " weights with the draft model.` but mine never prints that, and the server crashes:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30104, labels="usage",
    ), NONE),
    "vLLM: comparison title, config shows mtp (EagleProposer)": (thread(
        VLLM_REPO, "[Performance]: EAGLE3 vs MTP on DeepSeek-V3, MTP run crashes", "2025-10-20",
        "```",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{\"method\": \"mtp\", "
            "\"num_speculative_tokens\": 1}'",
        "```", "```", *VLLM_CRASH, "```",
        number=30105, labels="performance",
    ), want("EagleProposer", "MtpProposer")),
    "vLLM: PR adding a family, unrelated CI crash": (thread(
        VLLM_REPO, "[Spec Decode] Add suffix decoding proposer", "2025-09-01",
        "Adds SuffixDecodingProposer. CI failure is the unrelated basic correctness test:",
        "```", *VLLM_CRASH, "```",
        kind="pull request", number=31001, labels="speculative-decoding",
    ), NONE),
    "vLLM: works-in release, the config decides eagle3": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash, works in v0.10.1", "2026-03-01",
        "Fine on v0.10.1, crashes on our current build.", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CRASH, "```",
        number=30106,
    ), want("EagleProposer")),
    "vLLM-Ascend: two ascend releases in title: the crashing one is v0.17 (AscendEagleProposer); MtpProposer decided = wrong": (thread(
        ASCEND_REPO, "[Bug]: mtp crash on v0.17.0rc1, works on v0.11.0rc1", "2026-03-20",
        "Upgraded to v0.17.0rc1, MTP now crashes (v0.11.0rc1 was fine).", "```",
        "vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{\"method\": \"mtp\", "
            "\"num_speculative_tokens\": 1}'",
        "```", "```", *ASCEND_CRASH, "```",
        number=5001,
    ), want("AscendEagleProposer", decide=False)),
    "vLLM: MTP inside a model name": (thread(
        VLLM_REPO, "[Bug]: XiaomiMiMo/MiMo-7B-RL-MTP-free weights fail to load", "2026-01-10",
        "Plain serving, no speculative config:", "```",
        "vllm serve XiaomiMiMo/MiMo-7B-RL-MTP-free", "```", "```", *VLLM_CRASH, "```",
        number=30107,
    ), NONE),
    "vLLM: draft repo as a plan": (thread(
        VLLM_REPO, "[Bug]: Falcon-Orbit-32B crashes; Falcon-Orbit-32B-EAGLE3 planned", "2026-01-10",
        "We will train acme/Falcon-Orbit-32B-EAGLE3 later; today the base model crashes:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30109,
    ), NONE),
    "vLLM: two methods in the title": (thread(
        VLLM_REPO, "[Bug]: ngram and eagle3 both crash with chunked prefill", "2026-01-10",
        "Same traceback with either:", "```", *VLLM_CRASH, "```",
        number=30110,
    ), want("NgramProposer", "EagleProposer", decide=False)),
    "TensorRT-LLM: comparison question, plain trtllm-serve": (thread(
        TRT_REPO, "[Question] EAGLE3 vs MTP on DeepSeek-R1 which is faster? (and a crash without either)", "2026-01-10",
        "Side note, plain trtllm-serve crashes for me:", "```",
        "trtllm-serve deepseek-ai/DeepSeek-R1 --backend pytorch --tp_size 8", "```", "```",
        *TRT_CRASH, "```",
        number=8001, labels="question",
    ), NONE),
    "vLLM: method= is an HTTP method": (thread(
        VLLM_REPO, "[Bug]: HTTP method=POST crashes the server with tool calls", "2026-01-10",
        "- request: method=POST, path=/v1/chat/completions", "- vLLM version: 0.11.0", "```",
        *VLLM_CRASH, "```",
        number=30111,
    ), NONE),
    "SGLang: title names EAGLE3, the only traceback is a commenter's plain run": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with FP8 KV cache", "2025-10-05",
        "EAGLE3 + FP8 KV cache dies after some requests (log lost, sorry).", "",
        "zed-u · comment · 2025-10-07",
        "Same here but without EAGLE3, the plain server also crashes with FP8 KV cache:",
        "```", *SGL_CRASH, "```",
        number=41227,
    ), NONE),
    "SGLang: title EAGLE3, the traceback is a commenter's NGRAM run": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with FP8 KV cache", "2025-10-05",
        "EAGLE3 + FP8 KV cache dies after some requests (log lost, sorry).", "",
        "zed-u · comment · 2025-10-07", "+1, same for me with NGRAM instead of EAGLE3:", "```",
        *SGL_CRASH, "```",
        number=41228,
    ), want("NGRAMWorker", decide=False)),
    "SGLang: Eagle VLM (target model) in the title": (thread(
        SGL_REPO, "[Bug] Eagle2.5-8B VLM crashes on image input", "2025-08-20",
        "Serving the NVIDIA Eagle2.5 vision-language model, first image request crashes:",
        "```", *SGL_CRASH, "```",
        number=41229,
    ), NONE),
    "SGLang: switching from A to B: the crash is B": (thread(
        SGL_REPO, "[Bug] crash after switching from EAGLE3 to NGRAM", "2025-11-02",
        "EAGLE3 ran fine for weeks; since we switched the deployment to NGRAM it crashes:",
        "```", *SGL_CRASH, "```",
        number=41230,
    ), want("NGRAMWorker", decide=False)),
    "SGLang: model whose hook forces spec v2: title + date must not decide v1": (thread(
        SGL_REPO, "[Bug] MiMo-V2-Flash MTP crash at decode", "2026-01-12",
        "MTP on for MiMo-V2-Flash, crashes at decode:", "```", *SGL_CRASH, "```",
        number=41231,
    ), want("MultiLayerEagleWorkerV2", "EAGLEWorkerV2", "MultiLayerEagleWorker", "EAGLEWorker", decide=False)),
    "SGLang: the crashing release is 0.5.14 (v2 only)": (thread(
        SGL_REPO, "[Bug] EAGLE works on 0.5.3, crashes on 0.5.14", "2026-07-01",
        "Same launch on both; only the upgrade differs.", "```", *SGL_CRASH, "```",
        number=41232,
    ), want("EAGLEWorkerV2")),
    "SGLang: MTP named for the other engine, SGLang run plain": (thread(
        SGL_REPO, "[Bug] DeepSeek-V3 crashes in SGLang (vLLM with MTP is fine)", "2025-10-01",
        "In SGLang we run it without speculative decoding and it crashes:", "```",
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8", "```",
        "```", *SGL_CRASH, "```",
        number=41233,
    ), NONE),
    "SGLang: paper named in a question title": (thread(
        SGL_REPO, "[Question] EAGLE-2 paper says dynamic trees; does SGLang? plain server crash attached", "2025-11-02",
        "Unrelated to the question, our plain server crashed:", "```", ORBIT, "```", "```",
        *SGL_CRASH, "```",
        number=41234, labels="question",
    ), NONE),
    "SGLang: revert PR title names EAGLE3, the crash is the plain server": (thread(
        SGL_REPO, "Revert \"Enable EAGLE3 overlap scheduler by default\"", "2026-05-08",
        "This broke the plain (non-speculative) server in CI:", "```", *SGL_CRASH, "```",
        kind="pull request", number=42003,
    ), NONE),
    "SGLang: draft repo 'not used yet' in title": (thread(
        SGL_REPO, "[Bug] tokenizer mismatch crash (draft from acme/Falcon-Orbit-32B-EAGLE3 not used yet)", "2025-09-20",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41235,
    ), NONE),
    "vLLM: Eagle VLM (target) in the title": (thread(
        VLLM_REPO, "[Bug]: Eagle2.5-8B crashes on image input", "2025-10-20",
        "```", *VLLM_CRASH, "```",
        number=30114,
    ), NONE),
    "vLLM: switching from A to B: the crash is B": (thread(
        VLLM_REPO, "[Bug]: crash after switching from ngram to eagle3", "2025-10-20",
        "ngram was fine; eagle3 crashes:", "```", *VLLM_CRASH, "```",
        number=30115,
    ), want("EagleProposer", decide=False)),
    "vLLM: method=mtp in the previous setup only": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2026-01-10",
        "### Previous setup (worked)", "- vLLM 0.10.1",
        "- Speculative decoding: method=mtp, num_speculative_tokens=1", "",
        "### Current setup (crashes)", "- vLLM 0.13.0", "- no speculative decoding", "", "```",
        *VLLM_CRASH, "```",
        number=30116,
    ), NONE),
    "vLLM: a commenter's quoted Detected MTP line": (thread(
        VLLM_REPO, "[Bug]: DeepSeek-V3 crash at prefill", "2026-01-10",
        "Plain server, no speculative config:", "```",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8", *VLLM_CRASH, "```", "",
        "zed-u · comment · 2026-01-11", "Is it MTP related? In my MTP run the log says",
        "> INFO 01-11 09:00:00 [eagle.py:900] Detected MTP model. Sharing target model "
            "embedding weights with the draft model.",
        "but yours has no speculative config.",
        number=30117,
    ), NONE),
    "vLLM-Ascend: mtp as a plan in an env bullet": (thread(
        ASCEND_REPO, "[Bug]: Qwen3 dense crash on A2", "2026-04-01",
        "### Environment", "- vllm-ascend: v0.18.0rc1",
        "- speculative: none (we will try mtp after this is fixed)", "", "```", *ASCEND_CRASH,
        "```",
        number=5003,
    ), NONE),
    "SGLang: title: crash once MTP is off": (thread(
        SGL_REPO, "[Bug] DeepSeek-V3 crashes once MTP is turned off", "2025-08-15",
        "With MTP it is stable; with MTP off it crashes:", "```",
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8", "```",
        "```", *SGL_CRASH, "```",
        number=41242,
    ), NONE),
    "SGLang: w/o EAGLE3 in the title": (thread(
        SGL_REPO, "[Bug] crash w/o EAGLE3 on Falcon-Orbit-32B", "2025-08-15",
        "```", *SGL_CRASH, "```",
        number=41243,
    ), NONE),
    "SGLang: Chinese title: crashes after turning MTP off": (thread(
        SGL_REPO, "[Bug] 关闭MTP后服务崩溃", "2025-08-15",
        "关闭MTP之后，服务在解码阶段崩溃：", "```", *SGL_CRASH, "```",
        number=41244,
    ), NONE),
    "SGLang: title cross-references an EAGLE3 issue": (thread(
        SGL_REPO, "[Bug] plain server crash, similar to #40500 (EAGLE3 IMA)", "2025-10-15",
        "Looks like the EAGLE3 one in #40500 but we do not speculate:", "```", ORBIT, "```",
        "```", *SGL_CRASH, "```",
        number=41245,
    ), NONE),
    "SGLang: title: EAGLE3 disabled": (thread(
        SGL_REPO, "[Bug] with EAGLE3 disabled the server still reserves draft memory and crashes", "2025-10-15",
        "```", *SGL_CRASH, "```",
        number=41246,
    ), NONE),
    "SGLang: topk 4 in May 2026: 0.5.11-0.5.12 v1 (topk>1), 0.5.13+ v2 -> condition": (thread(
        SGL_REPO, "[Bug] EAGLE3 topk=4 crash", "2026-05-20",
        "```", *SGL_CRASH, "```",
        number=41247,
    ), want("EAGLEWorker", "EAGLEWorkerV2", decide=False)),
    "SGLang: title names NGRAM as the other issue, launch EAGLE3": (thread(
        SGL_REPO, "Duplicate of #40600 (NGRAM crash)? no: our run is EAGLE3", "2025-10-15",
        "Not the NGRAM one after all, we run EAGLE3:", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3",
        "```", "```", *SGL_CRASH, "```",
        number=41248,
    ), want("EAGLEWorker")),
    "SGLang: sglang thread, the crash is a plain vLLM run": (thread(
        SGL_REPO, "[Bug] SGLang NGRAM vs vLLM: vLLM plain server crashes", "2025-10-15",
        "For the comparison I also ran vLLM without speculation and that one crashes:", "```",
        "vllm serve acme/Falcon-Orbit-32B -tp 4", "```", "```", *VLLM_CRASH, "```",
        number=41249,
    ), NONE),
    "vLLM: maintainer says it is not the MTP drafter": (thread(
        VLLM_REPO, "[Bug]: DeepSeek-V3 crash at prefill", "2026-01-10",
        "```", *VLLM_CRASH, "```", "", "maint-x · comment · 2026-01-11",
        "This is not the MTP drafter: your command has no --speculative-config, so no "
            "proposer runs.",
        number=30119,
    ), NONE),
    "vLLM-Ascend: ascend title: MTP disabled": (thread(
        ASCEND_REPO, "[Bug]: v0.11.0rc1 crash with MTP disabled", "2025-10-20",
        "```", *ASCEND_CRASH, "```",
        number=5004,
    ), NONE),
    "vLLM: title: crash without eagle3": (thread(
        VLLM_REPO, "[Bug]: crash without eagle3 (with eagle3 it works)", "2025-10-20",
        "```", *VLLM_CRASH, "```",
        number=30120,
    ), NONE),
    "TensorRT-LLM: title says two-model: Eagle3OneModelWorker decided is wrong": (thread(
        TRT_REPO, "[Bug] Eagle3 two-model crash (eagle3_one_model: false)", "2026-01-10",
        "```", *TRT_CRASH, "```",
        number=8003,
    ), want("ModelDrafter")),  # two-model Eagle3 on the PyTorch flow drafts through ModelDrafter
    "SGLang: a draft repo named as the working other run": (thread(
        SGL_REPO, "[Bug] NGRAM crash on Falcon-Orbit-32B", "2025-10-01",
        "Unlike acme/Falcon-Orbit-32B-EAGLE3 (which works fine), our NGRAM run crashes:",
        "```", *SGL_CRASH, "```",
        number=41260,
    ), want("NGRAMWorker")),
    "SGLang: a draft repo in a list of related links": (thread(
        SGL_REPO, "[Bug] crash at prefill on Falcon-Orbit-32B", "2025-10-01",
        "Launch:", "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        "Related model cards: https://huggingface.co/acme/Falcon-Orbit-32B-EAGLE3 , "
            "https://huggingface.co/acme/Falcon-Orbit-32B-FP8",
        number=41261,
    ), NONE),
    "SGLang: a draft dir in an ls listing, run said plain": (thread(
        SGL_REPO, "[Bug] crash at prefill", "2025-10-01",
        "```", "$ ls /models",
        "Falcon-Orbit-32B  Falcon-Orbit-32B-EAGLE3  Falcon-Orbit-32B-FP8", "```",
        "We serve the FP8 one without speculative decoding:", "```", *SGL_CRASH, "```",
        number=41262,
    ), NONE),
    "acme/SpecTrainer: draft training: the server is the plain target": (thread(
        "acme/SpecTrainer", "SGLang target server crashes while generating data for Falcon-Orbit-32B-EAGLE3 training", "2025-10-01",
        "We use a plain SGLang server (no speculative decoding) to regenerate the training "
            "data for our EAGLE3 draft. It crashes:",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=31,
    ), NONE),
    "SGLang: fix release in the title: the run was older than 0.5.14": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash, fixed by upgrading to 0.5.14", "2026-07-05",
        "Leaving this for others: our EAGLE3 server crashed like this, upgrading to 0.5.14 "
            "fixed it.",
        "```", *SGL_CRASH, "```",
        number=41263,
    ), want("EAGLEWorker", "EAGLEWorkerV2", decide=False)),
    "SGLang: an older date in the prose is not the post's day (Sep 2026: v2 only... if upgraded)": (thread(
        SGL_REPO, "[Bug] EAGLE crash with long prompts", "2026-09-15",
        "Our cluster was set up on 2025-03-01 and has run EAGLE since; today it crashed:",
        "```", *SGL_CRASH, "```",
        number=41264,
    ), want("EAGLEWorkerV2", decide=False)),
    "vLLM-Ascend: fixed-in release in the title: the run was older (v0.12-v0.17)": (thread(
        ASCEND_REPO, "[Bug]: mtp crash with graph mode, fixed in v0.18.0rc1", "2026-04-10",
        "Our MTP run crashed like this; v0.18.0rc1 fixes it.", "```", *ASCEND_CRASH, "```",
        number=5005,
    ), want("MtpProposer", "AscendEagleProposer", decide=False)),
    "vLLM: run older than 0.8.2: EagleProposer decided is not shown": (thread(
        VLLM_REPO, "[Bug]: eagle crash, works after upgrading to 0.8.2", "2025-03-28",
        "Our eagle run crashed on the old version; 0.8.2 works.", "```",
        "RuntimeError: CUDA error: an illegal memory access was encountered", "```",
        number=30122,
    ), want("MultiStepWorker", "EagleProposer", decide=False)),
    "vLLM: draft repo 'not yet' served": (thread(
        VLLM_REPO, "[Bug]: plain serving crash; Falcon-Orbit-32B-EAGLE3 conversion is a separate step", "2026-01-10",
        "We have not started serving acme/Falcon-Orbit-32B-EAGLE3 yet; the plain model "
            "crashes first:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30123,
    ), NONE),
    "SGLang: title says spec v2 on and the frame is the overlap loop": (thread(
        SGL_REPO, "[Bug] spec v2 (SGLANG_ENABLE_SPEC_V2=1) crash with EAGLE3", "2025-12-10",
        "With the v2 worker turned on, EAGLE3 crashes after warmup:", "```", *SGL_OVERLAP_CRASH,
        "```",
        number=41250,
    ), want("EAGLEWorkerV2")),
    "SGLang: 'standalone' as a deployment mode": (thread(
        SGL_REPO, "[Bug] crash in standalone deployment (single node, no router)", "2025-11-02",
        "Standalone server, no router in front:", "```", ORBIT, "```", "```", *SGL_CRASH,
        "```",
        number=41270,
    ), NONE),
    "SGLang: 'ngram' in a sampling parameter": (thread(
        SGL_REPO, "[Bug] no_repeat_ngram_size=3 in sampling params crashes the server", "2025-11-02",
        "Any request with no_repeat_ngram_size set crashes:", "```", *SGL_CRASH, "```",
        number=41271,
    ), NONE),
    "SGLang: a pasted link card of another issue (page shape) in the body": (thread(
        SGL_REPO, "[Bug] crash at prefill with FP8 KV cache", "2025-11-02",
        "Maybe related:",
        "EAGLE3 illegal memory access on H20 · Issue #40500 · sgl-project/sglang", "",
        "Our server has no speculative decoding:", "```", ORBIT + " --kv-cache-dtype fp8_e4m3",
        "```", "```", *SGL_CRASH, "```",
        number=41272,
    ), NONE),
    "SGLang: title EAGLE3 but the server_args dump says speculative_algorithm=None": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash at decode", "2025-11-02",
        "Log:", "```",
        "[2025-11-02 10:00:00] server_args=ServerArgs(model_path='acme/Falcon-Orbit-32B', "
            "tp_size=4, speculative_algorithm=None, speculative_draft_model_path=None, "
            "disable_overlap_schedule=False)",
        *SGL_CRASH, "```",
        number=41273,
    ), NONE),
    "SGLang: NextN weights warning, spec off in the title": (thread(
        SGL_REPO, "[Bug] GLM-4.5-Air: NextN weights skipped warning then crash (speculative decoding off)", "2025-11-02",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41274,
    ), NONE),
    "SGLang: form-shape first line: 'Not an EAGLE issue'": ([
        "[Bug] Not an EAGLE issue: the plain server crashes too",
        "",
        ORBIT,
        *SGL_CRASH,
    ], NONE),
    "SGLang: form-shape first line names another issue, reproduced plain": ([
        "[Bug] EAGLE3 crash on H20 (#40500) - reproduced here on a plain server",
        "",
        ORBIT,
        *SGL_CRASH,
    ], NONE),
    "vLLM: 'ngram' in a logits processor name": (thread(
        VLLM_REPO, "[Bug]: no_repeat_ngram_size logits processor crashes the engine", "2026-01-10",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30125,
    ), NONE),
    "vLLM: 'suffix' of a prompt": (thread(
        VLLM_REPO, "[Bug]: long prompt suffix with tool calls crashes", "2026-01-10",
        "When the chat template appends a long suffix after the tool results the engine dies:",
        "```", *VLLM_CRASH, "```",
        number=30126,
    ), NONE),
    "vLLM: lookahead slots of multi-step scheduling": (thread(
        VLLM_REPO, "[Bug]: num_lookahead_slots assertion with multi-step scheduling", "2024-10-01",
        "Multi-step scheduling (--num-scheduler-steps 8), no speculative decoding:", "```",
        *V0_CRASH, "```",
        number=30127,
    ), NONE),
    "vLLM: 'draft' in another sense": (thread(
        VLLM_REPO, "[Bug]: crash when the client saves a draft response (structured output)", "2026-01-10",
        "```", *VLLM_CRASH, "```",
        number=30128,
    ), NONE),
    "vLLM: a pasted link card of another issue": (thread(
        VLLM_REPO, "[Bug]: crash at prefill with FP8 KV cache", "2026-01-10",
        "Maybe related:",
        "[Bug]: eagle3 illegal memory access · Issue #30000 · vllm-project/vllm", "",
        "Ours is a plain server:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4 --kv-cache-dtype fp8",
        "```", "```", *VLLM_CRASH, "```",
        number=30129,
    ), NONE),
    "TensorRT-LLM: 'lookahead' with speculative decoding off": (thread(
        TRT_REPO, "[Bug] KV cache lookahead blocks exhausted, crash (no speculative decoding)", "2026-01-10",
        "```", "trtllm-serve acme/Falcon-Orbit-32B --backend pytorch", "```", "```",
        *TRT_CRASH, "```",
        number=8004,
    ), NONE),
    "vLLM: form-shape first line: reproduced without spec": ([
        "[Bug]: MTP crash? no - reproduced without any speculative config",
        "",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4",
        *VLLM_CRASH,
    ], NONE),
    "SGLang: a draft in the HF cache listing, no draft passed": (thread(
        SGL_REPO, "[Bug] crash at prefill", "2025-10-01",
        "```", "$ ls ~/.cache/huggingface/hub",
        "models--acme--Falcon-Orbit-32B  models--acme--Falcon-Orbit-32B-EAGLE3", "```",
        "The server (no draft passed):", "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41290,
    ), NONE),
    "SGLang: a results table: the EAGLE3 row is ok, the plain row crashes": (thread(
        SGL_REPO, "[Bug] crash with the plain model only", "2025-10-01",
        "| model | result |", "|---|---|",
        "| acme/Falcon-Orbit-32B + acme/Falcon-Orbit-32B-EAGLE3 | ok |",
        "| acme/Falcon-Orbit-32B (no speculative decoding) | crash |", "", "The crash:", "```",
        *SGL_CRASH, "```",
        number=41291,
    ), NONE),
    "SGLang: an EAGLE3 draft named as the fine run, STANDALONE crashes": (thread(
        SGL_REPO, "[Bug] STANDALONE crash with a 1B draft", "2025-12-01",
        "Tried acme/Falcon-Orbit-32B-EAGLE3 first (fine). With STANDALONE and "
            "acme/Falcon-Orbit-1B as the draft it crashes:",
        "```", *SGL_CRASH, "```",
        number=41292,
    ), want("StandaloneWorker")),
    "vLLM: draft conversion crash, no vLLM run": (thread(
        VLLM_REPO, "[Bug]: converting acme/Falcon-Orbit-32B-EAGLE3 with speculators fails", "2026-01-10",
        "```", "Traceback (most recent call last):",
        "  File "
            "\"/opt/venv/lib/python3.12/site-packages/speculators/convert/eagle/eagle3_converter.py\","
            " line 120, in convert",
        "    weights = self._load(checkpoint)", "KeyError: 'midlayer.hidden_norm.weight'",
        "```",
        number=30132,
    ), NONE),
    "vLLM: maintainer: the MTP drafter is not on by default": (thread(
        VLLM_REPO, "[Usage]: is MTP on by default for DeepSeek-V3?", "2026-01-10",
        "My server crashes at start:", "```", "vllm serve deepseek-ai/DeepSeek-V3 -tp 8",
        "```", "```", *VLLM_CRASH, "```", "", "maint-x · comment · 2026-01-11",
        "No, the built-in MTP drafter is not enabled by default; you need "
            "--speculative-config. Your crash is unrelated to it.",
        number=30133, labels="usage",
    ), NONE),
    "SGLang: Chinese: crashes even without EAGLE3": (thread(
        SGL_REPO, "[Bug] 不使用EAGLE3也会崩溃", "2025-08-15",
        "不开投机解码，服务也会崩溃：", "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41302,
    ), NONE),
    "vLLM: Japanese: crashes even without eagle3": (thread(
        VLLM_REPO, "[Bug]: eagle3なしでもクラッシュする", "2026-01-10",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30140,
    ), NONE),
    "vLLM-Ascend: Chinese: still errors on v0.18.0rc1 after removing mtp": (thread(
        ASCEND_REPO, "[Bug]: 去掉mtp之后 v0.18.0rc1 依然报错", "2026-04-10",
        "```", *ASCEND_CRASH, "```",
        number=5006,
    ), NONE),
    "vLLM-Ascend: ascend usage question about mtp defaults, run configured none": (thread(
        ASCEND_REPO, "[Usage]: is mtp on by default in v0.18.0rc1?", "2026-04-10",
        "We did not configure any speculative decoding, and the server crashes:", "```",
        "vllm serve acme/Falcon-Orbit-32B", "```", "```", *ASCEND_CRASH, "```",
        number=5007, labels="usage",
    ), NONE),
    "TensorRT-LLM: a Medusa question title, the crash is a plain engine": (thread(
        TRT_REPO, "Does medusa support bs>1? (our plain engine crashes with bs=8)", "2025-01-10",
        "TensorRT-LLM version: 0.16.0", "Plain engine (no medusa heads), bs=8:", "```",
        "Traceback (most recent call last):",
        "  File \"/opt/TensorRT-LLM/examples/run.py\", line 887, in <module>",
        "    main(args)", "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: batch size",
        "```",
        number=8005,
    ), NONE),
    "acme-labs/vllm: fork PR adding Eagle3, plain CI crash": (thread(
        "acme-labs/vllm", "[Eagle3] Add Falcon-Orbit as verifier (draft PR); CI failure is the plain smoke test", "2025-08-20",
        "The failing CI job is the plain (non-speculative) smoke test:", "```", *VLLM_CRASH,
        "```",
        kind="pull request", number=99,
    ), NONE),
    "vLLM: mirror page title: crashes without MTP": ([
        "[Bug]: DeepSeek-V3 crashes without MTP (works with MTP) · Issue #30151 · "
            "vllm-project/vllm",
        "",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8",
        *VLLM_CRASH,
    ], NONE),
    "SGLang: title names the upgrade that fixed it; the crash is on v0.5.3 (v1)": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash (gone after the v0.5.3 -> v0.5.14 upgrade)", "2026-07-01",
        "For the record, this happened on our old v0.5.3 image:", "```", *SGL_CRASH, "```",
        number=41320,
    ), want("EAGLEWorker", decide=False)),
    "acme/SpecTrainer: draft training crash (no server) under an EAGLE3 title": (thread(
        "acme/SpecTrainer", "[Bug] Falcon-Orbit-32B-EAGLE3 training OOM", "2025-10-01",
        "Training the EAGLE3 draft:", "```", "Traceback (most recent call last):",
        "  File \"/workspace/SpecTrainer/scripts/train_eagle3.py\", line 310, in <module>",
        "    main()",
        "  File \"/workspace/SpecTrainer/spectrainer/core/eagle3.py\", line 145, in forward",
        "    hidden = self.draft_model(input_ids)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "```",
        number=40,
    ), NONE),
    "acme/ModelOptimizer: an export tool's crash under an MTP-for-vLLM title": (thread(
        "acme/ModelOptimizer", "[Bug] exporting an MTP head for vLLM fails", "2026-01-10",
        "```", "Traceback (most recent call last):",
        "  File "
            "\"/opt/venv/lib/python3.12/site-packages/modelopt/torch/export/unified_export_hf.py\","
            " line 512, in export_hf_checkpoint",
        "    _export_mtp(model)", "AssertionError: mtp layer count mismatch", "```",
        number=700,
    ), NONE),
    "SGLang: Japanese: crashes when MTP is disabled": (thread(
        SGL_REPO, "[Bug] MTPを無効にするとクラッシュする", "2025-08-15",
        "MTPを無効にした状態でデコード中に落ちます:", "```", *SGL_CRASH, "```",
        number=41300,
    ), NONE),
    "SGLang: Korean: the server dies when MTP is turned off": (thread(
        SGL_REPO, "[Bug] MTP를 끄면 서버가 죽습니다", "2025-08-15",
        "MTP를 끈 상태에서 디코딩 중에 죽습니다:", "```", *SGL_CRASH, "```",
        number=41301,
    ), NONE),
    "SGLang: Chinese: still crashes after disabling NEXTN": (thread(
        SGL_REPO, "[Bug] 禁用NEXTN后仍然崩溃", "2025-08-15",
        "```", *SGL_CRASH, "```",
        number=41303,
    ), NONE),
    "SGLang: two releases both crash, one log": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash on both 0.5.3 and 0.5.14", "2026-07-01",
        "Same crash on both images; this log is from one of them:", "```", *SGL_CRASH, "```",
        number=41340,
    ), want("EAGLEWorker", "EAGLEWorkerV2", decide=False)),
    "SGLang: two releases, the log's one not said": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash on 0.5.3; upgrading to 0.5.14 did not help", "2026-07-01",
        "```", *SGL_CRASH, "```",
        number=41342,
    ), want("EAGLEWorker", "EAGLEWorkerV2", decide=False)),
    "SGLang: used to serve with a draft, now alone": (thread(
        SGL_REPO, "[Bug] crash after 200 requests", "2025-10-01",
        "We used to serve acme/Falcon-Orbit-32B with acme/Falcon-Orbit-32B-EAGLE3 as the "
            "draft model; now we serve it alone and it crashes:",
        "```", ORBIT, "```", "```", *SGL_CRASH, "```",
        number=41343,
    ), NONE),
    "SGLang: they serve with a draft, we alone": (thread(
        SGL_REPO, "[Bug] crash after 200 requests", "2025-10-01",
        "The model card's authors serve acme/Falcon-Orbit-32B with "
            "acme/Falcon-Orbit-32B-EAGLE3 as the draft; we serve the target alone:",
        "```", *SGL_CRASH, "```",
        number=41344,
    ), NONE),
    "SGLang: will serve with a draft (plan)": (thread(
        SGL_REPO, "[Bug] crash after 200 requests", "2025-10-01",
        "Next week we will serve acme/Falcon-Orbit-32B with acme/Falcon-Orbit-32B-EAGLE3 as "
            "the draft; today the plain server crashes:",
        "```", *SGL_CRASH, "```",
        number=41345,
    ), NONE),
    "vLLM: vLLM: used to serve with a draft": (thread(
        VLLM_REPO, "[Bug]: crash after 200 requests", "2026-01-10",
        "We used to serve acme/Falcon-Orbit-32B with acme/Falcon-Orbit-32B-EAGLE3 as the "
            "draft model; now it runs alone and crashes:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30171,
    ), NONE),
    "vLLM-Ascend: ascend feature request title with release + MTP, plain run": (thread(
        ASCEND_REPO, "[Feature]: MTP support on 310P like v0.18.0rc1 on A2", "2026-04-01",
        "Request: MTP on 310P. Plain serving on 310P crashes today:", "```",
        "vllm serve acme/Falcon-Orbit-32B", "```", "```", *ASCEND_CRASH, "```",
        number=5002, labels="feature request",
    ), NONE),
    "TensorRT-LLM: feature request title (MTP), plain trtllm-serve": (thread(
        TRT_REPO, "[Feature] MTP for Falcon-Orbit in TensorRT-LLM; plain serve crashes", "2026-01-10",
        "```", "trtllm-serve acme/Falcon-Orbit-32B --backend pytorch", "```", "```",
        *TRT_CRASH, "```",
        number=8002, labels="feature request",
    ), NONE),
    "vLLM: RFC title naming ngram, plain CI crash": (thread(
        VLLM_REPO, "[RFC]: remove the V0 ngram worker", "2025-06-01",
        "Discussion only. (Unrelated: nightly plain-serve CI crash below.)", "```",
        *VLLM_CRASH, "```",
        number=30118, labels="RFC",
    ), NONE),
    "vLLM: Chinese title: vLLM crashes after turning MTP off": (thread(
        VLLM_REPO, "[Bug]: 关闭 MTP 后 vLLM 崩溃", "2025-10-20",
        "```", *VLLM_CRASH, "```",
        number=30121,
    ), NONE),
    "vLLM: Detected MTP line inside a docs diff": (thread(
        VLLM_REPO, "[Doc] explain how to check that MTP is active", "2026-01-10",
        "```diff", "+ When MTP is active the log shows:",
        "+ `Detected MTP model. Sharing target model embedding weights with the draft model.`",
        "```", "CI (docs build only) crashed on an unrelated plain-serve smoke test:", "```",
        *VLLM_CRASH, "```",
        kind="pull request", number=31002, labels="documentation",
    ), NONE),
    "vLLM: maintainer: if you were using the MTP drafter...": (thread(
        VLLM_REPO, "[Bug]: DeepSeek-V3 crash at decode", "2026-01-10",
        "```", *VLLM_CRASH, "```", "", "maint-x · comment · 2026-01-11",
        "If you were using the built-in MTP drafter you would see a `Detected MTP model` "
            "line; your log has none, so this is the target model alone.",
        number=30124,
    ), NONE),
    "vLLM: a model card's recommended config, served plainly": (thread(
        VLLM_REPO, "[Bug]: crash serving Falcon-Orbit-32B", "2026-01-10",
        "The model card says: \"For faster decoding use --speculative-config '{\\\"method\\\": "
            "\\\"mtp\\\", \\\"num_speculative_tokens\\\": 1}'\". We serve it plainly:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30134,
    ), NONE),
    "vLLM: a transformers load of a draft in a vLLM thread, no server": (thread(
        VLLM_REPO, "[Bug]: Falcon-Orbit-32B-EAGLE3 fails to load in transformers", "2025-10-01",
        "Just loading it with AutoModel (no server):", "```",
        "Traceback (most recent call last):", "  File \"/work/load.py\", line 4, in <module>",
        "    m = AutoModelForCausalLM.from_pretrained(\"acme/Falcon-Orbit-32B-EAGLE3\")",
        "  File \"/opt/venv/lib/python3.11/site-packages/transformers/modeling_utils.py\", line"
            " 4420, in from_pretrained",
        "    raise ValueError(msg)",
        "ValueError: Unrecognized configuration class LlamaForCausalLMEagle3", "```",
        number=30160,
    ), NONE),
    "vLLM: vLLM 2024 Medusa title -> V0 MedusaWorker": (thread(
        VLLM_REPO, "[Performance]: Medusa speculative decoding is slow and then crashes", "2024-08-01",
        "```", *V0_CRASH, "```",
        number=30206,
    ), want("MedusaWorker")),
    "SGLang: a title saying spec v2 over the normal (non-overlap) loop's frame, Dec 2025": (thread(
        SGL_REPO, "[Bug] spec v2 (SGLANG_ENABLE_SPEC_V2=1) crash with EAGLE3", "2025-12-10",
        "With the v2 worker turned on, EAGLE3 crashes after warmup:", "```",
        *SGL_NORMAL_CRASH, "```",
        number=41240,
    ), want("EAGLEWorker")),
    "SGLang: a title saying overlap + EAGLE3 on 0.5.6 over the normal loop's frame": (thread(
        SGL_REPO, "[Bug] EAGLE3 + overlap scheduler crash on 0.5.6", "2025-12-10",
        "Overlap scheduler with EAGLE3 (spec v2 on):", "```",
        *SGL_NORMAL_CRASH, "```",
        number=41241,
    ), want("EAGLEWorker")),
    "vLLM: a V0 proposer line quoted from an old deployment": (thread(
        VLLM_REPO, "[Bug]: crash at startup on 0.11.0", "2025-10-20",
        "Back on 0.6 our old draft-model deployment logged `Configuring SpecDecodeWorker with"
            " proposer=<class 'vllm.spec_decode.multi_step_worker.MultiStepWorker'>`. This server"
            " has no speculative config:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=30150,
    ), NONE),
    "SGLang: a STANDALONE launch over the normal loop's frame, an EAGLE3 title": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with DP attention", "2025-11-02",
        "Actually my launch is the draft-model one:", "```",
        ORBIT + " --speculative-algorithm STANDALONE --speculative-draft-model-path "
            "acme/Falcon-Orbit-1B",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=41218,
    ), want("StandaloneWorker")),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_a_thread_naming_another_run_gets_no_wrong_path(tmp_path: Path, name: str) -> None:
    assert_right_or_undecided(tmp_path, *CASES[name])
