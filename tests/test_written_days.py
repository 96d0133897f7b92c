"""A day the writer gives as their present bounds the run's release (``written_days``,
``ConfigCollector.text_day``): texts saved without a post header ("As of today (July 3, 2025)"
in a bare PR comment, "on current vLLM (8th of June, 26)" in a forum post's title, "Tested
today, 2025-07-03, on SGLang main" in a PR body) gave no day, so the era join kept both eras
and the framework-in-words reader did not read at all (rounds 43 19, 44 22). Our own lines.
A copied page's dateline ("Published on June 8, 2026") counts as its post header. Near misses:
a date in another sentence ("since", "released on", a nightly's, a release's), a quoted post's
day, a thread with a year-less header, a year-less day."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from spectrace.assemblers.written_days import written_day
from tests.real_logs_helpers import assert_verdict, crash_path, run

CRASH = ["", "Traceback (most recent call last):", '  File "rollout_step.py", line 12, in <module>',
         "RuntimeError: rollout worker died"]  # fmt: skip


@pytest.mark.parametrize(("text", "day"), [
    ("As of today (July 3, 2025), the weight shape of the MTP layer is wrong.", date(2025, 7, 3)),
    ("Small patch to fix MTP on current vLLM (8th of June, 26)", date(2026, 6, 8)),
    ("Today is 2026-06-08 and main still crashes with EAGLE3.", date(2026, 6, 8)),
    ("At the time of writing (2025-11-02) the draft still diverges.", date(2025, 11, 2)),
    ("tested on current sglang main (2026/06/08)", date(2026, 6, 8)),
    ("2026-06-08 (today): rebuilt from source, same crash", date(2026, 6, 8)),
    ("as of now, Jan 5th 2026, the MTP head is ignored", date(2026, 1, 5)),
    ("today, 3 July 2025, I reran the benchmark", date(2025, 7, 3)),
    ("measured on current upstream vLLM (as of June 8, 2026)", date(2026, 6, 8)),
    ("Published on June 8, 2026", date(2026, 6, 8)),  # a copied page's dateline
    ("Posted by ana on 2026-06-08 · 5 min read", date(2026, 6, 8)),
    ("**Last updated:** Jan 5, 2026", date(2026, 1, 5)),
])  # fmt: skip
def test_a_writers_present_day_in_every_form(text: str, day: date) -> None:
    assert written_day(text) == day


@pytest.mark.parametrize("text", [
    "broken since 2025-05-01",  # the day a change broke it: older than the run
    "released on July 3, 2025",  # a release's day
    "as of v0.5.3 it works",
    "As of 2025-07-03 it worked; now it does not",  # a past state
    "Today I rebuilt from the 2025-07-03 nightly",  # a build's day, not today's
    "the current release (2026-03-01) lacks the fix",  # a release's day
    "current checkpoint (June 8, 2026)",  # a model's day
    "today, July 3",  # no year: never guessed
    "today (2025-13-40)",  # no such day
    "Released: 2026-06-08",  # a release's dateline
    "Updated the draft on 2026-06-08 and it crashed",  # a sentence, not a dateline
])  # fmt: skip
def test_other_days_are_no_writers_day(text: str) -> None:
    assert written_day(text) is None


_BARE = ["We run GRPO with the sglang rollout and turned on EAGLE speculative decoding with a "
         "small draft head; the acceptance is low."]  # fmt: skip


def test_a_bare_comment_dated_today_is_on_the_v1_worker(tmp_path: Path) -> None:
    """July 2025: every SGLang release then had only EAGLEWorker. Without the line, both."""
    dated = [*_BARE, "As of today (July 3, 2025), the draft head still loads with the wrong shape.", *CRASH]
    assert_verdict(crash_path(run(tmp_path, dated)), "v1", "EAGLEWorker")
    assert_verdict(crash_path(run(tmp_path, [*_BARE, *CRASH])), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_pr_body_tested_today_on_main(tmp_path: Path) -> None:
    """A bare PR body: its test line gives the day it ran; NEXTN reads as EAGLE."""
    lines = ["## Summary", "Fixes the NEXTN draft weight loading for the MTP layer.", "", "## Test",
             "Tested today, 2025-07-03, on SGLang main with `--speculative-algorithm NEXTN`: "
             "accept length 2.4, GSM8K 0.93.", *CRASH]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_forum_title_on_current_vllm_names_its_day(tmp_path: Path) -> None:
    """A copied forum post whose title dates "current vLLM": the framework in words is read and
    the day bounds the release; the same post without the day names every class vLLM ran MTP
    on (V1 and the model runner v2's), never the V1 class alone (session 19)."""
    def post(title: str) -> list[str]:
        return ["https://discuss.example.org/t/mtp-on-current-vllm/8812", "", title, "",
                "I serve DeepSeek-V3 with MTP (num_speculative_tokens=2) on vLLM and the server dies.",
                "Output token throughput: 1520 tok/s before the crash below.", *CRASH]  # fmt: skip

    dated = crash_path(run(tmp_path, post("MTP draft loading fails on current vLLM (8th of June, 26)")))
    assert dated.framework == "vllm" and (dated.worker_class or dated.conditional), dated
    plain = crash_path(run(tmp_path, post("MTP draft loading fails on vLLM")))
    assert_verdict(plain, "unknown", "EagleProposer|MTPSpeculator")


@pytest.mark.parametrize("dateline", [
    "Broken since July 3, 2025: the draft head still loads with the wrong shape.",
    "> As of today (July 3, 2025), the draft head still loads with the wrong shape.",  # a quote
])  # fmt: skip
def test_other_days_leave_both_eras(tmp_path: Path, dateline: str) -> None:
    path = crash_path(run(tmp_path, [*_BARE, dateline, *CRASH]))
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_year_less_header_leaves_the_writers_day_unbounding(tmp_path: Path) -> None:
    """A post GitHub printed without its year may be years after the dated one."""
    lines = ["bob commented on Jul 2", *_BARE,
             "As of today (July 3, 2025), the draft head still loads with the wrong shape.", *CRASH]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EAGLEWorkerV2|EAGLEWorker")
