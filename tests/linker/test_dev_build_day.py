"""An untagged SGLang build's version carries the day it was built (``sglang: 0.0.0.devN+g<sha>.
dYYYYMMDD``, round 39 31): its code is no newer than that day, and a build of main is at least the
release published a month before it. Our own environment dumps, with no post day in the text."""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = ["Traceback (most recent call last):", '  File "serve.py", line 3, in <module>',
          "RuntimeError: scheduler died"]  # fmt: skip


def _report(version: str) -> list[str]:
    return [
        "sgl-project/sglang · issue #40100 · open · Python",
        "# [Bug] NEXTN run stops answering after warmup",
        "[turn 0 by someone, continued]",
        "python3 -m sglang.launch_server --model-path /models/glm --tp-size 8 "
        "--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4",
        "### Environment",
        "Python: 3.11.15",
        f"sglang: {version}",
        "",
        *_PROBE,
    ]


def test_a_build_dated_in_the_v1_only_era_is_eagle_worker(tmp_path: Path) -> None:
    """Built 2025-08-20: no release then had a v2 worker."""
    path = crash_path(run(tmp_path, _report("0.0.0.dev9120+g1a2b3c4d5.d20250820")))
    assert_verdict(path, "v1", "EAGLEWorker")


def test_a_build_a_month_past_the_last_v1_release_is_eagle_worker_v2(tmp_path: Path) -> None:
    """Built 2026-08-20 from main: at least the release of 2026-07-21 or before (0.5.15), where
    the v1 worker no longer exists."""
    path = crash_path(run(tmp_path, _report("0.0.0.dev14800+g9f8e7d6c5.d20260820")))
    assert_verdict(path, "v2", "EAGLEWorkerV2")


def test_a_build_days_after_the_last_v1_release_keeps_the_condition(tmp_path: Path) -> None:
    """Built 2026-06-15, four days after 0.5.13: the checkout may predate it."""
    path = crash_path(run(tmp_path, _report("0.0.0.dev13900+g4f0a1b2c3.d20260615")))
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_build_with_no_day_bounds_nothing(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _report("0.0.0.dev1+g1a2b3c4d5")))
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
