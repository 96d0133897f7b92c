"""--tp 2 on CPU gloo: one interleaved log with TPn tags, per-rank events, bounded failures."""

from __future__ import annotations

import re
import time

from engine_cases import BASE, STORY, TREE

TP2 = ["--tp", "2", "--dist-timeout", "4"]


def test_tp2_ranks_share_one_log_and_agree_on_tokens(engine_run):
    one = engine_run(*BASE, *TREE)
    two = engine_run(*BASE, *TREE, *TP2, "--decode-log-interval", "2")
    assert two.code == 0
    text = two.log.read_text()
    assert re.search(r"^\[[\d\- :]+ TP0\] Load weight begin", text, re.M)
    assert re.search(r"^\[[\d\- :]+ TP1\] Load weight begin", text, re.M)
    assert re.search(r"^\[[\d\- :]+\] server_args=ServerArgs\(.*tp_size=2", text, re.M)
    assert " TP1] Decode batch" not in text and " TP0] Decode batch" in text
    r0 = {e["rid"]: e["output_ids"] for e in two.of("request_finish", 0)}
    r1 = {e["rid"]: e["output_ids"] for e in two.of("request_finish", 1)}
    assert r0 == r1 == one.outputs()


def test_tp2_crash_is_logged_by_every_rank(engine_run):
    run = engine_run(*STORY, *TP2, "--fault", "stale_spec_info")
    assert run.code == 1
    assert {e["rank"] for e in run.of("error")} == {0, 1}
    text = run.log.read_text()
    for rank in (0, 1):
        assert f" TP{rank}] Scheduler hit an exception: Traceback" in text
    assert "SIGQUIT received. signum=None, frame=None. It usually means one child failed." in text


def test_a_hung_rank_ends_the_run_within_bounded_time(engine_run):
    t0 = time.monotonic()
    run = engine_run(
        *BASE,
        *TREE,
        *TP2,
        "--fault",
        "hang_before_collective",
        "--hang-seconds",
        "10",
        "--fault-step",
        "2",
    )
    assert time.monotonic() - t0 < 90
    assert run.code == 1
    hang = run.of("fault")
    assert [e["rank"] for e in hang] == [1]
    peer = run.of("error", 0)[0]
    assert peer["collateral"] is True
    assert peer["ts_ns"] < hang[0]["ts_ns"] + 10e9  # the peer gave up before the sleeper woke
