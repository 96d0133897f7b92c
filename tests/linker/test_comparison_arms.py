"""A run's text that names a plain server beside its speculative one is not always saying the
run is plain (``quotes.plain_run``, the wall that cuts the lines above it off the crash).

A bug report comparing its server with and without speculation writes the plain arm as a bullet
("- Baseline: same vLLM server without speculative decoding"); a pull request says what an
algorithm lacks ("NGRAM has no draft model, so the key is omitted"); a sentence says "no
specific reason". None of these says the reported run speculates nothing, so the method named
above them still reaches the crash. Every line is ours, in the shapes of saved issue and PR
threads (rounds 40-41)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import roots, run
from spectrace.assemblers.quotes import plain_run
from spectrace.dialects.base import LogLine

PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip
SPEC = """--speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 5}'"""


def _line(text: str) -> LogLine:
    return LogLine(source="t.md", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")


def _issue(*body: str) -> list[str]:
    return ["vllm-project/vllm · issue #9101 · closed · labels: bug",
            "# [Bug]: ngram speculative decoding changes greedy output on a small model", "",
            "dev-b · description · 2026-05-05", "vLLM: 0.20.1", "GPU: 1x A100-SXM4-40GB", "",
            f"- Feature server: `vllm serve org/small-0.6b {SPEC}`", *body, "", *PROBE]  # fmt: skip


@pytest.mark.parametrize("arm", [
    "- Baseline: same vLLM server without speculative decoding",
    "Baseline (no speculative config): the same image and prompt.",
    "I compared it against the same server without speculative decoding.",
    "Reference run: identical flags, no spec decode.",
    "vs. a server launched without `--speculative-config`",
])  # fmt: skip
def test_a_comparisons_plain_arm_is_no_wall(tmp_path: Path, arm: str) -> None:
    """The plain arm of a with/without comparison is the other side of the writer's own
    experiment: the n-gram server above it is still the run (NgramProposer on 0.20.1)."""
    assert not plain_run(_line(arm))
    (crash,) = roots(run(tmp_path, _issue(arm), name="thread.md"))
    path = crash.worker_path
    assert path is not None and "NgramProposer" in f"{path.worker_class} {path.conditional}", path


@pytest.mark.parametrize("wall", [
    "The crash also happens without speculative decoding.",
    "Baseline without speculative decoding crashes the same way.",
    "Same error on the baseline with no speculative config.",
    "My server runs without any speculative decoding.",
])  # fmt: skip
def test_a_plain_run_that_fails_too_stays_a_wall(wall: str) -> None:
    """Near misses: a plain run that fails the same way (a baseline that crashes too) is the
    writer saying the failure is not speculation's."""
    assert plain_run(_line(wall))


@pytest.mark.parametrize("said", [
    "- Report the totals under a new key. NGRAM has no draft model so that key is omitted.",
    "Prompt lookup needs no draft model, so the draft runner is skipped.",
    "Suffix decoding uses no draft model and keeps its own tree.",
    "There is no specific reason to keep the old default.",
    "The verify kernel sees no spec_info on the first step.",
    "A non-specific error message was replaced.",
])  # fmt: skip
def test_what_a_method_lacks_or_a_specific_word_is_no_plain_run(said: str) -> None:
    """A method's property ("NGRAM has no draft model") describes the algorithm, and "specific",
    "spec_info" are no speculation words: none says the writer's run is plain."""
    assert not plain_run(_line(said))


@pytest.mark.parametrize("wall", [
    "We have no draft model on this server, it is a plain deployment.",
    "no speculative decoding here, same crash",
    "spec decode is disabled on this node and it still hangs",
    "I don't use speculative decoding at all.",
])  # fmt: skip
def test_the_writers_own_plain_server_stays_a_wall(wall: str) -> None:
    assert plain_run(_line(wall))
