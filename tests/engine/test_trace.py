"""``spectrace engine trace RUN``: a run's events as a Perfetto / Chrome trace."""

from __future__ import annotations

import itertools
import json

from engine_cases import CHAIN_V2, CHURN
from spectrace_engine.entrypoints.cli import engine_app
from typer.testing import CliRunner

from spectrace.errors import InputError


def test_trace_lays_each_step_out_on_the_worker_track(engine_run, tmp_path):
    run = engine_run(*CHURN, *CHAIN_V2)
    out = tmp_path / "trace.json"
    res = CliRunner().invoke(engine_app, ["trace", str(run.out), "--out", str(out)])
    assert res.exit_code == 0, res.output
    events = json.loads(out.read_text())["traceEvents"]
    spans = [e for e in events if e["ph"] == "X"]
    steps = run.of("step")
    worker = [e for e in spans if e["tid"] == 2]
    assert len(worker) == sum(len(s["phases"]) for s in steps)
    assert {e["name"] for e in worker} >= {"draft", "verify_forward", "decode"}
    first = steps[0]
    own = [e for e in worker if e["args"]["step"] == first["step"]]
    assert own[0]["ts"] == round(first["launch_ns"] / 1000.0, 1)
    assert all(a["ts"] + a["dur"] <= b["ts"] + 0.2 for a, b in itertools.pairwise(own))
    toggles = [e for e in events if e["ph"] == "i" and e["name"].startswith("speculation")]
    assert len(toggles) == len(run.of("spec_toggle")) > 0
    assert {e["name"] for e in events if e["ph"] == "M"} == {"process_name", "thread_name"}


def test_trace_of_a_directory_without_events_is_one_line(tmp_path):
    res = CliRunner().invoke(engine_app, ["trace", str(tmp_path)])
    assert isinstance(res.exception, InputError) and "no engine events" in str(res.exception)
