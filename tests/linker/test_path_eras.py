"""SGLang's worker-selection rule by release, as data (rules/paths/sglang_eras.toml): a known
release decides, an unknown one decides when every release agrees and otherwise gives a
conditional verdict that says which release would run which worker."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import run

from spectrace.assemblers.sglang_eras import ALL_POSTS, RunFacts, _row, era_rules, overlap_in
from spectrace.assemblers.sglang_version import era_of
from spectrace.errors import RuleError

LAUNCH = (
    "python3 -m sglang.launch_server --model-path /models/q --tp 2 --speculative-algorithm {algo} "
    "--speculative-num-steps 3 --speculative-eagle-topk {topk} --speculative-num-draft-tokens 4"
)
CRASH = [  # dated after the newest release the table knows: its day bounds no release
    "[2026-11-20 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", '
    "line 2900, in run_scheduler_process",
    "    scheduler.run()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def path_of(tmp_path: Path, *head: str):  # noqa: ANN201 - the WorkerPath
    (crash,) = run(tmp_path, [*head, *CRASH]).incidents
    assert crash.worker_path is not None
    return crash.worker_path


def test_the_table_covers_every_release_in_order_without_gaps() -> None:
    rows = era_rules()
    assert rows[0].first == (0, 0, 0) and rows[-1].last is None
    for before, after in zip(rows, rows[1:], strict=False):
        assert before.last is not None
        base, post = before.last[:3], before.last[3:]
        if post == (ALL_POSTS,):  # "0.5.6" ends after its posts: the next row is 0.5.7
            assert after.first == (*base[:2], base[2] + 1)
        else:  # "0.5.3.post1" / "0.5.4.post0": the next row starts at the next post
            assert after.first == (*base, (post[0] if post else 0) + 1)


def test_post_releases_fall_in_the_rule_they_ran() -> None:
    # 0.5.3.post2 added --enable-beta-spec and EAGLEWorkerV2; 0.5.4.post1 reads the env var
    assert era_of((0, 5, 3)) == era_of((0, 5, 3, 1)) == "0.4.x-0.5.3"
    assert era_of((0, 5, 3, 2)) == era_of((0, 5, 4)) == "0.5.4"
    assert era_of((0, 5, 4, 1)) == era_of((0, 5, 6, 2)) == "0.5.5-0.5.6"
    assert [r.span() for r in era_rules()][:3] == ["<= 0.5.3.post1", "0.5.3.post2-0.5.4",
                                                   "0.5.4.post1-0.5.6"]  # fmt: skip


def test_a_post_release_with_the_beta_flag_runs_v2(tmp_path: Path) -> None:
    launch = ("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE "
              "--speculative-eagle-topk 1 --enable-beta-spec")  # fmt: skip
    path = path_of(tmp_path, "sglang==0.5.3.post2", launch)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    assert "sglang 0.5.3.post2" in path.evidence[0].reason


def test_a_malformed_row_is_one_line_naming_the_key() -> None:
    with pytest.raises(RuleError, match="unknown or missing key 'colour'"):
        _row({"colour": "red"}, 3)


def test_no_release_and_releases_that_disagree_give_a_conditional_verdict(tmp_path: Path) -> None:
    path = path_of(tmp_path, LAUNCH.format(algo="EAGLE3", topk=1))
    assert (path.value, path.worker_class) == ("unknown", None)
    assert path.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.11, else v1 (EAGLEWorker)"
    assert path.missing[0].startswith("the sglang version")
    assert (path.framework, path.family) == ("sglang", "EAGLE3")


def test_topk_above_one_moves_the_boundary_to_the_deleted_v1_worker(tmp_path: Path) -> None:
    path = path_of(tmp_path, LAUNCH.format(algo="EAGLE", topk=4))
    assert path.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"


@pytest.mark.parametrize(
    ("version", "want"),
    [("sglang: 0.5.9", ("v1", "EAGLEWorker")), ("sglang: 0.5.12", ("v2", "EAGLEWorkerV2")),
     ("lmsysorg/sglang:v0.5.15-cu130", ("v2", "EAGLEWorkerV2"))],
)  # fmt: skip
def test_a_version_line_turns_the_condition_into_a_verdict(
    tmp_path: Path, version: str, want: tuple[str, str]
) -> None:
    path = path_of(tmp_path, version, LAUNCH.format(algo="EAGLE3", topk=1))
    assert (path.value, path.worker_class, path.conditional) == (*want, None)


def test_when_every_release_agrees_the_verdict_needs_no_version(tmp_path: Path) -> None:
    dump = (
        "[2026-03-01 09:59:00] server_args=ServerArgs(model_path='/m', tp_size=2, "
        "speculative_algorithm='EAGLE', speculative_eagle_topk=1, disable_overlap_schedule=False)"
    )
    path = path_of(tmp_path, dump)  # overlap on: v2 in every release that could print it
    assert (path.value, path.worker_class, path.conditional) == ("v2", "EAGLEWorkerV2", None)
    ngram = dump.replace("'EAGLE'", "'NGRAM'")
    path = path_of(tmp_path, ngram)
    assert (path.value, path.worker_class) == ("other", "NGRAMWorker")


OFF_DUMP = (
    "[{day} 09:59:00] server_args=ServerArgs(model_path='/m', tp_size=2, "
    "speculative_algorithm='EAGLE3', speculative_eagle_topk=4, disable_overlap_schedule=True)"
)


def test_an_overlap_off_dump_without_a_release_is_v1_only_up_to_0_5_12(tmp_path: Path) -> None:
    # dated after the newest release the table knows: the date bounds nothing
    path = path_of(tmp_path, OFF_DUMP.format(day="2026-11-20"))
    assert path.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"


def test_a_dump_dated_before_the_v1_worker_went_decides_v1(tmp_path: Path) -> None:
    # main of 2026-03-01 ships by 0.5.11 at the latest (0.5.10 and 0.5.11 came out after it)
    path = path_of(tmp_path, OFF_DUMP.format(day="2026-03-01"))
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert "(the log's dates: sglang 0.5.11 or older)" in path.evidence[0].reason


def test_the_crash_day_bounds_a_launch_command_without_a_release(tmp_path: Path) -> None:
    # main of 2026-03-01 ships by 0.5.11 at the latest: topk 4 keeps EAGLE on v1 up to 0.5.12
    head = LAUNCH.format(algo="EAGLE", topk=4)
    crash = [CRASH[0].replace("2026-11-20", "2026-03-01"), *CRASH[1:]]
    (incident,) = run(tmp_path, [head, *crash]).incidents
    path = incident.worker_path
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert "(the log's dates: sglang 0.5.11 or older)" in path.evidence[0].reason


def test_the_rule_reads_each_switch_of_its_release() -> None:
    by_era = {r.era: r for r in era_rules()}
    beta = by_era["0.5.4"]
    assert overlap_in(beta, RunFacts("EAGLE", beta=True))[0] is True
    assert overlap_in(beta, RunFacts("EAGLE", beta=True, disable_request=True))[0] is True  # forced
    # EAGLE3 under --enable-beta-spec keeps the overlap setting asked for (0.5.4's handler
    # forces it on for EAGLE only), and the scheduler gives any is_eagle() run EAGLEWorkerV2
    assert overlap_in(beta, RunFacts("EAGLE3", beta=True))[0] is True
    assert overlap_in(beta, RunFacts("EAGLE3", beta=True, disable_request=True))[0] is False
    assert overlap_in(beta, RunFacts("EAGLE3"))[0] is False  # beta off: forced off
    late = by_era["0.5.11-0.5.12"]
    assert overlap_in(late, RunFacts("EAGLE3"))[0] is True  # spec v2 on by default
    assert overlap_in(late, RunFacts("EAGLE3", env=False))[0] is False
    assert overlap_in(late, RunFacts("EAGLE3", disable_request=True))[0] is False  # kept
    mid = [r for r in era_rules() if r.era == "0.5.7-0.5.10"]
    assert all(overlap_in(r, RunFacts("EAGLE", env=True, disable_request=True))[0] for r in mid)
    assert overlap_in(mid[0], RunFacts("STANDALONE", env=True))[0] is False  # 0.5.7: no V2
    assert overlap_in(mid[1], RunFacts("STANDALONE", env=True))[0] is True  # 0.5.8-0.5.10


def test_the_release_days_bound_a_dated_run() -> None:
    from datetime import date

    from spectrace.assemblers.sglang_eras import newest_at, published

    days = [day for _, day in published()]
    assert days == sorted(days)  # a later release was never first published earlier
    # 0.5.7 (2026-01-01) may have been cut before the day; 0.5.8 holds main of that day
    assert newest_at(date(2025, 12, 9)) == (0, 5, 8)
    assert newest_at(date(2020, 1, 1)) is None  # a clock that was never set bounds nothing
    assert newest_at(date(2026, 10, 20)) is None  # one release after it: the table can't tell
