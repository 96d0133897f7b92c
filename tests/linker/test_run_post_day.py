"""The day that bounds a run's release is the day of the post showing the run, not a later
comment's (config_release.text_day; round 39 13: an RL trainer's SGLang EAGLE run posted in
June 2025, bounded by a 2026 comment). Our own lines; near misses: a later post that shows a
run of its own, a thread whose only post is the later one."""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run


def _thread(first: str, *later: str, body: tuple[str, ...] = ()) -> list[str]:
    return [
        "verl-project/verl · issue #9100 · open · Python",
        "# Rollout with SGLang speculative decoding prints invalid tree warnings",
        f"alice · description · {first}",
        *(body or ("We run GRPO with the sglang rollout and turned on EAGLE speculative "
                   "decoding with a small draft head; the acceptance is low.",)),  # fmt: skip
        *later,
        "",
        "Traceback (most recent call last):",
        '  File "rollout_step.py", line 12, in <module>',
        "RuntimeError: rollout worker died",
    ]


_LATER = ("bob · comment · 2026-08-11", "Is this still an issue with the latest release?")


def test_a_later_question_does_not_bound_the_run(tmp_path: Path) -> None:
    """The run is the June 2025 description's: only EAGLEWorker existed then."""
    path = crash_path(run(tmp_path, _thread("2025-06-23", *_LATER)))
    assert_verdict(path, "v1", "EAGLEWorker")


def test_a_later_reply_does_not_bound_a_launch_either(tmp_path: Path) -> None:
    body = ("actor_rollout_ref.rollout.name=sglang",
            "actor_rollout_ref.rollout.speculative_algorithm=EAGLE",
            "WARNING: the draft tree is invalid, falling back")  # fmt: skip
    lines = _thread("2025-06-23", "carol · comment · 2026-09-01", "Closing as stale.", body=body)
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_later_post_showing_its_own_run_bounds_it(tmp_path: Path) -> None:
    """The later post sets the algorithm itself: its day is the run's (both eras possible)."""
    later = ("bob · comment · 2026-08-11",
             "Same here with --speculative-algorithm EAGLE on 8 GPUs, the warning repeats.")  # fmt: skip
    path = crash_path(run(tmp_path, _thread("2025-06-23", *later)))
    assert path.worker_class != "EAGLEWorker", path


def test_the_only_post_in_2026_keeps_its_condition(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _thread("2026-08-11")))
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
