"""Dynamic speculation disable: threshold, hysteresis, draft-KV catch-up, correct on v1 and v2."""

from __future__ import annotations

import pytest
from engine_cases import BASE, CHAIN_V1, CHAIN_V2, CHURN, PLAIN, TREE, accepted_after_resume


def toggles(run) -> list[tuple[str, str]]:
    return [(e["from"], e["to"]) for e in run.of("spec_toggle")]


@pytest.mark.parametrize("path", [TREE, CHAIN_V2], ids=["v1-tree", "v2-chain"])
def test_dynamic_disable_is_lossless_and_switches_both_ways(engine_run, path):
    plain = engine_run(*CHURN, *PLAIN)
    dd = engine_run(*CHURN, *path)
    assert dd.code == 0
    assert dd.outputs() == plain.outputs()
    seen = toggles(dd)
    assert ("spec", "plain") in seen and ("plain", "spec") in seen
    assert all(e["cleanup_ran"] for e in dd.of("spec_toggle"))


@pytest.mark.parametrize("path", [TREE, CHAIN_V2], ids=["v1-tree", "v2-chain"])
def test_decisions_follow_the_threshold(engine_run, path):
    steps = engine_run(*CHURN, *path).of("step")
    assert all(not e["spec_enabled"] for e in steps if e["bs"] > 7)
    assert any(e["spec_enabled"] for e in steps)


def test_start_up_line_and_a_line_per_switch(engine_run):
    run = engine_run(*CHURN, *CHAIN_V2)
    text = run.log.read_text()
    assert "] Dynamic speculation disable enabled\n" in text
    offs = text.count("Speculative decoding disabled: #running-req: ")
    ons = text.count("Speculative decoding re-enabled: #running-req: ")
    assert (offs, ons) == (
        toggles(run).count(("spec", "plain")),
        toggles(run).count(("plain", "spec")),
    )


def test_no_threshold_means_no_start_up_line(engine_run):
    assert "Dynamic speculation disable" not in engine_run(*BASE, *CHAIN_V1).log.read_text()


def test_hysteresis_waits_before_re_enabling(engine_run):
    run = engine_run(*CHURN, *CHAIN_V2)
    for e in run.of("spec_toggle"):
        if e["to"] == "spec":
            assert e["consecutive"] >= 4


def test_catch_up_restores_acceptance_after_re_enable(engine_run):
    """Steps right after a re-enable accept about as much as steady speculation does."""
    run = engine_run(*CHURN, *CHAIN_V2)
    assert run.of("spec_toggle")[-1]["draft_kv_policy"] == "catch_up"
    resumed = accepted_after_resume(run)
    assert resumed and sum(resumed) / len(resumed) >= 0.5 * run.end()["mean_accepted"]
