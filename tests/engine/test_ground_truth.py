"""The loop that keeps spectrace honest: analyse the engine's log, compare with its own events.

Truth comes only from the events (read with json); the diagnosis only from the log text.
"""

from __future__ import annotations

import pytest
from engine_cases import (
    BASE,
    CHAIN_V1,
    CHAIN_V2,
    CHURN,
    PLAIN,
    STORY,
    STORY_ALLOC,
    TREE,
    V2_TOPK4,
)

from spectrace.pipeline import analyse

CRASHES = {
    "v1-stale-tp1": (*STORY, "--fault", "stale_spec_info"),
    "v1-stale-tp2": (*STORY, "--fault", "stale_spec_info", "--tp", "2", "--dist-timeout", "4"),
    "v2-topk4": tuple(V2_TOPK4),
    "v1-alloc-unpack": (*STORY_ALLOC, "--fault", "alloc_unpack"),
    "v1-clear-mwb": (*STORY, "--fault", "clear_mwb_spec_info"),
    "v1-tree-nan": (*BASE, *TREE, "--fault", "nan_logits", "--fault-step", "4"),
    "v2-chain-nan": (*BASE, *CHAIN_V2, "--fault", "nan_logits", "--fault-step", "4"),
}
PLAIN_CRASH = (*BASE, *PLAIN, "--fault", "nan_logits", "--fault-step", "4")
CLEAN = {
    "v1-chain": (*BASE, *CHAIN_V1),
    "v2-dd": (*CHURN, *CHAIN_V2),
    "v1-dd-no-hysteresis": (*CHURN, *TREE, "--fault", "no_hysteresis"),
    "v2-skip-kv-sync": (*CHURN, *CHAIN_V2, "--fault", "skip_draft_kv_sync"),
}


def truth(run) -> dict:
    """The first non-collateral error written to the log (by its ``log_end`` file offset: the
    clock read before a write can order two ranks' writes the other way under load)."""
    errors = sorted((e for e in run.of("error") if not e["collateral"]), key=lambda e: e["log_end"])
    first = errors[0]
    tp = run.of("run_start")[0]["tp_size"]
    return {
        "exc_type": first["exc_type"],
        "message": first["message"],
        "rank": f"TP{first['rank']}" if tp > 1 else None,
        "log_ts": first["log_ts"],
        "ranks": sorted({f"TP{e['rank']}" for e in errors}) if tp > 1 else [],
        "worker": run.of("run_start")[0]["worker"],
        "error": first,
    }


@pytest.mark.parametrize("name", sorted(CRASHES))
def test_analysis_finds_exactly_the_recorded_crash(engine_run, name):
    run = engine_run(*CRASHES[name])
    t = truth(run)
    roots = [i for i in analyse([str(run.log)]).incidents if i.root_cause]
    assert len(roots) == 1, [(i.exception_type, i.message) for i in roots]
    inc = roots[0]
    assert (inc.exception_type, inc.message) == (t["exc_type"], t["message"])
    assert inc.origin_rank == t["rank"]
    assert sorted(inc.ranks) == t["ranks"]
    assert inc.first_seen.ts_text == t["log_ts"]
    assert inc.worker_path is not None and inc.worker_path.value == t["worker"]


def test_story_shape_numbers_are_explained_from_the_log(engine_run):
    run = engine_run(*CRASHES["v1-stale-tp1"])
    err = truth(run)["error"]
    inc = next(i for i in analyse([str(run.log)]).incidents if i.root_cause)
    assert inc.shape_mismatch is not None
    assert inc.shape_mismatch.numbers == {"a": err["rows"], "b": 2, "dim": 0}
    assert inc.explanation is not None and inc.explanation.explained
    term = inc.explanation.terms[str(err["rows"])]
    assert str(err["bs"]) in term and str(err["num_draft_tokens"]) in term


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_runs_have_no_incidents(engine_run, name):
    run = engine_run(*CLEAN[name])
    assert run.code == 0 and not run.of("error")
    assert analyse([str(run.log)]).incidents == []


# The frame each path's traceback passes through, as in a real SGLang server's.
SGLANG_FRAMES = {
    "v1-stale-tp1": ("speculative/eagle_worker.py", "v1"),
    "v1-clear-mwb": ("speculative/eagle_worker.py", "v1"),
    "v2-topk4": ("speculative/eagle_worker_v2.py", "v2"),
}


@pytest.mark.parametrize("name", sorted(SGLANG_FRAMES))
def test_engine_frames_are_decided_by_sglangs_rules(engine_run, name):
    """No engine-only row: the frame that decides is the file SGLang keeps the worker in."""
    inc = next(i for i in analyse([str(engine_run(*CRASHES[name]).log)]).incidents if i.root_cause)
    frames = [e for e in inc.worker_path.evidence if e.reason.startswith("traceback frame")]
    assert not any("spectrace" in e.reason for e in frames)
    path, value = SGLANG_FRAMES[name]
    assert any(path in e.text and e.points_to == value for e in frames)


def test_a_plain_crash_runs_tp_model_worker_under_the_overlap_loop(engine_run):
    run = engine_run(*PLAIN_CRASH)
    text = run.log.read_text()
    assert "in event_loop_overlap\n" in text and "eagle_worker" not in text
    inc = next(i for i in analyse([str(run.log)]).incidents if i.root_cause)
    assert inc.exception_type == "ValueError"
    # the dump says speculation was off: SGLang's plain TpModelWorker, nothing speculative
    assert (inc.worker_path.value, inc.worker_path.worker_class) == ("none", "TpModelWorker")
    assert all(e.points_to in (None, "none") for e in inc.worker_path.evidence)
