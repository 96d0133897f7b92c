"""An algorithm a report says its run had enabled, with nothing launched shown: the family and
the era's condition (v1 up to 0.5.10, v2 from 0.5.11), never a decided class."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.dialects.base import LogLine


def _evidence(*texts: str):
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("r.md", n, 0, text, text, "plain", ""))
    return collector.result().path_evidence


def test_algorithm_stated_enabled_gives_the_eras_condition() -> None:
    evidence = _evidence(
        "# SGLang server dies after the KV cache fills up",
        "Running our MoE model with `EAGLE3` speculative decoding enabled, the scheduler"
        " asserts in the attention backend.",
    )
    assert len(evidence) == 1
    assert evidence[0].worker_class is None
    assert "EAGLEWorkerV2" in evidence[0].condition and "EAGLEWorker)" in evidence[0].condition


@pytest.mark.parametrize(
    "sentence",
    [
        "Should we ship EAGLE3 enabled by default?",
        "Benchmarks of SGLang + EAGLE3 on H100 look good.",
        "We served it without EAGLE3 enabled and it worked.",
        "Try it with EAGLE3 enabled if the draft fits.",
    ],
)
def test_a_discussed_algorithm_names_no_path(sentence: str) -> None:
    assert _evidence("# SGLang question", sentence) == []
