"""A post's own header dates the log pasted under it: the day bounds the sglang release the run
could hold when no line names the release; a date inside a sentence bounds nothing."""

from __future__ import annotations

from datetime import date

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.post_dates import post_date
from spectrace.dialects.base import LogLine

LAUNCH = ("python3 -m sglang.launch_server --model-path tiny/t --speculative-algorithm EAGLE "
          "--speculative-draft-model-path tiny/d --speculative-eagle-topk 1")  # fmt: skip


@pytest.mark.parametrize(
    ("line", "day"),
    [
        ("someone · description · 2025-11-02", date(2025, 11, 2)),
        ("other-user · review thread · 2026-04-14T09:12:00Z", date(2026, 4, 14)),
        ("bob opened this issue on Nov 2, 2025 · 3 comments", date(2025, 11, 2)),
        ("alice commented on September 9, 2025", date(2025, 9, 9)),
        ("merged 2 commits into main on 2026-01-30", date(2026, 1, 30)),
        ("carol commented on Jan 3", None),  # no year: never guessed
        ("It has been broken since 2024-05-01, see the model card.", None),
        ("opened on Feb 30, 2026", None),  # not a day
    ],
)
def test_the_day_a_post_header_says(line: str, day: date | None) -> None:
    assert post_date(line) == day


def _verdicts(*texts: str):
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("thread.md", n, 0, text, text, "plain", ""))
    return [(e.points_to, e.worker_class, e.condition) for e in collector.result().path_evidence]


def test_a_header_dated_before_spec_v2_became_default_decides_v1() -> None:
    ((points, worker, condition),) = _verdicts("dave · description · 2025-11-02", LAUNCH)
    assert (points, worker, condition) == ("v1", "EAGLEWorker", None)


def test_the_latest_post_showing_the_run_is_the_bound() -> None:
    # a later comment pasting a run (its own launch) may be on a newer release: its day bounds
    ((points, worker, condition),) = _verdicts(
        "dave · description · 2025-11-02", LAUNCH, "erin · comment · 2026-06-01", LAUNCH
    )
    assert (points, worker) == (None, None) and "EAGLEWorkerV2" in condition


def test_a_later_post_showing_no_run_bounds_nothing() -> None:
    # a later reply with no line of the run (a question, a bump) is no day of the run (r39 13)
    ((points, worker, condition),) = _verdicts(
        "dave · description · 2025-11-02", LAUNCH, "erin · comment · 2026-06-01",
        "Is this still an issue on the latest release?",
    )
    assert (points, worker, condition) == ("v1", "EAGLEWorker", None)


def test_a_date_in_a_sentence_bounds_nothing() -> None:
    ((points, _worker, condition),) = _verdicts("We first saw this on 2025-11-02.", LAUNCH)
    assert points is None and "sglang >= 0.5.11" in condition
