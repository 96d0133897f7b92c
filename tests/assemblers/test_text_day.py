"""One reader of the day a text shows (``ConfigCollector.text_day``), for every framework: the
newest post header or dated line bounds the release the run could hold, and a thread whose
later comment GitHub printed without its year bounds nothing, on the SGLang side and the vLLM
side alike (a vLLM reader of its own once kept the dated header's bound there)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.dialects.base import LogLine

OPENED = "bob opened this issue on Nov 2, 2024"
YEARLESS = "carol commented on Jan 3"
SGLANG = ("python3 -m sglang.launch_server --model-path org/m --speculative-algorithm EAGLE "
          "--speculative-draft-model-path org/d --speculative-eagle-topk 1")  # fmt: skip
VLLM = ("vllm serve org/m --speculative-model '[ngram]' --num-speculative-tokens 3 "
        "--ngram-prompt-lookup-max 4")  # fmt: skip


def _collect(*texts: str) -> ConfigCollector:
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("thread.md", n, 0, text, text, "plain", ""))
    return collector


def _decided(*texts: str) -> set[str | None]:
    return {e.worker_class for e in _collect(*texts).result().path_evidence}


@pytest.mark.parametrize(
    ("command", "bounded", "unbounded"),
    [
        (SGLANG, "EAGLEWorker", None),  # 2024: no release with spec v2 on by default
        (VLLM, "NGramWorker", None),  # 2024: vLLM's V1 ngram proposer not released yet
    ],
)
def test_a_yearless_comment_unbounds_both_frameworks(
    command: str, bounded: str, unbounded: None
) -> None:
    assert _decided(OPENED, command) == {bounded}
    assert _decided(OPENED, YEARLESS, command) == {unbounded}


def test_the_day_comes_with_the_line_that_shows_it() -> None:
    collector = _collect(OPENED, "alice commented on Mar 9, 2025", VLLM)
    day, line = collector.text_day() or (None, None)
    assert day == date(2025, 3, 9) and line is not None and line.lineno == 2
    flag = collector.result().flags["text_day"]
    assert (flag.value, flag.lineno) == ("2025-03-09", 2)


def test_a_stamp_without_its_year_is_no_day() -> None:
    """vLLM's year-less stamps read as 1900 until a year is known: no bound from them."""
    collector = ConfigCollector()
    text = "INFO 05-02 11:00:00 [api_server.py:1] vLLM API server version 0.6.3"
    collector.feed(LogLine("s.log", 1, 0, text, text, "vllm", "", ts=datetime(1900, 5, 2, 11)))
    assert collector.text_day() is None
