"""The bundled engine at --tp 2 with its hang fault: spectrace stacks names the stuck rank."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stacks_helpers import stacks_json

from spectrace.assemblers.run_config import RunConfig
from spectrace.pipeline import Analysis, FileSummary
from spectrace.stacks.findings import hang_findings
from spectrace.stacks.model import from_json

ENGINE_START_S = 120.0


@pytest.mark.slow
def test_engine_rank_held_before_the_collective(live: None, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["--out", str(out), "--tp", "2", "--fault", "hang_before_collective", "--hang-seconds", "90",
            "--fault-step", "2", "--num-requests", "4"]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "spectrace", "engine", "run", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        events = out / "events.tp1.jsonl"
        deadline = time.monotonic() + ENGINE_START_S
        while time.monotonic() < deadline and proc.poll() is None:
            if events.exists() and "hang_before_collective" in events.read_text():
                break
            time.sleep(0.5)
        assert proc.poll() is None, "the engine exited before its rank hung"
        time.sleep(1.0)  # past the moment rank 1 left its previous collective
        doc = stacks_json(str(proc.pid), "--samples", "2", "--interval", "0.2")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the engine's own session: launcher and ranks
        proc.wait()
    analysis = doc["analysis"]
    assert analysis["verdict"] == (
        "rank1 sleeps in `GroupCoordinator.maybe_hang` while rank0 waits in all_reduce: "
        "the collective cannot finish until rank1 joins"
    )
    sources = {p["rank"]: p["rank_source"] for p in doc["processes"] if p["rank"]}
    assert sources == {"rank0": "locals: rank in _rank_main", "rank1": "locals: rank in _rank_main"}
    log = out / "engine.log"
    lines = log.read_text().splitlines()
    (finding,) = hang_findings(
        from_json(doc), Analysis([FileSummary(str(log), len(lines), 0, {})], [], [], RunConfig())
    )
    first = finding.evidence[0]
    assert first.reason.startswith("last line rank1 wrote") and " TP1] " in first.text
    assert first.lineno == max(n for n, t in enumerate(lines, 1) if " TP1] " in t)
