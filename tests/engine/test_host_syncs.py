"""Host syncs in step events are measured: checked against reads counted here, independently."""

from __future__ import annotations

import json

import pytest
import torch
from engine_cases import BASE, CHAIN_V1, CHAIN_V2, PLAIN, TREE
from spectrace_engine.entrypoints.cli import engine_app
from spectrace_engine.managers.scheduler import Scheduler
from typer.testing import CliRunner

READS = ("tolist", "item", "__bool__", "__int__", "__float__")


class ReadCounter:
    """Counts every tensor -> Python read made while a decode step runs or is processed."""

    def __init__(self) -> None:
        self.inside = 0
        self.reads = 0

    def wrap_read(self, fn):  # type: ignore[no-untyped-def]
        def read(t, *a, **k):  # type: ignore[no-untyped-def]
            self.reads += self.inside > 0
            return fn(t, *a, **k)

        return read

    def bracket(self, fn):  # type: ignore[no-untyped-def]
        def inside(*a, **k):  # type: ignore[no-untyped-def]
            self.inside += 1
            try:
                return fn(*a, **k)
            finally:
                self.inside -= 1

        return inside


@pytest.mark.parametrize(
    "path", [CHAIN_V1, TREE, CHAIN_V2, PLAIN], ids=["v1-chain", "v1-tree", "v2", "plain"]
)
def test_step_events_carry_the_reads_the_step_really_made(tmp_path, monkeypatch, path):
    counter = ReadCounter()
    for name in READS:
        monkeypatch.setattr(torch.Tensor, name, counter.wrap_read(getattr(torch.Tensor, name)))
    for name in ("run_batch", "resolve"):
        monkeypatch.setattr(Scheduler, name, counter.bracket(getattr(Scheduler, name)))
    res = CliRunner().invoke(engine_app, ["run", "--out", str(tmp_path), *BASE, *path])
    assert res.exit_code == 0, res.output
    steps = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    steps = [e for e in steps if e["event"] == "step"]
    recorded = sum(e["host_syncs"] + e["resolve_syncs"] for e in steps)
    assert counter.reads == recorded > 0
    if path is CHAIN_V2 or path is PLAIN:  # the overlap loop: nothing read inside a step
        assert {e["host_syncs"] for e in steps} == {0}
