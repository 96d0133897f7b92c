"""The event stream is the engine's truth: one schema, complete on success and on a crash."""

from __future__ import annotations

import json

import pytest
from engine_cases import BASE, STORY, TREE
from spectrace_engine.observe.events import EventWriter

COMMON = {"v", "seq", "ts_ns", "run_id", "rank", "step", "event"}
REQUIRED = {
    "run_start": {
        "config",
        "worker",
        "worker_class",
        "disable_overlap_schedule",
        "versions",
        "device",
        "weights",
        "faults",
        "log_path",
        "warnings",
    },
    "capture": {"runner", "mode", "bs", "rows", "t_us", "graph"},
    "prefill": {"rids", "bs", "tokens", "spec", "t_us"},
    "step": {
        "mode",
        "spec_enabled",
        "bs",
        "padded_bs",
        "rows",
        "rows_expected",
        "graph",
        "graph_key",
        "phases",
        "spec_info",
        "accepted",
        "emitted",
        "host_syncs",
        "resolve_syncs",
    },
    "spec_toggle": {"from", "to", "reason", "bs", "threshold", "cleanup_ran", "draft_kv_policy"},
    "decode_log": {"running_req", "tokens", "accept_len", "gen_throughput", "queue_req"},
    "request_finish": {"rid", "prompt_len", "output_ids", "finish_step"},
    "error": {
        "exc_type",
        "message",
        "traceback_tail",
        "collateral",
        "bs",
        "rows",
        "rows_expected",
        "spec_info",
        "faults",
        "log_ts",
    },
    "run_end": {
        "status",
        "steps",
        "requests_finished",
        "tokens_out",
        "mean_accepted",
        "mean_emitted",
        "graph_replays",
        "graph_misses",
        "padding_waste",
        "wall_s",
    },
}


@pytest.mark.parametrize(
    "flags", [(*BASE, *TREE), (*STORY, "--fault", "stale_spec_info")], ids=["ok", "crash"]
)
def test_every_event_follows_the_schema(engine_run, flags):
    events = engine_run(*flags).events
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for e in events:
        assert e["v"] == 1 and COMMON <= e.keys()
        assert REQUIRED.get(e["event"], set()) <= e.keys(), e["event"]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "run_start"
    assert kinds[-1] == "run_end"


def test_run_start_carries_config_versions_and_checksums(engine_run):
    start = engine_run(*BASE, *TREE).of("run_start")[0]
    assert start["config"]["spec"]["num_draft_tokens"] == 16
    assert start["versions"]["torch"]
    assert start["weights"] and all(len(v) == 64 for v in start["weights"].values())


def test_the_crash_is_recorded_before_the_process_ends(engine_run):
    run = engine_run(*STORY, "--fault", "stale_spec_info")
    kinds = [e["event"] for e in run.events]
    assert kinds[-2:] == ["error", "run_end"]
    assert run.end()["status"] == "error"
    err = run.of("error")[0]
    text = run.log.read_bytes()
    assert err["log_ts"] in text.decode()
    assert text[: err["log_end"]].decode().rstrip().endswith(err["message"])  # the write's end


def test_events_are_buffered_until_flush(tmp_path):
    """Appending is in memory: nothing is serialised or written per event."""
    path = tmp_path / "e.jsonl"
    w = EventWriter(path, "r", 0)
    for i in range(100):
        w.emit("step", bs=i)
    assert path.read_text() == ""
    w.close()
    lines = path.read_text().splitlines()
    assert len(lines) == 100 and json.loads(lines[-1])["bs"] == 99
