"""Host time per decode step (issue 13 item 2): every lap lands in one category, blocking reads
are the device's time, and a real run accounts for its whole serving loop."""

from __future__ import annotations

import time

import pytest
from engine_cases import BASE, CHAIN_V2, PLAIN, TREE
from spectrace_engine.observe.host_time import CATEGORIES, HostClock


def test_a_lap_charges_its_category_less_the_time_blocked():
    clock = HostClock()
    clock.restart()
    time.sleep(0.02)
    clock.wait_ns += 15_000_000  # a read inside the lap blocked for 15 ms
    clock.lap("accept")
    assert clock.ns["wait"] == 15_000_000
    assert 3e6 < clock.ns["accept"] < 20e6  # ~5 ms of the 20 ms were host work
    ms = clock.per_step_ms(2)
    assert ms["host"] == pytest.approx(sum(ms[c] for c in CATEGORIES), abs=1e-3)
    assert ms["wait"] == 7.5


@pytest.mark.parametrize("flags", [PLAIN, CHAIN_V2, TREE], ids=["plain", "v2-chain", "v1-tree"])
def test_a_run_accounts_for_its_serving_time(engine_run, flags):
    run = engine_run(*BASE, *flags)
    end = run.end()
    ms = end["host_ms_per_step"]
    assert set(CATEGORIES) <= set(ms) and all(v >= 0 for v in ms.values())
    laps_s = (ms["host"] + ms["wait"] + ms["prefill"]) * end["steps"] / 1000
    assert laps_s == pytest.approx(end["serve_s"], rel=0.15)  # no gap, no double count
    busy = "draft" if flags is not PLAIN else "forward"
    assert ms[busy] > 0 and ms["events"] > 0
