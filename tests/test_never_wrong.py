"""Texts written to trick the worker-path linker into a wrong verdict (issue 11: never wrong).

Each case is a realistic paste whose words name speculation that did not run the crash: a
plain baseline beside a failing run, a question, a test that passed, a removed diff line, an
older release named beside the log's own, a target model whose name holds a family word. The
linker may say the right class, a condition that holds it, or "unknown"; never a decided
class other than the run's, never "none" for a run that speculated, never a speculative
condition for a run that did not. Every text is our own, in the shapes reports use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, roots, run

SGL_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    '  File "/usr/lib/python3/site-packages/sglang/srt/model_executor/model_runner.py", line 2070, in forward',
    "    return self._forward_raw(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
VLLM_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu_model_runner.py", line 1530, in execute_model',
    "    model_output = self.model(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
BASE_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu_model_runner.py", line 5445, in load_model',
    "    self.drafter.load_model(self.model)",
    '  File "/usr/lib/python3/site-packages/vllm/v1/spec_decode/llm_base_proposer.py", line 1346, in load_model',
    "    self.model = self._get_model()",
    "RuntimeError: weights not found",
]
TRT_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 1210, in _executor_loop',
    "    batch_outputs = self._forward_step(scheduled_batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"
SGL = f"python -m sglang.launch_server --model-path {LLAMA}"
EAGLE_FLAGS = "--speculative-draft-model-path org/eagle-llama-8b --speculative-eagle-topk 1"
EAGLES = frozenset({"EAGLEWorker", "EAGLEWorkerV2"})
SGL_SPEC = EAGLES | {"NGRAMWorker", "StandaloneWorker"}

SGL_REPO, VLLM_REPO = "sgl-project/sglang", "vllm-project/vllm"
ASCEND_REPO, TRT_REPO = "vllm-project/vllm-ascend", "NVIDIA/TensorRT-LLM"
ORBIT = "python3 -m sglang.launch_server --model-path acme/Falcon-Orbit-32B --tp 4 --port 30000"
ASCEND_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/local/python3.11/lib/python3.11/site-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2210, in execute_model',
    "    hidden_states = self._generate_process_reqs_hidden_states(",
    "RuntimeError: ACL stream synchronize failed, error code:507035",
]
# the scheduler loop the overlap scheduler runs (EAGLEWorkerV2 before 0.5.13)
SGL_OVERLAP_CRASH = [*SGL_CRASH[:2], "    scheduler.event_loop_overlap()", *SGL_CRASH[3:]]
# the loop without the overlap scheduler: the v1 worker up to 0.5.12 (a title saying v2 is outranked)
SGL_NORMAL_CRASH = [*SGL_CRASH[:2], "    scheduler.event_loop_normal()", *SGL_CRASH[3:]]
V0_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.10/site-packages/vllm/engine/llm_engine.py", line 1386, in step',
    "    outputs = self.model_executor.execute_model(",
    '  File "/opt/venv/lib/python3.10/site-packages/vllm/worker/model_runner.py", line 1654, in execute_model',
    "    hidden_or_intermediate_states = model_executable(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def thread(
    repo: str, title: str, day: str, *post: str, kind: str = "issue", number: int = 4242,
    labels: str = "bug",
) -> list[str]:  # fmt: skip
    """A thread as the real-log rounds save it: header, labels, title, the first post's byline."""
    return [f"{repo} · {kind} #{number} · open · Python", f"labels: {labels}", f"# {title}", "",
            f"ivy · description · {day}", *post]  # fmt: skip


# a vLLM crash whose only frame is the engine core: whether the V1 model runner or the model
# runner v2 (MRV2) ran is not shown
VLLM_CORE_CRASH = [*VLLM_CRASH[:3], VLLM_CRASH[-1]]
# the model runner v2 (``v1/worker/gpu/``) and its EAGLE speculator
MRV2_RUNNER_CRASH = [
    *VLLM_CRASH[:3],
    '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu/model_runner.py", line 1395, in execute_model',
    "    logits = self.model(",
    VLLM_CRASH[-1],
]
MRV2_EAGLE_CRASH = [
    *VLLM_CRASH[:3],
    '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu/model_runner.py", line 1410, in execute_model',
    "    draft_tokens = self.speculator.propose(",
    '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu/spec_decode/eagle/speculator.py", line 288, in propose',
    "    hidden = self.model(",
    VLLM_CRASH[-1],
]
# a crash of our own, appended where a thread shows none (as the real-log rounds' probe rows)
PROBE_CRASH = [
    "Traceback (most recent call last):", '  File "/probe/probe.py", line 1, in <module>',
    "RuntimeError: probe crash",
]  # fmt: skip

# sentences that name EAGLE while saying the crashing run did not run it
PLAIN_RUN_SENTENCES = (
    "There is no crash with EAGLE3; the crash happens only in our plain deployment.",
    "It doesn't crash with EAGLE3, only without speculative decoding.",
    "We used to run EAGLE, but this server runs without speculative decoding now.",
    "EAGLE speculative decoding crashes with FP8 was fixed in #4242; this plain-server crash is new.",
    "When using EAGLE everything is fine; the plain server crashes.",
    "Before enabling EAGLE we want the plain server stable, but it crashes:",
    "We plan to run EAGLE later; for now the plain server crashes:",
    "Does this also crash with EAGLE enabled? I only tried without.",
    "Unlike the EAGLE crash in #5000, ours happens without any speculation.",
    "With EAGLE disabled the server still crashes.",
    "We run EAGLE in staging and a plain server in prod; prod crashed.",
    'Same crash as "EAGLE speculative decoding crashes with long prompts" (#6000), but we do not '
    "use it.",
)

# replies naming a release that is not the crashing run's: the fix, a suggestion, another report
NOT_THE_RUNS_RELEASE = (
    "Maintainer: could you try `pip install sglang==0.5.14`? It has the fix.",
    "This is fixed in v0.5.14, please upgrade.",
    "Upgrading to sglang 0.5.14 fixed it for me.",
    "Closing: resolved by #9999, released in v0.5.14.",
    "docker pull lmsysorg/sglang:v0.5.14-cu126 (the new image) fixes it.",
    "The same crash was reported for sglang 0.4.6 in #3000.",
)

# sentences naming a vLLM method beside a plain `vllm serve` run
PLAIN_VLLM_SENTENCES = (
    "Speculative decoding (ngram) was disabled when this crash happened.",
    "We had ngram enabled earlier, but this crash is from a run without it.",
    "MTP has been turned off for this deployment.",
    "The eagle3 head is still downloading, so this run has no drafter yet.",
    "Previously reported with MTP in #20000; here the server runs plain.",
)


# lines naming an sglang release (or a post day) that is not the crashing run's: the good one, a
# workaround, another machine, release notes, another post's header, a merge date
NOT_THE_RUNS_DAY_OR_RELEASE = (
    "Rolling back to sglang 0.5.3 makes the crash disappear.",
    "Everything worked with sglang 0.5.3; the crash started once we moved to main.",
    "Last good build for us: sglang==0.5.3 (we now build main from source).",
    "Our staging box still reports `sglang: 0.5.3` and is fine; prod is on a newer build.",
    "Per the release notes of v0.5.14, EAGLE runs on the overlap scheduler; we are still older.",
    "Someone opened a very similar issue on Jan 10, 2026; it went stale.",
    "My guess: the refactor merged on Feb 2, 2026 introduced it.",
)
# the SGLANG_ENABLE_SPEC_V2 switch named as the fix, a suggestion or another run's setting
SWITCH_NOT_THE_RUNS = (
    "Turning on SGLANG_ENABLE_SPEC_V2=1 makes it go away for us.",
    "Maintainer: you can set SGLANG_ENABLE_SPEC_V2=1 and run the overlap worker, it lacks this bug.",
    "`SGLANG_ENABLE_SPEC_V2=1` is what the other report used; we left it unset.",
)
# flags quoted as inline code in a sentence that does not say the run had them
INLINE_FLAGS_NOT_THE_RUNS = (
    "With `--speculative-algorithm NGRAM` everything is fine; the crash is from our default "
    "launch.",
    "The model card recommends `--speculative-algorithm EAGLE3` but we have not turned it on.",
    "Next sprint we add `--speculative-algorithm EAGLE3`; today the server crashes without it.",
)
VLLM_INLINE_FLAGS_NOT_THE_RUNS = (
    'Adding `--speculative-config \'{"method": "ngram", "num_speculative_tokens": 4}\'` '
    "makes the crash disappear.",
    '#12345 uses `--speculative-config \'{"method": "eagle3", "model": "org/eagle3", '
    '"num_speculative_tokens": 3}\'` and sees the same thing.',
    'We want to try `--speculative-config \'{"method": "eagle3", "model": "org/eagle3", '
    '"num_speculative_tokens": 3}\'` next; this server has none.',
)


@dataclass(frozen=True)
class Want:
    """The classes that could have run (``none``: speculation off) and whether the text lets
    the linker decide among them (False: only a condition or unknown is right)."""

    classes: frozenset[str]
    decide: bool = True


NONE = Want(frozenset({"none"}))
SPECULATED = Want(SGL_SPEC, decide=False)  # the run speculated, its algorithm is not shown
NOT_SHOWN = Want(frozenset(), decide=False)  # nothing in the text settles it


def want(*classes: str, decide: bool = True) -> Want:
    return Want(frozenset(classes), decide)


CASES: dict[str, tuple[list[str], Want]] = {
    # --- SGLang ---------------------------------------------------------------------------
    "two launches, the crash is the NGRAM one": ([
        "EAGLE works fine, it is NGRAM that crashes.", "Working run (EAGLE):",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", "Crashing run (NGRAM):",
        f"{SGL} --speculative-algorithm NGRAM --speculative-num-draft-tokens 8", *SGL_CRASH,
    ], want("NGRAMWorker")),
    "EAGLE works, NGRAM fails, said in words": ([
        "We run EAGLE in production without problems. When we switch the same deployment to "
        "NGRAM speculative decoding it crashes after a few requests:", *SGL_CRASH,
    ], want("NGRAMWorker")),
    "crashes on the older release, works on the newer": ([
        "EAGLE crashes on v0.5.3 but works on v0.5.14",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want("EAGLEWorker")),
    "a plain baseline beside the failing speculative run": ([
        "Baseline without speculation, this one is fine:", "", f"{SGL} --tp 2 --port 30000", "",
        "With speculative decoding enabled the server crashes:", *SGL_CRASH,
    ], SPECULATED),
    "the report says speculative decoding crashes": ([
        "Speculative decoding crashes the server after ~200 requests. Launch:", "",
        f"{SGL} --tp 2 --port 30000", "", *SGL_CRASH,
    ], SPECULATED),
    "a title and caption naming MTP over a launch cut before its speculative flags": ([
        "# [Bug] decode node with DP attention + MTP crashes", "",
        "decode node TP8+MTP launch cmd:", "```", f"{SGL} \\", "--tp 8 \\",
        "--disaggregation-mode decode", *SGL_CRASH,
    ], SPECULATED),
    "accept len in the failing log beside a plain reference launch": ([
        "For reference the plain server (no speculation) is started like this and is stable:",
        f"{SGL} --tp 2", "", "The failing server log:",
        "[2025-11-03 10:12:00 TP0] Decode batch. #running-req: 12, #token: 5120, token usage: "
        "0.05, accept len: 2.91, cuda graph: True, gen throughput (token/s): 812.11, #queue-req: 0",
        *SGL_CRASH,
    ], SPECULATED),
    "a shell variable may hold more flags": ([
        f"{SGL} --tp 2 --port 30000 $EXTRA_ARGS", *SGL_CRASH,
    ], want("none", *SGL_SPEC, decide=False)),
    "a flag commented out inside a continued command": ([
        "python -m sglang.launch_server \\", f"  --model-path {LLAMA} \\", "  --tp 2 \\",
        "  # --speculative-algorithm EAGLE \\", "  --port 30000", *SGL_CRASH,
    ], NONE),
    "a diff removing the speculative flags": ([
        "I removed speculative decoding from our launch script and the server still crashes:",
        "```diff", " python -m sglang.launch_server \\", f"   --model-path {LLAMA} \\",
        "-  --speculative-algorithm EAGLE \\", "-  --speculative-draft-model-path org/eagle \\",
        "   --tp 2", "```", *SGL_CRASH,
    ], NONE),
    "a quoted reply holds someone else's NGRAM setup": ([
        f"> I launch with `{SGL} --speculative-algorithm NGRAM` and it works for me", "",
        "Thanks. Mine is different, I use EAGLE3:",
        f"{SGL} --speculative-algorithm EAGLE3 {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES)),
    "--speculative-algorithm NONE": ([
        f"{SGL} --speculative-algorithm NONE --tp 2", *SGL_CRASH,
    ], want("none", "TpModelWorker")),
    "SGLANG_ENABLE_SPEC_V2=0 with no release": ([
        f"SGLANG_ENABLE_SPEC_V2=0 {SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES, decide=False)),
    "a target model named Eagle is no EAGLE draft (SGLang)": ([
        "Serving nvidia/Eagle2.5-8B crashes on the first image request.",
        "python -m sglang.launch_server --model-path nvidia/Eagle2.5-8B --trust-remote-code",
        *SGL_CRASH,
    ], NONE),
    "a title naming MTP over a launch with NGRAM": ([
        "[Bug] DeepSeek MTP crash under high concurrency",
        "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 "
        "--speculative-algorithm NGRAM --speculative-num-draft-tokens 8", *SGL_CRASH,
    ], want("NGRAMWorker")),
    "a dated issue header and a later comment GitHub shows without its year": ([
        "alice opened this issue on Mar 3, 2025 · 14 comments", "",
        "EAGLE speculative decoding crashes with long prompts.", "", "bob commented on Jul 2", "",
        "Still seeing it. We run EAGLE with topk 1:",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES, decide=False)),
    "an image tag tried afterwards beside the log's own older image": ([
        "Same crash on lmsysorg/sglang:v0.5.14-cu126 which I tried afterwards, but the log below "
        "is from my old pinned image lmsysorg/sglang:v0.4.6.post1:",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want("EAGLEWorker")),
    "a version line under a later post header": ([
        "carol commented on Sep 14, 2026", "",
        "Found this old log from last year, the version line says 0.4.6:", "sglang: 0.4.6.post1",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want("EAGLEWorker")),
    "a question about EAGLE flags from a run without any": ([
        "When using EAGLE, should I also set --speculative-eagle-topk? Right now I'm running "
        "without any speculative flag and the server crashes:", *SGL_CRASH,
    ], want("none")),
    # --- SGLang sentences, in an sglang thread whose header day would decide the release -----
    **{
        f"a plain run beside the sentence: {sentence}": (
            ["sgl-project/sglang · Issue #7777", "erin opened this issue on Jun 3, 2025", "",
             sentence, "", *SGL_CRASH],
            want("none"),
        )
        for sentence in PLAIN_RUN_SENTENCES
    },
    "a quoted report of EAGLE3, the writer's own run plain": ([
        "sgl-project/sglang · Issue #7777", "erin opened this issue on Jun 3, 2025", "",
        "> We run EAGLE3 and it crashes after a few requests.", "",
        "I get the same traceback without any speculative decoding:", *SGL_CRASH,
    ], NONE),
    "a quoted EAGLE3 launch, the writer's own run plain": ([
        "sgl-project/sglang · Issue #7777", "erin opened this issue on Jun 3, 2025", "",
        f"> {SGL} --speculative-algorithm EAGLE3 {EAGLE_FLAGS}", "",
        "I see the same crash on a plain server (no speculative flags at all):", *SGL_CRASH,
    ], NONE),
    "a quoted EAGLE3 launch, the writer's own NGRAM launch": ([
        "sgl-project/sglang · Issue #7777", "erin opened this issue on Jun 3, 2025", "",
        f"> {SGL} --speculative-algorithm EAGLE3 {EAGLE_FLAGS}", "", "Same here, but on NGRAM:",
        f"{SGL} --speculative-algorithm NGRAM", *SGL_CRASH,
    ], want("NGRAMWorker")),
    **{
        f"a release that is not the run's: {reply}": (
            [f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH, reply],
            want(*EAGLES, decide=False),
        )
        for reply in NOT_THE_RUNS_RELEASE
    },
    "a release the crash still happens on after upgrading": ([
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
        "Still happens after upgrading to v0.5.14.",
    ], want("EAGLEWorkerV2")),
    **{
        f"a release or day that is not the run's: {line}": (
            [line, f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH],
            want(*EAGLES, decide=False),
        )
        for line in NOT_THE_RUNS_DAY_OR_RELEASE
    },
    "a pinned release in an old Dockerfile, then a bump to a newer one": ([
        "The image used to be built with", 'RUN pip install "sglang[all]==0.5.3"',
        "and since we bumped sglang to 0.5.14 last week it crashes:",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want("EAGLEWorkerV2")),
    **{
        f"the switch is not the run's: {line}": (
            ["sglang: 0.5.8", f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
             line],
            want("EAGLEWorker"),
        )
        for line in SWITCH_NOT_THE_RUNS
    },
    "both switch settings tried, one log shown": ([
        "sglang: 0.5.8",
        "Both SGLANG_ENABLE_SPEC_V2=0 and SGLANG_ENABLE_SPEC_V2=1 crash alike; here is one log.",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES, decide=False)),
    "a reviewer's NGRAM command after the crash": ([
        f"{SGL} --speculative-algorithm EAGLE3 {EAGLE_FLAGS}", *SGL_CRASH, "",
        "Reviewer: this one works for me, switch to NGRAM for now:", "```",
        f"{SGL} --speculative-algorithm NGRAM --speculative-num-draft-tokens 8", "```",
    ], want(*EAGLES)),
    "another user's command in a details block, the writer's own plain": ([
        "<details><summary>@bob's command (works for him)</summary>", "",
        f"{SGL} --speculative-algorithm NGRAM --speculative-num-draft-tokens 8", "", "</details>",
        "", "Mine is a plain server:", f"{SGL} --tp 2 --port 30000", *SGL_CRASH,
    ], NONE),
    "a plain-looking command whose other flags the paste leaves out": ([
        "```", f"{SGL} --tp 8 --port 30000", "```", "(other flags trimmed)", *SGL_CRASH,
    ], SPECULATED),
    "a Japanese report of speculative decoding over a plain-looking command": ([
        "投機的デコードを有効にすると落ちます:", f"{SGL} --tp 2 --port 30000", *SGL_CRASH,
    ], SPECULATED),
    "a Korean report of speculative decoding over a plain-looking command": ([
        "추측 디코딩을 켜면 서버가 죽습니다:", f"{SGL} --tp 2 --port 30000", *SGL_CRASH,
    ], SPECULATED),
    **{
        f"inline flags that are not the run's: {line}": (
            [line, f"{SGL} --tp 2 --port 30000", *SGL_CRASH], NONE
        )
        for line in INLINE_FLAGS_NOT_THE_RUNS
    },
    "a failure named in a sentence about another issue": ([
        "sgl-project/sglang · Issue #8888", "gina opened this issue on Jan 20, 2026", "",
        "The IMA in EAGLE3's draft graph capture is tracked elsewhere; this one is at prefill on "
        "our server.", *SGL_CRASH,
    ], want("none", decide=False)),
    "a bare release the crash does not reproduce on": ([
        "Cannot reproduce on v0.5.3, only on our current build.",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES, decide=False)),
    "a model card's label above the writer's whole plain command": ([
        "sgl-project/sglang · Issue #8888", "gina opened this issue on Jan 20, 2026", "",
        "From the model card:", "- Speculative decoding: EAGLE3 available (draft on the hub)", "",
        "We launch:", f"{SGL} --tp 2 --port 30000", *SGL_CRASH,
    ], NONE),
    "a label naming one node's algorithm and another node's none": ([
        "sgl-project/sglang · Issue #8888", "gina opened this issue on Jan 20, 2026", "",
        "- spec: EAGLE3 on node A, none on node B (its crash below)", *SGL_CRASH,
    ], want("none", decide=False)),
    "a quoted old report's dated log above the writer's undated run of today": ([
        "> [2025-02-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        "> RuntimeError: CUDA error: an illegal memory access was encountered", "",
        "Still here on a build of main from this week:",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES, decide=False)),
    "quoted NGRAM and EAGLE3 posts, the writer's own server plain": ([
        f">> {SGL} --speculative-algorithm NGRAM", "> Same for us with EAGLE3", "",
        "Not for us, my server is plain and crashes anyway:", f"{SGL} --tp 2 --port 30000",
        *SGL_CRASH,
    ], NONE),
    "a file another sentence says the run does not use": ([
        "The v1 worker (eagle_worker.py:412) gets this right; our run does not go through it.",
        *SGL_CRASH,
    ], NOT_SHOWN),
    "a py-spy dump of a healthy EAGLE node pasted for comparison above a plain node's crash": ([
        "py-spy dump from the healthy node (EAGLE, for comparison):",
        'Thread 4242 (active): "MainThread"',
        "    forward_batch_speculative_generation (sglang/srt/speculative/eagle_worker.py:310)",
        "    run_batch (sglang/srt/managers/scheduler.py:1640)", "",
        "The node that crashes runs without speculative decoding:", f"{SGL} --tp 2 --port 30000",
        *SGL_CRASH,
    ], NONE),
    "an old EAGLE3 command commented out above the live plain one": ([
        "serve.sh:", "#!/bin/bash",
        f"#{SGL} --speculative-algorithm EAGLE3 {EAGLE_FLAGS}", f"{SGL} --tp 2 --port 30000",
        *SGL_CRASH,
    ], NONE),
    "a speculative keyword commented out inside sgl.Engine(...)": ([
        "import sglang as sgl", "engine = sgl.Engine(", f'    model_path="{LLAMA}",',
        "    tp_size=2,", '    # speculative_algorithm="EAGLE3",',
        '    # speculative_draft_model_path="org/eagle3",', ")", *SGL_CRASH,
    ], NONE),
    "the switch named as a plan, beside the release whose default is off": ([
        "sglang: 0.5.8", "EAGLE crashes for us. Spec v2 is next on our list.", *SGL_CRASH,
    ], want("EAGLEWorker")),
    "'Eagle v2' meaning the EAGLE-2 paper's dynamic tree": ([
        "sglang: 0.5.8", "We run Eagle v2 (the dynamic-tree paper version) and it crashes:",
        *SGL_CRASH,
    ], want("EAGLEWorker")),
    # --- vLLM -----------------------------------------------------------------------------
    "a draft model launched with a method option vLLM does not parse": ([
        f"vllm serve {LLAMA} \\", "  --speculative-model /models/dflash-draft \\",
        "  --speculative-method dflash \\", "  --num-speculative-tokens 7", *VLLM_CRASH,
    ], want("DFlashProposer")),
    "a question naming eagle3 over a plain vLLM run": ([
        "Does vLLM support eagle3 with Qwen3-VL? Meanwhile my plain server (no speculative "
        "config) crashes:", "", "vllm serve Qwen/Qwen3-VL-8B-Instruct --tensor-parallel-size 2",
        *VLLM_CRASH,
    ], NONE),
    "a doc's JSON beside the run's own non-default args": ([
        "The docs show --speculative-config '{\"method\": \"eagle3\", \"model\": \"org/eagle3\", "
        "\"num_speculative_tokens\": 3}' but I use ngram:",
        "INFO 11-03 10:11:00 [utils.py:253] non-default args: {'model': 'meta-llama/Llama-3.1-8B"
        "-Instruct', 'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 4, "
        "'prompt_lookup_max': 4}}", *VLLM_CRASH,
    ], want("NgramProposer")),
    "spec-decode tests that passed beside the failing plain one": ([
        "tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[eagle3] PASSED",
        "tests/v1/e2e/test_spec_decode.py::test_mtp_correctness PASSED",
        "tests/v1/e2e/test_async_scheduling.py::test_without_spec_decoding FAILED", *VLLM_CRASH,
    ], NONE),
    "a PR listing the proposers it touches, CI crash on a plain server": ([
        "This PR adds a CUDA graph fix that touches eagle, eagle3, mtp and ngram proposers. CI "
        "failure on the basic serving test:", "", "vllm serve facebook/opt-125m", *VLLM_CRASH,
    ], NONE),
    "a title naming ngram over a config with suffix": ([
        "[Bug]: ngram speculative decoding crashes with long context", "",
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"suffix\", "
        "\"num_speculative_tokens\": 8}'", *VLLM_CRASH,
    ], want("SuffixDecodingProposer")),
    "a target model named Eagle is no EAGLE draft (vLLM)": ([
        "vllm serve nvidia/Eagle2.5-8B --trust-remote-code",
        "INFO 11-03 10:11:02 [model.py:547] Resolved architecture: "
        "Eagle2_5_VLForConditionalGeneration", *VLLM_CRASH,
    ], NONE),
    "MTP named for a separate run": ([
        "Running ./scripts/serve_mtp_off.sh (no speculative decoding; the MTP run is a separate "
        "script):", "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8", *VLLM_CRASH,
    ], NONE),
    "a diff removing the speculative config": ([
        "Dropping speculative decoding did not help, the server still crashes with this change:",
        "```diff", f" vllm serve {LLAMA} \\",
        "-  --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 4} \\",
        "   --tensor-parallel-size 2", "```", *VLLM_CRASH,
    ], NONE),
    "families named as not used": ([
        "Not using MTP or eagle here, just plain tensor parallel. Crash:", *VLLM_CRASH,
    ], NONE),
    "a method said to work, the crash without speculation": ([
        "Tried ngram and it works. The crash is with plain decoding, no spec:",
        f"vllm serve {LLAMA} --tensor-parallel-size 2", *VLLM_CRASH,
    ], NONE),
    "a question naming a proposer class": ([
        "Is EagleProposer used when I set method mtp? My run has no speculative config at all "
        "and crashes at startup:", "vllm serve Qwen/Qwen3-8B", *VLLM_CRASH,
    ], NONE),
    "a title naming eagle3 over speculative_config=None": ([
        "[Bug]: eagle3 crash on Llama 3.1",
        "INFO 11-03 10:11:00 [core.py:71] Initializing a V1 LLM engine (v0.11.0) with config: "
        f"model='{LLAMA}', speculative_config=None, tokenizer='{LLAMA}'", *VLLM_CRASH,
    ], NONE),
    "a proposer base frame, a question about another family, a draft model run": ([
        "Is this the same bug as the eagle3 one in #20000? We use a plain draft model.",
        *BASE_CRASH,
    ], want("DraftModelProposer")),
    "a proposer base frame under the run's own draft_model config": ([
        "INFO 11-03 10:11:00 [utils.py:253] non-default args: {'model': 'Qwen/Qwen3-8B', "
        "'speculative_config': {'method': 'draft_model', 'model': 'Qwen/Qwen3-0.6B', "
        "'num_speculative_tokens': 4}}", *BASE_CRASH,
    ], want("DraftModelProposer")),
    "a vllm-ascend thread whose run is on an NVIDIA GPU": ([
        "Same error as vllm-ascend #1234, but we run on NVIDIA H100:",
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"eagle3\", \"model\": "
        "\"org/eagle3\", \"num_speculative_tokens\": 3}'", *VLLM_CRASH,
    ], want("EagleProposer")),
    "a family word inside the served model's path": ([
        "vllm serve /models/my-finetune-after-eagle3-distill --tensor-parallel-size 2",
        *VLLM_CRASH,
    ], NONE),
    "MTP inside a target model's name": ([
        "vllm serve XiaomiMiMo/MiMo-7B-RL-MTP-free --trust-remote-code", *VLLM_CRASH,
    ], NONE),
    "a draft-training JSON beside a training crash (no vLLM run)": ([
        "Training the draft with SpecForge, config:",
        '{"method": "eagle3", "target_model_path": "meta-llama/Llama-3.1-8B-Instruct", "num_epochs": 2}',
        "Traceback (most recent call last):",
        '  File "/workspace/SpecForge/scripts/train_eagle3.py", line 310, in <module>',
        "    main()",
        '  File "/workspace/SpecForge/specforge/core/eagle3.py", line 145, in forward',
        "    hidden = self.draft_model(input_ids)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ], NOT_SHOWN),
    # --- two engines in one thread: the crash's own frames say whose run it is -------------
    "a vLLM ngram launch for comparison, the crash in SGLang's frames": ([
        "vLLM (ngram) for comparison:",
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"ngram\", "
        "\"num_speculative_tokens\": 4}'", "Our SGLang server:",
        f"{SGL} --speculative-algorithm NGRAM", *SGL_CRASH,
    ], want("NGRAMWorker")),
    "a vLLM eagle3 run that works beside the SGLang EAGLE3 run that crashes": ([
        "Same model, two engines. vLLM with eagle3 works:",
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"eagle3\", \"model\": "
        "\"org/eagle3\", \"num_speculative_tokens\": 3}'", "SGLang with EAGLE3 crashes:",
        f"{SGL} --speculative-algorithm EAGLE3 {EAGLE_FLAGS}", *SGL_CRASH,
    ], want(*EAGLES)),
    "a quoted vLLM eagle3 command, the writer's own run plain": ([
        f"> vllm serve {LLAMA} --speculative-config '{{\"method\": \"eagle3\", \"model\": "
        "\"org/eagle3\", \"num_speculative_tokens\": 3}'", "",
        "I see the same crash on a plain server (no speculative config at all):", *VLLM_CRASH,
    ], NONE),
    "a quoted sentence naming ngram, the writer's own run plain": ([
        "> We use ngram speculative decoding and it crashes.", "",
        "Same traceback here without any speculative decoding:", f"vllm serve {LLAMA}",
        *VLLM_CRASH,
    ], NONE),
    "an old SGLang traceback through vLLM's layers beside a vLLM command for comparison": ([
        "vLLM with ngram, for comparison, is fine:",
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"ngram\", "
        "\"num_speculative_tokens\": 4}'", "The SGLang server crashes:",
        f"{SGL} --speculative-algorithm EAGLE {EAGLE_FLAGS}",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/sglang/srt/model_executor/model_runner.py", line 480, in forward',
        "    return self.model.forward(input_ids, positions, forward_batch)",
        '  File "/usr/lib/python3/site-packages/vllm/distributed/communication_op.py", line 11, in tensor_model_parallel_all_reduce',
        "    return get_tp_group().all_reduce(input_)",
        "RuntimeError: NCCL error: unhandled cuda error",
    ], want(*EAGLES)),
    "a vllm-ascend release named as the fix": ([
        "vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{\"method\": \"mtp\", "
        "\"num_speculative_tokens\": 1}'",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm_ascend/worker/model_runner_v1.py", line 1530, in execute_model',
        "    model_output = self.model(",
        "RuntimeError: ACL error",
        "Fixed in vllm-ascend v0.18.0rc1, please upgrade.",
    ], want("AscendEagleProposer", "MtpProposer", decide=False)),
    **{
        f"a plain vLLM run beside the sentence: {sentence}": (
            [sentence, f"vllm serve {LLAMA} --tensor-parallel-size 2", *VLLM_CRASH], NONE
        )
        for sentence in PLAIN_VLLM_SENTENCES
    },
    **{
        f"vLLM inline flags that are not the run's: {line}": (
            [line, f"vllm serve {LLAMA} --tensor-parallel-size 2", *VLLM_CRASH], NONE
        )
        for line in VLLM_INLINE_FLAGS_NOT_THE_RUNS
    },
    "a null method beside an EAGLE draft is auto-detection, not speculation off": ([
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": null, \"model\": "
        "\"yuhuili/EAGLE-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'", *VLLM_CRASH,
    ], want("EagleProposer", "MultiStepWorker", decide=False)),
    "vllm-ascend's own frames, no word naming the plugin": ([
        "vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{\"method\": \"mtp\", "
        "\"num_speculative_tokens\": 1}'", "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm_ascend/worker/model_runner_v1.py", line 1530, in execute_model',
        "    model_output = self.model(", "RuntimeError: ACL error",
    ], want("AscendEagleProposer", "MtpProposer", decide=False)),
    "a V0 engine frame under a caption naming the working and the crashing release": ([
        "n-gram speculation runs on vLLM 0.8.4 but crashes on 0.6.3 (our pinned image):",
        f"vllm serve {LLAMA} --speculative-model \"[ngram]\" --num-speculative-tokens 4",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/engine/llm_engine.py", line 1386, in step',
        "    outputs = self.model_executor.execute_model(",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ], want("NGramWorker", decide=False)),
    "a commented-out speculative config above a plain vllm serve": ([
        "#!/bin/bash",
        "# with spec: --speculative-config '{\"method\": \"eagle3\", \"model\": \"org/eagle3\", "
        "\"num_speculative_tokens\": 3}'",
        f"vllm serve {LLAMA} --tensor-parallel-size 2 --max-model-len 8192", *VLLM_CRASH,
    ], NONE),
    "commented-out keys of a vllm --config file": ([
        "vllm serve --config serve.yaml", "serve.yaml:", f"model: {LLAMA}",
        "tensor-parallel-size: 2", "# speculative-config:", "#   method: ngram",
        "#   num_speculative_tokens: 4", *VLLM_CRASH,
    ], NONE),
    "a class an earlier run printed, beside today's plain vllm serve": ([
        f"vllm serve {LLAMA} --tensor-parallel-size 2", *VLLM_CRASH,
        "Maybe unrelated: an earlier run (eagle3) had printed AttributeError: 'EagleProposer' "
        "object has no attribute 'attn_layer_names'",
    ], NONE),
    "a speculative dict chosen by a conditional expression": ([
        "USE_SPEC = False",
        f'llm = LLM(model="{LLAMA}", speculative_config={{"method": "eagle3", "model": '
        '"org/eagle3", "num_speculative_tokens": 3} if USE_SPEC else None)', *VLLM_CRASH,
    ], NOT_SHOWN),
    "the run's non-default args without a speculative config, a docs suggestion below": ([
        f"INFO 11-03 10:11:00 [utils.py:253] non-default args: {{'model': '{LLAMA}', "
        "'tensor_parallel_size': 2}",
        "The docs suggest: --speculative-config '{\"method\": \"ngram\", "
        "\"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'", *VLLM_CRASH,
    ], NONE),
    "vLLM's collect_env listing an sglang package above a plain vllm serve": ([
        "### Your current environment", "```text", "Versions of relevant libraries:",
        "[pip3] sglang==0.4.6.post1", "[pip3] torch==2.7.1", "vLLM Version: 0.10.1.1", "```",
        "", "With eagle3 it works; this is the plain server:",
        f"vllm serve {LLAMA} --tensor-parallel-size 2",
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core "
        "proc(s): {}",
    ], NONE),
    "a Step-3.5 target drafting with its own MTP head": ([
        "vllm serve stepfun-ai/Step-3.5-Flash --tensor-parallel-size 8 --speculative-config "
        "'{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'", *VLLM_CRASH,
    ], want("Step3p5MTPProposer", "EagleProposer", decide=False)),
    "a sentence about a colleague's SGLang run below a vLLM crash": ([
        "USE_SPEC = False",
        f'llm = LLM(model="{LLAMA}", speculative_config={{"method": "eagle3", "model": '
        '"org/eagle3", "num_speculative_tokens": 3} if USE_SPEC else None)', *VLLM_CRASH,
        "A colleague hit the same crash on sglang 0.5.14 with EAGLE.",
    ], want("EagleProposer", "MultiStepWorker", decide=False)),
    # --- TensorRT-LLM ---------------------------------------------------------------------
    "a TensorRT-LLM C++ file an older report named, on a plain trtllm-serve": ([
        "Looks like the lookaheadDecodingLayer.cpp:233 assert from an older report, but we do "
        "not use lookahead.", f"trtllm-serve {LLAMA} --backend pytorch", *TRT_CRASH,
    ], NONE),
    "lookahead named as not used on TensorRT-LLM": ([
        "Not using lookahead decoding, just plain trtllm-serve:",
        f"trtllm-serve {LLAMA} --backend pytorch", *TRT_CRASH,
    ], NONE),
    "a Medusa engine that works beside the plain engine that crashed": ([
        "Our Medusa engine for Vicuna works. This crash is the plain Llama engine built with "
        "trtllm-build (no speculative decoding):",
        "trtllm-build --checkpoint_dir ./llama_ckpt --output_dir ./llama_engine",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/tensorrt_llm/runtime/generation.py", line 1210, in decode',
        "    self.handle_per_step()",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ], NONE),
    "Medusa named as the past, EAGLE3 the run": ([
        "We moved from Medusa to EAGLE3 last month; this crash is with EAGLE3 on the PyTorch "
        "backend:", *TRT_CRASH,
    ], want("Eagle3OneModelWorker", "ModelDrafter")),
    # --- session 10 (ADV s10): tolerant method words' near misses, the model runner v2, PR
    # titles that add/support a family, V0-era prose, inline JSON, per-post runs -----------
    "s10 t01 vLLM: MCP (model context protocol) is one letter from MTP": (thread(
        VLLM_REPO, "[Bug]: MCP tool server crashes the API server", "2026-10-02",
        "Serving with the MCP tool server enabled, no speculative decoding:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4 --tool-server mcp", "```", "```",
        *VLLM_CRASH, "```",
        number=45001,
    ), NONE),
    "s10 t02 vLLM: 'Spark' (DGX Spark) is one letter from DSpark": (thread(
        VLLM_REPO, "[Bug]: FP4 GEMM crash on DGX Spark (GB10)", "2026-10-02",
        "On the DGX Spark box the plain server dies at the first request:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4 --quantization "
            "modelopt_fp4",
        "```", "```", *VLLM_CRASH, "```",
        number=45002,
    ), NONE),
    "s10 t03 SGLang: 'flash' is one letter from DFLASH": (thread(
        SGL_REPO, "[Bug] flash attention backend crash on H20 with long prompts", "2025-11-02",
        "With `--attention-backend fa3`, no speculative decoding:", "```",
        ORBIT + " --attention-backend fa3", "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45003,
    ), NONE),
    "s10 t04 SGLang: 'next' is one letter from NEXTN": (thread(
        SGL_REPO, "[Bug] server crashes when the next batch is scheduled", "2025-11-02",
        "The crash comes right after the next batch is scheduled, plain server:", "```", ORBIT,
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45004,
    ), NONE),
    "s10 t05 vLLM: MPT (model) is a transposition of MTP": (thread(
        VLLM_REPO, "[Bug]: MPT-30B weights fail to load after upgrade", "2026-03-01",
        "```", "vllm serve mosaicml/mpt-30b", "```", "```", *VLLM_CRASH, "```",
        number=45005,
    ), NONE),
    "s10 t06 TensorRT-LLM: NTP is one letter from MTP": (thread(
        TRT_REPO, "[Bug] NTP clock skew makes multi-node trtllm-serve crash", "2026-03-01",
        "Nodes drift a few seconds apart (NTP off on node 2):", "```",
        "trtllm-serve acme/Falcon-Orbit-32B --backend pytorch --tp_size 4", "```", "```",
        *TRT_CRASH, "```",
        number=9001,
    ), NONE),
    "s10 t07 vLLM: 'eager' near 'eagle'": (thread(
        VLLM_REPO, "[Bug]: crash only in eager mode (--enforce-eager)", "2026-03-01",
        "No speculative decoding. With `--enforce-eager` it crashes, without it works:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4 --enforce-eager", "```", "```",
        *VLLM_CRASH, "```",
        number=45006,
    ), NONE),
    "s10 t08 SGLang: Beagle (a model name) is one letter from EAGLE": (thread(
        SGL_REPO, "[Bug] Beagle-14B chat finetune crashes at prefill", "2025-11-02",
        "```", "python3 -m sglang.launch_server --model-path acme/Beagle-14B-chat --tp 2", "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=45007,
    ), NONE),
    "s10 t09 vLLM: 'ngrams' in a tokenizer sentence": (thread(
        VLLM_REPO, "[Bug]: tokenizer merges with long ngrams crash detokenization", "2026-03-01",
        "The tokenizer of our model has very long ngrams in its merges; plain serving "
            "crashes:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=45008,
    ), NONE),
    "s10 t10 SGLang: 'Eagles' (a team) is one letter from EAGLE": (thread(
        SGL_REPO, "[Bug] crash while serving the Eagles fan-chat bot", "2025-11-02",
        "Our Philadelphia Eagles fan bot (plain Falcon-Orbit, no speculation) crashed during "
            "the game:",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45009,
    ), NONE),
    "s10 t11 vLLM: 'medusae' (plural of medusa, jellyfish)": (thread(
        VLLM_REPO, "[Bug]: crash while batch-captioning the medusae image set", "2026-03-01",
        "We caption a jellyfish (medusae) dataset with a VLM, plain serving:", "```",
        "vllm serve Qwen/Qwen2.5-VL-7B-Instruct", "```", "```", *VLLM_CRASH, "```",
        number=45010,
    ), NONE),
    "s10 t12 SGLang: 'gram' inside grammar / ngram near-miss": (thread(
        SGL_REPO, "[Bug] grammar backend crash with xgrammar and json schema", "2025-11-02",
        "```", ORBIT + " --grammar-backend xgrammar", "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45011,
    ), NONE),
    "s10 t13 vLLM: 'MTPS' (a throughput unit) is one letter from MTP": (thread(
        VLLM_REPO, "[Performance]: throughput stuck at 1.2 MTPS on 64 nodes, then a crash", "2026-06-01",
        "Aggregate 1.2 MTPS (million tokens per second) across the fleet, plain serving, then"
            " one node dies:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=45012, labels="performance",
    ), NONE),
    "s10 t14 SGLang: EAGLE-2 named as a paper in a question": (thread(
        SGL_REPO, "[Question] Does EAGLE-2's dynamic tree matter for us? our plain server crashed", "2025-11-02",
        "Side note, the plain server crashed yesterday:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45013, labels="question",
    ), NONE),
    "s10 t15 vLLM: FTP is one letter from MTP": (thread(
        VLLM_REPO, "[Bug]: loading weights from an FTP mount crashes the worker", "2026-03-01",
        "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4 --download-dir "
            "/mnt/ftp/models",
        "```", "```", *VLLM_CRASH, "```",
        number=45014,
    ), NONE),
    "s10 t16 SGLang: 'w/o MTP' in the title": (thread(
        SGL_REPO, "[Bug] DeepSeek-V3 w/o MTP crashes at decode", "2025-08-15",
        "```", "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8", "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=45015,
    ), NONE),
    "s10 tr01 SGLang: swapped letters 'eagel3' in a title, 2025-09 (v1 era)": (thread(
        SGL_REPO, "[Bug] eagel3 crash with DP attention on H20", "2025-09-10",
        "Happens after a few hundred requests with the draft on.", "```", *SGL_NORMAL_CRASH, "```",
        number=45101,
    ), want("EAGLEWorker")),
    "s10 tr02 vLLM: 'eagles3' typo + vLLM 0.11.0 in the title": (thread(
        VLLM_REPO, "[Bug]: eagles3 draft crashes vLLM 0.11.0 at startup", "2025-10-20",
        "```", *VLLM_CRASH, "```",
        number=45102,
    ), want("EagleProposer")),
    "s10 tr03 SGLang: typo in title, launch decides NGRAM": (thread(
        SGL_REPO, "[Bug] ngarm speculative decoding crash with long prompts", "2025-11-20",
        "```", ORBIT + " --speculative-algorithm NGRAM --speculative-num-draft-tokens 8", "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=45103,
    ), want("NGRAMWorker")),
    "s10 v02 vLLM: V1 runner frames (gpu_model_runner.py) settle the V1 runner on 0.30": (thread(
        VLLM_REPO, "[Bug]: eagle3 crashes under load on vLLM 0.30.0", "2026-10-02",
        "### Your current environment", "- vLLM version: 0.30.0", "", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", "Traceback (most recent call last):",
        "  File \"/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py\", line 701, in"
            " run_engine_core",
        "    engine_core.run_busy_loop()",
        "  File \"/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py\", "
            "line 1530, in execute_model",
        "    self.drafter.propose(",
        "RuntimeError: CUDA error: an illegal memory access was encountered", "```",
        number=46002,
    ), want("EagleProposer")),
    "s10 v03 vLLM: env=0 on the launch: V1 runner": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on 0.30.0", "2026-10-02",
        "- vLLM version: 0.30.0", "", "```",
        "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve meta-llama/Llama-3.1-8B-Instruct "
            "--speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", "
            "\"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46003,
    ), want("EagleProposer")),
    "s10 v05 vLLM: vLLM's own fallback warning names the V1 runner": (thread(
        VLLM_REPO, "[Bug]: eagle3 + logits processor crash", "2026-10-02",
        "```",
        "WARNING 10-01 09:00:02 [vllm.py:770] Model Runner V2 does not yet support custom "
            "logits processors; using the V1 model runner instead.",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}' "
            "--logits-processors acme.procs:NoRepeat",
        *VLLM_CORE_CRASH, "```",
        number=46005,
    ), want("EagleProposer")),
    "s10 v06 vLLM: MRV2 frames with the EAGLE speculator": (thread(
        VLLM_REPO, "[Bug]: illegal memory access in speculator", "2026-10-02",
        "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *MRV2_EAGLE_CRASH, "```",
        number=46006,
    ), want("EagleSpeculator")),
    "s10 v11 vLLM: prose says the V1 runner is forced (env=0 in the image)": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash (not MRV2)", "2026-10-02",
        "- vLLM version: 0.30.0",
        "We are NOT on the V2 model runner, we export VLLM_USE_V2_MODEL_RUNNER=0 in the "
            "image.",
        "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46011,
    ), want("EagleProposer")),
    "s10 v13 vLLM: 0.30: ngram unsupported by MRV2 -> V1 runner's ngram proposer": (thread(
        VLLM_REPO, "[Bug]: ngram crash on 0.30.0", "2026-10-02",
        "- vLLM version: 0.30.0", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46013,
    ), want("NgramProposer")),
    "s10 v14 vLLM: RFC naming classes, a commenter's plain crash": (thread(
        VLLM_REPO, "[RFC]: Model Runner V2 for speculative decoding (EAGLE, MTP, DFlash)", "2026-06-01",
        "Plan: move EagleProposer users to EagleSpeculator, then MTP.", "",
        "zed-u · comment · 2026-06-03", "Unrelated, our plain server crashes on 0.22.0:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```",
        number=46014, labels="RFC",
    ), NONE),
    "s10 p02 vLLM: support-X PR whose own test runs the family (frame in medusa.py)": (thread(
        VLLM_REPO, "[Spec Decode] Add Medusa support to the V1 engine", "2025-03-10",
        "## Test", "```", "pytest tests/v1/spec_decode/test_medusa.py -x", "```",
        "fails on the new proposer:", "```", "Traceback (most recent call last):",
        "  File \"/workspace/vllm/vllm/v1/spec_decode/medusa.py\", line 58, in propose",
        "    blocks = self.model(target_hidden_states)",
        "RuntimeError: shape '[4, 3]' is invalid for input of size 16", "```",
        number=47002, kind="pull request", labels="speculative-decoding",
    ), want("MedusaProposer")),
    "s10 p03 SGLang: support-X PR with its own launch: DFLASH worker": (thread(
        SGL_REPO, "[Feature] support DFLASH in spec v2", "2026-09-01",
        "## Benchmark", "```",
        ORBIT + " --speculative-algorithm DFLASH --speculative-draft-model-path "
            "acme/Falcon-Orbit-DFlash",
        "```", "crashes at warmup:", "```", *SGL_NORMAL_CRASH, "```",
        number=47003, kind="pull request", labels="speculative-decoding",
    ), want("DFlashWorkerV2", "DFlashWorker", decide=False)),
    "s10 p04 SGLang: add-X PR, unrelated CI crash": (thread(
        SGL_REPO, "Add MTP support for GLM-5.1", "2026-09-01",
        "CI note: the failing job is the plain VLM test, unrelated:", "```", *SGL_NORMAL_CRASH,
        "```",
        number=47004, kind="pull request", labels="speculative-decoding",
    ), NONE),
    "s10 p05 vLLM: [CI Failure] of the MTP test: the test's run is MTP (V1 frames)": (thread(
        VLLM_REPO, "[CI Failure]: spec decode MTP e2e test fails on main", "2026-02-10",
        "Job: `pytest tests/v1/e2e/test_spec_decode.py::test_mtp_correctness`", "```", *VLLM_CRASH,
        "```",
        number=47005, labels="ci-failure",
    ), want("EagleProposer")),
    "s10 p06 vLLM: adds-support PR, no run, probe": (thread(
        VLLM_REPO, "[Spec Decode] adds support for suffix decoding on the V1 engine", "2025-09-01",
        "Design notes only; benchmarks in a follow-up.", *PROBE_CRASH,
        number=47006, kind="pull request", labels="speculative-decoding",
    ), NONE),
    "s10 p07 TensorRT-LLM: support-X TRT PR, unrelated plain CI crash": (thread(
        TRT_REPO, "[feat] Support Eagle3 one-model for Qwen3", "2026-05-01",
        "The failing CI stage is the plain llama accuracy test (no speculative decoding):", "```",
        *TRT_CRASH, "```",
        number=9101, kind="pull request",
    ), NONE),
    "s10 o01 vLLM: V0-era Medusa in the past; the run is 0.11 eagle3": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on 0.11.0", "2025-10-20",
        "Back in vLLM 0.5.2 we ran Medusa without problems. Now on 0.11.0 with eagle3 it "
            "crashes:",
        "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CRASH, "```",
        number=48001,
    ), want("EagleProposer")),
    "s10 or02 vLLM: V0 prose: Medusa on 0.5.2 -> MedusaWorker": (thread(
        VLLM_REPO, "[Bug]: Medusa crash after a few requests", "2024-07-20",
        "Medusa + vllm v0.5.2, the server dies after a few requests:", "```", *V0_CRASH, "```",
        number=48002,
    ), want("MedusaWorker")),
    "s10 o03 vLLM: V0-era ngram prose, plain run now": (thread(
        VLLM_REPO, "[Bug]: crash on 0.12.0", "2026-01-10",
        "ngram speculative decoding crashed for us in the V0 days (0.6.3). This time no "
            "speculation at all:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=48003,
    ), NONE),
    "s10 o04 vLLM: V0 worker named for the past; V1 run now (never MultiStepWorker)": (thread(
        VLLM_REPO, "[Bug]: draft model crash (was MultiStepWorker in 0.6)", "2025-12-10",
        "On 0.6.x this went through MultiStepWorker; now on 0.12.0:", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"draft_model\", "
            "\"model\": \"acme/Falcon-Orbit-1B\", \"num_speculative_tokens\": 4}'",
        "```", "```", *VLLM_CRASH, "```",
        number=48004,
    ), want("DraftModelProposer")),
    "s10 j01 vLLM: inline JSON inside a don't-do-this sentence": (thread(
        VLLM_REPO, "[Bug]: DP=2 crash", "2026-01-10",
        "Don't pass `--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'` "
            "with DP, it is known broken; we removed it and still crash:",
        "```", "vllm serve deepseek-ai/DeepSeek-V3 -tp 4 -dp 2", "```", "```", *VLLM_CRASH, "```",
        number=49001,
    ), NONE),
    "s10 jr03 vLLM: inline JSON in prose, downstream repo, the run's": (thread(
        "acme/orbit-serving", "vLLM EngineCore crash under load", "2025-12-15",
        "We launch vLLM 0.11.0 with --speculative-config "
            "{\"method\":\"mtp\",\"num_speculative_tokens\":1} on DeepSeek-V3 and it crashes after ~100"
            " requests:",
        "```", *VLLM_CRASH, "```",
        number=88,
    ), want("EagleProposer")),
    "s10 j05 SGLang: inline vLLM JSON about another engine": (thread(
        SGL_REPO, "[Bug] DeepSeek-V3 crash in SGLang", "2025-10-01",
        "In vLLM we use {\"method\": \"mtp\", \"num_speculative_tokens\": 1}; in SGLang we run "
            "without speculation and it crashes:",
        "```", "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8", "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=49005,
    ), NONE),
    "s10 c02 SGLang: commenter says 'same config': the reporter's launch": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash at high concurrency", "2025-10-05",
        "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "", "zed-u · comment · 2025-10-07", "Same config as above, here is my traceback:",
        "```", *SGL_NORMAL_CRASH, "```",
        number=50002,
    ), want("EAGLEWorker")),
    "s10 c03 vLLM: the crash is the commenter's own ngram launch": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash with chunked prefill", "2025-10-20",
        "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "(no traceback kept)", "", "zed-u · comment · 2025-10-22", "Mine is ngram:", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"ngram\", "
            "\"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "```", "```", *VLLM_CRASH, "```",
        number=50003,
    ), want("NgramProposer")),
    "s10 q01 vLLM: a quoted eagle3 config above a plain run": (thread(
        VLLM_REPO, "[Bug]: crash with long prompts", "2026-01-10",
        "zed-u · comment · 2026-01-11",
        "> @pia-t I run `--speculative-config '{\"method\": \"eagle3\", \"model\": "
            "\"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'` and see this",
        "", "No speculation on my side:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```",
        number=51001,
    ), NONE),
    "s10 q02 SGLang: quoted suggestion after a plain crash": (thread(
        SGL_REPO, "[Bug] crash with page size 64", "2025-11-02",
        "```", ORBIT + " --page-size 64", "```", "```", *SGL_NORMAL_CRASH, "```", "",
        "pia-t · comment · 2025-11-04",
        "> maint-x: try `--speculative-algorithm NGRAM` to see whether it changes",
        "It does not change anything, the traceback above is without it.",
        number=51002,
    ), NONE),
    "s10 m01 vLLM: three runs, the crash is under B": (thread(
        VLLM_REPO, "[Bug]: one config out of three crashes", "2025-11-20",
        "Run A (ngram) works:", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"ngram\", "
            "\"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "```", "Run B (eagle3) crashes:", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CRASH, "```", "Run C (no speculation) works:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```",
        number=52001,
    ), want("EagleProposer")),
    "s10 m02 SGLang: plain then EAGLE3 (2025-09, v1 era): the crash is EAGLE3's": (thread(
        SGL_REPO, "[Bug] crash only with speculative decoding", "2025-09-20",
        "Plain works:", "```", ORBIT, "```", "With EAGLE3 it crashes:", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=52002,
    ), want("EAGLEWorker")),
    "s10 d01 vLLM: docs diff lines, unrelated plain crash": (thread(
        VLLM_REPO, "[Doc] update speculative decoding examples", "2026-02-01",
        "```diff",
        "-vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"ngram\", "
            "\"num_speculative_tokens\": 4}'",
        "+vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", "
            "\"model\": \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "The docs build job failed on an unrelated plain example:", "```", *VLLM_CRASH,
        "```",
        number=53001, kind="pull request", labels="documentation",
    ), NONE),
    "s10 d03 vLLM-Ascend: ascend roadmap, plain crash in a comment": (thread(
        ASCEND_REPO, "[Roadmap]: 2026 Q4 - model runner v2, MTP, EAGLE3", "2026-10-01",
        "- [ ] MTP on model runner v2", "- [ ] EAGLE3 graph mode", "",
        "zed-u · comment · 2026-10-03", "Our plain deployment crashes on v0.26.0rc1:", "```",
        "vllm serve acme/Falcon-Orbit-32B", "```", "```", *ASCEND_CRASH, "```",
        number=5301, labels="roadmap",
    ), NONE),
    "s10 t17 SGLang: 'Next' in a model name (Qwen3-Next) near NEXTN": (thread(
        SGL_REPO, "[Bug] Qwen3-Next-80B-A3B crashes at prefill with TP4", "2025-10-20",
        "No speculative decoding:", "```",
        "python3 -m sglang.launch_server --model-path Qwen/Qwen3-Next-80B-A3B-Instruct --tp 4",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45201,
    ), NONE),
    "s10 t18 vLLM: 'Next' in a model name (vLLM)": (thread(
        VLLM_REPO, "[Bug]: Qwen3-Next FP8 crash on H20", "2025-10-20",
        "```", "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct-FP8 -tp 4", "```", "```", *VLLM_CRASH,
        "```",
        number=45202,
    ), NONE),
    "s10 t19 SGLang: 'Flash' in a model name near DFLASH": (thread(
        SGL_REPO, "[Bug] GLM-4.7-Flash crashes with fp8 kv cache", "2026-02-10",
        "```",
        "python3 -m sglang.launch_server --model-path zai-org/GLM-4.7-Flash --kv-cache-dtype "
            "fp8_e4m3",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45203,
    ), NONE),
    "s10 t20 vLLM: 'Eagle2' (a VLM) is one letter from eagle3": (thread(
        VLLM_REPO, "[Bug]: Eagle2-9B fails on multi-image prompts", "2026-02-10",
        "Serving NVIDIA's Eagle2-9B vision-language model (not a draft):", "```",
        "vllm serve nvidia/Eagle2-9B --trust-remote-code", "```", "```", *VLLM_CRASH, "```",
        number=45204,
    ), NONE),
    "s10 t21 SGLang: 'Spark' near DSPARK (SGLang)": (thread(
        SGL_REPO, "[Bug] sgl-kernel import crash on DGX Spark", "2026-03-01",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45205,
    ), NONE),
    "s10 t22 SGLang: 'eagle-eyed' in prose": (thread(
        SGL_REPO, "[Bug] radix cache crash with long shared prefixes", "2025-11-02",
        "An eagle-eyed colleague noticed it only happens with shared prefixes. Plain server:",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45206,
    ), NONE),
    "s10 t23 vLLM: 'Engram' is one letter from ngram": (thread(
        VLLM_REPO, "[Bug]: Engram memory table OOM at startup", "2026-03-01",
        "The model's Engram lookup tables do not fit; plain serving:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```",
        number=45207,
    ), NONE),
    "s10 t24 vLLM: 'suffix' as an ordinary word": (thread(
        VLLM_REPO, "[Bug]: crash when the prompt suffix is empty", "2026-03-01",
        "Completions with an empty suffix field crash the server (no speculative decoding):", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```",
        number=45208,
    ), NONE),
    "s10 t25 SGLang: 'standalone' as an ordinary word (STANDALONE algorithm)": (thread(
        SGL_REPO, "[Bug] crash in standalone mode (no router, single node)", "2025-11-02",
        "We run the server standalone, without the router:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45209,
    ), NONE),
    "s10 t26 vLLM: 'Draft' as a PR state": (thread(
        VLLM_REPO, "[Draft] fix detokenizer crash with stop strings", "2026-03-01",
        "Repro (plain server):", "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4",
        "```", "```", *VLLM_CRASH, "```",
        number=45210, kind="pull request",
    ), NONE),
    "s10 tr04 vLLM: 'Eagle 3' spaced + vLLM 0.11.0 in the title": (thread(
        VLLM_REPO, "[Bug]: Eagle 3 draft crashes on vLLM 0.11.0", "2025-10-20",
        "```", *VLLM_CRASH, "```",
        number=45211,
    ), want("EagleProposer")),
    "s10 v19 vLLM: 0.30: draft_model unsupported by MRV2 -> V1 DraftModelProposer": (thread(
        VLLM_REPO, "[Bug]: draft model crash on 0.30.0", "2026-10-02",
        "- vLLM version: 0.30.0", "```",
        "vllm serve meta-llama/Llama-3.1-70B-Instruct --speculative-config '{\"method\": "
            "\"draft_model\", \"model\": \"meta-llama/Llama-3.2-1B-Instruct\", "
            "\"num_speculative_tokens\": 4}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46019,
    ), want("DraftModelProposer")),
    "s10 v22 vLLM: 0.30: medusa unsupported by MRV2 -> V1 MedusaProposer": (thread(
        VLLM_REPO, "[Bug]: medusa crash on 0.30.0", "2026-10-02",
        "- vLLM version: 0.30.0", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"medusa\", \"model\":"
            " \"acme/Falcon-Orbit-32B-medusa\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46022,
    ), want("MedusaProposer")),
    "s10 c06 SGLang: the crash's post has EAGLE3; a later post's plain launch has no crash": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash at high concurrency", "2025-10-05",
        "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "```", *SGL_NORMAL_CRASH, "```", "", "zed-u · comment · 2025-10-07",
        "Works for me on a plain server:", "```", ORBIT, "```",
        number=50006,
    ), want("EAGLEWorker")),
    "s10 c09 vLLM: the reporter's launch comes in their own later post": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2025-10-20",
        "Crash log:", "```", *VLLM_CRASH, "```", "", "pia-t · comment · 2025-10-21",
        "Forgot the launch, here it is:", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"ngram\", "
            "\"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "```",
        number=50009,
    ), want("NgramProposer")),
    "s10 c10 vLLM: another user's ngram launch after a plain crash": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2025-10-20",
        "Crash log (plain server):", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```", "", "zed-u · comment · 2025-10-21", "I don't see it with ngram:", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"ngram\", "
            "\"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "```",
        number=50010,
    ), NONE),
    "s10 pr08 vLLM: support-X PR with its own test plan launch and crash": (thread(
        VLLM_REPO, "[Spec Decode] Support EAGLE3 for Qwen3-Next", "2025-11-01",
        "## Test Plan", "```",
        "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct -tp 4 --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Qwen3-Next-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "## Test Result", "On main (before this PR) it crashes:", "```", *VLLM_CRASH, "```",
        number=47008, kind="pull request", labels="speculative-decoding",
    ), want("EagleProposer")),
    "s10 p10 SGLang: supports-X PR, a commenter's plain crash": (thread(
        SGL_REPO, "Support STANDALONE speculative decoding with different tokenizers", "2025-12-01",
        "Adds tokenizer mapping.", "", "zed-u · comment · 2025-12-03",
        "After rebasing on this my plain server (no speculation) crashes:", "```", ORBIT, "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=47010, kind="pull request", labels="speculative-decoding",
    ), NONE),
    "s10 or06 vLLM: V0 ngram flags on 0.6.3 + V0 frames": (thread(
        VLLM_REPO, "[Bug]: ngram speculative decoding crash", "2024-11-20",
        "vllm 0.6.3, `--speculative-model [ngram] --num-speculative-tokens 4 "
            "--ngram-prompt-lookup-max 4`:",
        "```", *V0_CRASH, "```",
        number=48006,
    ), want("NGramWorker")),
    "s10 o07 vLLM: V0-era docs named, plain run": (thread(
        VLLM_REPO, "[Bug]: crash on 0.12.0", "2026-01-10",
        "The 0.5.2 docs still list Medusa and MLPSpeculator; we use neither, plain serving:", "```",
        "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```", *VLLM_CRASH,
        "```",
        number=48007,
    ), NONE),
    "s10 jr06 vLLM: inline JSON that gives the error": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on 0.11.0", "2025-10-20",
        "Setting {\"method\": \"eagle3\", \"model\": \"acme/Falcon-Orbit-32B-EAGLE3\", "
            "\"num_speculative_tokens\": 3} as the speculative config on vLLM 0.11.0 gives this "
            "error:",
        "```", *VLLM_CRASH, "```",
        number=49006,
    ), want("EagleProposer")),
    "s10 v01 vLLM: 0.30 defaults to MRV2 (EagleSpeculator) for every arch: V1 EagleProposer is a guess": (thread(
        VLLM_REPO, "[Bug]: eagle3 crashes under load on vLLM 0.30.0", "2026-10-02",
        "### Your current environment", "- vLLM version: 0.30.0", "- GPU: 8x H100", "", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46001,
    ), want("EagleProposer", "EagleSpeculator", decide=False)),
    "s10 v04 vLLM: vLLM's own 'Using V2 Model Runner' line": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash", "2026-10-02",
        "```", "INFO 10-01 09:00:02 [gpu_worker.py:441] Using V2 Model Runner",
        "(EngineCore pid=812) INFO 10-01 09:00:40 [core.py:99] Initializing a V1 LLM engine "
            "(v0.30.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', "
            "speculative_config=SpeculativeConfig(method='eagle3', "
            "model='acme/Llama-3.1-8B-EAGLE3', num_spec_tokens=3)",
        *VLLM_CORE_CRASH, "```",
        number=46004,
    ), want("EagleSpeculator")),
    "s10 v07 vLLM: MRV2 runner frame + mtp: an MRV2 speculator, never V1 EagleProposer": (thread(
        VLLM_REPO, "[Bug]: DeepSeek-V3 MTP crash at decode", "2026-10-02",
        "```",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{\"method\": \"mtp\", "
            "\"num_speculative_tokens\": 1}'",
        "```", "```", *MRV2_RUNNER_CRASH, "```",
        number=46007,
    ), want("MTPSpeculator", "MultiModuleMTPSpeculator", "EagleSpeculator", decide=False)),
    "s10 v08 vLLM: MRV2 suggested by a maintainer; 0.20 defaults to V1": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on 0.20.0", "2026-04-20",
        "- vLLM version: 0.20.0", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```", "", "maint-x · comment · 2026-04-21",
        "Could you try `VLLM_USE_V2_MODEL_RUNNER=1`? The model runner v2 has a new EAGLE "
            "path.",
        number=46008,
    ), want("EagleProposer")),
    "s10 v09 vLLM: env=1 on 0.20: MRV2 EagleSpeculator": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash with the model runner v2", "2026-04-20",
        "- vLLM version: 0.20.0", "```",
        "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct "
            "--speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", "
            "\"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46009,
    ), want("EagleSpeculator")),
    "s10 v10 vLLM: prose says MRV2 + mtp on 0.26: MTPSpeculator (never V1)": (thread(
        VLLM_REPO, "[Bug]: MTP crash on MRV2", "2026-08-01",
        "Running DeepSeek-V3 with MTP on the V2 model runner (vLLM 0.26.0):", "```",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{\"method\": \"mtp\", "
            "\"num_speculative_tokens\": 1}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46010,
    ), want("MTPSpeculator")),
    "s10 v12 vLLM: no release, posted after 0.34 (V1 runner gone): V1 class is a guess": (thread(
        VLLM_REPO, "[Bug]: eagle3 crashes under load", "2026-11-28",
        "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46012,
    ), want("EagleProposer", "EagleSpeculator", decide=False)),
    "s10 v15 vLLM: 0.24 defaults MRV2 for LlamaForCausalLM": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on vLLM 0.24.0 with Llama-3.1-8B", "2026-07-05",
        "- vLLM version: 0.24.0", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46015,
    ), want("EagleProposer", "EagleSpeculator", decide=False)),
    "s10 p01 vLLM: support-X PR with a review diff, no run (probe)": (thread(
        VLLM_REPO, "[Model] vLLM v1 supports Medusa heads", "2025-03-10",
        "## Changes", "```diff", "+class MedusaProposer:",
        "+    def propose(self, target_hidden_states):", "```", "No benchmark yet.", *PROBE_CRASH,
        number=47001, kind="pull request", labels="speculative-decoding",
    ), NONE),
    "s10 v16 vLLM: 'V1' is the engine, not the V1 model runner: 0.30 defaults MRV2": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on vLLM V1 (0.30.0)", "2026-10-02",
        "We run the V1 engine (VLLM_USE_V1=1, the default) on 0.30.0:", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46016,
    ), want("EagleProposer", "EagleSpeculator", decide=False)),
    "s10 v17 vLLM: the V1 LLM engine line on 0.31 + mtp: MRV2 by default": (thread(
        VLLM_REPO, "[Bug]: MTP crash at decode", "2026-10-10",
        "```",
        "(EngineCore pid=812) INFO 10-09 09:00:40 [core.py:99] Initializing a V1 LLM engine "
            "(v0.31.0) with config: model='deepseek-ai/DeepSeek-V3', "
            "speculative_config=SpeculativeConfig(method='mtp', model='deepseek-ai/DeepSeek-V3', "
            "num_spec_tokens=1)",
        *VLLM_CORE_CRASH, "```",
        number=46017,
    ), want("EagleProposer", "MTPSpeculator", "EagleSpeculator", "MultiModuleMTPSpeculator", decide=False)),
    "s10 v18 vLLM: 0.32+: ngram runs on MRV2 by default (NgramGPUSpeculator)": (thread(
        VLLM_REPO, "[Bug]: ngram crash on 0.33.0", "2026-11-05",
        "- vLLM version: 0.33.0", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46018,
    ), want("NgramProposer", "NgramGPUSpeculator", decide=False)),
    "s10 v20 vLLM: 0.31+: draft_model on MRV2 by default": (thread(
        VLLM_REPO, "[Bug]: draft model crash on 0.33.0", "2026-11-05",
        "- vLLM version: 0.33.0", "```",
        "vllm serve meta-llama/Llama-3.1-70B-Instruct --speculative-config '{\"method\": "
            "\"draft_model\", \"model\": \"meta-llama/Llama-3.2-1B-Instruct\", "
            "\"num_speculative_tokens\": 4}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46020,
    ), want("DraftModelProposer", "StandaloneARSpeculator", decide=False)),
    "s10 v21 vLLM: ROCm: MRV2 default unless the arch is in ROCm's MRV1 list: undecidable": (thread(
        VLLM_REPO, "[Bug][ROCm]: eagle3 crash on MI300X", "2026-10-02",
        "- vLLM version: 0.30.0 (ROCm 7.1)", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46021, labels="rocm",
    ), want("EagleProposer", "EagleSpeculator", decide=False)),
    "s10 v23 vLLM: MRV2 release named as the fix; the run is 0.20 (V1 default)": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash (fixed in 0.30.0?)", "2026-10-02",
        "- vLLM version: 0.20.0",
        "Someone said 0.30.0 (model runner v2 by default) fixes it; we cannot upgrade yet.", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46023,
    ), want("EagleProposer")),
    "s10 t29 SGLang: 'stand-alone' is one edit from STANDALONE": (thread(
        SGL_REPO, "[Bug] stand-alone deployment crashes at startup", "2025-11-02",
        "Single stand-alone node, no router, no speculative decoding:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45302,
    ), NONE),
    "s10 t30 vLLM: 'EagleX' (an RWKV model) is one edit from EAGLE": (thread(
        VLLM_REPO, "[Bug]: RWKV EagleX-7B fails to load", "2026-03-01",
        "```", "vllm serve acme/RWKV-EagleX-7B --trust-remote-code", "```", "```", *VLLM_CRASH,
        "```",
        number=45303,
    ), NONE),
    "s10 t31 TensorRT-LLM: 'look-ahead' is one edit from LOOKAHEAD": (thread(
        TRT_REPO, "[Bug] look-ahead KV prefetch crashes trtllm-serve", "2026-03-01",
        "The look-ahead prefetch of KV blocks is on by default; no speculative decoding:", "```",
        "trtllm-serve acme/Falcon-Orbit-32B --backend pytorch --tp_size 4", "```", "```",
        *TRT_CRASH, "```",
        number=9302,
    ), NONE),
    "s10 t32 SGLang: NGRAM at a sentence end, in the past": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "We never saw this crash when we still ran NGRAM. Current launch:", "```", ORBIT, "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=45304,
    ), NONE),
    "s10 t33 SGLang: a maintainer's question ending in NGRAM": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```", "", "maint-x · comment · 2025-11-21",
        "Does it also crash with NGRAM?",
        number=45305,
    ), NONE),
    "s10 t34 SGLang: SGLang flags in a 'removed' sentence": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "I removed `--speculative-algo NGRAM --speculative-num-draft-tokens 8` and it still "
            "crashes:",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45306,
    ), NONE),
    "s10 t35 SGLang: a draft named in a question, not tried": (thread(
        SGL_REPO, "[Bug] crash at load", "2025-09-20",
        "Is acme/Falcon-Orbit-32B-EAGLE3 compatible with this release? We have not tried it "
            "yet; the plain server already crashes:",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45307,
    ), NONE),
    "s10 tr05 vLLM: typo title, config decides medusa (V1 frames)": (thread(
        VLLM_REPO, "[Bug]: medsua heads crash on vLLM 0.11.0", "2025-10-20",
        "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"medusa\", \"model\":"
            " \"acme/Falcon-Orbit-32B-medusa\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CRASH, "```",
        number=45308,
    ), want("MedusaProposer")),
    "s10 tr06 SGLang: typo title, launch decides STANDALONE": (thread(
        SGL_REPO, "[Bug] standlone speculative decoding crash with a 1B draft", "2025-12-10",
        "```",
        ORBIT + " --speculative-algorithm STANDALONE --speculative-draft-model-path "
            "acme/Falcon-Orbit-1B",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45309,
    ), want("StandaloneWorker")),
    "s10 c11 SGLang: reporter's later no-crash plain post": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash at high concurrency", "2025-10-05",
        "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "```", *SGL_NORMAL_CRASH, "```", "", "pia-t · comment · 2025-10-06",
        "Update: without speculative decoding it does NOT crash.",
        number=50011,
    ), want("EAGLEWorker")),
    "s10 c12 SGLang: a maintainer's suggested launch after a plain crash": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-10-05",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```", "", "maint-x · comment · 2025-10-06",
        "Could you try `--speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3`? That path skips the kernel.",
        number=50012,
    ), NONE),
    "s10 c13 SGLang: the reporter's crash in their own second post; launch in the first": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-10-05",
        "Launch:", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "", "pia-t · comment · 2025-10-05", "Full log:", "```", *SGL_NORMAL_CRASH, "```",
        number=50013,
    ), want("EAGLEWorker")),
    "s10 cr15 vLLM: reporter's MRV2 env; a commenter's env=0 that works": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash with the model runner v2", "2026-04-20",
        "- vLLM version: 0.20.0", "```",
        "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct "
            "--speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", "
            "\"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```", "", "zed-u · comment · 2026-04-21",
        "With VLLM_USE_V2_MODEL_RUNNER=0 it works for me.",
        number=50015,
    ), want("EagleSpeculator")),
    "s10 c16 vLLM: the MRV2 line quoted from a maintainer's box": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash", "2026-04-20",
        "- vLLM version: 0.20.0", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```", "", "maint-x · comment · 2026-04-22",
        "On my box the log says `Using V2 Model Runner` and I cannot reproduce; yours is on "
            "the default V1 runner.",
        number=50016,
    ), want("EagleProposer")),
    "s10 pr11 vLLM: add-X PR, its own EAGLE3 test crashes": (thread(
        VLLM_REPO, "[Model] Add EAGLE3 support for GLM-4.6", "2025-11-01",
        "## CI",
        "The new test fails: `pytest "
            "tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[glm46-eagle3]`",
        "```", *VLLM_CRASH, "```",
        number=47011, kind="pull request", labels="speculative-decoding",
    ), want("EagleProposer")),
    "s10 pr12 vLLM: add-X PR with a Test Result block of spec-decode metrics (probe)": (thread(
        VLLM_REPO, "[Config] add \"orbit\" as a native eagle3 target model", "2025-08-20",
        "## Test Plan", "```",
        "python examples/offline_inference/spec_decode.py --method eagle3 --model "
            "acme/Falcon-Orbit-8B --eagle-dir acme/Falcon-Orbit-8B-EAGLE3",
        "```", "## Test Result", "```", "num_drafts: 352", "num_draft_tokens: 1056",
        "num_accepted_tokens: 680", "mean acceptance length: 2.93", "```", *PROBE_CRASH,
        number=47012, kind="pull request", labels="speculative-decoding",
    ), want("EagleProposer")),
    "s10 v25 vLLM: [MRV2] PR tag, unrelated plain CI crash": (thread(
        VLLM_REPO, "[MRV2] Support DSpark speculator", "2026-08-01",
        "Adds DSpark to the model runner v2.", "", "## CI",
        "Unrelated failure in the plain LoRA job:", "```", *VLLM_CRASH, "```",
        number=46025, kind="pull request", labels="speculative-decoding",
    ), NONE),
    "s10 v26 vLLM: [MRV2] bug tag + eagle3 launch": (thread(
        VLLM_REPO, "[Bug][MRV2]: eagle3 crash at decode", "2026-06-10",
        "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46026,
    ), want("EagleSpeculator")),
    "s10 v27 vLLM: the fallback warning names the V1 runner for ngram": (thread(
        VLLM_REPO, "[Bug]: ngram crash", "2026-10-02",
        "```",
        "WARNING 10-01 09:00:02 [vllm.py:770] Model Runner V2 does not yet support "
            "speculative method 'ngram'; using the V1 model runner instead.",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        *VLLM_CORE_CRASH, "```",
        number=46027,
    ), want("NgramProposer")),
    "s10 v28 vLLM: title says MRV2, the body corrects it to the V1 runner": (thread(
        VLLM_REPO, "[Bug]: MRV2 eagle3 crash", "2026-10-02",
        "- vLLM version: 0.30.0",
        "Correction: we had to export VLLM_USE_V2_MODEL_RUNNER=0 for our logits processor, so"
            " this is the V1 runner after all.",
        "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46028,
    ), want("EagleProposer", decide=False)),
    "s10 v29 vLLM: RFC proposing env=1; the commenter's run is the default V1 runner on 0.20": (thread(
        VLLM_REPO, "[RFC]: make the model runner v2 the default", "2026-04-01",
        "Proposal: VLLM_USE_V2_MODEL_RUNNER=1 by default in 0.29.", "",
        "zed-u · comment · 2026-04-03",
        "On 0.20.0 (default runner) our eagle3 deployment crashes, FYI:", "```",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": "
            "\"eagle3\", \"model\": \"acme/Llama-3.1-8B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CORE_CRASH, "```",
        number=46029, labels="RFC",
    ), want("EagleProposer")),
    "s10 o08 vLLM: maintainer names V0 Medusa 0.5.2 as history": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on 0.11.0", "2025-10-20",
        "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CRASH, "```", "", "maint-x · comment · 2025-10-21",
        "Medusa + vllm v0.5.2 was the old V0 path (MedusaWorker); yours is the V1 EAGLE "
            "proposer.",
        number=48008,
    ), want("EagleProposer")),
    "s10 j10 vLLM: an e.g. JSON with a placeholder, plain run": (thread(
        VLLM_REPO, "[Usage]: how to enable speculative decoding?", "2026-01-10",
        "The docs say to pass a config, e.g. {\"method\": \"eagle3\", \"model\": \"<draft>\", "
            "\"num_speculative_tokens\": 3}. Before trying that, the plain server crashes:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=49010, labels="usage",
    ), NONE),
    "s10 jr12 vLLM: inline JSON in the title": (thread(
        VLLM_REPO, "[Bug]: crash with --speculative-config {\"method\":\"ngram\",\"num_speculative_tokens\":4}"
            " on 0.11.0", "2025-10-20",
        "```", *VLLM_CRASH, "```",
        number=49012,
    ), want("NgramProposer")),
    "s10 p14 vLLM-Ascend: feature PR description listing the proposer it adds; no run (probe)": (thread(
        ASCEND_REPO, "Add Medusa speculative decoding for vllm_ascend", "2026-01-06",
        "### What this PR does",
        "- Adds `MedusaProposer` and registers it in `get_spec_decode_method`",
        "- New file: `vllm_ascend/spec_decode/medusa_proposer.py`",
        "- Medusa is only used when explicitly enabled", "", "### How was this patch tested?",
        "Unit tests for the proposer's shapes.", *PROBE_CRASH,
        number=5401, kind="pull request", labels="feature",
    ), NONE),
    "s10 c19 SGLang: a comment holding two runs; the crash under the EAGLE3 one": (thread(
        SGL_REPO, "[Question] is EAGLE3 stable on H20?", "2025-09-20",
        "Any experience?", "", "zed-u · comment · 2025-09-21", "Plain works for me:", "```", ORBIT,
        "```", "With EAGLE3 it crashes:", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=50019, labels="question",
    ), want("EAGLEWorker")),
    "s10 cr23 vLLM: the reporter's later post states the config inline": (thread(
        VLLM_REPO, "[Bug]: crash at decode", "2025-10-20",
        "```", *VLLM_CRASH, "```", "", "pia-t · comment · 2025-10-21",
        "Env: vLLM 0.11.0, DeepSeek-V3 with --speculative-config {\"method\": \"mtp\", "
            "\"num_speculative_tokens\": 1}.",
        number=50023,
    ), want("EagleProposer")),
    "s10 c24 vLLM: a later plain post without a crash; the crash is the reporter's eagle3 run": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash at decode", "2025-10-20",
        "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```", "```", *VLLM_CRASH, "```", "", "zed-u · comment · 2025-10-22",
        "> eagle3 crash at decode",
        "Not for me: I don't use speculative decoding and my server is fine.",
        number=50024,
    ), want("EagleProposer")),
    "s10 c04 vLLM: maintainer's plain repro is the only crash": (thread(
        VLLM_REPO, "[Bug]: mtp crash at high concurrency", "2025-10-20",
        "```",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{\"method\": \"mtp\", "
            "\"num_speculative_tokens\": 1}'",
        "```", "", "maint-x · comment · 2025-10-22",
        "I reproduced it without speculative decoding, so MTP is not the cause:", "```",
        "vllm serve deepseek-ai/DeepSeek-V3 -tp 8", "```", "```", *VLLM_CRASH, "```",
        number=50004,
    ), NONE),
    "s10 c05 SGLang: the reporter's follow-up post: plain relaunch": (thread(
        SGL_REPO, "[Bug] NGRAM crash", "2025-11-05",
        "```", ORBIT + " --speculative-algorithm NGRAM", "```", "", "pia-t · comment · 2025-11-06",
        "Update: it also crashes after I removed NGRAM:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=50005,
    ), NONE),
    "s10 c07 SGLang: web-copy post headers: the crash's post is plain, a later post has EAGLE3": ([
        "sgl-project/sglang · Issue #50007", "# [Bug] EAGLE3 crash at high concurrency", "",
        "**pia-t** opened this issue on Oct 5, 2025", "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH,
        "```", "", "**zed-u** commented on Oct 7, 2025", "Mine uses EAGLE3 and works:", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```",
    ], NONE),
    "s10 c08 SGLang: commenter: same command without the speculative flags": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash at high concurrency", "2025-10-05",
        "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "(log lost)", "", "zed-u · comment · 2025-10-07",
        "I run the same command but without the --speculative-* flags and get:", "```",
        *SGL_NORMAL_CRASH, "```",
        number=50008,
    ), NONE),
    "s10 j07 vLLM: inline JSON in a quoted reply, plain run": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2026-01-10",
        "> with {\"method\": \"mtp\", \"num_speculative_tokens\": 1} it crashes for me too", "",
        "We don't use MTP at all:", "```", "vllm serve deepseek-ai/DeepSeek-V3 -tp 8", "```", "```",
        *VLLM_CRASH, "```",
        number=49007,
    ), NONE),
    "s10 t28 SGLang: 'n-gram' (an eval metric) is one edit from NGRAM": (thread(
        SGL_REPO, "[Bug] server crashes during our n-gram overlap (BLEU) eval", "2025-11-02",
        "The eval client computes n-gram overlap; the server itself is plain:", "```", ORBIT, "```",
        "```", *SGL_NORMAL_CRASH, "```",
        number=45301,
    ), NONE),
    "s10 c14 SGLang: the commenter's own plain launch in their later post": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash at high concurrency", "2025-10-05",
        "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "(no log)", "", "zed-u · comment · 2025-10-07", "Same error here:", "```",
        *SGL_NORMAL_CRASH, "```", "", "zed-u · comment · 2025-10-07",
        "For the record my launch has no speculative decoding:", "```", ORBIT, "```",
        number=50014,
    ), NONE),
    "s10 c21 SGLang: a header with a Member badge: the crash's post is plain": ([
        "sgl-project/sglang · Issue #50021", "# [Bug] EAGLE3 crash at high concurrency", "",
        "**pia-t** opened this issue on Oct 5, 2025", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "(no log kept)", "", "**zed-u** (Member) commented on Oct 7, 2025",
        "Reproduced on a plain server, so it is not EAGLE3:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
    ], NONE),
    "s10 c22 SGLang: a discussion reply header: the crash's post is plain": ([
        "sgl-project/sglang · discussion #50022 · Q&A", "# EAGLE3 crash at high concurrency?", "",
        "pia-t · description · 2025-10-05", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "(no log kept)", "", "zed-u · reply · 2025-10-07",
        "Mine has no speculative decoding and crashes the same way:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
    ], NONE),
    "s10 s01 SGLang: 'unrelated to NGRAM.' at a sentence end, plain launch": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "This is unrelated to NGRAM. Current launch:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45501,
    ), NONE),
    "s10 s02 SGLang: another report's NGRAM at a sentence end, plain launch": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "The other report (#4000) was with NGRAM. Current launch:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45502,
    ), NONE),
    "s10 s03 SGLang: a plan ending in NGRAM, plain launch": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "Next month we will switch to NGRAM. Current launch:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45503,
    ), NONE),
    "s10 s04 SGLang: 'turned off NGRAM.' at a sentence end, plain launch": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "It was fine before we turned off NGRAM. Current launch:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45504,
    ), NONE),
    "s10 s05 SGLang: SGLang flag in a docs-suggest sentence, plain launch": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "The docs suggest `--speculative-algo NGRAM` for this model. Current launch:", "```", ORBIT,
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45505,
    ), NONE),
    "s10 sr06 SGLang: SGLang flag in a 'with it, it crashes' sentence": (thread(
        SGL_REPO, "[Bug] crash at high concurrency", "2025-11-20",
        "Without `--speculative-algorithm NGRAM` it works; with it, the server crashes:", "```",
        *SGL_NORMAL_CRASH, "```",
        number=45506,
    ), want("NGRAMWorker")),
    "s10 t36 vLLM: 'ngram' inside a sampling parameter name": (thread(
        VLLM_REPO, "[Bug]: no_repeat_ngram_size in extra_body crashes the server", "2026-03-01",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=45507,
    ), NONE),
    "s10 t37 SGLang: 'next_n' (a variable) is one edit from NEXTN": (thread(
        SGL_REPO, "[Bug] next_n_tokens overflow in the detokenizer", "2025-11-20",
        "```", ORBIT, "```", "```", *SGL_NORMAL_CRASH, "```",
        number=45508,
    ), NONE),
    "s10 p17 vLLM: support-MTP PR: the result is the plain model; the crash an unrelated plain job": (thread(
        VLLM_REPO, "[Model] Support MTP for Orbit-MoE", "2026-02-01",
        "## Test Result",
        "lm_eval gsm8k without MTP (to check the base model does not regress): 0.951", "", "## CI",
        "Unrelated failure in the plain LoRA job:", "```", *VLLM_CRASH, "```",
        number=47017, kind="pull request", labels="speculative-decoding",
    ), NONE),
    "s10 v30 vLLM: [MRV2] PR tag, but the crash's frames are the V1 runner's EAGLE proposer": (thread(
        VLLM_REPO, "[MRV2] Fix eagle3 cudagraph capture", "2026-06-01",
        "The V1 runner test still fails on this branch:", "```",
        "Traceback (most recent call last):",
        "  File \"/workspace/vllm/vllm/v1/worker/gpu_model_runner.py\", line 3120, in "
            "propose_draft_token_ids",
        "    draft_token_ids = self.drafter.propose(",
        "  File \"/workspace/vllm/vllm/v1/spec_decode/eagle.py\", line 288, in propose",
        "    hidden = self.model(",
        "RuntimeError: CUDA error: an illegal memory access was encountered", "```",
        number=46030, kind="pull request", labels="speculative-decoding",
    ), want("EagleProposer")),
    "s10 or09 vLLM: VLLM_USE_V1=0 on 0.8.4 with V0 frames: MultiStepWorker": (thread(
        VLLM_REPO, "[Bug]: eagle crash on V0 engine", "2025-04-20",
        "vLLM 0.8.4:", "```",
        "VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
            "'{\"method\": \"eagle\", \"model\": \"yuhuili/EAGLE-LLaMA3.1-Instruct-8B\", "
            "\"num_speculative_tokens\": 3}'",
        "```", "```", *V0_CRASH, "```",
        number=48009,
    ), want("MultiStepWorker")),
    "s10 jr13 vLLM: inline JSON in a settings table cell": (thread(
        "acme/orbit-serving", "vLLM crash under load", "2025-12-15",
        "| setting | value |", "|---|---|", "| vLLM | 0.11.0 |",
        "| speculative_config | {\"method\": \"ngram\", \"num_speculative_tokens\": 4} |", "",
        "```", *VLLM_CRASH, "```",
        number=91,
    ), want("NgramProposer")),
    "s10 c20 SGLang: relative-date post headers ('commented 2 days ago'): the crash's post is plain": ([
        "sgl-project/sglang · Issue #50020", "# [Bug] EAGLE3 crash at high concurrency", "",
        "pia-t opened this issue 3 days ago", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "acme/Falcon-Orbit-32B-EAGLE3 --speculative-eagle-topk 1",
        "```", "(no log kept)", "", "zed-u commented 2 days ago",
        "I get this on a plain server, no speculative decoding:", "```", ORBIT, "```", "```",
        *SGL_NORMAL_CRASH, "```",
    ], NONE),
    "s10 xr02 SGLang: a PR after 0.5.13 with a repro on main: v2": (thread(
        SGL_REPO, "[Fix] EAGLE crash with page size 64", "2026-09-15",
        "Repro on main before this fix:", "```",
        ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path acme/eagle-orbit "
            "--speculative-eagle-topk 1 --page-size 64",
        "```", "```", "Traceback (most recent call last):",
        "  File \"/opt/venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py\", "
            "line 2611, in run_scheduler_process",
        "    scheduler.event_loop_overlap()",
        "  File "
            "\"/opt/venv/lib/python3.11/site-packages/sglang/srt/model_executor/model_runner.py\", "
            "line 2070, in forward",
        "    return self._forward_raw(",
        "RuntimeError: CUDA error: an illegal memory access was encountered", "```",
        number=42602, kind="pull request",
    ), want("EAGLEWorkerV2")),
    "s10 x03 SGLang: an issue after 0.5.13 on a pinned 0.5.3: v1": (thread(
        SGL_REPO, "[Bug] EAGLE crash with page size 64", "2026-09-15",
        "We are pinned to sglang==0.5.3 (cannot upgrade):", "```",
        ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path acme/eagle-orbit "
            "--speculative-eagle-topk 1 --page-size 64",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=42603,
    ), want("EAGLEWorker")),
    "s10 x05 TensorRT-LLM: TRT YAML with speculative_config commented out": (thread(
        TRT_REPO, "[Bug] crash at warmup on DeepSeek-R1", "2026-03-01",
        "extra_llm_api_options.yaml:", "```yaml", "# speculative_config:", "#   decoding_type: MTP",
        "#   num_nextn_predict_layers: 3", "kv_cache_config:", "  free_gpu_memory_fraction: 0.8",
        "```", "```",
        "trtllm-serve deepseek-ai/DeepSeek-R1 --backend pytorch --tp_size 8 "
            "--extra_llm_api_options extra_llm_api_options.yaml",
        "```", "```", *TRT_CRASH, "```",
        number=9501,
    ), NONE),
    "s10 xr06 TensorRT-LLM: TRT YAML Eagle3 with eagle3_one_model: false -> two-model ModelDrafter": (thread(
        TRT_REPO, "[Bug] eagle3 crash at warmup", "2026-03-01",
        "```yaml", "speculative_config:", "  decoding_type: Eagle3", "  max_draft_len: 3",
        "  speculative_model_dir: acme/Llama-3.1-8B-EAGLE3", "  eagle3_one_model: false", "```",
        "```",
        "trtllm-serve meta-llama/Llama-3.1-8B-Instruct --backend pytorch "
            "--extra_llm_api_options spec.yaml",
        "```", "```", *TRT_CRASH, "```",
        number=9502,
    ), want("ModelDrafter")),
    "s10 x07 TensorRT-LLM: another user's TRT config quoted above a plain run": (thread(
        TRT_REPO, "[Bug] crash at warmup", "2026-03-01",
        "> my config has `speculative_config: {decoding_type: MTP, num_nextn_predict_layers: "
            "1}` and also crashes",
        "", "Ours has no speculative config at all:", "```",
        "trtllm-serve deepseek-ai/DeepSeek-R1 --backend pytorch --tp_size 8", "```", "```",
        *TRT_CRASH, "```",
        number=9503,
    ), NONE),
    "s10 x08 vLLM: a NextN draft in bold prose, evaluated in the past; plain run": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2026-01-10",
        "We evaluated **acme/Orbit-MoE-NextN** last quarter but serve the base model alone "
            "now:",
        "```", "vllm serve acme/Orbit-MoE -tp 8", "```", "```", *VLLM_CRASH, "```",
        number=48101,
    ), NONE),
    "s10 xr09 vLLM: an RL trainer's setup bullet: vLLM Eagle3 + 0.11.0": (thread(
        "acme/rl-trainer", "Rollout workers crash after weight sync", "2025-11-20",
        "Setup:", "- rollout engine: vLLM 0.11.0",
        "- speculative decoding: vLLM Eagle3 (draft acme/Falcon-Orbit-32B-EAGLE3, 3 tokens)",
        "- trainer: FSDP2", "", "```", *VLLM_CRASH, "```",
        number=310,
    ), want("EagleProposer")),
    "s10 x10 vLLM: an RL trainer's bullet: speculative decoding off, Eagle3 planned": (thread(
        "acme/rl-trainer", "Rollout workers crash after weight sync", "2025-11-20",
        "Setup:", "- rollout engine: vLLM 0.11.0",
        "- speculative decoding: off (Eagle3 planned for the next release of the trainer)", "",
        "```", *VLLM_CRASH, "```",
        number=311,
    ), NONE),
    "s10 y01 SGLang: a crash told in prose on the plain server; EAGLE3 is the other, healthy deployment": (thread(
        SGL_REPO, "[Bug] AssertionError after 200 requests", "2025-11-20",
        "The plain server fails with AssertionError after about 200 requests; the EAGLE3 "
            "deployment next to it is fine.",
        "```", ORBIT, "```",
        number=45701,
    ), NONE),
    "s10 yr02 vLLM: a crash told in prose, eagle3 config on 0.11.0": (thread(
        VLLM_REPO, "[Bug]: IndexError at the first request", "2025-10-20",
        "On vLLM 0.11.0 with eagle3 the server fails with IndexError at the first request.", "```",
        "vllm serve acme/Falcon-Orbit-32B --speculative-config '{\"method\": \"eagle3\", \"model\":"
            " \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}'",
        "```",
        number=45702,
    ), want("EagleProposer")),
    "s10 y03 vLLM: a yes/no question about MTP; nothing crashed (probe)": (thread(
        VLLM_REPO, "[Usage]: is MTP safe with DP?", "2026-01-10",
        "Does it crash with ValueError when MTP is on with DP=2? We have not tried yet; our "
            "plain server is stable.",
        *PROBE_CRASH,
        number=45703, labels="usage",
    ), NONE),
    "s10 j02 vLLM: docs JSON quoted, not enabled": (thread(
        VLLM_REPO, "[Usage]: is eagle3 required?", "2026-01-10",
        "The docs show {\"method\": \"eagle3\", \"model\": \"acme/Falcon-Orbit-32B-EAGLE3\", "
            "\"num_speculative_tokens\": 3} but we have not enabled it; the plain server crashes:",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=49002, labels="usage",
    ), NONE),
    "s10 j04 vLLM: inline JSON as a suggestion": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2026-01-10",
        "A colleague says adding {\"method\": \"ngram\", \"num_speculative_tokens\": 4} would hide "
            "it; we don't want speculation here.",
        "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```", "```",
        *VLLM_CRASH, "```",
        number=49004,
    ), NONE),
    "s10 jr08 vLLM: two inline JSONs, the sentence says which crashes": (thread(
        VLLM_REPO, "[Bug]: one speculative config crashes", "2025-10-20",
        "On 0.11.0 we tried {\"method\": \"ngram\", \"num_speculative_tokens\": 4} and {\"method\": "
            "\"eagle3\", \"model\": \"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3}; "
            "only the eagle3 one crashes:",
        "```", *VLLM_CRASH, "```",
        number=49008,
    ), want("EagleProposer", decide=False)),
    "s10 j11 vLLM: inline JSON removed, plain run": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2026-01-10",
        "Even after removing {\"method\": \"mtp\", \"num_speculative_tokens\": 1} from our config "
            "the server crashes:",
        "```", "vllm serve deepseek-ai/DeepSeek-V3 -tp 8", "```", "```", *VLLM_CRASH, "```",
        number=49011,
    ), NONE),
    "s10 j14 vLLM: inline JSON in an expected-later sentence, plain launch": (thread(
        VLLM_REPO, "[Bug]: crash under load", "2026-01-10",
        "### Expected behavior",
        "The server should accept {\"method\": \"eagle3\", \"model\": "
            "\"acme/Falcon-Orbit-32B-EAGLE3\", \"num_speculative_tokens\": 3} later, once we add the "
            "draft.",
        "### Actual", "```", "vllm serve acme/Falcon-Orbit-32B --tensor-parallel-size 4", "```",
        "```", *VLLM_CRASH, "```",
        number=49014,
    ), NONE),
    "s10 x01 SGLang: a PR after 0.5.13 quoting a repro on 0.5.3: the crash ran 0.5.3 (v1)": (thread(
        SGL_REPO, "[Fix] EAGLE crash with page size 64", "2026-09-15",
        "Fixes #40000. The reporter's repro on sglang 0.5.3:", "```",
        ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path acme/eagle-orbit "
            "--speculative-eagle-topk 1 --page-size 64",
        "```", "```", *SGL_NORMAL_CRASH, "```",
        number=42601, kind="pull request",
    ), want("EAGLEWorker")),  # the repro's own sentence names 0.5.3 ("Fixes #N." is another sentence)
    "s10 t27 TensorRT-LLM: 'lookahead' as a scheduler word": (thread(
        TRT_REPO, "[Bug] crash with the scheduler's lookahead window set to 0", "2026-03-01",
        "```", "trtllm-serve acme/Falcon-Orbit-32B --backend pytorch --tp_size 4", "```", "```",
        *TRT_CRASH, "```",
        number=9201,
    ), NONE),
    # --- s11: code under review, a class a feature request names, a plan -------------------
    "s11 o03 vLLM: 'V0 worked (VLLM_USE_V1=0)' over a crash in vllm/v1/: the crash ran V1": (thread(
        VLLM_REPO, "[Bug]: V1 eagle3 crash", "2025-08-01", "vllm 0.10.0", "```",
        'vllm serve acme/Falcon-Orbit-32B --speculative-config \'{"method": "eagle3", "model": '
            '"acme/e3", "num_speculative_tokens": 3}\'',
        "```", "V0 worked (VLLM_USE_V1=0).", "```", *VLLM_CRASH, "```", number=9303,
    ), want("EagleProposer")),

    "s11 r00 TensorRT-LLM: a review anchor over a draft_target.py hunk is no run": (thread(
        TRT_REPO, "[None][fix] keep the draft KV when reusing blocks", "2026-02-10",
        "Small change, see the diff.", "", "rev-bot · review thread · 2026-02-11",
        "**tensorrt_llm/_torch/speculative/draft_target.py:142**", "```diff",
        "@@ -138,7 +138,9 @@ class DraftTargetOneModelWorker(SpecWorkerBase):",
        "+        self.keep_draft_kv = True", "```", "nit: a comment here please.", *PROBE_CRASH,
        kind="pull request", number=7000, labels="",
    ), NOT_SHOWN),
    "s11 r10 TensorRT-LLM: a review post's prose naming the class under review is no run": ([
        "NVIDIA/TensorRT-LLM · pull request #9500 · open · Python",
        "# [TRTLLM-1234][feat] one-model draft-target: reuse the target KV cache", "",
        "review-bot · review thread · 2026-02-11",
        "tensorrt_llm/_torch/speculative/draft_target.py:214", "```diff",
        "+        draft_tokens = self.draft_model(input_ids=inputs, position_ids=pos)", "```",
        "**review-bot**: In `DraftTargetOneModelWorker.forward` this can raise `RuntimeError: "
        "shape mismatch` when max_draft_len differs.", *PROBE_CRASH,
    ], NOT_SHOWN),
    "s11 r03 vLLM: a backticked anchor alone over a suggestion is no run": (thread(
        VLLM_REPO, "[Perf] warm up numba once", "2026-02-10", "See the diff.", "",
        "rev-bot · review thread · 2026-02-11", "`vllm/v1/spec_decode/ngram_proposer.py:60`",
        "```suggestion", "        self._warm(np.zeros(1024, dtype=np.int32))", "```", *PROBE_CRASH,
        kind="pull request", number=7003, labels="",
    ), NOT_SHOWN),
    "s11 r02 SGLang: a file named right over a hunk is the code under review": (thread(
        SGL_REPO, "Refactor the verify step", "2026-02-10", "Touches one file:",
        "Context: python/sglang/srt/speculative/eagle_worker_v2.py:430",
        "```diff", "@@ -427,7 +427,7 @@ class EAGLEWorkerV2(BaseSpecWorker):", "-        a()",
        "+        b()", "```", *PROBE_CRASH, kind="pull request", number=7002, labels="",
    ), NOT_SHOWN),
    "s11 r07 TensorRT-LLM: a trtllm-serve command on + lines under a docs file's review anchor":
    (["NVIDIA/TensorRT-LLM · pull request #7140 · merged · Python", "# [None][doc] add an Eagle3 blog",
      "", "review-bot · review thread · 2025-08-21", "docs/source/blogs/tech_blog/blog_x.md:108",
      "````diff", "+### Launch the server (Eagle3 speculative decoding)", "+```bash",
      "+TRTLLM_ENABLE_PDL=1 trtllm-serve /models/orbit --backend pytorch --tp_size 8 "
      "--extra_llm_api_options /models/eagle/eagle.yaml", "+```", "+```yaml",
      "+speculative_config:", "+  decoding_type: Eagle", "+  max_draft_len: 3",
      "+  speculative_model_dir: /models/eagle", "+```", "````",
      "The parallelism flags contradict the 8 GPU note.", *PROBE_CRASH], NOT_SHOWN),
    "s11 b03 SGLang: a docs PR's diff adding a STANDALONE launch is no run": (thread(
        SGL_REPO, "[Docs] speculative decoding: a STANDALONE example", "2026-03-11", "```diff",
        "+python -m sglang.launch_server --model-path acme/Orbit-8B --speculative-algorithm "
        "STANDALONE \\", "+  --speculative-draft-model-path acme/Orbit-0.6B", "```",
        kind="pull request", number=8603, labels="documentation",
    ) + ["", "ci-bot · comment · 2026-03-11", "docs build failed:", "```",
         "Traceback (most recent call last):",
         '  File "/usr/lib/python3/site-packages/sphinx/cmd/build.py", line 281, in build_main',
         "    app.build(args.force_all, args.filenames)",
         "sphinx.errors.SphinxWarning: toctree contains reference to nonexisting document", "```"],
     NOT_SHOWN),
    "s11 e04 LMDeploy: its server's deepseek_mtp is not vLLM's method": (thread(
        "InternLM/lmdeploy", "[Bug] speculative decoding crash", "2026-04-01", "```",
        "lmdeploy serve api_server acme/Orbit-V3 --speculative-algorithm deepseek_mtp "
        "--speculative-num-draft-tokens 1", "```", "```", "Traceback (most recent call last):",
        '  File "/opt/lmdeploy/lmdeploy/pytorch/spec_decode/mtp.py", line 91, in propose',
        "    h = self.model(x)", "RuntimeError: shape mismatch", "```", number=8404,
    ), NOT_SHOWN),
    "s11 f08 SGLang: an untagged feature form (Motivation + Related resources) and its title": (
        thread(SGL_REPO, "EAGLE3 with page size 64", "2025-10-01", "### Motivation",
               "We want to run EAGLE3 with paged attention page size 64:", "```",
               ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path acme/e3 "
               "--speculative-eagle-topk 1 --page-size 64", "```", "### Related resources", "None",
               *PROBE_CRASH, labels="", number=9120), NOT_SHOWN),
    "s11 b04 vLLM: a release's highlights list its methods, not the run's": (thread(
        VLLM_REPO, "[Bug]: tokenizer crash after upgrade to v0.11.0", "2025-10-10",
        "Release notes v0.11.0 highlights:", "- EAGLE-3 with CUDA graphs", "- MTP for Qwen3-Next",
        "- n-gram GPU proposer", "After upgrading, the server crashes at tokenizer load:", "```",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/transformers_utils/tokenizer.py", line 233, in get_tokenizer',
        "    tokenizer = AutoTokenizer.from_pretrained(", "OSError: Can't load tokenizer for 'acme/model'",
        "```", number=8604,
    ), NOT_SHOWN),
    "s11 d00 vLLM: a class a [Feature] thread asks about is not the run's": (thread(
        VLLM_REPO, "[Feature]: EagleProposer should support tree attention on ROCm", "2026-02-01",
        "Today EagleProposer only drafts a chain.", "I tried a quick hack and it died:", "```",
        *VLLM_CRASH, "```", labels="feature request", number=8300,
    ), NOT_SHOWN),
    "s11 d02 TensorRT-LLM: a class a [Feature] thread asks for is not the run's": (thread(
        TRT_REPO, "[Feature]: Eagle3OneModelWorker for Gemma", "2026-02-01",
        "Eagle3OneModelWorker has no Gemma path yet.", "```", *TRT_CRASH, "```",
        labels="feature request", number=8302,
    ), NOT_SHOWN),
    "s11 w01 vLLM: a method the writer plans to enable did not run": (thread(
        VLLM_REPO, "[Bug]: engine dies under load", "2025-10-10",
        "We will enable MTP next week; today this happens:", "```", *VLLM_CRASH, "```", number=9201,
    ), NOT_SHOWN),
    "s11 f00 SGLang: a launch under a feature form's Proposed Solution is a wish": (thread(
        SGL_REPO, "[Feature] dynamic draft length", "2025-11-03", "### Checklist", "- [x] searched",
        "### Proposed Solution", "Users could launch it like this:", "```",
        ORBIT + " --speculative-algorithm EAGLE3 --speculative-draft-model-path acme/e3 "
            "--speculative-eagle-topk 1",
        "```", "and the server would pick the draft length.", *PROBE_CRASH,
        labels="enhancement", number=9100,
    ), NOT_SHOWN),
    "s11 f02 vLLM: a launch under a feature form's Alternatives is a wish": (thread(
        VLLM_REPO, "[Feature]: EAGLE-3 heads with their own vocab", "2025-11-03",
        "### 🚀 The feature, motivation and pitch", "Heads trained on a smaller vocab.",
        "### Alternatives", "```",
        'vllm serve acme/Falcon-Orbit-32B --speculative-config \'{"method": "eagle3", "model": '
            '"acme/e3", "num_speculative_tokens": 3}\'',
        "```", *PROBE_CRASH, labels="feature request", number=9102,
    ), NOT_SHOWN),
    "s11 f04 TensorRT-LLM: a YAML under a form's 'Describe the solution you'd like' is a wish": (
        thread(TRT_REPO, "Per-request speculative config", "2025-11-03",
               "Describe the solution you'd like", "```",
               "trtllm-serve acme/Falcon-Orbit-32B --backend pytorch --extra_llm_api_options e.yaml",
               "```", "```yaml", "speculative_config:",
               "  decoding_type: Eagle3", "  max_draft_len: 3", "  speculative_model_dir: acme/e3",
               "  eagle3_one_model: true", "```", *PROBE_CRASH, labels="enhancement", number=9104),
        NOT_SHOWN),
    "s11 w00 vLLM: a method the team is going to enable did not run": (thread(
        VLLM_REPO, "[Bug]: engine dies at start", "2025-10-10",
        "Our team is going to enable Eagle3 on this cluster soon; first this crash:", "```",
        *VLLM_CRASH, "```", number=9200,
    ), NOT_SHOWN),
}  # fmt: skip


def _wrong(path, wanted: Want) -> str | None:  # noqa: ANN001
    """Why the verdict is wrong for ``wanted``, or None when it is right or undecided."""
    shown = f"value={path.value} class={path.worker_class} condition={path.conditional!r}"
    if path.value == "none":
        return None if "none" in wanted.classes else f"says speculation off: {shown}"
    if path.value in ("v1", "v2", "other"):
        if not wanted.decide or path.worker_class not in wanted.classes:
            return f"decided wrongly: {shown}"
        return None
    spec = wanted.classes - {"none"}
    if path.conditional and wanted.classes and not any(c in path.conditional for c in spec):
        return f"a condition without the run's class: {shown}"
    return None


@pytest.mark.parametrize(
    "name",
    list(CASES),
)
def test_the_verdict_is_right_or_undecided(tmp_path: Path, name: str) -> None:
    assert_right_or_undecided(tmp_path, *CASES[name])


def assert_right_or_undecided(tmp_path: Path, lines: list[str], wanted: Want) -> None:
    """Every crash of ``lines`` is found and its verdict is right for ``wanted`` or undecided."""
    crashes = roots(run(tmp_path, lines, name="report.md"))
    assert crashes, "the crash was lost"
    for crash in crashes:
        assert crash.worker_path is not None
        assert _wrong(crash.worker_path, wanted) is None, _wrong(crash.worker_path, wanted)


def test_the_same_thread_shape_decides_when_the_sentence_says_the_run_had_eagle(
    tmp_path: Path,
) -> None:
    """The control for the sentences above: the header day and a sentence saying the run had
    EAGLE decide v1, so those cases test the sentence, not a shape the linker never reads."""
    lines = ["sgl-project/sglang · Issue #7777", "erin opened this issue on Jun 3, 2025", "",
             "We run EAGLE with topk 1.", "", *SGL_CRASH]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="report.md"))
    assert crash.worker_path is not None
    assert (crash.worker_path.value, crash.worker_path.worker_class) == ("v1", "EAGLEWorker")


V2_FRAMES = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/sglang/srt/speculative/eagle_worker_v2.py", line 828, in forward_batch_generation',
    "    self.verify(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
PLAIN_FRAMES = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/sglang/srt/layers/attention/flashinfer_backend.py", line 512, in forward_extend',
    "    o = self.prefill_wrapper.forward(q, k, v)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
OTHER_WRITERS_V2_CRASH = {
    "quoted in a reply": [
        *(f"> {line}" for line in V2_FRAMES), "",
        "Mine looks alike but runs without speculative decoding:", f"{SGL} --tp 2", "",
    ],
    "pasted under a caption naming its writer": [
        "Traceback from @dan in #5000 (EAGLE v2):", "```", *V2_FRAMES, "```", "",
        "Ours, on a plain server without speculative decoding:",
    ],
}  # fmt: skip


@pytest.mark.parametrize("shape", list(OTHER_WRITERS_V2_CRASH))
def test_another_writers_crash_lends_the_writers_own_no_frames(tmp_path: Path, shape: str) -> None:
    """Another writer's traceback through the v2 worker, quoted or captioned as theirs, is
    that writer's run: the writer's own crash below it, on a plain server, takes no v2 from it."""
    lines = [*OTHER_WRITERS_V2_CRASH[shape], "```", *PLAIN_FRAMES, "```"]
    crashes = roots(run(tmp_path, lines, name="report.md"))
    mine = [c for c in crashes if "flashinfer_backend.py" in " ".join(f.file for f in c.frames)]
    assert len(mine) == 1, "the writer's crash was lost"
    path = mine[0].worker_path
    assert path is not None and path.value not in ("v1", "v2", "other"), path


@pytest.mark.parametrize(
    "line",
    [
        f'vllm serve {LLAMA} --speculative-config \'{{"method": "eagle3", "x": '
        + "[" * 5000
        + "]" * 5000
        + "}'",
        '{"speculative_algorithm": "EAGLE", "x": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"log":"started","extra":' + "[" * 5000 + "]" * 5000 + "}",
    ],
    ids=["launch flag", "server-args dict", "docker json-file line"],
)
def test_a_value_nested_past_the_json_decoders_depth_keeps_the_crash(
    tmp_path: Path, line: str
) -> None:
    """A JSON value nested thousands deep (hostile or garbled) is read as text, not raised as
    the decoder's RecursionError: the crash beside it is still reported."""
    crashes = roots(run(tmp_path, [line, *VLLM_CRASH], name="report.md"))
    assert [c.exception_type for c in crashes] == ["RuntimeError"]


def test_motivation_in_a_bug_report_is_no_wish(tmp_path: Path) -> None:
    """The control for the wish sections: "### Motivation" in a bug report (no request tag,
    label or other wish heading) sets nothing apart, so its reproduction still decides."""
    lines = thread(SGL_REPO, "[Bug] EAGLE crash after warmup", "2025-10-11", "### Motivation",
                   "We need low latency.", "### Reproduction", "sglang==0.5.3", "```",
                   ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path "
                   "acme/eagle-orbit --speculative-eagle-topk 1", "```", *SGL_CRASH, number=9312)  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="report.md"))
    assert crash.worker_path is not None
    assert (crash.worker_path.value, crash.worker_path.worker_class) == ("v1", "EAGLEWorker")


@pytest.mark.parametrize(
    "name", [name for name in CASES if name.startswith("s11 ") and CASES[name][1] is NOT_SHOWN]
)
def test_a_text_showing_no_run_gives_no_condition_either(tmp_path: Path, name: str) -> None:
    """A wish, code under review, a feature thread's classes or a plan show no run at all: no
    class and no condition naming one (a condition would still send the user to a worker)."""
    lines, _wanted = CASES[name]
    for crash in roots(run(tmp_path, lines, name="report.md")):
        path = crash.worker_path
        assert path is not None and path.value == "unknown" and not path.conditional, path


def test_a_pull_requests_motivation_keeps_its_repro(tmp_path: Path) -> None:
    """A pull request tagged [Feature] states in its Motivation the crash it fixes, with the
    launch that shows it: that launch is the crash's run, not a wish."""
    lines = thread(SGL_REPO, "[Feature] fix EAGLE crash with page size 64", "2025-10-01",
                   "## Motivation", "On sglang 0.5.3 this launch crashes:", "```",
                   ORBIT + " --speculative-algorithm EAGLE --speculative-draft-model-path "
                   "acme/eagle-orbit --speculative-eagle-topk 1 --page-size 64", "```", "```",
                   *SGL_CRASH, "```", "## Modifications", "Fix the page table.",
                   kind="pull request", number=9998, labels="")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="report.md"))
    assert crash.worker_path is not None
    assert (crash.worker_path.value, crash.worker_path.worker_class) == ("v1", "EAGLEWorker")


def test_the_performance_forms_proposal_heading_keeps_the_reporters_run(tmp_path: Path) -> None:
    """vLLM's performance form heads its first section "Proposal to improve performance";
    reporters write their own run under it. Only a feature form's wish headings set a launch
    apart, so this run still decides."""
    lines = thread(VLLM_REPO, "[Performance]: EAGLE3 slower than no speculation on H100",
                   "2025-06-12", "### Proposal to improve performance", "On vllm 0.9.1:", "```",
                   "vllm serve acme/llama-70b --speculative-config '{\"method\": \"eagle3\", "
                   "\"model\": \"acme/eagle3-llama-70b\", \"num_speculative_tokens\": 3}'", "```",
                   *VLLM_CRASH, labels="performance", number=19402)  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="report.md"))
    assert crash.worker_path is not None
    assert crash.worker_path.worker_class == "EagleProposer", crash.worker_path


# a traceback of a script named by its bare file name alone: no server's code ran
BARE_CRASH = ["Traceback (most recent call last):", '  File "check.py", line 3, in <module>',
              "RuntimeError: no answer"]  # fmt: skip
NO_RUN_SHOWN = {
    "an RFC naming TensorRT-LLM settings and classes": thread(
        TRT_REPO, "[RFC] Drop the two-model Eagle3 flow in 1.2", "2026-01-14",
        "The two-model flow (`eagle3_one_model: false`) will go; `decoding_type: Eagle3` then",
        "always runs Eagle3OneModelWorker.",
        labels="RFC", number=9511),
    "a question whether a release supports a method": thread(
        VLLM_REPO, "[Usage]: is MTP supported for GLM-4.5 in vLLM 0.10.2?", "2025-09-20",
        "### How would you like to use vllm", "Is MTP available for GLM-4.5 in 0.10.2?",
        labels="usage", number=9501),
    "release notes naming families and the release": thread(
        SGL_REPO, "v0.5.10 highlights", "2026-03-27", "## Highlights",
        "- Spec v2: EAGLE3 overlap worker (`SGLANG_ENABLE_SPEC_V2=1`)", "- MTP for GLM-5",
        kind="discussion", labels="", number=9520),
    "a question title over a deployment YAML cut before any flag": thread(
        "vllm-project/aibrix", "Can the gateway route to a draft model that is not an ngram?",
        "2025-07-25", "Can it route to a vLLM server whose draft model is not an ngram?", "```yaml",
        "containers:", "  - name: vllm", "    image: vllm/vllm-openai:v0.9.2", "```",
        labels="", number=1320),
    "a refactor pull request naming the workers it merges": thread(
        TRT_REPO, "[TRTLLM-11508][refactor] Merge Eagle3 and MTP-eagle one-model workers",
        "2026-03-19", "Unify `Eagle3OneModelWorker` and `MTPEagleWorker` into one class in",
        "`tensorrt_llm/_torch/speculative/eagle3.py`; `decoding_type: Eagle` keeps working.",
        kind="pull request", labels="", number=12353),
    "a feature pull request under a bot's review diff": thread(
        TRT_REPO, "[TRTLLM-6352][feat] Move EAGLE3 and draft/target to the Drafter", "2025-07-17",
        "tensorrt_llm/_torch/speculative/model_drafter.py:125", "```diff",
        "+        new_request.context_chunk_size = num_accepted_tokens + 1", "```",
        "Duplicate assignment for the Eagle3 two-model path.", kind="pull request", labels="",
        number=6007),
    "a pull request adding a method to the vLLM docs and code": thread(
        VLLM_REPO, "[Spec Decode] Add ngram_gpu proposer", "2025-11-20", "## Purpose",
        "Adds the ngram_gpu method next to ngram (vLLM 0.12); EagleProposer is untouched.", kind="pull request",
        labels="", number=28000),
}  # fmt: skip


@pytest.mark.parametrize("name", list(NO_RUN_SHOWN))
def test_a_text_showing_no_run_gives_neither_class_nor_condition(tmp_path: Path, name: str) -> None:
    """One rule after every reader (``run_shown.gate``): a thread set apart as a whole (an RFC,
    a usage question, release notes) with no run's line, no version line, no run line and no
    server's crash keeps no vote and no condition, whatever a reader made of its words."""
    for crash in roots(run(tmp_path, [*NO_RUN_SHOWN[name], *BARE_CRASH], name="report.md")):
        path = crash.worker_path
        assert path is not None and path.value == "unknown" and not path.conditional, path


def test_the_same_words_over_a_servers_crash_still_decide(tmp_path: Path) -> None:
    """The control for the gate: the bug's own sentence and release over a crash in the
    server's code show a run, and its family decides the era's class."""
    lines = thread(SGL_REPO, "[Bug] EAGLE3 illegal memory access", "2025-09-05",
                   "We run EAGLE3 speculative decoding on sglang 0.5.2 with 2x H100.", "```",
                   *SGL_CRASH, "```", number=9762)  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="report.md"))
    assert crash.worker_path is not None
    assert (crash.worker_path.value, crash.worker_path.worker_class) == ("v1", "EAGLEWorker")


def test_a_usage_question_with_its_own_launch_still_decides(tmp_path: Path) -> None:
    """The control for the gate's thread kinds: a usage question that shows its own launch
    line shows a run, so the launch's method decides."""
    lines = thread(VLLM_REPO, "[Usage]: why is EAGLE-3 slower than no speculation?", "2025-08-20",
                   "### How would you like to use vllm", "I serve with:", "```",
                   f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"eagle3\", "
                   "\"model\": \"acme/e3\", \"num_speculative_tokens\": 3}'", "```", *BARE_CRASH,
                   labels="usage", number=9772)  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="report.md"))
    assert crash.worker_path is not None
    assert crash.worker_path.worker_class == "EagleProposer", crash.worker_path


@pytest.mark.parametrize("sentence", [
    "Other than EAGLE3 (which we disabled), sglang 0.5.4 fails like this:",
    "Apart from NGRAM, which is turned off now, the server crashes on 0.5.6:",
    "Our EAGLE deployment (that we switched off yesterday) is not this one; plain server:",
    "Same crash without EAGLE on v0.5.8; speculative decoding is off:",
    "Without NGRAM (v0.5.6) it still dies at startup:",
])  # fmt: skip
def test_a_method_a_relative_clause_turns_off_did_not_run(tmp_path: Path, sentence: str) -> None:
    """A relative clause saying the named method is off ("X (which we disabled)", "X, which is
    turned off") reads like "X is disabled", as "without X" does: with a plain launch the crash
    is no X run."""
    lines = thread(SGL_REPO, "[Bug] crash on startup", "2025-12-01", sentence, "```",
                   f"{SGL} --tp 2", "```", "```", *SGL_NORMAL_CRASH, "```", number=9554)  # fmt: skip
    assert_right_or_undecided(tmp_path, lines, NONE)


@pytest.mark.parametrize("heading", ["* Features", "- New Features", "* **Key Features**"])
def test_a_changelogs_feature_bullets_name_no_run(tmp_path: Path, heading: str) -> None:
    """A pull request syncing a release pastes its changelog: the bullets under its own
    "* Features" heading (and the API / fixes bullets after it) are the release's code, so an
    engine mode they name (Lookahead) is no run's, even beside a crash."""
    lines = [f"{TRT_REPO} · pull request #20008 · merged · Python", "# Update TensorRT-LLM",
             "dev8 · description · 2024-11-12", heading, "  - Lookahead decoding now handles stop words.",
             "* API", "  - Executor shutdown takes a timeout.",
             "Traceback (most recent call last):", '  File "/app/run.py", line 12, in <module>',
             "RuntimeError: output is not finite"]  # fmt: skip
    for crash in roots(run(tmp_path, lines)):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


def test_a_reviews_family_words_over_a_diff_hunk_name_no_run(tmp_path: Path) -> None:
    """A review post over a diff hunk talks about the code under review: the one family its
    sentence names ("MTP Eagle") is no run's family, as the files and classes it names are not."""
    lines = [f"{TRT_REPO} · pull request #7001 · merged · Python", "# [None][refactor] SpecConfig cleanup",
             "", "rev-a · review thread · 2025-09-01", "tensorrt_llm/llmapi/llm_args.py:812", "```diff",
             "@@ -805,6 +805,9 @@ class MTPDecodingConfig(DecodingBaseConfig):",
             '+    decoding_type: ClassVar[str] = "MTP"', "```",
             "We use num_nextn_predict_layers here to decide on MTP Eagle.", *BARE_CRASH]  # fmt: skip
    for crash in roots(run(tmp_path, lines, name="report.md")):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


# --- session 13 (ADV s13 harness): vLLM / TensorRT-LLM family words + a release or a day -------
# Each text is our own, in the shape of a public thread; the comments are posts after the first.
S13_SP = "/usr/local/lib/python3.12/dist-packages"
S13_E3 = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
S13_DSR1 = "deepseek-ai/DeepSeek-R1"
S13_VLLM = f"vllm serve {LLAMA} --tensor-parallel-size 2"
S13_VLLM_E3 = (f"{S13_VLLM} --speculative-config "
               f'\'{{"method": "eagle3", "model": "{S13_E3}", "num_speculative_tokens": 3}}\'')  # fmt: skip
S13_TRT_E3 = ["speculative_config:", "  decoding_type: Eagle3", "  max_draft_len: 3",
              f"  speculative_model_dir: {S13_E3}", "  eagle3_one_model: true"]  # fmt: skip
S13_TRT_MTP = ["speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 3"]
S13_TRT_SERVE = f"trtllm-serve {LLAMA} --backend pytorch --tp_size 2 --extra_llm_api_options extra.yml"
S13_SGL_E3 = (f"{SGL} --tp 2 --speculative-algorithm EAGLE3 --speculative-draft-model-path {S13_E3} "
              "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")  # fmt: skip
S13_V0_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/conda/lib/python3.10/site-packages/vllm/engine/llm_engine.py", line 1386, in step',
    "    outputs = self.model_executor.execute_model(",
    '  File "/opt/conda/lib/python3.10/site-packages/vllm/spec_decode/spec_decode_worker.py", line 605, in execute_model',
    "    return self._run_speculative_decoding_step(execute_model_req,",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
S13_V0_METRICS = (
    "INFO 11-05 10:22:31 metrics.py:459] Speculative metrics: Draft acceptance rate: 0.587, "
    "System efficiency: 0.455, Number of speculative tokens: 4, Number of accepted tokens: 1174, "
    "Number of draft tokens: 2000, Number of emitted tokens: 1820."
)  # fmt: skip


def s13_env(version: str) -> list[str]:
    """vLLM's bug template environment block."""
    return ["### Your current environment", "```", f"vLLM Version: {version}",
            "PyTorch version: 2.8.0+cu128", "```"]  # fmt: skip


def s13_sgl_env(version: str) -> list[str]:
    """SGLang's bug template environment block."""
    return ["### Environment", "```", "Python: 3.12.3", f"sglang: {version}", "torch: 2.8.0", "```"]


def s13_post(who: str, what: str, day: str, *body: str) -> list[str]:
    """A later post of the thread: a comment, a review or a review thread."""
    return ["", f"{who} · {what} · {day}", *body]


def s13_server_args(algo: str, overlap_off: bool) -> str:
    """SGLang's ``server_args=`` dump, printed after the speculative handling (so the overlap
    switch it shows is the one the run used)."""
    return (f"[2026-02-01 10:00:00] server_args=ServerArgs(model_path='{LLAMA}', tp_size=2, "
            f"speculative_algorithm='{algo}', speculative_draft_model_path='{S13_E3}', "
            "speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4, "
            f"disable_overlap_schedule={overlap_off})")  # fmt: skip


S13_CASES: dict[str, tuple[list[str], Want]] = {
    # traps: a family word + a release or a day, and no run of it
    "s13 fr0 a feature request asking for a vLLM method on a release": (thread(
        VLLM_REPO, "[Feature]: EAGLE-3 drafts for Qwen3-MoE on 0.10.x", "2025-08-14",
        "### 🚀 The feature, motivation and pitch", "vLLM 0.10.1 takes EAGLE-3 for Llama targets only;",
        'please accept `{"method": "eagle3"}` for Qwen3-MoE.', *PROBE_CRASH,
        labels="feature request", number=13000), NOT_SHOWN),
    "s13 fr3 a feature request naming the MRV2 switch and a release": (thread(
        VLLM_REPO, "[Feature]: suffix decoding on the V2 model runner", "2026-02-11",
        "With VLLM_USE_V2_MODEL_RUNNER=1 on 0.16.0 the `suffix` method is refused; a",
        "SuffixSpeculator would help.", *PROBE_CRASH, labels="feature request", number=13003), NOT_SHOWN),
    "s13 rf0 an RFC naming MRV2's classes and releases": (thread(
        VLLM_REPO, "[RFC]: drop EagleProposer once MRV2 is the default", "2026-07-01", "### Motivation.",
        "From 0.25.0 dense models take the model runner v2 and its EagleSpeculator.",
        "### Proposed Change.", "Delete v1/spec_decode/eagle.py after 0.29.0.", *PROBE_CRASH,
        labels="RFC", number=13010), NOT_SHOWN),
    "s13 rf1 an RFC removing vLLM V0 spec decode": (thread(
        VLLM_REPO, "[RFC]: remove V0 speculative decoding", "2025-03-10", "### Motivation.",
        "The V0 SpecDecodeWorker, MultiStepWorker and MLPSpeculatorWorker are unmaintained since 0.8.",
        *PROBE_CRASH, labels="RFC", number=13011), NOT_SHOWN),
    "s13 dp0 a docs PR adding an eagle3 command and its expected metrics line": (thread(
        VLLM_REPO, "[Doc] EAGLE-3 example with the expected log", "2025-09-02", "```diff", "+```bash",
        "+" + S13_VLLM_E3, "+```", "+```text",
        "+INFO 09-02 10:00:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.71, "
        "Accepted throughput: 40.12 tokens/s, Drafted throughput: 70.33 tokens/s, Accepted: 401 tokens, "
        "Drafted: 703 tokens, Per-position acceptance rate: 0.712, 0.561, 0.437, Avg Draft acceptance rate: 57.0%",
        "+```", "```", *PROBE_CRASH, kind="pull request", labels="documentation", number=13030), NOT_SHOWN),
    "s13 dp1 a docs PR with a Dynamo MTP recipe": (thread(
        TRT_REPO, "[None][doc] DeepSeek-R1 MTP with Dynamo", "2025-08-01", "Adds a recipe (tested on 1.0.0rc4):",
        "```diff", f"+python3 -m dynamo.trtllm --model-path {S13_DSR1} --extra-engine-args mtp_agg.yaml",
        *["+" + x for x in S13_TRT_MTP], "```", *PROBE_CRASH, kind="pull request",
        labels="documentation", number=13031), NOT_SHOWN),
    "s13 rv3 a review thread over another proposer's diff hunk": (
        thread(VLLM_REPO, "[Core] scheduler stats cleanup", "2025-10-15", "Refactors scheduler stats.",
               kind="pull request", labels="", number=13043)
        + s13_post("rev-d", "review thread", "2025-10-16", "vllm/v1/spec_decode/medusa.py:57", "```diff",
                   "@@ -55,6 +55,7 @@ class MedusaProposer:", "+        self.stats = None", "```",
                   "Why touch MedusaProposer here?")
        + PROBE_CRASH, NOT_SHOWN),
    "s13 bt0 a CI bot listing passed eagle3 tests of a release": (
        thread(VLLM_REPO, "[Misc] bump transformers", "2025-09-18", "Bump transformers.",
               kind="pull request", labels="", number=13050)
        + s13_post("mergify[bot]", "comment", "2025-09-18", "CI summary for 0.10.2:", "```",
                   "PASSED tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[eagle3-llama]", "```")
        + PROBE_CRASH, NOT_SHOWN),
    "s13 bt1 a review bot naming a TensorRT-LLM worker and a release": (
        thread(TRT_REPO, "[None][perf] faster top-k sampling", "2025-12-01", "Speeds up top-k.",
               kind="pull request", labels="", number=13051)
        + s13_post("gemini-code-assist[bot]", "review", "2025-12-01", "## Summary of Changes",
                   "`MTPEagleWorker.forward` also samples here, so MTP runs on 1.1.0 may be affected.")
        + PROBE_CRASH, NOT_SHOWN),
    "s13 tu1 second-person blog narration about TensorRT-LLM MTP": (thread(
        TRT_REPO, "Tech blog: MTP on Blackwell", "2025-07-15",
        "When you turn on MTP with num_nextn_predict_layers: 3 on release 0.21, you get up to 3x.",
        *PROBE_CRASH, kind="discussion", labels="", number=13071), NOT_SHOWN),
    "s13 pg0 a vllm-ascend PR whose goal is eagle3 on the v2 runner": (thread(
        ASCEND_REPO, "[Feat] eagle3 on the v2 model runner", "2026-04-02",
        "### What this PR does / why we need it?",
        "Support `method: eagle3` with `VLLM_USE_V2_MODEL_RUNNER=1` (AscendEagleSpeculator).",
        *PROBE_CRASH, kind="pull request", labels="", number=13080), NOT_SHOWN),
    "s13 fx0 a fix PR reasoning from EagleProposer's source": (thread(
        VLLM_REPO, "[Bugfix] EagleProposer: guard an empty batch", "2025-10-02",
        "Reading `vllm/v1/spec_decode/eagle.py`, `propose()` indexes `last_token_indices` unchecked,",
        "so an empty batch would raise an IndexError. I have not hit it myself.", *PROBE_CRASH,
        kind="pull request", labels="", number=13100), NOT_SHOWN),
    "s13 fx1 a TensorRT-LLM fix PR found by reading MTP code": (thread(
        TRT_REPO, "[None][fix] MTPWorker: clamp num_accepted_tokens", "2025-09-09",
        "In `_torch/speculative/mtp.py` (1.0.0) the hidden-state update assumes a bound; clamp it.",
        "Found by reading the code.", *PROBE_CRASH, kind="pull request", labels="", number=13101), NOT_SHOWN),
    "s13 jq3 a V0-era question whether EAGLE runs on a release": (thread(
        VLLM_REPO, "[Usage]: EAGLE on vLLM 0.6.3?", "2024-10-20", "### How would you like to use vllm",
        "Can I pass an EAGLE draft to --speculative-model on 0.6.3?", *PROBE_CRASH, labels="usage",
        number=13143), NOT_SHOWN),
    "s13 jq7 the V0 metrics line quoted in a question about its meaning": (thread(
        VLLM_REPO, "[Usage]: what is System efficiency?", "2024-11-05", "### How would you like to use vllm",
        "The docs show this line:", "> " + S13_V0_METRICS.split("] ", 1)[1], "What does System efficiency mean?",
        *PROBE_CRASH, labels="usage", number=13147), NOT_SHOWN),
    # the crashing run did not speculate; a method and a release are named around it
    "s13 cl2 an upgrade bug quoting a changelog's eagle3 line over a plain vLLM run": (thread(
        VLLM_REPO, "[Bug]: 0.11.0 fails to start with TP 2", "2025-10-05", "### 🐛 Describe the bug",
        "The changelog says:", "> * [Spec Decode] EAGLE-3 with CUDA graphs for Llama-4 (#25111)",
        "but we use none of that. The plain server fails:", "```", S13_VLLM, "```", "```", *VLLM_CRASH, "```",
        *s13_env("0.11.0"), number=13022), NONE),
    "s13 ex3 a maintainer's example EAGLE3 launch under a plain SGLang crash": (
        thread(SGL_REPO, "[Bug] crash with Llama-3.1-8B TP2", "2025-12-01", "```", f"{SGL} --tp 2", "```",
               "```", *SGL_CRASH, "```", *s13_sgl_env("0.5.6"), number=13063)
        + s13_post("maint", "comment", "2025-12-02", "Unrelated, but for speed try e.g.:", "```", S13_SGL_E3, "```"),
        NONE),
    "s13 jq6 a TensorRT-LLM crash with MTP disabled": (thread(
        TRT_REPO, "[Bug] crash with MTP disabled", "2025-09-20",
        "Same crash with MTP disabled (speculative_config removed). TRT-LLM 1.0.0:", "```",
        f"trtllm-serve {S13_DSR1} --backend pytorch --tp_size 8", "```", "```", *TRT_CRASH, "```",
        number=13146), NONE),
    "s13 jt0 a plain vLLM crash dated after an eagle3 fix it names": (thread(
        VLLM_REPO, "[Bug]: crash since upgrading", "2025-10-02", "### 🐛 Describe the bug",
        "Since the eagle3 CUDA-graph fix landed in September our server crashes. We never enabled "
        "speculative decoding.", "```", S13_VLLM, "```", "```", *VLLM_CRASH, "```", number=13320), NONE),
    "s13 hm5 a commenter's eagle3 run under the reporter's plain crash": (
        thread(VLLM_REPO, "[Bug]: illegal memory access with TP 2", "2025-10-09", "```", S13_VLLM, "```",
               "```", *VLLM_CRASH, "```", *s13_env("0.11.0"), number=13295)
        + s13_post("other-u", "comment", "2025-10-10", "Something similar here with", "```", S13_VLLM_E3, "```"),
        NONE),
    # runs shown in the frameworks' own formats: the run's class, a condition holding it, or unknown
    "s13 v02 V0's engine line with the [ngram] draft and a spec-decode frame": (thread(
        VLLM_REPO, "[Bug]: ngram prompt lookup crash", "2024-12-02", "```",
        "INFO 12-02 10:20:01 llm_engine.py:237] Initializing an LLM engine (v0.6.4.post1) with config: "
        f"model='{LLAMA}', speculative_config=SpeculativeConfig(draft_model='[ngram]', num_spec_tokens=4), "
        "tokenizer_mode=auto, dtype=torch.bfloat16", *S13_V0_CRASH, "```", number=13202),
        want("NGramWorker", "SpecDecodeWorker")),
    "s13 v03 V0's 'Configuring SpecDecodeWorker with proposer' line": (thread(
        VLLM_REPO, "[Bug]: crash with prompt lookup decoding", "2024-10-11", "```",
        "INFO 10-11 07:01:12 spec_decode_worker.py:162] Configuring SpecDecodeWorker with "
        "proposer=<class 'vllm.spec_decode.ngram_worker.NGramWorker'>", *V0_CRASH, "```", number=13203),
        want("NGramWorker", "SpecDecodeWorker")),
    "s13 mr1 the V1 runner forced on a release whose default is MRV2": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash with the V1 runner", "2026-07-15", "```",
        f"VLLM_USE_V2_MODEL_RUNNER=0 {S13_VLLM_E3}", "```", "```", *VLLM_CORE_CRASH, "```",
        *s13_env("0.26.0"), number=13221), want("EagleProposer")),
    "s13 mr2 eagle3 on a release whose MRV2 default covers a few architectures": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash on 0.23", "2026-06-10", "```", S13_VLLM_E3, "```", "```",
        *VLLM_CORE_CRASH, "```", *s13_env("0.23.0"), number=13222),
        want("EagleProposer", "EagleSpeculator", decide=False)),
    "s13 tr1 the two-model Eagle3 YAML": (thread(
        TRT_REPO, "[Bug] Eagle3 two-model hangs then crashes", "2025-09-21", "```", S13_TRT_SERVE, "```",
        "```yaml", *S13_TRT_E3[:-1], "  eagle3_one_model: false", "```", "```",
        "[TensorRT-LLM] TensorRT-LLM version: 1.0.0", *TRT_CRASH, "```", number=13241), want("ModelDrafter")),
    "s13 tr3 an MTP YAML for DeepSeek-R1 (vanilla or Eagle MTP)": (thread(
        TRT_REPO, "[Bug] MTP crash DeepSeek-R1 FP4", "2025-09-12", "```",
        f"trtllm-serve {S13_DSR1} --backend pytorch --tp_size 8 --extra_llm_api_options extra.yml", "```",
        "```yaml", *S13_TRT_MTP, "```", "```", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0", *TRT_CRASH, "```",
        number=13243), want("MTPWorker", "MTPEagleWorker", decide=False)),
    "s13 dy0 Dynamo's TensorRT-LLM worker with an MTP engine YAML": (thread(
        "ai-dynamo/dynamo", "[BUG]: DeepSeek-R1 MTP agg crashes", "2025-09-05",
        "Image: nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.4.1", "```",
        f"python3 -m dynamo.trtllm --model-path {S13_DSR1} --extra-engine-args /configs/mtp_agg.yaml", "```",
        "```yaml", "tensor_parallel_size: 8", *S13_TRT_MTP, "```", "```", *TRT_CRASH, "```", number=13250),
        want("MTPWorker", "MTPEagleWorker", decide=False)),
    "s13 sa0 SGLang 0.4.9's server_args with the overlap scheduler off for EAGLE": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with Llama", "2025-07-15", "```", s13_server_args("EAGLE3", True),
        "Overlap scheduler is disabled because of using eagle speculative decoding.", *SGL_CRASH, "```",
        *s13_sgl_env("0.4.9.post2"), number=13260), want("EAGLEWorker")),
    "s13 sa2 SGLang 0.5.11 saying spec v1 is used because of topk": (thread(
        SGL_REPO, "[Bug] EAGLE topk 4 crash", "2026-05-01", "```",
        s13_server_args("EAGLE", True).replace("topk=1", "topk=4"),
        "Spec v1 is used for eagle/eagle3/standalone speculative decoding because spec v2 currently "
        "only supports topk = 1.", *SGL_CRASH, "```", *s13_sgl_env("0.5.11"), number=13262), want("EAGLEWorker")),
    "s13 sa6 SGLang 0.5.8's server_args with the overlap scheduler off": (thread(
        SGL_REPO, "[Bug] EAGLE3 crash with long context", "2026-02-03", "```", s13_server_args("EAGLE3", True),
        *SGL_CRASH, "```", *s13_sgl_env("0.5.8"), number=13266), want("EAGLEWorker")),
    "s13 ot0 a vLLM issue whose run is SGLang's": (thread(
        VLLM_REPO, "[Usage]: eagle3 slower than sglang?", "2025-10-10", "In vLLM eagle3 works. In SGLang it crashes:",
        "```", S13_SGL_E3, "```", "```", *SGL_CRASH, "```", "sglang==0.5.3", number=13120), want("EAGLEWorker")),
    "s13 hm0 the reporter's eagle3 run beside the docs' ngram example": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash, the ngram example works", "2025-09-26", "The docs example works:", "```",
        f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"ngram\", \"num_speculative_tokens\": 4}}'",
        "```", "But my eagle3 run crashes:", "```", S13_VLLM_E3, "```", "```", *VLLM_CORE_CRASH, "```",
        *s13_env("0.10.2"), number=13290), want("EagleProposer")),
    "s13 hm4 a maintainer's suggested flag keeps the reporter's method": (
        thread(VLLM_REPO, "[Bug]: eagle3 OOM at startup", "2025-10-08", "```", S13_VLLM_E3, "```", "```",
               *VLLM_CRASH[:3], f'  File "{S13_SP}/vllm/v1/spec_decode/eagle.py", line 98, in load_model',
               "    self.model = get_model(", "torch.OutOfMemoryError: CUDA out of memory.", "```",
               *s13_env("0.11.0"), number=13294)
        + s13_post("maint", "comment", "2025-10-08", "Try e.g. `--gpu-memory-utilization 0.85` with the same config."),
        want("EagleProposer")),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S13_CASES))
def test_s13_family_words_with_a_release_or_day(tmp_path: Path, name: str) -> None:
    """The era join now reaches vLLM and TensorRT-LLM: a method word beside a release or a day
    must still name no run where the text shows none (requests, RFCs, notes, docs, bots, blogs,
    reviews, fixes read from source), and a run shown in the framework's own lines gets its
    class, a condition holding it, or unknown."""
    assert_right_or_undecided(tmp_path, *S13_CASES[name])



# the reporter's own run introduced in words that elsewhere introduce examples, suggestions or
# narration, wrapped by another program, or switched by an engine flag: a "not the run" reader
# must not set it apart (value, class as ``assert_verdict`` takes them)
S13_NGRAM = f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"ngram\", \"num_speculative_tokens\": 4}}'"
S13_V0_EAGLE = (f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"eagle\", \"model\": "
                "\"yuhuili/EAGLE-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'")  # fmt: skip
S13_NGRAM_CRASH = [
    *VLLM_CRASH[:3],
    f'  File "{S13_SP}/vllm/v1/spec_decode/ngram_proposer.py", line 131, in propose',
    "    drafter_output = self.propose_numba(",
    "IndexError: index 32768 is out of bounds for axis 0 with size 32768",
]
S13_OWN_RUNS: dict[str, tuple[list[str], str, str]] = {
    "'For example, this is the command I run'": (thread(
        VLLM_REPO, "[Bug]: eagle3 dies under load", "2025-09-27", "For example, this is the command I run:",
        "```", S13_VLLM_E3, "```", "and after ~5 minutes:", "```", *VLLM_CORE_CRASH, "```",
        *s13_env("0.10.2"), number=13600), "other", "EagleProposer"),
    "a config 'based on the example in the docs'": (thread(
        TRT_REPO, "[Bug] Eagle3 crash with the docs config", "2025-10-03",
        "My config, based on the example in the docs:", "```yaml", *S13_TRT_E3, "```", "```", S13_TRT_SERVE,
        "```", "```", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0", *TRT_CRASH, "```", number=13601),
        "other", "Eagle3OneModelWorker"),
    "'You can reproduce with' and 'you'll get'": (thread(
        SGL_REPO, "[Bug] EAGLE3 topk 8 crash", "2025-10-06", "You can reproduce with:", "```",
        S13_SGL_E3.replace("topk 1", "topk 8"), "```", "You'll get this after the first request:", "```",
        *SGL_CRASH, "```", *s13_sgl_env("0.5.3"), number=13602), "v1", "EAGLEWorker"),
    "a feature request whose motivation shows today's crash": (thread(
        VLLM_REPO, "[Feature]: make ngram robust to long prompts", "2025-10-14",
        "### 🚀 The feature, motivation and pitch", "Currently ngram crashes for prompts over 32k on 0.11.0:",
        "```", S13_NGRAM, "```", "```", *S13_NGRAM_CRASH, "```", labels="feature request", number=13603),
        "other", "NgramProposer"),
    "a maintainer's closing 'example usage' of another method": (
        thread(VLLM_REPO, "[Bug]: ngram crash with TP 2", "2025-10-16", "```", S13_NGRAM, "```", "```",
               *VLLM_CORE_CRASH, "```", *s13_env("0.11.0"), number=13604)
        + s13_post("maint", "comment", "2025-11-01", "Fixed in #27000. For more speed, example usage:", "```",
                   S13_VLLM_E3, "```"), "other", "NgramProposer"),
    "a 'Suggested fix' diff after the reporter's run": (thread(
        VLLM_REPO, "[Bug]: eagle3 index error", "2025-10-18", "```", S13_VLLM_E3, "```", "```", *VLLM_CORE_CRASH,
        "```", *s13_env("0.11.0"), "### Suggested fix", "```diff", "-    idx = last_token_indices[0]",
        "+    if len(last_token_indices) == 0:", "+        return None", "```", number=13606), "other", "EagleProposer"),
    "a fix PR with its own before/after run": (thread(
        VLLM_REPO, "[Bugfix] ngram proposer index overflow", "2025-09-03", "## Purpose",
        "Fixes the crash below, which I hit with:", "```", S13_NGRAM, "```", "```", *S13_NGRAM_CRASH, "```",
        "## Test Result", "| | before | after |", "|---|---|---|", "| tok/s | crash | 312 |",
        kind="pull request", labels="", number=13292), "other", "NgramProposer"),
    "Dynamo's vLLM worker with an MTP config is vLLM's": (thread(
        "ai-dynamo/dynamo", "[BUG]: MTP crash with the vLLM worker", "2025-09-15", "```",
        f"python3 -m dynamo.vllm --model {S13_DSR1} --tensor-parallel-size 8 --speculative-config "
        '\'{"method": "deepseek_mtp", "num_speculative_tokens": 1}\'', "```", "```", *VLLM_CRASH, "```",
        number=13900), "other", "EagleProposer"),
    "Triton's vLLM backend model.json": (thread(
        "triton-inference-server/vllm_backend", "EAGLE-3 model crashes Triton", "2025-10-01", "```json",
        f'{{"model": "{LLAMA}", "speculative_config": {{"method": "eagle3", "model": "{S13_E3}", '
        '"num_speculative_tokens": 3}}', "```", "```", *VLLM_CRASH, "```", number=13903), "other", "EagleProposer"),
    "VLLM_USE_V1=0 picks V0's proposer for eagle": (thread(
        VLLM_REPO, "[Bug]: EAGLE on V0 crashes with TP 2", "2025-05-10", "```", f"VLLM_USE_V1=0 {S13_V0_EAGLE}",
        "```", "```", *V0_CRASH, "```", *s13_env("0.8.5"), number=13800), "other", "MultiStepWorker"),
    "VLLM_USE_V1=1 picks V1's proposer on the same release": (thread(
        VLLM_REPO, "[Bug]: EAGLE on V1 crash", "2025-05-11", "```", f"VLLM_USE_V1=1 {S13_V0_EAGLE}", "```", "```",
        *VLLM_CORE_CRASH, "```", *s13_env("0.8.5"), number=13803), "other", "EagleProposer"),
    "a continued command's --enable-multi-layer-eagle line is an option, not a goal": (thread(
        SGL_REPO, "[Bug] multi-layer EAGLE crash on MiMo", "2026-07-02", "```", "python3 -m sglang.launch_server \\",
        "  --model-path XiaomiMiMo/MiMo-V2-Flash \\", "  --tp 8 \\", "  --speculative-algorithm EAGLE \\",
        "  --enable-multi-layer-eagle \\", "  --speculative-num-steps 3 \\", "  --speculative-eagle-topk 1 \\",
        "  --speculative-num-draft-tokens 4", "```", "```", *SGL_CRASH, "```", *s13_sgl_env("0.5.14"), number=14200),
        "v2", "MultiLayerEagleWorkerV2"),
    "a benchmark PR's own config-details list is the run it benchmarks": (thread(
        "acme-bench/infer-matrix", "[NV] add DSR1-FP4 vLLM MTP B200 config", "2025-10-20", "## Summary",
        "Adds an MTP variant of the existing `dsr1-fp4-b200-vllm` config.", "## Config details",
        "- **Config key**: `dsr1-fp4-b200-vllm-mtp`", "- **Image**: `vllm/vllm-openai:v0.11.0`",
        f"- **Model**: `{S13_DSR1}`", "- **Speculative decoding**: MTP (`deepseek_mtp`, 1 speculative token)",
        *PROBE_CRASH, kind="pull request", labels="", number=14000), "other", "EagleProposer"),
    "a guide's command the reporter says they ran exactly": (thread(
        TRT_REPO, "[Bug] the Eagle3 guide's command crashes", "2025-10-03", "The guide says to run:", "```",
        S13_TRT_SERVE, "```", "```yaml", *S13_TRT_E3, "```", "I ran exactly that on 1.0.0 and got:", "```",
        "[TensorRT-LLM] TensorRT-LLM version: 1.0.0", *TRT_CRASH, "```", number=14500), "other", "Eagle3OneModelWorker"),
    "a maintainer's 'Try this:' the asker ran and crashed with": (
        thread(VLLM_REPO, "[Usage]: faster decoding for code completion?", "2025-10-10",
               "### How would you like to use vllm", "How can I speed up code completion?", labels="usage", number=14503)
        + s13_post("maint", "comment", "2025-10-10", "Try this:", "```", S13_NGRAM, "```")
        + s13_post("ivy", "comment", "2025-10-11", "With that it crashes on 0.11.0:", "```", *VLLM_CORE_CRASH, "```"),
        "other", "NgramProposer"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S13_OWN_RUNS))
def test_s13_the_reporters_own_run_still_decides(tmp_path: Path, name: str) -> None:
    lines, value, classes = S13_OWN_RUNS[name]
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), value, classes)


# blocks and sentences set apart as not the run (advice, examples, goals, docs, notes, narration,
# reading of source, another engine's clause), in other words than the study excerpts'
S13_QWEN = "Qwen/Qwen3-8B"
S13_CI_CRASH = [
    "FAILED tests/basic/test_prefill.py::test_long_prompt - AssertionError",
    "Traceback (most recent call last):",
    '  File "/workspace/tests/basic/test_prefill.py", line 61, in test_long_prompt',
    "AssertionError: output mismatch at request 3",
]
# a crash of a script outside every engine, by an absolute path
S13_APP_CRASH = ["Traceback (most recent call last):", '  File "/opt/app/bench.py", line 41, in <module>',
                 "    main()", "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
# the measure's probe: a crash by a relative path names no server (with an absolute one the
# run-shown gate keeps the thread: ADV board 16:12, s13 cl4/bm3)
S13_PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
             "RuntimeError: spectrace probe"]  # fmt: skip
S13_SET_APART: dict[str, tuple[list[str], Want]] = {
    "a reviewer's 'could you also try with' ngram config": (
        thread(VLLM_REPO, "[Bugfix] detokenizer off-by-one", "2025-09-30", "Fixes the CI failure below.", "```",
               *S13_CI_CRASH, "```", kind="pull request", labels="", number=14600)
        + s13_post("rev-a", "review", "2025-10-01", "Could you also try with", "```",
                   '--speculative-config \'{"method": "ngram", "num_speculative_tokens": 5}\'', "```",
                   "on 0.11.1 so the drafter path is covered?"), NOT_SHOWN),
    "a review thread suggesting an Eagle3 YAML case": (
        thread(TRT_REPO, "[None][fix] block reuse with chunked prefill", "2025-11-02", "Fixes block reuse.", "```",
               *S13_CI_CRASH, "```", kind="pull request", labels="", number=14601)
        + s13_post("rev-b", "review thread", "2025-11-03", "tests/integration/defs/test_e2e.py:412",
                   "Suggest adding a case with", "```yaml", *S13_TRT_E3, "```"), NOT_SHOWN),
    "a maintainer's closing 'Example usage' in a feature request": (
        thread(VLLM_REPO, "[Feature]: EAGLE-3 drafts for Gemma-3", "2025-06-02", "Please support EAGLE-3 for Gemma-3.",
               labels="feature request", number=14602)
        + s13_post("maint", "comment", "2025-07-25", "Supported since 0.10.0. Example usage:", "```",
                   f'vllm serve google/gemma-3-27b-it --speculative-config \'{{"method": "eagle3", "model": "org/e3-gemma3", "num_speculative_tokens": 3}}\'',
                   "```", "Closing.") + S13_PROBE, NOT_SHOWN),
    "a PR's '## Example usage' for the method it adds": (thread(
        VLLM_REPO, "[Spec Decode] EAGLE-3 for Phi-4", "2025-11-20", "## Purpose", "Adds Phi-4 targets to EAGLE-3.",
        "## Example usage", "```",
        'vllm serve microsoft/phi-4 --speculative-config \'{"method": "eagle3", "model": "org/e3-phi4", "num_speculative_tokens": 3}\'',
        "```", *S13_PROBE, kind="pull request", labels="", number=14603), NOT_SHOWN),
    "a doc issue quoting the quick start's trtllm-serve and YAML": (thread(
        TRT_REPO, "[Doc] Eagle3 quick start misses the backend", "2025-10-01", "The quick start shows:", "```",
        S13_TRT_SERVE, "```", "```yaml", *S13_TRT_E3, "```", "Which release does it need?", *S13_PROBE,
        labels="documentation", number=14604), NOT_SHOWN),
    "a plugin PR that adds support for a method": (thread(
        "ROCm/vllm", "Support qwen3_next_mtp on MI355X", "2025-10-10", "This PR adds support for",
        '`--speculative-config \'{"method": "qwen3_next_mtp", "num_speculative_tokens": 2}\'` (vLLM 0.10.2 base).',
        *S13_PROBE, kind="pull request", labels="", number=14606), NOT_SHOWN),
    "a fix PR reasoning from the v2 worker's source": (thread(
        SGL_REPO, "[Spec] guard the draft index in EAGLEWorkerV2", "2026-03-05",
        "In 0.5.9 `eagle_worker_v2.py` reads `accept_length` before clamping; this can index past the end.",
        "No repro yet, found while reading.", *S13_PROBE, kind="pull request", labels="", number=14607), NOT_SHOWN),
    "release notes naming MRV2's speculator": (thread(
        VLLM_REPO, "v0.23.0", "2026-06-02", "## Highlights",
        "* The model runner v2 is the default for dense models (EagleSpeculator for eagle/eagle3)",
        "## What's Changed", "* [Spec Decode] EagleProposer: fix draft CUDA graphs by @x in #41001",
        *S13_PROBE, kind="release", labels="", number=14608), NOT_SHOWN),
    "second-person narration naming a method and a release": (thread(
        VLLM_REPO, "Blog: tuning speculative decoding", "2025-09-01",
        "Once you've turned on ngram speculation on vLLM 0.10.2, you'll see the acceptance rate in the log.",
        "If it is low, you should raise prompt_lookup_max.", *S13_PROBE, kind="discussion", labels="",
        number=14609), NOT_SHOWN),
    "another engine's method in a comparison over a plain SGLang run": (thread(
        SGL_REPO, "[Bug] crash where vLLM works", "2025-10-01",
        "vLLM 0.10.2 with eagle3 speculative decoding works for the same model.", "SGLang (no speculation) crashes:",
        "```", f"{SGL} --tp 2", "```", "```", *SGL_CRASH, "```", *s13_sgl_env("0.5.3"), number=14610), NONE),
    "a fallback engine's method over a plain SGLang run": (thread(
        SGL_REPO, "[Bug] scheduler crash under load", "2025-10-20",
        "Our fallback is vLLM + eagle3 (0.10.2), but we'd like to stay on SGLang.", "```", f"{SGL} --tp 2", "```",
        "```", *SGL_CRASH, "```", *s13_sgl_env("0.5.4"), number=14611), NONE),
    "a model named Eagle (NVIDIA's VLM) served plain": (thread(
        VLLM_REPO, "[Bug]: Eagle2.5-8B image input crash", "2025-10-27", "```",
        "vllm serve nvidia/Eagle2.5-8B --trust-remote-code --max-model-len 16384", "```", "```", *VLLM_CRASH, "```",
        *s13_env("0.11.0"), number=14301), NONE),
    "a sampling parameter holding 'ngram'": (thread(
        VLLM_REPO, "[Bug]: crash with logits processors", "2025-10-26", "```", S13_VLLM, "```",
        'Request: `{"prompt": "hi", "max_tokens": 64, "no_repeat_ngram_size": 3}`', "```", *VLLM_CRASH, "```",
        *s13_env("0.11.0"), number=14300), NONE),
    "a pasted --help listing of the speculative options over a plain launch": (thread(
        SGL_REPO, "[Bug] which option fixes this crash?", "2025-10-30", "Options I looked at (`--help`):", "```",
        "  --speculative-algorithm {EAGLE,EAGLE3,NEXTN,STANDALONE,NGRAM}", "                        Speculative algorithm.",
        "  --speculative-num-steps SPECULATIVE_NUM_STEPS", "```", "My launch:", "```", f"{SGL} --tp 2", "```", "```",
        *SGL_CRASH, "```", *s13_sgl_env("0.5.4"), number=14305), NONE),
    "a closing 'Sample command:' in a feature request": (
        thread(VLLM_REPO, "[Feature]: EAGLE-3 for Qwen3", "2025-06-02", "Please support EAGLE-3 drafts for Qwen3.",
               labels="feature request", number=14401)
        + s13_post("maint", "comment", "2025-07-25", "Supported in 0.10.0. Sample command:", "```", S13_VLLM_E3, "```")
        + S13_PROBE, NOT_SHOWN),
    "a doc issue: 'The README shows:' a trtllm-serve Eagle3 block": (thread(
        TRT_REPO, "[Doc] Eagle3 example unclear", "2025-10-02", "The README shows:", "```", S13_TRT_SERVE, "```",
        "```yaml", *S13_TRT_E3, "```", "Which release does this need?", *S13_PROBE, labels="documentation",
        number=14432), NOT_SHOWN),
    "a maintainer quoting draft release notes, over an app's crash by an absolute path": (
        thread(TRT_REPO, "When does 1.2 ship?", "2026-01-10", "Waiting for the next release.", labels="question",
               number=14612)
        + s13_post("maint", "comment", "2026-01-11", "From the draft notes of 1.2.0:",
                   "> - Eagle3 dynamic tree (Eagle3OneModelDynamicTreeWorker)", "> - MTP Eagle with the overlap scheduler")
        + S13_APP_CRASH, NOT_SHOWN),
    "a PR's '## Example usage' over an app's crash by an absolute path": (thread(
        VLLM_REPO, "[Spec Decode] add EAGLE-3 for Mistral", "2025-11-20", "## Purpose", "Adds Mistral targets to EAGLE-3.",
        "## Example usage", "```",
        'vllm serve mistralai/Mistral-Small-24B --speculative-config \'{"method": "eagle3", "model": "org/e3-mistral", "num_speculative_tokens": 3}\'',
        "```", *S13_APP_CRASH, kind="pull request", labels="", number=14613), NOT_SHOWN),
    "another engine's method in a table over a plain TensorRT-LLM run": (thread(
        TRT_REPO, "[Bug] crash under load with Llama-3.1-8B", "2025-09-30", "| engine | method | tok/s |", "|---|---|---|",
        "| vLLM 0.10.2 | ngram | 300 |", "| TRT-LLM 1.0.0 | none | 280 |", "Our TRT server (no speculation) crashes:",
        "```", f"trtllm-serve {LLAMA} --backend pytorch --tp_size 2", "```", "```", *TRT_CRASH, "```", number=14614), NONE),
    "another engine's method in an aside over a plain TensorRT-LLM run": (thread(
        TRT_REPO, "[Bug] executor crash at high concurrency", "2025-10-22",
        "(SGLang 0.5.4 with EAGLE3 handles the same traffic.)", "```", f"trtllm-serve {LLAMA} --backend pytorch --tp_size 2",
        "```", "```", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0", *TRT_CRASH, "```", number=14615), NONE),
    "a plugin PR worded 'This PR enables'": (thread(
        "ROCm/vllm", "This PR enables deepseek_mtp on MI300X", "2025-10-10",
        'This PR enables `--speculative-config \'{"method": "deepseek_mtp", "num_speculative_tokens": 1}\'` on MI300X.',
        *S13_PROBE, kind="pull request", labels="", number=14616), NOT_SHOWN),
    "a reviewer's 'nit: maybe also test with'": (
        thread(VLLM_REPO, "[Bugfix] chunked prefill with long prompts", "2025-09-30", "Fixes the CI failure below.", "```",
               *S13_CI_CRASH, "```", kind="pull request", labels="", number=14617)
        + s13_post("reviewer-a", "review", "2025-10-01", "nit: maybe also test with", "```",
                   '--speculative-config \'{"method": "ngram", "num_speculative_tokens": 3}\'', "```"), NOT_SHOWN),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S13_SET_APART))
def test_s13_advice_examples_goals_and_notes_name_no_run(tmp_path: Path, name: str) -> None:
    assert_right_or_undecided(tmp_path, *S13_SET_APART[name])


# --- session 14 (ADV s14 harness): the run-shown gate opened up, image tags as releases -------
# Traps an open gate decides (measured with every gate off, /work/coord/exp_nogate.md) and runs
# across repository kinds that must keep deciding. Our own texts, in the collectors' shape; a text
# with no crash gets the measure's probe (a relative path, S13_PROBE).
S14_E3 = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
S14_E3_JSON = f'{{"method": "eagle3", "model": "{S14_E3}", "num_speculative_tokens": 3}}'
S14_SGL_MTP = ("--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
               "--speculative-num-draft-tokens 4")  # fmt: skip
S14_TRT_E3 = ["speculative_config:", "  decoding_type: Eagle3", "  max_draft_len: 3",
              f"  speculative_model_dir: {S14_E3}", "  eagle3_one_model: true"]  # fmt: skip
S14_RECIPES = "SemiAnalysisAI/InferenceX"


def s14_thread(repo: str, kind: str, title: str, day: str, *body: str, state: str = "open") -> list[str]:
    """A thread as the collectors save it: header, title, the first post's byline, no labels."""
    return [f"{repo} · {kind} #4242 · {state} · Python", f"# {title}", "", f"ivy · description · {day}", *body]


def s14_sweep(run_id: int, image: str, row: str) -> list[str]:
    """A recipe bot's report of a sweep that ran: the run, the image and one result row."""
    return [f"**Initial attempt · Succeeded** · Run {run_id} / attempt 1", f"`{image}` · Mean latency",
            "| Point | Output tok/s/GPU | TTFT ms | TPOT ms |", "| --- | ---: | ---: | ---: |", row]  # fmt: skip


S14_NO_RUN: dict[str, list[str]] = {
    "an SGLang refactor PR of the v2 worker with a release in its title": s14_thread(
        SGL_REPO, "pull request", "[Refactor] split EAGLEWorkerV2.forward_batch_generation for 0.5.12",
        "2026-05-18", "## Motivation", "`eagle_worker_v2.py` is long; move the draft step into a helper.",
        "## Checklist", "- [x] Format your code", state="merged"),
    "a TensorRT-LLM feature PR wiring MTP Eagle for a new model (release in the title)": s14_thread(
        TRT_REPO, "pull request", "[TRTLLM-8123][feat] MTP Eagle one-model for Qwen3.5 (1.3.0rc5)", "2026-05-02",
        "Adds `MTPEagleWorker` support for Qwen3.5. Set `mtp_eagle_one_model: true` and",
        "`num_nextn_predict_layers: 3` to use it.", "## Test Coverage", "- test_mtp.py (to be added)"),
    "an SGLang PR adding NGRAM for hybrid models, accuracy tests TODO": s14_thread(
        SGL_REPO, "pull request", "Support NGRAM speculative decoding for hybrid Mamba models (v0.5.9)",
        "2026-02-20", "NGRAMWorker assumed a full-attention pool; this copies mamba states on accept.",
        "## Accuracy Tests", "TODO"),
    "a vllm-ascend PR porting DSpark, to be tested after a kernel lands": s14_thread(
        ASCEND_REPO, "pull request", "[Feat] DSpark proposer for vllm-ascend v0.25.0rc1", "2026-07-20",
        "### How was this patch tested?", "Will add e2e after the kernel lands.", "- vLLM version: v0.25.0"),
    "a usage question on an image tag, deploying next week": s14_thread(
        VLLM_REPO, "issue", "[Usage]: num_speculative_tokens for mtp with vllm/vllm-openai:v0.20.0", "2026-05-03",
        "### How would you like to use vllm", "Is `num_speculative_tokens: 2` allowed with method `mtp` on the",
        "v0.20.0 image, or must it be 1? I plan to deploy next week."),
    "a training tool's example pinning a vLLM release for an export check": s14_thread(
        "NVIDIA/TensorRT-Model-Optimizer", "issue", "EAGLE3 export check needs vllm 0.11.0", "2025-10-22",
        "The speculative decoding example verifies the exported eagle3 draft with vLLM, but the pinned",
        "`vllm==0.11.0` conflicts with torch 2.9. Can the pin move?"),
    "a training repo bumping its vLLM pin for its eagle3 and mtp converters": s14_thread(
        "vllm-project/speculators", "pull request", "Bump vllm to 0.16.0 for eagle3 and mtp converters",
        "2026-03-02", "Converters for eagle3 and mtp checkpoints now need `vllm>=0.16.0`.", "## Tests",
        "unit tests only", state="merged"),
    "a plain recipe's TensorRT-LLM image bump with an MTP follow-up box": s14_thread(
        S14_RECIPES, "pull request", "Bump gptoss-fp4-gb200-trt to nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc10",
        "2026-06-14", "Plain decode recipe, image bump only.", "## Follow-ups", "- [ ] an MTP variant once 1.3.0 is out"),
    "an image bump of the plain sibling while the MTP recipe stays": s14_thread(
        S14_RECIPES, "pull request", "Update dsv4-fp4-b300-vllm (STP only) to v0.24.0", "2026-07-05",
        "Bumps `dsv4-fp4-b300-vllm` to `vllm/vllm-openai:v0.24.0`.",
        "The `dsv4-fp4-b300-vllm-mtp` recipe is not part of this PR.",
        "## Test plan", "- [ ] sweep"),
    "dependabot's bump quoting an engine's release notes": s14_thread(
        "acme/chat-app", "pull request", "Bump sglang from 0.5.13 to 0.5.14", "2026-06-27",
        "Bumps sglang from 0.5.13 to 0.5.14.", "Release notes", "> - EAGLE3 spec v2 with DP attention",
        "> - NEXTN for GLM-5", state="merged"),
    "a task plan comparing two runners' eagle3 paths on a release, due later": s14_thread(
        VLLM_REPO, "issue", "[Task]: compare EagleSpeculator (MRV2) and EagleProposer on v0.23.0", "2026-06-12",
        "### Deliverables", "- [ ] acceptance table for bs 1/8/64", "### Due", "2026-06-30"),
    "a release test plan listing the algorithms to run before tagging": s14_thread(
        SGL_REPO, "issue", "[Release] v0.5.17 speculative decoding test plan", "2026-08-01", "To run before tagging:",
        "| algo | model | tp | owner |", "|---|---|---|---|", "| EAGLE3 | Llama-3.1-8B | 1 | @a |",
        "| NEXTN | DeepSeek-R1 | 8 | @b |", "Results will be posted below."),
    "a docs PR adding a k8s manifest with list-form eagle3 args": s14_thread(
        "llm-d/llm-d", "pull request", "docs: add an EAGLE3 example manifest", "2026-03-03", "```diff",
        "+containers:", "+- name: vllm", "+  image: vllm/vllm-openai:v0.16.0", "+  args:",
        "+  - --speculative-config", f"+  - '{S14_E3_JSON}'", "```", state="merged"),
    "a README table of engine images and the methods they support": s14_thread(
        S14_RECIPES, "pull request", "README: supported engine images", "2026-06-02", "```diff",
        "+| engine | image | speculative |", "+|---|---|---|", "+| vLLM | vllm/vllm-openai:v0.22.0 | MTP, EAGLE3 |",
        "+| SGLang | lmsysorg/sglang:v0.5.13 | EAGLE MTP |", "```", state="merged"),
    "a recipe titled -mtp whose review bot says no speculative flag is wired": s14_thread(
        S14_RECIPES, "pull request", "Add dsr1-fp8-mi355x-sglang-mtp", "2026-08-22",
        "Adds the recipe with `lmsysorg/sglang:v0.5.17-rocm700-mi35x`.", "", "claude[bot] · review · 2026-08-22",
        "The script never passes `--speculative-algorithm`; as written this runs the plain (non-MTP)",
        "server. Please wire the MTP flags or rename."),
    "a CI job added with an image and EAGLE3 flags, first run tonight": s14_thread(
        SGL_REPO, "pull request", "[CI] nightly EAGLE3 accuracy job", "2026-09-02", "```diff", "+  spec-eagle3:",
        "+    container: lmsysorg/sglang:v0.5.19",
        f"+    run: {SGL} --speculative-algorithm EAGLE3 --speculative-draft-model-path {S14_E3}",
        "```", "First run will happen tonight."),
    "a discussion quoting two blogs' numbers with their releases": s14_thread(
        VLLM_REPO, "discussion", "Is eagle3 worth it?", "2025-11-03",
        "The vLLM blog reports 2.1x with eagle3 on v0.11.0 for Llama-3.1-8B; the SGLang blog says 2.4x",
        "with EAGLE3 on 0.5.3. Has anyone here measured it?"),
    "an engine's --help listing of the speculative flags with its version": s14_thread(
        SGL_REPO, "issue", "[Question] which flags enable MTP?", "2026-07-10",
        "`sglang 0.5.14`, `python3 -m sglang.launch_server --help` shows:", "```",
        "  --speculative-algorithm {EAGLE,EAGLE3,NEXTN,STANDALONE,NGRAM}", "                        Speculative algorithm.",
        "```", "Which one is MTP?"),
    "a chart's values with commented-out list-form EAGLE3 args": s14_thread(
        SGL_REPO, "pull request", "[Helm] add extraArgs to the chart", "2026-07-12", "```diff",
        "+image: lmsysorg/sglang:v0.5.14", "+extraArgs: []", "+# extraArgs:", "+#   - --speculative-algorithm",
        "+#   - EAGLE3", "```", state="merged"),
    "a question whether a release has DSpark": s14_thread(
        VLLM_REPO, "issue", "[Usage]: DSpark with vLLM 0.26.0?", "2026-07-22", "### How would you like to use vllm",
        "Is `method: dspark` available for DeepSeek-V4-Flash on 0.26.0, or only on main?"),
    "a plugin's docs PR with a list-form deepseek_mtp manifest on its image": s14_thread(
        ASCEND_REPO, "pull request", "[Doc] multi-node DeepSeek-V3.2 MTP deployment on A3", "2026-01-05", "```diff",
        "+  image: quay.io/ascend/vllm-ascend:v0.13.0rc1", "+  args:", "+  - --speculative-config",
        "+  - '{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 1}'", "```", state="merged"),
    "a task issue comparing two runners on a release, deliverables unchecked": s14_thread(
        VLLM_REPO, "issue", "[Task]: compare EagleSpeculator and EagleProposer for eagle3 on v0.23.0", "2026-06-12",
        "### Goal", "Acceptance length and TPOT for eagle3 on Llama-3.1-8B with both runners.", "### Deliverables",
        "- [ ] table for bs 1/8/64", "### Due", "2026-06-30"),
    "a config asked about before deploying": s14_thread(
        TRT_REPO, "issue", "[Question] is this Eagle3 config right for 1.2.0?", "2026-02-03", "Before I deploy:",
        "```yaml", *S14_TRT_E3, "```", "Is `max_draft_len: 3` sensible for Llama-3.3-70B?"),
    "a plain recipe whose reviewer's checklist names families as a category": s14_thread(
        S14_RECIPES, "pull request", "Add qwen3-235b-fp8-h200-vllm (no speculative decoding)", "2026-08-01",
        "Plain recipe on `vllm/vllm-openai:v0.24.0`.", "", "rev-4 · review · 2026-08-02",
        "- [x] Verified the image tag exists",
        "- [x] Verified that speculative-decoding configs (EAGLE / MTP / draft models) run with the chat template",
        state="merged"),
    "a plain TensorRT-LLM recipe whose checklist rule lists Eagle3, MTP and NGram": s14_thread(
        S14_RECIPES, "pull request", "Add gptoss-fp4-b200-trt (plain)", "2026-06-20",
        "Plain decode recipe with `nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc10`.", "## Checklist",
        "- [x] Recipes that use speculative decoding (Eagle3, MTP or NGram) set `max_draft_len` in the YAML — not "
        "applicable here", state="merged"),
    "an operator PR that makes it possible to serve a method": s14_thread(
        "acme/llm-operator", "pull request", "Support speculative decoding in the SGLang runtime", "2025-09-20",
        "This change makes it possible to serve SGLang with EAGLE3 draft models through the CRD's `speculative` block.",
        state="merged"),
    "a wrapper's PR introducing a template that can run a method": s14_thread(
        "acme/serving-examples", "pull request", "Medusa template", "2024-05-10",
        "This PR introduces a deployment template that can run Medusa heads as part of TensorRT-LLM."),
    "a chart PR whose values let users deploy a method": s14_thread(
        "acme/charts", "pull request", "vLLM chart: speculative options", "2024-06-01",
        "Adds values so that the chart lets users deploy vLLM with ngram speculative decoding.", state="merged"),
    "a gateway PR that enables a method for an engine's backends": s14_thread(
        "acme/inference-gateway", "pull request", "Pass speculative options to TRT-LLM backends", "2025-10-05",
        "Enables MTP for TensorRT-LLM 1.0 backends by forwarding `speculative_config` from the route spec.",
        state="merged"),
    "an engine PR that disallows a two-model mode with the overlap scheduler": s14_thread(
        TRT_REPO, "pull request", "[None][fix] disallow eagle3_one_model=False with the overlap scheduler", "2025-11-20",
        "Since 1.1.0rc5 the two-model Eagle3 path (`ModelDrafter`) races with the overlap scheduler. This PR raises in",
        "`TorchLlmArgs.validate_speculative_config` when both are set.", state="merged"),
    "a title moving an SGLang MTP recipe to a ROCm image, nothing run (rounds 35-42: a trap)": s14_thread(
        S14_RECIPES, "pull request", "Update kimi-k2-fp8-mi355x-sglang-mtp to lmsysorg/sglang:v0.5.20-rocm700-mi35x",
        "2026-09-21", "This PR was written with an AI assistant.", state="merged"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S14_NO_RUN))
def test_s14_an_open_gate_still_finds_no_run_here(tmp_path: Path, name: str) -> None:
    """PRs that add, guard or refactor a method, questions, plans, pins, image bumps of other
    recipes, deletions and docs name a method and a release (often an image tag) and show no
    run: neither a class nor a condition, however far the run-shown gate opens."""
    for crash in roots(run(tmp_path, S14_NO_RUN[name] + S13_PROBE, name="report.md")):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


# runs shown across repository kinds: the class (value, class as ``assert_verdict`` takes them)
S14_RUNS: dict[str, tuple[list[str], str, str]] = {
    "a recipe PR pinning a vLLM image and eagle3 with a sweep that passed": (s14_thread(
        S14_RECIPES, "pull request", "Add llama3.1-8b-fp8-h100-vllm-eagle3 recipe", "2025-10-20",
        "New recipe on `vllm/vllm-openai:v0.11.0`, speculative decoding with",
        f"`--speculative-config '{S14_E3_JSON}'`.", "## Test plan", "- [x] full sweep passes (run 30011)",
        state="merged"), "other", "EagleProposer"),
    "a recipe PR pinning an SGLang v2-only image with EAGLE MTP flags": (s14_thread(
        S14_RECIPES, "pull request", "Add dsr1-fp4-b200-sglang-mtp on v0.5.14", "2026-07-01",
        "Image `lmsysorg/sglang:v0.5.14-cu129`; flags:", "```", S14_SGL_MTP, "```", "## Test plan",
        "- [x] sweep passes, accept length 2.8", state="merged"), "v2", "EAGLEWorkerV2"),
    "a recipe PR pinning a TensorRT-LLM image and a one-model Eagle3 YAML": (s14_thread(
        S14_RECIPES, "pull request", "Add llama3.3-70b-fp8-b200-trt-eagle3", "2026-02-18",
        "Image `nvcr.io/nvidia/tensorrt-llm/release:1.2.0`; extra options:", "```yaml", *S14_TRT_E3, "```",
        "- [x] full-sweep-enabled sweep passes.", state="merged"), "other", "Eagle3OneModelWorker"),
    "a bot's sweep report of a vLLM mtp recipe": (s14_thread(
        S14_RECIPES, "pull request", "[Bot] sweep dsv3-fp8-h200-vllm-mtp", "2026-03-02",
        *s14_sweep(42101, "vllm/vllm-openai:v0.16.0", "| 1k/1k c8 TP8 | 990 | 140 | 8.0 |"),
        "speculative_config: method=mtp, num_speculative_tokens=1; mean acceptance length 1.84."),
        "other", "EagleProposer"),
    "an engine PR's result table of its eagle3 serve": (s14_thread(
        VLLM_REPO, "pull request", "[Model] support eagle3 for ERNIE-4.5", "2026-01-20", "## Test Result",
        "`vllm serve baidu/ERNIE-4.5-21B-A3B-PT --speculative-config '{\"method\": \"eagle3\", "
        "\"model\": \"org/ernie-eagle3\", \"num_speculative_tokens\": 3}'`",
        "| bs | baseline tok/s | eagle3 tok/s | accept len |", "|---|---|---|---|", "| 1 | 110 | 231 | 2.94 |",
        state="merged"), "other", "EagleProposer"),
    "a test plan whose checked box ran an SGLang EAGLE launch": (s14_thread(
        SGL_REPO, "pull request", "Fix EAGLE accept length with chunked prefill", "2025-08-20", "## Checklist",
        f"- [x] Verified with `{S14_SGL_MTP}`", "  on sglang 0.5.1: accept length 2.9 (was 1.6)",
        state="merged"), "v1", "EAGLEWorker"),
    "an RL trainer's rollout config with mtp over a vLLM crash": (s14_thread(
        "volcengine/verl", "issue", "MTP rollout crashes after weight sync", "2025-12-20", "```yaml",
        "actor_rollout_ref:", "  rollout:", "    name: vllm", "    speculative_config:", "      method: mtp",
        "      num_speculative_tokens: 1", "```", "vllm==0.12.0", "```", *VLLM_CRASH, "```"),
        "other", "EagleProposer"),
    "a k8s manifest's list-form args on a vLLM image over a crash": (s14_thread(
        "llm-d/llm-d", "issue", "decode pod crashloops with eagle3", "2025-10-25", "```yaml", "containers:",
        "- name: vllm", "  image: vllm/vllm-openai:v0.11.0", "  args:", f"  - {LLAMA}", "  - --speculative-config",
        f"  - '{S14_E3_JSON}'", "```", "```", *VLLM_CRASH, "```"), "other", "EagleProposer"),
    "a forum post running an SGLang image with NEXTN": ([
        "https://forum.example.org/t/sglang-nextn-crash/88", "NEXTN crash on lmsysorg/sglang:v0.5.16-cu129", "",
        "ivy · 2026-08-01", "```", f"{SGL} --tp 8 --speculative-algorithm NEXTN --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "```", "```", *SGL_CRASH, "```"],
        "v2", "EAGLEWorkerV2"),
    "SGLang flags pasted without the launch prefix, an old release": (s14_thread(
        SGL_REPO, "issue", "[Bug] EAGLE3 output repeats", "2025-08-25", "Flags:", "```",
        f"--model-path {LLAMA} --tp 2 --speculative-algorithm EAGLE3 --speculative-draft-model-path {S14_E3} "
        "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "```",
        "sglang: 0.5.1", "Outputs repeat after ~200 tokens."), "v1", "EAGLEWorker"),
    "a recipe image bump with a bot's passed sweep on the new SGLang image": (s14_thread(
        S14_RECIPES, "pull request", "Update dsr1-fp8-h200-sglang-mtp SGLang image to v0.5.21", "2026-10-03",
        "Recipes touched: `dsr1-fp8-h200-sglang-mtp` (EAGLE MTP, steps 3 topk 1).", "", "ci-bot · comment · 2026-10-03",
        *s14_sweep(41007, "lmsysorg/sglang:v0.5.21", "| 1k/1k c32 TP8 | 2210 | 150 | 7.7 |"), state="merged"),
        "v2", "EAGLEWorkerV2"),
    "a title bumping a vLLM (+mtp) recipe's image, recipe names only": (s14_thread(
        S14_RECIPES, "pull request", "Update glm4.6-fp8-h200-vllm (+mtp) vLLM image to v0.21.0", "2026-05-20",
        "Recipes touched: `glm4.6-fp8-h200-vllm`, `glm4.6-fp8-h200-vllm-mtp`", "- [x] full-sweep-enabled sweep passes.",
        state="merged"), "other", "EagleProposer"),
    "a title moving an SGLang MTP recipe to a ROCm image, its sweep passed": (s14_thread(
        S14_RECIPES, "pull request", "Update kimi-k2-fp8-mi355x-sglang-mtp to lmsysorg/sglang:v0.5.20-rocm700-mi35x",
        "2026-09-21", "This PR was written with an AI assistant.", "- [x] full-sweep-enabled sweep passes.",
        state="merged"), "v2", "EAGLEWorkerV2"),
    "a TensorRT-LLM two-model Eagle3 bug told in its title, July 2025": (s14_thread(
        TRT_REPO, "issue", "[Bug] Eagle3 two-model mode hangs at batch 64", "2025-07-20",
        "Using the separate draft model (two-model) Eagle3 path with trtllm-serve, requests hang at batch 64."),
        "other", "ModelDrafter"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S14_RUNS))
def test_s14_a_run_shown_in_any_repository_kind_decides(tmp_path: Path, name: str) -> None:
    """Recipe PRs with a passed sweep, bot sweep reports, result tables, checked test plans, RL
    rollout configs, k8s args, forum posts and bare flags show the run: a narrowed gate that
    drops them loses right verdicts (round 32 lost eight this way)."""
    lines, value, classes = S14_RUNS[name]
    crashes = roots(run(tmp_path, lines if "Traceback" in "".join(lines) else lines + S13_PROBE, name="report.md"))
    assert crashes, "the crash was lost"
    assert_verdict(crashes[0].worker_path, value, classes)


# an image tag beside the run that is not the crashing run's (moved off, last good, the fix) or
# carries another project's release (Dynamo's runtime): the run's class, a condition holding it,
# or unknown
S14_SGL_E3 = (f"{SGL} --speculative-algorithm EAGLE3 --speculative-draft-model-path {S14_E3} "
              "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")  # fmt: skip
S14_IMAGES: dict[str, tuple[list[str], Want]] = {
    "moved off an old image to a source build of main": (s14_thread(
        SGL_REPO, "issue", "[Bug] EAGLE3 crash on main", "2026-08-20",
        "We moved off `lmsysorg/sglang:v0.5.2-cu126` last month and now run a source build of main (2026-08-18).",
        "```", S14_SGL_E3, "```", "```", *SGL_CRASH, "```"), want("EAGLEWorkerV2")),
    "the last good image beside the env block's newer release": (s14_thread(
        SGL_REPO, "issue", "[Bug] EAGLE3 NaN after upgrade", "2026-07-03", "```", S14_SGL_E3, "```", "```", *SGL_CRASH,
        "```", "Last good image: `lmsysorg/sglang:v0.5.2-cu126`.", "### Environment", "```", "sglang: 0.5.14", "```"),
        want("EAGLEWorkerV2")),
    "the crash on an old image, a later 'works on' the new one": (s14_thread(
        SGL_REPO, "issue", "[Bug] EAGLE3 crash on the 0.5.2 image", "2025-09-05", "Image `lmsysorg/sglang:v0.5.2-cu126`:",
        "```", S14_SGL_E3, "```", "```", *SGL_CRASH, "```", "", "ivy · comment · 2026-07-01",
        "Update: works on `lmsysorg/sglang:v0.5.14`, closing."), want("EAGLEWorker")),
    "'works on' an old image, 'fails on' a newer release below": (s14_thread(
        SGL_REPO, "issue", "[Bug] EAGLE3 regression", "2026-07-02",
        "Works on `lmsysorg/sglang:v0.5.2-cu126`; fails on v0.5.14 (below).", "```", S14_SGL_E3, "```", "```",
        *SGL_CRASH, "```"), want("EAGLEWorkerV2")),
    "Dynamo's runtime tag is Dynamo's release, not SGLang's": (s14_thread(
        "ai-dynamo/dynamo", "issue", "[BUG]: SGLang MTP decode worker hangs", "2026-02-15",
        "Image `nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.6.1`", "```",
        f"python3 -m dynamo.sglang --model-path deepseek-ai/DeepSeek-R1 --tp 8 {S14_SGL_MTP}", "```", "```", *SGL_CRASH,
        "```"), want("EAGLEWorker", "EAGLEWorkerV2", decide=True)),
    "a plain run under a template checkbox listing the speculative algorithms": (s14_thread(
        SGL_REPO, "issue", "[Bug] crash at startup with TP 4", "2026-07-15",
        "- [x] If the issue involves speculative decoding (EAGLE, EAGLE3, NGRAM), I attached the draft model name",
        "```", f"{SGL} --tp 4", "```", "```", *SGL_CRASH, "```", "### Environment", "```", "sglang: 0.5.14", "```"),
        NONE),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S14_IMAGES))
def test_s14_an_image_tag_that_is_not_the_runs_never_decides_wrongly(tmp_path: Path, name: str) -> None:
    assert_right_or_undecided(tmp_path, *S14_IMAGES[name])


# --- session 15: a wanted feature's configuration is no run (kserve-like requests quoting an
# ``LLM(...)`` constructor "as an example"; study 36 19), and the controls that still decide
S15_WISHED: dict[str, list[str]] = {
    "a feature-labelled request whose example constructor's head line the scan drops": [
        "acme/model-gateway · issue #310 · closed · Go", "labels: help wanted, kind/feature",
        "# vLLM runtime: pass a draft model through", "", "ivy · description · 2024-08-01",
        "The runtime should forward the draft model to the engine. An example:", "", "```",
        "engine = LLM(", f'    model="{LLAMA}",', "    tensor_parallel_size=2,",
        '    speculative_model="acme/llama-68m",', "    num_speculative_tokens=4,", ")", "```",
        "Today the extra arguments are dropped."],
    "a wish title over a one-line constructor 'something like'": s14_thread(
        "acme/serve-kit", "issue", "Allow speculative decoding options in the model config", "2025-03-02",
        "Something like", "```python",
        f'LLM(model="{LLAMA}", speculative_model="[ngram]", num_speculative_tokens=4, ngram_prompt_lookup_max=4)',
        "```", "would be great."),
    "an enhancement-labelled issue wanting to pass a speculative-config": [
        "acme/inference-chart · issue #77 · open · Go", "labels: enhancement", "# values.yaml: extra engine args",
        "", "ivy · description · 2026-02-10", "I would like the chart to pass this through:",
        f"`vllm serve {LLAMA} --speculative-config '{S14_E3_JSON}'`"],
}  # fmt: skip


@pytest.mark.parametrize("name", list(S15_WISHED))
def test_s15_a_wanted_features_configuration_names_no_run(tmp_path: Path, name: str) -> None:
    for crash in roots(run(tmp_path, [*S15_WISHED[name], *S13_PROBE], name="report.md")):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


def test_s15_a_wish_worded_title_that_reports_a_failure_still_decides(tmp_path: Path) -> None:
    lines = s14_thread(VLLM_REPO, "issue", "Support for EAGLE3 fails on Llama-3.1 with TP 2", "2025-09-01",
                       "```", f"vllm serve {LLAMA} -tp 2 --speculative-config '{S14_E3_JSON}'", "```",
                       "```", *VLLM_CRASH, "```", "vllm==0.10.1.1")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), "other", "EagleProposer")


def test_s15_an_example_above_the_writers_own_crashing_launch_keeps_the_launch(tmp_path: Path) -> None:
    lines = s14_thread(VLLM_REPO, "issue", "[Bug]: ngram crash at batch 32", "2025-09-01",
                       "The docs give an example:", "```", "llm = LLM(", f'    model="{LLAMA}",',
                       '    speculative_config={"method": "eagle3", "model": "acme/e3", "num_speculative_tokens": 3},',
                       ")", "```", "", "Mine is different and it crashes:", "```",
                       f"vllm serve {LLAMA} --speculative-config '{{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}}'",
                       "```", "```", *VLLM_CRASH, "```", "vllm==0.10.1.1")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), "other", "NgramProposer")


# a pull request changing what writes commands for others (a config generator, a command builder,
# a template; study 35 04) or titled with a conventional-commit type of a code change ("feat: ...",
# study 34 06): the flags it shows are its output or its code under review, not a run
S15_CODE_PULLS: dict[str, list[str]] = {
    "a recipe site's generator that now emits an MTP config for H200": s14_thread(
        "acme/serving-recipes", "pull request", "GLM-5 FP8 H200: turn on MTP", "2026-07-08",
        "The recipe generator now emits `--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 3}'`",
        "for the GLM-5 FP8 H200 command.", state="merged"),
    "a docs site's command builder adding NEXTN flags on the line below": s14_thread(
        "acme/model-docs", "pull request", "DeepSeek-V4 on B200: speculative flags", "2026-09-01",
        "The command builder (`src/cmdBuilder.ts`) emits",
        "`--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4`",
        "for B200 targets.", state="merged"),
    "a deploy tool's launch template printing a TRT-LLM MTP config": s14_thread(
        "acme/deploy-kit", "pull request", "trtllm: MTP for DeepSeek-R1 on GB200", "2026-03-03",
        "The launch template now writes this to extra_llm_api_options.yaml:", "```yaml", "speculative_config:",
        "  decoding_type: MTP", "  num_nextn_predict_layers: 3", "```", state="open"),
    "a trainer's feat: PR whose only text is a bot's diff of speculative fields": [
        *s14_thread("acme/rl-trainer", "pull request", "[WIP] feat(engine): EAGLE3 drafts for the SGLang workers",
                    "2026-04-20", "## Description", "", "## Checklist", "- [ ] tests pass"),
        "", "review-bot[bot] · review thread · 2026-04-20", "trainer/config.py:210", "```diff",
        "+    speculative_algorithm: str | None = None", "+    speculative_num_steps: int = 3",
        "+    speculative_eagle_topk: int = 1", "```", "Consider validating the draft path."],
    "a refactor: PR moving a vLLM MTP recipe's config": s14_thread(
        "acme/serving-recipes", "pull request", "refactor(recipes): move the dsv4 mtp speculative config into a shared file",
        "2026-06-02", "`recipes/dsv4/mtp.yaml` now includes `speculative_config: {method: mtp, num_speculative_tokens: 2}`",
        "from `shared/spec.yaml`.", state="merged"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S15_CODE_PULLS))
def test_s15_a_pull_request_about_code_that_writes_commands_names_no_run(tmp_path: Path, name: str) -> None:
    for crash in roots(run(tmp_path, [*S15_CODE_PULLS[name], *S13_PROBE], name="report.md")):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


def test_s15_a_recipe_pr_validating_its_own_launch_still_decides(tmp_path: Path) -> None:
    """The control: a recipe PR that ran its command and shows the result is a run."""
    lines = s14_thread("acme/serving-recipes", "pull request", "GLM-5 FP8 H200: MTP recipe", "2026-05-20",
                       "Validated on 8xH200 with `vllm/vllm-openai:v0.21.0`:",
                       "`vllm serve zai-org/GLM-5-FP8 -tp 8 --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 3}'`",
                       "Output token throughput (tok/s): 5123.4", state="merged")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, *S13_PROBE], name="report.md")), "other", "EagleProposer")


def test_s15_a_fix_titled_pr_with_its_crash_still_decides(tmp_path: Path) -> None:
    lines = s14_thread("acme/serving-recipes", "pull request", "fix: dsv4 mtp recipe crashes on v0.21.0", "2026-05-22",
                       "`vllm serve deepseek-ai/DeepSeek-V4 -tp 8 --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'`",
                       "```", *VLLM_CRASH, "```", "vllm==0.21.0", state="merged")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), "other", "EagleProposer")


# a configuration asked about (English or Chinese, in the sentence or as a caption), a
# configuration other users reported, a file read in the source, a release announced, a pin
# wished for: none is the writer's run (s14/s15 harness sga, pa3, ep0, sr1, it0, tt0)
TRT_E3_ONE_S15 = ["speculative_config:", "  decoding_type: Eagle3", "  max_draft_len: 3",
                  f"  speculative_model_dir: {S14_E3}", "  eagle3_one_model: true"]  # fmt: skip
S15_NOT_THE_WRITERS: dict[str, list[str]] = {
    "an English question quoting SGLang flags and a release": s14_thread(
        SGL_REPO, "issue", "topk 4 and the overlap worker", "2026-08-02",
        "Does `--speculative-algorithm EAGLE3 --speculative-eagle-topk 4` still get the overlap worker on 0.5.16",
        "or do I need topk 1? Planning a deployment."),
    "a Chinese question quoting a vllm-ascend MTP config": s14_thread(
        ASCEND_REPO, "issue", "[Usage]: v0.13.0rc1 上的 MTP 配置", "2026-01-20",
        "能否在 v0.13.0rc1 上使用 `--speculative-config '{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 1}'`？"),
    "a question caption over a TensorRT-LLM YAML": s14_thread(
        TRT_REPO, "issue", "Eagle3 YAML for 1.2.0rc5", "2025-12-12",
        "Is the following config right for Llama-3.3-70B:", "```yaml", *TRT_E3_ONE_S15, "```"),
    "an engine PR citing what customers report with a config, release in the title": s14_thread(
        VLLM_REPO, "pull request", "[Bugfix] refuse eagle3 with pipeline parallel on v0.11.0", "2025-10-10",
        f"Customers report that `--speculative-config '{S14_E3_JSON}'` with `-pp 2` hangs at the first request;",
        "refuse the combination until the draft runs on the last stage.", state="merged"),
    "a fix PR from going through a multi-layer worker file": s14_thread(
        SGL_REPO, "pull request", "Fix: multi-layer EAGLE forgets the draft page size", "2026-08-10",
        "While going through `multi_layer_eagle_worker_v2.py` on 0.5.17 I noticed the page size is read once",
        "from `--speculative-num-draft-tokens`. Small fix.", state="open"),
    "a release announcement naming the methods it ships": s14_thread(
        TRT_REPO, "issue", "[Release] 1.3.0rc14", "2026-05-15",
        "Highlights: `decoding_type: Eagle3` one-model by default, `decoding_type: MTP` with attention DP."),
    "an image announcement title with NEXTN in the notes": s14_thread(
        SGL_REPO, "issue", "lmsysorg/sglang:v0.5.19 images are now available", "2026-09-20",
        "New: `--speculative-algorithm NEXTN` for GLM-5 on MI355X."),
    "a wish to pin an engine release for MTP rollouts": s14_thread(
        "volcengine/verl", "issue", "Pin vllm<0.11 for MTP rollouts until the sampler fix lands", "2025-10-08",
        "`vllm==0.11.0` changes the MTP sampler; keep `vllm==0.10.2` in requirements for now."),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S15_NOT_THE_WRITERS))
def test_s15_a_configuration_that_is_not_the_writers_run_names_no_run(tmp_path: Path, name: str) -> None:
    for crash in roots(run(tmp_path, [*S15_NOT_THE_WRITERS[name], *S13_PROBE], name="report.md")):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


def test_s15_a_chinese_question_about_the_writers_own_failing_launch_still_decides(tmp_path: Path) -> None:
    lines = s14_thread(VLLM_REPO, "issue", "[Bug]: eagle3 启动报错", "2025-09-03",
                       f"我用 `vllm serve {LLAMA} --speculative-config '{S14_E3_JSON}'` 启动后报错，是否是 bug？",
                       "```", *VLLM_CRASH, "```", "vllm==0.10.1.1")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), "other", "EagleProposer")


def test_s15_what_users_reported_and_the_writer_reproduced_still_decides(tmp_path: Path) -> None:
    lines = s14_thread(VLLM_REPO, "issue", "[Bug]: eagle3 with pipeline parallel hangs", "2025-09-03",
                       f"I reproduced what users reported: `vllm serve {LLAMA} -pp 2 --speculative-config '{S14_E3_JSON}'`",
                       "```", *VLLM_CRASH, "```", "vllm==0.10.1.1")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), "other", "EagleProposer")


def test_s15_an_image_title_that_reports_a_failure_still_decides(tmp_path: Path) -> None:
    lines = s14_thread(SGL_REPO, "issue", "v0.5.19 image is out but NEXTN crashes on GLM-5", "2026-09-21",
                       "```", f"{SGL} --tp 8 --speculative-algorithm NEXTN --speculative-num-steps 3 "
                       "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "```", "```", *SGL_CRASH, "```",
                       "sglang: 0.5.19")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, name="report.md")), "v2", "EAGLEWorkerV2")


# the control for the wish rule (the canary's class, in our own words): a feature-labelled issue
# wishing for an artifact whose body pastes the writer's current deployment and asks how to get
# more from it; the pasted launch is the writer's run
S15_WISH_BESIDE_RUN: dict[str, tuple[list[str], str, str]] = {
    "a vLLM docker launch under a wish for a draft checkpoint": ([
        "acme-ai/Orbit-LLM · issue #51 · open · Python", "labels: feature request",
        "# Release an EAGLE3 draft for Orbit-32B", "", "ivy · description · 2025-10-20",
        "We currently serve Orbit-32B like this:", "```",
        "docker run --gpus all vllm/vllm-openai:v0.11.0 \\", "  --model acme-ai/Orbit-32B --tensor-parallel-size 2 \\",
        f"  --speculative-config '{S14_E3_JSON}'", "```",
        "How can we get better throughput with it? An Orbit-specific draft would help.", "",
        "maint · comment · 2025-10-21", "Try `--max-num-seqs 64` meanwhile."], "other", "EagleProposer"),
    "an SGLang launch under a wish for an MTP head": ([
        "acme-ai/Orbit-LLM · issue #52 · open · Python", "labels: enhancement",
        "# Please add an MTP head to Orbit-32B", "", "ivy · description · 2026-09-20",
        "Our current deployment:", "```",
        f"python3 -m sglang.launch_server --model-path acme-ai/Orbit-32B --tp 2 {S14_SGL_MTP}", "```",
        "Acceptance is low with the generic draft; is an official head planned?"], "unknown", "EAGLEWorkerV2|EAGLEWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S15_WISH_BESIDE_RUN))
def test_s15_a_wish_beside_the_writers_pasted_deployment_keeps_the_deployment(tmp_path: Path, name: str) -> None:
    lines, value, classes = S15_WISH_BESIDE_RUN[name]
    assert_verdict(crash_path(run(tmp_path, [*lines, *S13_PROBE], name="report.md")), value, classes)


# the s15 harness's most telling traps for this session's readers (family words with a tracker
# and a day, V0 files, file::function references, vllm-ascend version headings, TensorRT-LLM
# engine-flow words), and runs in the same shapes that must still decide
S15_READER_TRAPS: dict[str, tuple[list[str], Want]] = {
    "a NEXTN feature request on SGLang's tracker with a day": (s14_thread(
        SGL_REPO, "issue", "[Feature] NEXTN for Orbit-MoE", "2026-09-18",
        "Orbit-MoE ships one MTP layer. It would be great if `--speculative-algorithm NEXTN` accepted it."), NOT_SHOWN),
    "a question asking whether NEXTN is worth it, with vs without": (s14_thread(
        SGL_REPO, "issue", "[Question] is NEXTN worth it for GLM-4.6 at c=64?", "2026-09-12",
        "Has anyone compared throughput with vs without NEXTN? I plan to deploy on 0.5.17 next month."), NOT_SHOWN),
    "a docs issue with a release in its title": (s14_thread(
        SGL_REPO, "issue", "[Docs] v0.5.14 EAGLE3 page still passes --speculative-token-map", "2026-07-01",
        "The example on the docs site passes a removed flag."), NOT_SHOWN),
    "a [SPEC_V2] refactor with a CI-only body": (s14_thread(
        SGL_REPO, "pull request", "[SPEC_V2] move draft-extend bookkeeping into a helper", "2026-08-20",
        "Pure refactor of `eagle_worker_v2.py`.", "- [x] Format your code", state="merged"), NOT_SHOWN),
    "a V0 deprecation PR listing V0 files": (s14_thread(
        VLLM_REPO, "pull request", "[V0 Deprecation] remove vllm/spec_decode", "2025-06-03",
        "Removes `vllm/spec_decode/spec_decode_worker.py` and `vllm/spec_decode/multi_step_worker.py`.",
        state="merged"), NOT_SHOWN),
    "a review citing gpu_model_runner.py::function on a refactor": ([
        *s14_thread(VLLM_REPO, "pull request", "[Refactor] aux hidden state plumbing", "2026-03-20", "CI only."),
        "", "rev · review · 2026-03-21",
        "`vllm/v1/worker/gpu_model_runner.py::_setup_eagle3_aux_hidden_state_outputs` still reads the old attribute."],
        NOT_SHOWN),
    "a vllm-ascend version heading over a plain launch": (s14_thread(
        ASCEND_REPO, "issue", "[Bug]: Qwen3-32B tool calling returns nothing", "2026-01-12", "0.13.0rc3:", "```bash",
        "vllm serve /models/Qwen3-32B --tensor-parallel-size 4 --enable-auto-tool-choice --tool-call-parser hermes",
        "```"), NONE),
    "a TensorRT-LLM roadmap naming Medusa and draft-target": (s14_thread(
        TRT_REPO, "issue", "Roadmap 2024 H2", "2024-06-20", "- [ ] Medusa in the C++ runtime (0.11)",
        "- [ ] draft-target with `--speculative_decoding_mode draft_tokens_external`"), NOT_SHOWN),
    "a fork's README listing V0 speculative flags": ([
        "https://github.com/acme/vllm-mi250/blob/main/README.md", "vllm-mi250", "", "acme · 2025-03-01",
        "Our fork of vLLM v0.6.6. Features:", "- speculative decoding with `--speculative-model` (V0 engine)"],
        NOT_SHOWN),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S15_READER_TRAPS))
def test_s15_a_readers_trap_never_decides_wrongly(tmp_path: Path, name: str) -> None:
    lines, wanted = S15_READER_TRAPS[name]
    for crash in roots(run(tmp_path, [*lines, *S13_PROBE], name="report.md")):
        path = crash.worker_path
        assert path is not None and _wrong(path, wanted) is None, (_wrong(path, wanted), path)
        if wanted is NOT_SHOWN:
            assert not path.conditional, path


S15_READER_RUNS: dict[str, tuple[list[str], str, str]] = {
    "NEXTN on and off told for the writer's own run, v2-only era": (s14_thread(
        SGL_REPO, "issue", "[Bug] NEXTN makes Orbit-MoE repeat after 8k tokens", "2026-10-04",
        "- [x] The bug persists in the latest version.",
        "I serve Orbit-MoE-FP8 on 8xH200. With NEXTN on, long answers repeat; with NEXTN off they do not."),
        "v2", "EAGLEWorkerV2"),
    "a Gaudi fork's ngram fix naming its V0 scorer file": (s14_thread(
        "HabanaAI/vllm-fork", "pull request", "fix ngram speculative decoding with batch size > 1", "2025-01-20",
        "With `--speculative-model [ngram]` and batch > 1 the scorer crashes in `vllm/spec_decode/batch_expansion.py`.",
        "Fixed the index and ran the benchmark again: OK.", state="merged"), "other", "NGramWorker"),
    "a V1 test plan with VLLM_USE_V1=1 and an EAGLE draft": (s14_thread(
        VLLM_REPO, "pull request", "[Spec Decode] fix EAGLE with prefix caching", "2025-06-15", "## Test Plan",
        f"`VLLM_USE_V1=1 vllm serve {LLAMA} --speculative-config '{{\"method\": \"eagle\", \"model\": \"acme/eagle-8b\", "
        "\"num_speculative_tokens\": 3}'`", "## Test Result", "Acceptance 0.71 before and after.", state="merged"),
        "other", "EagleProposer"),
    "a vllm-ascend version heading over an MTP launch": (s14_thread(
        ASCEND_REPO, "issue", "[Bug]: DeepSeek-V3.1 MTP wrong answers with graph mode", "2026-01-10", "0.13.0rc3:",
        "```bash", "vllm serve /data/DeepSeek-V3.1-w8a8 --tensor-parallel-size 16 "
        "--speculative-config '{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 1}'", "```"),
        "other", "MtpProposer"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(S15_READER_RUNS))
def test_s15_a_run_in_the_readers_shapes_decides(tmp_path: Path, name: str) -> None:
    lines, value, classes = S15_READER_RUNS[name]
    assert_verdict(crash_path(run(tmp_path, [*lines, *S13_PROBE], name="report.md")), value, classes)
