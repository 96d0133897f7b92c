"""Texts whose run is stated as not speculating, steps still to take, and a TensorRT-LLM fix PR
with no run of its own (issue 11, session 26, POST). Every line below is our own.

A write-up that states the crashing configuration's options beside "no speculative decoding"
(or introduces its whole command as one without the method) shows a plain run: a method it
names for a production setup or a patch list is another run's, and a speculative flag quoted
in a later step ("add `--speculative-config ...` once ... passes") is a plan. A TensorRT-LLM
pull request naming "vanilla MTP" in its title names the mode its code changes, no run's
setting, and a review bot's badge (an image inside a link) is none of its output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, roots, run

from spectrace.worker_path import WorkerPath


def probed(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path of the root causes (the text's own and a probe's)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]


# ---- the crashing config stated with no speculation; MTP only in production and patches -----

STATED = [
    ["acme/vllm-serving-notes · docs/incidents/node7_crash.md (commit 1a2b3c4d, 2026-03-02)", "",
     "# Node 7 crash write-up", "",
     "Profile B: `--enable-chunked-prefill --max-num-seqs 8`, with no speculative decoding.",
     "It crashed at request 212 of the load script.", "",
     "The live profile keeps MTP with two draft tokens and is untouched.",
     "Local patches baked in: K12 (MTP draft slot reuse guard), K13 (sampler index clamp).", "",
     "Engine: vLLM 0.19.1."],
    ["ops/llm-runbook-logs · reports/2026-07-bisect.md (commit 9f8e7d6c, 2026-07-14)", "",
     "# Bisect of the overnight failure", "",
     "Variant C: `--kv-cache-dtype fp8 --enable-prefix-caching`, spec decode: none.",
     "It died at request 310 under the soak script.", "",
     "Production keeps its EAGLE-3 drafter at k=4; nothing changes there.",
     "Patch set in the image: P7 (eagle hidden-state copy), P9 (scheduler guard).", "",
     "Engine: vLLM 0.20.0."],
    ["team/infer-logs · notes/2026-08-soak.md (commit 5e6f7a8b, 2026-08-02)", "",
     "# Soak failure, build 41", "",
     "Arm D was `--enable-prefix-caching --max-num-batched-tokens 4096` without speculative decoding.",
     "It fell over at request 97 of the replay.", "",
     "The serving fleet stays on MTP (k=2) meanwhile.",
     "Carried patches: Q3 (mtp draft buffer resize), Q5 (block table guard).", "",
     "Engine: vLLM 0.20.1."],
]


@pytest.mark.parametrize("lines", STATED)
def test_run_stated_without_speculation_leaves_other_configs_methods_aside(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_real_mtp_run_that_also_mentions_a_plain_baseline_keeps_its_class(tmp_path: Path) -> None:
    lines = ["# MTP server dies under load on vLLM 0.19.1", "",
             "```bash",
             "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 \\",
             "  --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'",
             "```", "",
             "- baseline: `--tensor-parallel-size 8` with no speculative decoding works fine",
             "- with the command above the engine crashes within minutes"]
    path = probed(tmp_path, lines)
    assert path.worker_class == "EagleProposer", path


# ---- a flag only planned after the text says its run lacked it ------------------------------

def _probe_report(steps: list[str]) -> list[str]:
    return ["lab/deploy-notes · reports/probe_a100.md (commit 0badc0de, 2026-05-30)", "",
            "# Startup probe on older cards", "", "The no-MTP launch was:", "",
            "```bash", "vllm serve org/Big-MoE \\", "  --tensor-parallel-size 4 \\",
            "  --max-model-len 8192", "```", "",
            "Engine startup failed in the attention backend check.", "", "## Next", *steps]


PLANNED = [
    ["1. Find a kernel that runs on this arch.",
     "2. Add `--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":2}'`",
     "   once the plain server answers requests."],
    ["- Get the plain server to start first.",
     "- Then turn on drafting via `--speculative-config '{\"method\": \"deepseek_mtp\"}'` and measure again."],
]


@pytest.mark.parametrize("steps", PLANNED)
def test_speculative_flag_in_a_later_step_is_no_run(tmp_path: Path, steps: list[str]) -> None:
    assert_no_path(tmp_path, _probe_report(steps))


def test_flag_the_writer_added_and_saw_fail_is_the_run(tmp_path: Path) -> None:
    lines = ["# vLLM 0.19.1: plain launch fine, MTP launch crashes", "",
             "The no-MTP launch was:", "", "```bash", "vllm serve org/Big-MoE \\",
             "  --tensor-parallel-size 4", "```", "",
             "We then added `--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":1}'` "
             "and the engine crashed at the first request."]
    path = probed(tmp_path, lines)
    assert path.worker_class == "EagleProposer", path


# ---- a TensorRT-LLM fix PR: the mode its title names, a review bot's badge ------------------

def _trt_pr(title: str, body: list[str]) -> list[str]:
    return ["NVIDIA/TensorRT-LLM · pull request #15020 · merged · Python", f"# {title}", "",
            "dev-one · description · 2026-06-03", *body, "",
            "## Summary by CodeRabbit", "", "## Release Notes", "",
            "* **Bug Fixes**", "  * Corrected layer counting for MTP checkpoints.", "",
            "[![Review Change Stack](https://example.invalid/badge.svg)](https://example.invalid/stack)"]


TRT_FIX = [
    ("[https://nvbugs/7000001][fix] Bring back the vanilla MTP path for one-layer checkpoints",
     ["An earlier refactor tied max_draft_len to the checkpoint's layer count, which broke "
      "the shared-layer trick.", "", "Un-waive the affected accuracy test."]),
    ("[TRTLLM-4242][fix] Restore MTP vanilla with shared draft layers",
     ["The config cleanup capped the draft length at the stored layer count; this keeps the "
      "original count in a private field for weight loading.", "", "Re-enable the skipped test."]),
]


@pytest.mark.parametrize(("title", "body"), TRT_FIX)
def test_trtllm_fix_pr_with_no_run_of_its_own_gets_no_path(tmp_path: Path, title: str, body: list[str]) -> None:
    assert_no_path(tmp_path, _trt_pr(title, body))


def test_trtllm_fix_pr_with_its_own_run_keeps_a_path(tmp_path: Path) -> None:
    title, body = TRT_FIX[0]
    body = [*body, "", "## Test Coverage", "",
            "Ran on 8x H200 with TensorRT-LLM 1.2.0rc3: before the fix the server crashed with "
            "`RuntimeError: draft layer index out of range`; after it, 200/200 requests pass."]
    path = probed(tmp_path, _trt_pr(title, body))
    assert path.worker_class == "MTPWorker" or "MTPWorker" in (path.conditional or ""), path
