"""The lean plain decode step (issue 13 item 2): the token choice captured in the decode graph
emits what the choice launched after the replay emits, greedy and sampling, padded or not; the
step reads the device once; and the host time per step is accounted by category."""

from __future__ import annotations

import pytest
from engine_cases import BASE, PLAIN

SAMPLING = ("--temperature", "0.8", "--random-seed", "7")
CASES = {"greedy": (*BASE, *PLAIN), "sampling": (*BASE, *PLAIN, *SAMPLING)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_in_graph_token_choice_emits_what_the_eager_choice_emits(engine_run, case):
    inside = engine_run(*CASES[case])
    outside = engine_run(*CASES[case], "--verify-outside-graph")
    assert inside.code == outside.code == 0
    assert inside.outputs() == outside.outputs()
    steps = inside.of("step")
    assert steps and all(s["verify_in_graph"] and s["mode"] == "decode" for s in steps)
    assert not any(s["verify_in_graph"] for s in outside.of("step"))


def test_padded_decode_rows_do_not_change_live_ones(engine_run):
    """3 clients replay the graph of 4 at temperature: same tokens as no graphs at all."""
    flags = (*BASE, *PLAIN, *SAMPLING)
    run = engine_run(*flags, "--cuda-graph-bs", "4,8", "--max-running-requests", "8")
    ref = engine_run(*flags, "--disable-cuda-graph")
    assert run.code == ref.code == 0
    assert {s["padded_bs"] for s in run.of("step")} >= {4}
    assert run.outputs() == ref.outputs()


def test_a_plain_step_reads_the_device_once(engine_run):
    run = engine_run(*BASE, *PLAIN)
    steps = run.of("step")
    assert all(s["host_syncs"] == 0 and s["resolve_syncs"] == 1 for s in steps)


def test_nan_logits_on_a_plain_server_is_still_caught(engine_run):
    """The fault poisons the logits after the replay, so the choice stays outside the graph."""
    run = engine_run(*BASE, *PLAIN, "--fault", "nan_logits", "--fault-step", "2")
    assert run.code == 1
    assert not any(s["verify_in_graph"] for s in run.of("step"))
    assert "NaN in the logits" in run.of("error")[0]["message"]
