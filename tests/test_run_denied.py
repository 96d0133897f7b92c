"""Threads a report, fix or recipe reading takes as a run, whose own words deny one
(``assemblers/not_run.DENIALS``, ``assemblers/run_denied``): a report built from reading code, a
fix PR that only points at source lines, another project's PR describing how an engine behaves
"when launched with" a flag, a PR that only adds configs. Each gets no path and no condition;
the same shapes with a failure seen, a result or the writer's own run still decide. Our own
texts, in the shapes the real-log rounds saved (a probe traceback appended, as measure.py does).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, roots, run

PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip
SGL_MTP = ("--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 4")  # fmt: skip
E3 = '{"method": "eagle3", "model": "acme/eagle3-llama-8b", "num_speculative_tokens": 3}'


def thread(repo: str, kind: str, title: str, day: str, *body: str) -> list[str]:
    return [f"{repo} · {kind} #4242 · open · Python", f"# {title}", "", f"ivy · description · {day}", *body]


DENIED: dict[str, list[str]] = {
    "a code-level root cause with no repro (SGLang)": thread(
        "sgl-project/sglang", "issue", "[Bug] EAGLE3 accept lengths may be read before the future resolves",
        "2026-03-02", "Root cause (code-level):", "",
        "`process_batch_result_decode` in `scheduler_output_processor_mixin.py` reads `accept_length` before "
        "`EAGLEWorkerV2.forward_batch_generation` fills it in `eagle_worker_v2.py`.", "", "### Reproduction", "",
        "N/A, found by reading the code."),
    "an implementation read, not reproduced (NEXTN)": thread(
        "sgl-project/sglang", "issue", "[Bug] NEXTN draft slots may leak on abort", "2026-01-20",
        "Looking at `EAGLEWorker.forward_target_extend`, an aborted request keeps its draft `out_cache_loc`.",
        "I have not reproduced it; this is from the code."),
    "a code analysis of a vLLM proposer": thread(
        "vllm-project/vllm", "issue", "[Bug]: EAGLE3 proposer may read stale hidden states after preemption",
        "2026-02-14", "### Your current environment", "Not relevant (code analysis).", "",
        "Code analysis of `vllm/v1/spec_decode/eagle.py`: `EagleProposer.propose` indexes by the batch row, so "
        "after a preemption the draft reads the wrong request's hidden states."),
    "a 2024 V0 fix PR pointing at source lines": [*thread(
        "vllm-project/vllm", "pull request", "[Speculative Decoding] Fixing proposal lengths in batch expansion",
        "2024-09-03", "This PR fixes how proposal lengths are kept in batch expansion.", "", "Fix #9120"), "",
        "ivy · comment · 2024-09-04",
        "Consider a batch where one sequence skips speculation: `_contract_batch` reorders the probabilities "
        "but not the lengths: https://github.com/vllm-project/vllm/blob/1a2b3c4/vllm/spec_decode/spec_decode_worker.py#L702"],
    "an SGLang fix PR pointing at the v1 worker's lines": thread(
        "sgl-project/sglang", "pull request", "[Fix] keep topk_index dtype in EAGLE draft extend", "2025-04-08",
        "`EAGLEWorker.forward_draft_extend_after_decode` casts `topk_index` to int32, see "
        "https://github.com/sgl-project/sglang/blob/9f8e2d1/python/sglang/srt/speculative/eagle_worker.py#L488-L497",
        "", "Remove the cast."),
    "a router PR: when sglang is launched with EAGLE3": thread(
        "acme/kv-router", "pull request", "fix: kv router hashing for sglang EAGLE", "2026-04-02",
        "When sglang is launched with `--speculative-algorithm EAGLE3` the radix cache keys are token pairs, so "
        "its kv events carry pairs.", "", "My change unpacks them before hashing."),
    "a scheduler PR: if vLLM is started with a speculative config": thread(
        "acme/inference-scheduler", "pull request", "Fix prefix scorer under speculative decoding", "2026-05-11",
        f"If vLLM is started with `--speculative-config '{E3}'`, its kv events include draft blocks.",
        "This PR filters them."),
    "a recipe PR that copies a config and pins an image": thread(
        "acme/bench-recipes", "pull request", "dsr1 fp8 b200 sglang: add MTP variant", "2026-07-14",
        "- Adds `dsr1/b200/sglang-mtp.yaml`, a copy of the existing `sglang.yaml` with the speculative flags:",
        f"  `{SGL_MTP}`", "- Pins the image to `lmsysorg/sglang:v0.5.14-cu129`.", "",
        "Everything else matches the sibling configs."),
    "a recipe PR adding a vLLM YAML, no other changes": thread(
        "acme/bench-recipes", "pull request", "gptoss b200 vllm: eagle3 config", "2026-07-20",
        "* `gptoss/b200/vllm-eagle3.yaml` (new): same as `vllm.yaml` but with",
        f"  `--speculative-config '{E3}'`", "* image bumped to `vllm/vllm-openai:v0.24.1`", "", "No other changes."),
    "a TensorRT-LLM recipe, config only": [*thread(
        "acme/slurm-recipes", "pull request", "Add Kimi TRT-LLM MTP recipe for GB200", "2026-05-03",
        "Adds `kimi/trtllm/gb200-mtp.yaml` mirroring the existing non-MTP recipe:", "", "```yaml",
        "speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 3", "```", "",
        "Container: `nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc9`. Config only.")],
    "vLLM's config validator rejecting eagle3 for the target": thread(
        "vllm-project/vllm", "issue", "[Bug]: An error occurred when using Eagle3 with a Qwen3 target", "2025-08-03",
        "### Your current environment", "", "4 x 4090", "", "### Describe the bug", "",
        "Value error, Eagle3 is only supported for Llama models. Got self.target_model_config.hf_text_config."
        "model_type='qwen3' [type=value_error, input_value=ArgsKwargs((), {'method': 'eagle3'}), input_type=ArgsKwargs]"),
    "TensorRT-LLM's LlmArgs rejecting an MTP config (the error is the crash)": thread(
        "NVIDIA/TensorRT-LLM", "issue", "[Bug] trtllm-serve refuses MTP with attention DP", "2026-02-11",
        "trtllm-serve exits at start-up:", "",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs",
        "  Value error, MTP speculative decoding needs max_draft_len >= 1 [type=value_error, input_value={...}]"),
    "the command line's parser refusing the speculative JSON": thread(
        "vllm-project/vllm", "issue", "[Bug]: server fails to start with --speculative-config", "2026-07-02",
        f"vllm serve Qwen/Qwen3-8B --speculative-config '{E3}'", "",
        "error: argument --speculative-config: invalid loads value: \"{'method': 'eagle3'\""),
    "an engine fix PR reasoning where the root cause is in code": thread(
        "NVIDIA/TensorRT-LLM", "pull request", "[fix] Fix overallocation of draft KV cache", "2026-06-05",
        "## Description", "", "EAGLE3 is allocating too much KV cache. The root cause is in `get_num_spec_layers()`.",
        "", "However, `num_eagle_layers` is a misleading variable name; use the draft config's layer count.", "",
        "## Test Coverage", "", "Existing tests plus one new one."),
}  # fmt: skip


@pytest.mark.parametrize("name", list(DENIED))
def test_a_thread_whose_words_deny_a_run_gets_no_path(tmp_path: Path, name: str) -> None:
    for crash in roots(run(tmp_path, [*DENIED[name], *PROBE], name="report.md")):  # a pasted error is one
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


KEPT: dict[str, tuple[list[str], str, str]] = {
    "not reproduced reliably, beside a failure and a release": (thread(
        "sgl-project/sglang", "issue", "[Bug] NEXTN output garbled after long uptime", "2026-09-02",
        "DeepSeek-V3.1 with NEXTN on sglang 0.5.14 returns garbled text after two hours. Not reproduced "
        "reliably yet."), "unknown", "EAGLEWorkerV2|EAGLEWorker"),
    "a code analysis under the writer's own serve command": (thread(
        "vllm-project/vllm", "issue", "[Bug]: EAGLE3 acceptance drops to zero after preemption", "2026-02-16",
        "vLLM Version: 0.15.1", "```", f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{E3}'",
        "```", "Code analysis: `EagleProposer.propose` indexes by the batch row."), "other", "EagleProposer"),
    "a fix PR pointing at source lines beside a measured failure": (thread(
        "vllm-project/vllm", "pull request", "[Bugfix] EAGLE3 with fp8 kv cache", "2025-09-28",
        "Acceptance length with EAGLE3 falls from 3.1 to 1.2 with `--kv-cache-dtype fp8`. The scale is dropped "
        "here: https://github.com/vllm-project/vllm/blob/5d1a2b3/vllm/v1/spec_decode/eagle.py#L214"),
        "other", "EagleProposer"),
    "a router PR whose writer ran sglang with EAGLE3": (thread(
        "acme/kv-router", "pull request", "fix: unpack bigram kv events from sglang EAGLE", "2025-06-09",
        "When sglang is launched with `--speculative-algorithm EAGLE3`, its kv events carry token pairs.", "",
        "We ran the router against sglang 0.4.7 with an EAGLE3 draft and the hit rate went from 0% to 61%."),
        "v1", "EAGLEWorker"),
    "a rejected config, then the run that went further and garbled": (thread(
        "vllm-project/vllm", "issue", "[Bug]: eagle3 on Qwen3: rejected, then garbled output", "2025-11-03",
        "vLLM Version: 0.11.0", "Value error, Eagle3 is only supported for Llama models [type=value_error, ...]", "",
        f"After upgrading I ran `vllm serve Qwen/Qwen3-8B --speculative-config '{E3}'` and the output is garbled."),
        "other", "EagleProposer"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(KEPT))
def test_the_same_shapes_with_a_run_still_decide(tmp_path: Path, name: str) -> None:
    lines, value, classes = KEPT[name]
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE], name="report.md")), value, classes)


def test_a_config_only_recipe_with_its_sweep_result_keeps_its_run(tmp_path: Path) -> None:
    lines = thread(
        "acme/bench-recipes", "pull request", "dsr1 fp8 h200 sglang: MTP variant", "2026-08-03",
        f"Adds `h200/sglang-mtp.yaml`, same as `sglang.yaml` but with `{SGL_MTP}`, on `lmsysorg/sglang:v0.5.14-cu129`.",
        "", "Sweep: 1.35x output throughput at conc 64, TPOT 14.2 ms vs 19.9 ms for the STP config.")  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE], name="report.md"))
    assert path.worker_class == "EAGLEWorkerV2" or "EAGLEWorkerV2" in (path.conditional or ""), path


def test_a_config_only_pr_with_its_servers_log_keeps_its_run(tmp_path: Path) -> None:
    """A log record in the thread was printed by a server that ran: "No other changes" says what
    the PR changes, not that nothing ran."""
    lines = thread(
        "acme/bench-recipes", "pull request", "bump sglang image for the MTP recipe", "2026-08-03",
        "Image `lmsysorg/sglang:v0.5.14-cu129`. No other changes.", "", "Server log of the run:", "```",
        "[2026-08-03 10:00:01] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', "
        "speculative_algorithm='EAGLE', speculative_num_steps=3, speculative_eagle_topk=1, "
        "speculative_num_draft_tokens=4, disable_overlap_schedule=False)", "```")  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE], name="report.md"))
    assert path.worker_class == "EAGLEWorkerV2" or "EAGLEWorkerV2" in (path.conditional or ""), path
