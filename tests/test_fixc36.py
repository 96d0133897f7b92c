"""Session 36 (FIXC): an engine tree's fix pull request whose title names a method and whose posts
only tell its code change shows no run (its title's method is no run's), in every copy form; a
config the writer says they run in production is a run of theirs.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.run_forms import told_form


def pull(repo: str, title: str, day: str, *body: str, byline: str = "description") -> list[str]:
    """A saved pull request thread: header, title, one post by ``byline``, then ``body``."""
    return [f"{repo} · pull request #4321 · merged · Python", f"# {title}", "", f"dev-a · {byline} · {day}", *body]


# --- an engine's fix PR that tells only its code change ---------------------------------------

_CODE_FIXES = {
    # the description post: what moved where, and that nothing else changes
    "description": pull("sgl-project/sglang", "Fix EAGLE draft token rotation under chunked prefill", "2026-05-20",
                        "Follow-up commit `a1b2c3d` keeps the next prompt token on `ScheduleBatch` when the batch is built,",
                        "so the rotation helper in the worker no longer walks `req.fill_ids` itself.", "",
                        "No behaviour change: the value is read at the same point as before."),
    # a copy holding only the maintainer's comments (the description was cut away)
    "comments-only": ["sgl-project/sglang · pull request #5120 · closed · Python",
                      "# fix: EAGLE draft extend reads a stale seq_lens copy", "",
                      "maint-b · comment · 2026-04-02",
                      "Rebased onto main and moved the copy of `seq_lens` into `prepare_for_draft_extend`,",
                      "so the helper no longer keeps a reference across iterations. Same semantics as before.", "",
                      "maint-b · comment · 2026-04-04", "merged via the batch PR"],
    # GitHub's web copy: title with its number, the URL line, the state, the opener
    "web-copy": ["Fix EAGLE verify mask when the tree has a single branch #6012",
                 "https://github.com/sgl-project/sglang/pull/6012", "Merged", "dev-c commented on Feb 3, 2026", "",
                 "The single-branch tree built its mask from the padded top-k and read one extra column.",
                 "This builds it from the real branch count."],
}  # fmt: skip


@pytest.mark.parametrize("lines", list(_CODE_FIXES.values()), ids=list(_CODE_FIXES))
def test_an_engine_fix_pr_telling_only_its_code_change_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines, name="thread.md")


_BASE = ("sgl-project/sglang", "Fix EAGLE draft token rotation under chunked prefill", "2026-05-20",
         "Follow-up commit `a1b2c3d` keeps the next prompt token on `ScheduleBatch` when the batch is built.", "")


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # its own run told with the release and the rig
    (pull(*_BASE, "Tested on sglang 0.5.9 with 8xH200; the draft tokens now match the target's."), "v1", "EAGLEWorker"),
    # a figure its run measured
    (pull(*_BASE, "Accept length on our 8xH200 box goes from 1.41 to 3.02 with this change."),
     "unknown", "EAGLEWorkerV2|EAGLEWorker"),
    # the writer's own test run told in the description
    (pull("vllm-project/vllm-ascend", "[BugFix] Fix Eagle3 hidden size for MLA drafts", "2026-05-29",
          "`hidden_dim` now comes from the config, not from the tensor's last dimension.", "",
          "### How was this patch tested?", "Tested Eagle3 with a DeepSeek draft on 2x A3 nodes, DP=16."),
     "unknown", "AscendEagleProposer"),
    # a comment telling the failure the fix removes, the method only inside a model's name
    (pull("vllm-project/vllm", "[Bugfix] MTP draft: read the bare scale suffix of FP8 blocks", "2026-05-24",
          "The detector now counts a bare `.scale` tensor as quantized.", "",
          "- `acme/Orbit-9B-FP8-MTP` v3: without this fix the draft fails at load with a `KeyError` on its scale tensors.",
          byline="comment"),
     "other", "EagleProposer"),
    # a setup item naming the method the runs below used
    (pull("sgl-project/sglang", "Fix EAGLE3 draft KV release under PD", "2026-08-21",
          "Confirmed on our side. Setup of the runs below:", "", "- prefill 2 nodes, decode 2 nodes", "- EAGLE3: on",
          "", "| build | outcome |", "|---|---|", "| nightly 2026-08-12 | ok |", byline="comment"),
     "v2", "EAGLEWorkerV2"),
], ids=["release-and-rig", "measured", "tested-on-rig", "failure-told", "setup-item"])  # fmt: skip
def test_an_engine_fix_pr_with_its_run_s_failure_or_lines_keeps_its_path(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), value, classes)


# --- a config the writer says they run in production ------------------------------------------


def _readme(*body: str) -> list[str]:
    return ["# Kimi-K2 on 8x H200: SGLang recipe", "", *body]


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # the config named as the production one; its method and release in the sentences after it
    (_readme("Here is the config we run in production: Kimi-K2 on eight H200 cards. TP8, DP attention, "
             "EAGLE3 speculative decoding with 3 steps, fp8 KV cache.", "",
             "Stock SGLang v0.5.17 needs two patches for this; both are in this repo."),
     "v2", "EAGLEWorkerV2", "EAGLE3"),
    # vLLM: the setup as bullets under the sentence
    (_readme("Below is the setup we're serving in prod; nothing here is tuned for benchmarks.", "",
             "- vLLM 0.19.1", "- Speculative decoding: MTP, 2 tokens", "- TP=4 on 4x H100"),
     "other", "EagleProposer", "MTP"),
    # a stack, the present progressive, a DSpark draft
    (["# DeepSeek-V4-Flash on 4x RTX PRO 6000", "",
      "Here is the stack we are currently running in production on four RTX PRO 6000 cards.",
      "DSPARK drafts at depth 5; sglang 0.5.16 plus our patches."],
     "v2", "DSparkWorkerV2", "DSPARK"),
], ids=["sglang-config", "vllm-bullets", "dspark-stack"])  # fmt: skip
def test_a_config_the_writer_runs_in_production_decides_its_path(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("first", [
    "This is the config we recommend for production: TP8, EAGLE3 speculative decoding with 3 steps.",
    "This is the config you run in production once the patches land: TP8, EAGLE3 speculative decoding with 3 steps.",
    "This is the config we plan to run in production: TP8, EAGLE3 speculative decoding with 3 steps.",
    "Pick the config we use in production if your cards match: TP8, EAGLE3 speculative decoding with 3 steps.",
], ids=["recommended", "the-reader-s", "planned", "conditional"])  # fmt: skip
def test_a_production_config_recommended_planned_or_for_the_reader_shows_no_run(tmp_path: Path, first: str) -> None:
    assert told_form(first) is None
    assert_no_path(tmp_path, _readme(first, "", "It needs SGLang v0.5.17 or newer."), name="README.md")
