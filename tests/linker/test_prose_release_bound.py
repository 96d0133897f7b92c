"""A release a sentence names for the framework the words name bounds the run's release as a
version line does (``path_run.release_bounded``): a bare report "Tested on vLLM 0.10.1.1 with
MTP: ...", a pin ``vllm==0.10.1.1``, an environment bullet "- vLLM version: 0.6.3", a title "EAGLE3
on vLLM 0.9.2 loses throughput" had no version line and no day, so the framework named in words
was never read. Our own lines; a probe crash at the end. Near misses: a comparison, two
frameworks, a release of another run beside another framework's run, two releases (an upgrade)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import probed_path


@pytest.mark.parametrize(("lines", "worker"), [
    (["Tested on vLLM 0.10.1.1 with MTP (2 speculative tokens): acceptance 81%, output token "
      "throughput 1520 tok/s."], "EagleProposer"),
    (["Tested on vllm==0.10.1.1 with MTP (2 speculative tokens): acceptance 81%, output token "
      "throughput 1520 tok/s."], "EagleProposer"),
    (["## Environment", "- vLLM version: 0.6.3", "- GPU: 1x A100 80GB", "", "## What happened",
      "ngram speculative decoding with 5 speculative tokens: output token throughput 410 tok/s, "
      "then the crash below."], "NGramWorker"),  # a V0-only release: V0's n-gram worker
    (["Running vLLM 0.6.3.post1 with ngram speculative decoding: output token "
      "throughput 410 tok/s, then the crash below."], "NGramWorker"),  # a post release
    (["EAGLE3 on vLLM 0.9.2 loses throughput at batch 1", "",
      "Llama-3.1-8B with the EAGLE3 draft, 3 speculative tokens: output token throughput 980 "
      "tok/s, 1100 tok/s without it."], "EagleProposer"),
])  # fmt: skip
def test_a_named_vllm_release_bounds_a_worded_run(tmp_path: Path, lines: list[str], worker: str) -> None:
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", worker), path


@pytest.mark.parametrize("line", [
    "We compared vLLM 0.10.1 with SGLang: with MTP on SGLang the acceptance was 81%, output token "
    "throughput 1520 tok/s.",
    "Tested on vLLM 0.10.1.1 with MTP: acceptance 81%, output 1520 tok/s. With SGLang it was worse.",
    "It works on vLLM 0.9.2 but fails with MTP on SGLang: acceptance 0.0, output 12 tok/s.",
])  # fmt: skip
def test_a_release_beside_another_framework_bounds_nothing(tmp_path: Path, line: str) -> None:
    path = probed_path(tmp_path, [line])
    assert path.value == "unknown" and not path.conditional, path


@pytest.mark.parametrize("lines", [
    ["After upgrading from vLLM 0.6.3 to 0.10.1, ngram speculative decoding crashes: output token "
     "throughput 12 tok/s before the crash."],  # which release ran is not said
    ["ngram speculative decoding worked on vLLM 0.6.3.", "On vLLM 0.10.1 it crashes: output token "
     "throughput 12 tok/s before the crash."],  # two releases, two lines
])  # fmt: skip
def test_two_releases_bound_nothing(tmp_path: Path, lines: list[str]) -> None:
    """The first release named was taken as the run's: V0's NGramWorker for an upgrade to 0.10.1."""
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "NGramWorker", path



@pytest.mark.parametrize("move", [
    "After upgrading from vLLM 0.6.3 to 0.10.1, ngram speculative decoding crashes",
    "Since we moved from vllm 0.6.3 to v0.10.1 ngram speculative decoding crashes",
    "ngram speculative decoding crashes (vLLM 0.6.3 -> 0.10.1 upgrade)",
])  # fmt: skip
def test_a_move_between_releases_names_neither_in_a_dated_thread(tmp_path: Path, move: str) -> None:
    """A dated report of an upgrade took the release it moved FROM as the run's: V0's
    NGramWorker for a crash on 0.10.1. The line names two releases and says no one ran."""
    lines = ["vllm-project/vllm · issue #31234 · open", "# [Bug]: ngram crashes after an upgrade", "",
             "alice · description · 2025-09-10", f"{move}: output token throughput 12 tok/s before the crash."]
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "NGramWorker" and "NGramWorker" not in (path.conditional or "").split(" (")[0], path


def test_one_release_in_a_dated_thread_still_bounds_the_run(tmp_path: Path) -> None:
    """The near miss: one release named is the run's (V0's n-gram worker on 0.6.3)."""
    lines = ["vllm-project/vllm · issue #31234 · open", "# [Bug]: ngram crashes", "",
             "alice · description · 2025-09-10",
             "On vLLM 0.6.3, ngram speculative decoding crashes: output token throughput 12 tok/s before the crash."]
    assert probed_path(tmp_path, lines).worker_class == "NGramWorker"
