"""``assemblers/not_run``: which lines of a text are not the reporter's run, and why (lines
written by us in the shapes of saved threads)."""

from __future__ import annotations

import pytest

from spectrace.assemblers import not_run
from spectrace.dialects.base import LogLine


def _lines(*texts: str) -> list[LogLine]:
    return [LogLine("t.md", n, 0, t, t, "plain", "") for n, t in enumerate(texts, 1) if t is not None]


def _why(texts: list[str | None], lineno: int) -> str | None:
    return not_run.read_apart(_lines(*texts)).why("t.md", lineno)


@pytest.mark.parametrize(
    ("texts", "line", "reason"),
    [  # a caption's block: the fence lines are not kept by the scan (None)
     (["Fixed in #812; sample usage:", None, "python -m sglang.launch_server --speculative-algorithm EAGLE"],
      3, not_run.EXAMPLE),
     (["Landed. Here is an example of the new flag:", None, "vllm serve m --speculative-config '{}'"],
      3, not_run.EXAMPLE),
     (["If the default is too slow you can try this:", None, "--speculative-algorithm NGRAM"], 3, not_run.SUGGESTION),
     (["The tutorial (v0.11) shows:", None, "trtllm-serve m --extra_llm_api_options e.yml"], 3, not_run.DOCS),
     (["From the release notes of 0.6:", "> - Eagle3 two-model drafts (Eagle3TwoModelWorker)"], 2,
      not_run.CHANGELOG),
     # a section under a heading, to the next heading
     (["### The doc issue", "https://docs.example.org/serve.html", "  --speculative-config '{}'",
       "## Other"], 3, not_run.DOCS),
     (["## Example", "vllm serve m --speculative-config '{}'"], 2, not_run.EXAMPLE),
     (["## What's Changed", "* MTP for GLM-5 (`--speculative-config`)"], 2, not_run.CHANGELOG),
     # a review post, to the next post or the author's reply
     (["rhea · review thread · 2026-05-03", "x.py:10", "speculative_config={'method': 'ngram'}"], 3,
      not_run.REVIEW),
     # a sentence on its own line, or carried onto the next
     (["This change adds support for", "`--speculative-algorithm EAGLE3` on the ROCm launcher."], 2,
      not_run.GOAL),
     (["Once you have Medusa heads running, latency drops."], 1, not_run.NARRATION),
     (["Reading the drafter's source code I saw that the copy is shadowed:", None,
       "AttributeError: 'function' object has no attribute 'deepcopy'"], 3, not_run.SOURCE_READ),
     (["python3 -u -m tokenspeed.launch_server --speculative-algorithm EAGLE3"], 1, not_run.FOREIGN),
     (["This change lets users run `--speculative-algorithm EAGLE3` on TPU hosts."], 1, not_run.GOAL),
     (["Per the release blog post:", None, "--speculative-config '{\"method\": \"mtp\"}'"], 3, not_run.DOCS),
     (["Closing; here is how to use it now:", None, "vllm serve m --speculative-config '{}'"], 3,
      not_run.SUGGESTION),
     (["No repro yet; spotted by code inspection.", None, "IndexError: index 9 is out of bounds"], 3,
      not_run.SOURCE_READ)],
)  # fmt: skip
def test_a_block_that_is_not_the_run_says_why(texts, line: int, reason: str) -> None:
    why = _why(texts, line)
    assert why is not None and why.startswith(reason), why


@pytest.mark.parametrize(
    ("texts", "line"),
    [  # the writer's own run, or a failing one, under the same words
     (["To reproduce, you can run:", None, "python -m sglang.launch_server --speculative-algorithm EAGLE"], 3),
     (["Example that crashes for us:", None, "vllm serve m --speculative-config '{}'"], 3),
     (["I followed the docs and launched my server:", None, "vllm serve m --speculative-config '{}'"], 3),
     (["The docs show EAGLE, but I use:", None, "--speculative-algorithm NGRAM"], 3),
     (["Reading the source to debug my crash, I found:", None, "AttributeError: no attribute 'x'"], 3),
     # a caption's block ends past its command, at the writer's own run again
     (["Example usage:", None, "vllm serve m --speculative-config '{}'", None, None, None,
       "vllm serve m2 --speculative-config '{}'"], 7),
     (["Example usage:", None, "vllm serve m", "and this is what we ran instead:", "vllm serve m2"], 5),
     # a review thread's author reply is the author's own words
     (["rhea · review thread · 2026-05-03", "x.py:10", "**nora** (author):",
       "I got this running `vllm serve m --speculative-config '{}'`"], 4),
     # a title, and a sentence naming a method without a config
     (["# Add EAGLE3 for Qwen3"], 1), (["I suggest the EAGLE worker has a bug."], 1),
     # a command's own flag line is no goal ("--enable-..." is not "enable ...")
     (["python -m sglang.launch_server --model m \\", "  --enable-multi-layer-eagle \\"], 2),
     # the writer takes the example up as their own run
     (["You could try:", None, "vllm serve m --speculative-config '{}'", None, None,
       "I tried exactly that and the engine core died."], 3),
     # a post telling the writer's own run keeps its "Example command"
     (["I was benchmarking the 70b draft at batch 8.", "Example command", None,
       "python bench.py --model m --speculative-model d"], 4),
     # a bug told in the second person is the run's
     (["If you have EAGLE on with DP attention, the scheduler crashes."], 1)],
)  # fmt: skip
def test_the_run_itself_is_never_set_apart(texts, line: int) -> None:
    assert _why(texts, line) is None


def test_example_markers_before_a_config_mark_an_example() -> None:
    (line,) = _lines("speculative decoding enabled (e.g. `--speculative-algorithm EAGLE`)")
    assert not_run.is_example(line)
    (line,) = _lines("`--speculative-algorithm EAGLE`, e.g. on two nodes")
    assert not not_run.is_example(line)


@pytest.mark.parametrize(
    ("text", "reason"),
    [  # a task not done yet: a plan, whatever it names (a checked box is work done)
     ("- [ ] an EAGLE3 arm once the draft lands", not_run.GOAL),
     ("1. [ ] re-run the MTP sweep on 1.3.0", not_run.GOAL),
     # what a change leaves out of its scope
     ("The MTP recipe is not part of this PR.", not_run.LEFT_OUT),
     ("the ngram config stays unchanged", not_run.LEFT_OUT),
     # the method the title names is not wired into the run
     ("The script never passes `--speculative-algorithm`; as written", not_run.UNWIRED),
     ("as written this runs the plain server", not_run.UNWIRED),
     ("the launcher does not pass the --speculative-config it builds", not_run.UNWIRED),
     # a checked checklist rule naming several methods as one category
     ("- [x] verified that spec configs (EAGLE / MTP / draft models) pin drafts", not_run.CATEGORY)],
)
def test_a_line_that_plans_scopes_or_unwires_a_method_is_set_apart(text: str, reason: str) -> None:
    assert _why(["rhea · description · 2026-05-03", text], 2).startswith(reason)


@pytest.mark.parametrize(
    "text",
    ["- [x] sweep passes, accept length 2.8", "Compared with the non-MTP baseline: 1.9x",
     "MTP is not working on 0.5.12", "We never saw the crash without EAGLE"],
)
def test_done_work_a_baseline_or_a_failure_is_not_set_apart_by_these_words(text: str) -> None:
    assert _why(["rhea · description · 2026-05-03", text], 2) is None
