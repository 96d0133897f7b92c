"""Session 36 (FIXC): a config the writer says they run in production is a run of theirs.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.run_forms import told_form


# --- a config the writer says they run in production ------------------------------------------


def _readme(*body: str) -> list[str]:
    return ["# Kimi-K2 on 8x H200: SGLang recipe", "", *body]


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # the config named as the production one; its method and release in the sentences after it
    (_readme("This is the config we run in production: Kimi-K2 on eight H200 cards. TP8, DP attention, "
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
