"""Each fault switch produces its documented signature, and the engine records the truth."""

from __future__ import annotations

import subprocess
import sys

from engine_cases import (
    BASE,
    CHAIN_V2,
    CHURN,
    PLAIN,
    RAMP,
    STORY,
    STORY_ALLOC,
    TREE,
    V2_TOPK4,
)

STORY_MESSAGE = (
    "The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0"
)


def test_stale_spec_info_reproduces_the_story_crash(engine_run):
    run = engine_run(*STORY, "--fault", "stale_spec_info")
    assert run.code == 1
    err = run.of("error")[0]
    assert (err["exc_type"], err["message"]) == ("RuntimeError", STORY_MESSAGE)
    assert (err["bs"], err["rows"], err["rows_expected"], err["num_draft_tokens"]) == (
        10,
        160,
        10,
        16,
    )
    assert err["spec_info"]["shapes"]["verified_id"] == [2]
    text = run.log.read_text()
    assert "Scheduler hit an exception: Traceback (most recent call last):\n" in text
    assert f"\nRuntimeError: {STORY_MESSAGE}\n" in text
    assert "in replay_prepare\n" in text and "copy_(" in text
    assert str(run.log) in run.output and "events.jsonl" in run.output


def test_story_crash_two_unpacks_a_one_slot_allocation(engine_run):
    """The re-allocation on the switch unpacks two values from a tensor of bs = 4."""
    run = engine_run(*STORY_ALLOC, "--fault", "alloc_unpack")
    assert run.code == 1
    err = run.of("error")[0]
    assert (err["exc_type"], err["message"]) == (
        "ValueError",
        "too many values to unpack (expected 2)",
    )
    assert "in clear_for_nonspec\n" in run.log.read_text()
    assert engine_run(*STORY_ALLOC).code == 0


def test_story_crash_three_clears_the_copy_not_the_batch(engine_run):
    """spec_info dropped on the ModelWorkerBatch only: the DECODE graphs get the stale roots."""
    run = engine_run(*STORY, "--fault", "clear_mwb_spec_info")
    assert run.code == 1
    err = run.of("error")[0]
    assert err["message"] == (
        "The size of tensor a (10) must match the size of tensor b (2) at non-singleton dimension 0"
    )
    text = run.log.read_text()
    assert "speculative/eagle_worker.py" in text and "in replay_prepare\n" in text


def test_without_the_fault_the_story_load_runs_clean(engine_run):
    run = engine_run(*STORY)
    assert run.code == 0 and not run.of("error")
    assert run.of("spec_toggle")[0]["cleanup_ran"] is True


def test_skip_draft_kv_sync_leaves_draft_kv_holes_but_exact_output(engine_run):
    """On resume the draft KV is caught up on each request's last position only, not on every
    position decoded while plain (the fault's signature: the toggle's policy and count, the fault
    event naming the positions skipped), and the output stays exact (the target verifies).

    Acceptance is not asserted: on the tiny first-order Markov pairs the head's own KV adds
    nothing to the fused features of the current position, so the holes do not move it (EAGLE-3,
    max-new 48-160, thresholds 4-6: after-resume means with holes -0.23..+0.15 from without).
    An earlier assertion of a 20 % drop over the first 3 verifies (5-6 accepted counts) held by
    chance and flipped when the resume moved by one step (plain steps running ahead, c07b83c)."""
    eagle3 = ("--speculative-algorithm", "EAGLE3")
    good = engine_run(*RAMP, *CHAIN_V2, *eagle3)
    bad = engine_run(*RAMP, *CHAIN_V2, *eagle3, "--fault", "skip_draft_kv_sync")
    assert bad.code == 0 and bad.outputs() == engine_run(*RAMP, *PLAIN).outputs()
    g, b = good.of("spec_toggle")[-1], bad.of("spec_toggle")[-1]
    assert (g["to"], b["to"]) == ("spec", "spec") and g["step"] == b["step"]
    assert (g["draft_kv_policy"], b["draft_kv_policy"]) == ("catch_up", "none")
    assert b["caught_up_tokens"] == b["bs"] and g["caught_up_tokens"] > 10 * g["bs"]
    skipped = g["caught_up_tokens"] - b["bs"]
    assert bad.of("fault")[0]["detail"] == f"draft KV not caught up on {skipped} positions"


def test_no_hysteresis_makes_the_switch_flap(engine_run):
    calm = engine_run(*CHURN, *CHAIN_V2)
    flappy = engine_run(*CHURN, *CHAIN_V2, "--fault", "no_hysteresis")
    assert len(flappy.of("spec_toggle")) >= 2 * len(calm.of("spec_toggle"))
    assert flappy.outputs() == calm.outputs()


def test_v2_with_topk_above_one_breaks_in_v2(engine_run):
    run = engine_run(*V2_TOPK4)
    assert run.code == 1
    err = run.of("error")[0]
    assert err["exc_type"] == "RuntimeError" and err["worker"] == "v2"
    assert "Sizes of tensors must match" in err["message"]
    assert "speculative/eagle_worker_v2.py" in run.log.read_text()


def test_v2_with_topk_above_one_is_refused_without_the_switch(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "spectrace",
            "engine",
            "run",
            "--out",
            str(tmp_path),
            "--worker",
            "v2",
            "--speculative-eagle-topk",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "spectrace: error: Spec v2 currently only supports topk = 1 for speculative decoding. "
        "(use --worker v1, or --fault v2_allow_topk_gt1)"
    ]


def test_nan_logits_crash_at_the_fault_step(engine_run):
    run = engine_run(*BASE, *TREE, "--fault", "nan_logits", "--fault-step", "4")
    err = run.of("error")[0]
    assert (run.code, err["exc_type"], err["step"]) == (1, "ValueError", 4)
    assert err["message"] == "Detected errors during sampling! NaN in the logits."


def test_dirty_padding_leaves_padded_rows_on_live_slots(engine_run):
    """Stale padded rows keep writing into request slots; neutral padding never does."""
    clean = engine_run(*CHURN, *PLAIN)
    dirty = engine_run(*CHURN, *PLAIN, "--fault", "dirty_padding")
    assert dirty.code == 0
    assert any(e["dirty_rows"] > 0 for e in dirty.of("step"))
    assert all(e["dirty_rows"] == 0 for e in clean.of("step"))
