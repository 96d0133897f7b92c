"""A negation before a trailing 'when/while/once ... is enabled' clause negates its verb, not
the methods the clause states enabled (round 26 28's shape: '[Bug]: X stores but never serves
when MTP/EAGLE speculative decoding is enabled'); a negated failure ('the crash does not happen
when X is enabled') or a negation inside the clause still sets them apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run

from spectrace.assemblers.spec_prose import set_apart

ENGINE = ["Traceback (most recent call last):",
          '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "TimeoutError: the step took too long"]  # fmt: skip


@pytest.mark.parametrize("text", [
    "[Bug]: the prefix cache stores but never serves when MTP/EAGLE speculative decoding is enabled",
    "cache hits never show up while EAGLE-3 speculative decoding is enabled",
    "requests don't finish once MTP is enabled",
])  # fmt: skip
def test_a_verb_negated_before_an_enabled_clause_keeps_its_methods(text: str) -> None:
    assert not set_apart(text)


@pytest.mark.parametrize("text", [
    "the crash does not happen when EAGLE is enabled",
    "the error doesn't reproduce when ngram is enabled",
    "throughput never improves when EAGLE is not enabled",
    "It works fine when EAGLE is enabled",
])  # fmt: skip
def test_a_negated_failure_or_a_negated_clause_still_sets_apart(text: str) -> None:
    assert set_apart(text)


def test_the_title_names_both_families_and_a_late_day_leaves_the_runner_open(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #51234 · open · Python",
             "# [Bug]: the KV offloader stores but never serves when MTP/EAGLE speculative "
             "decoding is enabled", "", "someone · description · 2026-08-10", *ENGINE]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and "EagleProposer" in (path.conditional or "")
