"""The verify inside the target's verify graph (issue 13 item 1): same tokens as the verify
launched after the replay, for the v2 chain, the v1 tree and tree sampling; and the step events
say where it ran. On CPU the graphs are emulated (same buffers, padding and epilogue)."""

from __future__ import annotations

import pytest
from engine_cases import BASE, CHAIN_V2, TREE

SAMPLING = ("--temperature", "0.8", "--random-seed", "7")
CASES = {
    "v2-chain": (*BASE, *CHAIN_V2),
    "v1-tree": (*BASE, *TREE),
    "v1-tree-sampling": (*BASE, *TREE, *SAMPLING),
    "v2-chain-sampling": (*BASE, *CHAIN_V2, *SAMPLING),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_in_graph_verify_emits_what_the_eager_verify_emits(engine_run, case):
    inside = engine_run(*CASES[case])
    outside = engine_run(*CASES[case], "--verify-outside-graph")
    assert inside.code == outside.code == 0
    assert inside.outputs() == outside.outputs()
    verify = [s for s in inside.of("step") if s["mode"] == "verify"]
    assert verify and all(s["verify_in_graph"] for s in verify)
    assert not any(s["verify_in_graph"] for s in outside.of("step"))


def test_padded_requests_do_not_change_live_ones(engine_run):
    """3 clients replay the graph of 4: the padded request's root-only tree stays inert."""
    run = engine_run(*BASE, *TREE, "--cuda-graph-bs", "4,8", "--max-running-requests", "8")
    ref = engine_run(*BASE, *TREE, "--disable-cuda-graph")
    assert run.code == ref.code == 0
    assert {s["padded_bs"] for s in run.of("step")} >= {4}
    assert run.outputs() == ref.outputs()


def test_nan_fault_keeps_the_verify_outside_the_graph(engine_run):
    """nan_logits poisons the logits after the replay: the verify must see the poisoned ones."""
    run = engine_run(*BASE, *CHAIN_V2, "--fault", "nan_logits", "--fault-step", "2")
    assert run.code == 1
    assert not any(s["verify_in_graph"] for s in run.of("step"))
    assert "NaN in the logits" in run.of("error")[0]["message"]
