"""Blocks and sentences that are not the reporter's run (``assemblers/not_run``), end to end: a
command given as an example, a reviewer's or a bot's suggested config, flags quoted from a docs
page, a flag a pull request will support, second-person narration, an error line found by
reading source. None may give a path or a condition; the reporter's own run beside them still
decides (lines written by us, in the shapes of the threads)."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

# the measure's probe: a crash of bare script names, which ran no server
PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip
SGL = "/usr/local/lib/python3.12/dist-packages/sglang/srt"
SGL_CRASH = ["Traceback (most recent call last):",
             f'  File "{SGL}/managers/scheduler.py", line 2900, in run_scheduler_process',
             "    scheduler.event_loop_normal()",
             f'  File "{SGL}/speculative/eagle_worker.py", line 330, in forward_batch_generation',
             "    logits_output = self.draft(batch)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
VL = "/usr/local/lib/python3.12/dist-packages/vllm"
VLLM_CRASH = ["Traceback (most recent call last):",
              f'  File "{VL}/v1/engine/core.py", line 700, in run_engine_core',
              "    engine_core.run_busy_loop()",
              f'  File "{VL}/v1/worker/gpu_model_runner.py", line 2100, in execute_model',
              "    out = self.model(ids)",
              "RuntimeError: CUDA error: misaligned address"]  # fmt: skip


def thread(repo: str, kind: str, title: str, *posts: str, labels: str = "") -> list[str]:
    head = [f"{repo} · {kind} #5150 · open · Python"]
    return [*head, *([f"labels: {labels}"] if labels else []), f"# {title}", "",
            "nora · description · 2026-05-02", *posts]  # fmt: skip


def _paths(tmp_path: Path, lines: list[str]):
    found = [c.worker_path for c in roots(run(tmp_path, lines)) if c.worker_path is not None]
    assert found
    return found


TRAPS = {
    "sglang feature request closed with a sample launch": thread(
        "sgl-project/sglang", "issue", "[Feature] EAGLE3 draft heads for Qwen3-Next",
        "Would be great to have EAGLE3 for the new MoE.", "",
        "kai · comment · 2026-05-20", "Landed in #9001, closing.", "", "Sample usage:", "```",
        "python3 -m sglang.launch_server --model-path Qwen/Qwen3-Next-80B \\",
        "  --speculative-algorithm EAGLE3 --speculative-draft-model-path org/next-eagle3 \\",
        "  --speculative-num-steps 3 --speculative-eagle-topk 1", "```", *PROBE,
        labels="enhancement"),
    "a reviewer suggests an ngram config in a review thread": thread(
        "vllm-project/vllm", "pull request", "[V1] Pass the lookup window through",
        "The lookup window was dropped on the way to the drafter.", "",
        "rhea · review thread · 2026-05-03", "vllm/v1/spec_decode/ngram_proposer.py:88",
        "```diff", "+        self.max_n = config.max_n", "```", "**rhea**:",
        "Once the next release is out, people should pass", "```",
        "speculative_config={", '    "method": "ngram",', '    "num_speculative_tokens": 4,',
        "}", "```", "instead of the old flags.", *PROBE),
    "a review bot's suggestion names the proposer class": thread(
        "vllm-project/vllm", "pull request", "EAGLE3 coverage in the e2e suite",
        "More coverage for the e2e suite.", "",
        "coderabbitai[bot] · review thread · 2026-05-04", "tests/v1/e2e/test_eagle.py:40",
        "```diff", "+    spec_llm = LLM(", "+        model=target,", "+        speculative_config={",
        '+            "model": draft,', "+        },", "```", "**coderabbitai[bot]**:",
        "The dict lacks a method, so `EagleProposer` is never built; the engine falls back.",
        "```suggestion", "        speculative_config={", '            "method": "eagle3",',
        '            "model": draft,', '            "num_speculative_tokens": 2,', "        },",
        "```", *PROBE),
    "a docs issue quotes the guide's flags": thread(
        "sgl-project/sglang", "issue", "[Docs] the speculative decoding page lists a wrong step count",
        "### The doc issue", "", "https://docs.sglang.ai/advanced_features/speculative_decoding.html",
        "The page launches with", "",
        "    --speculative-algorithm EAGLE --speculative-num-steps 5 --speculative-eagle-topk 8",
        "", "but then says the step count is 3.", "", "### Suggest a potential alternative/fix", "",
        "Use --speculative-num-steps 3 in the example.", *PROBE, labels="documentation"),
    "a pull request's goal quotes the flag it will support": thread(
        "acme/serving-plugin", "pull request", "[SGL backend] Standalone EAGLE3 drafts",
        "## Motivation", "",
        "Support SGLang draft arguments like `--speculative-algorithm EAGLE3` in the plugin launcher.",
        *PROBE),
    "second-person narration of a blog": [
        "SGLang EAGLE3 Bug: Regex Constraints Stall the Stream", "", "by Ana Lin 88 views", "",
        "Here is the gist: once you have EAGLE3 speculative decoding enabled with a model like "
        "Qwen3-235B on SGLang, regex-constrained requests go quiet after a few tokens.",
        "Once you've got EAGLE3 going with a large draft, the stall shows up sooner.", *PROBE],
    "an error line found by reading source": thread(
        "sgl-project/sglang", "pull request", "[BugFix] EAGLE draft info: keep the copy module import",
        "## Motivation", "",
        "While going through the speculative implementation I noticed that the copy import is shadowed:",
        "", "```", "AttributeError: 'function' object has no attribute 'deepcopy'", "```", "",
        "## Modifications", "", "Import the module instead."),
    "a fix pull request found by reading, with no repro": thread(
        "sgl-project/sglang", "pull request", "[Spec] fix the accept index in EAGLEWorkerV2",
        "On 0.5.9 `verify()` indexes before filtering the -1 slots; garbage may be read.",
        "No repro yet; spotted by code inspection.", *PROBE),
}


@pytest.mark.parametrize("name", sorted(TRAPS))
def test_a_block_that_is_not_the_run_gives_no_path(tmp_path: Path, name: str) -> None:
    for path in _paths(tmp_path, TRAPS[name]):
        assert path.worker_class is None and path.conditional is None, (name, path)


def test_the_reporters_own_launch_beside_an_example_block_still_decides(tmp_path: Path) -> None:
    lines = thread(
        "sgl-project/sglang", "issue", "[Bug] illegal memory access with EAGLE on 0.5.4",
        "I launched:", "```",
        "python3 -m sglang.launch_server --model-path org/target-8b --speculative-algorithm EAGLE \\",
        "  --speculative-draft-model-path org/draft --speculative-num-steps 3", "```",
        "sglang: 0.5.4", *SGL_CRASH, "",
        "kai · comment · 2026-05-03", "For example you can also run:", "```",
        "python3 -m sglang.launch_server --model-path org/target-8b --speculative-algorithm NGRAM",
        "```")  # fmt: skip
    (path,) = _paths(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker"), path


def test_a_repro_caption_with_you_can_run_is_the_run(tmp_path: Path) -> None:
    lines = thread(
        "vllm-project/vllm", "issue", "[Bug]: misaligned address with ngram",
        "To reproduce, you can run:", "```",
        """vllm serve org/target-8b --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'""",
        "```", *VLLM_CRASH)  # fmt: skip
    (path,) = _paths(tmp_path, lines)
    assert path.worker_class == "NgramProposer", path


def test_a_fix_pull_request_with_its_numbers_shows_its_run(tmp_path: Path) -> None:
    lines = thread(
        "vllm-project/vllm", "pull request", "[Bugfix] ngram drafter drops the lookup window",
        "Tested with", "```",
        """vllm serve org/target-8b --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'""",
        "```", "Before: 812 tok/s, after: 1020 tok/s.", *PROBE)  # fmt: skip
    paths = _paths(tmp_path, lines)
    assert any(p.worker_class == "NgramProposer" for p in paths), paths


def test_the_missing_text_says_which_block_was_not_the_run(tmp_path: Path) -> None:
    (path,) = _paths(tmp_path, TRAPS["sglang feature request closed with a sample launch"])
    assert path.missing and "an example the text gives (line 11: 'Sample usage:')" in path.missing[0]


def test_a_suggestion_the_reporter_then_ran_is_the_run(tmp_path: Path) -> None:
    lines = thread(
        "vllm-project/vllm", "issue", "[Usage]: quicker completions for code?",
        "How do I make completions quicker?", "",
        "kai · comment · 2026-05-03", "You could try:", "```",
        """vllm serve org/target-8b --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'""",
        "```", "", "nora · comment · 2026-05-04", "I tried exactly that on 0.11.0 and it dies:",
        *VLLM_CRASH)  # fmt: skip
    paths = _paths(tmp_path, lines)
    assert any(p.worker_class == "NgramProposer" for p in paths), paths


def test_a_fix_pull_request_telling_the_failure_it_fixes_keeps_its_run(tmp_path: Path) -> None:
    lines = thread(
        "sgl-project/sglang", "pull request", "[AMD] Fix EAGLE3 verify on MI300 for Qwen3-Next",
        "## Motivation", "", "The Qwen3-Next EAGLE3 server crashes at startup on gfx942 GPUs.",
        *PROBE)  # fmt: skip
    (path,) = _paths(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path


def test_a_commenters_failing_run_in_a_feature_pull_request_is_a_run(tmp_path: Path) -> None:
    lines = thread(
        "vllm-project/vllm", "pull request", "[Spec Decode] Medusa heads with a top-1 proposer",
        "Implements Medusa on the V0 spec decode worker.", "",
        "tom · comment · 2024-11-02",
        "I converted my Medusa heads with the script, but vLLM crashed at the first step (0.6.3).",
        *PROBE)  # fmt: skip
    (path,) = _paths(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path
