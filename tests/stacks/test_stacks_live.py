"""`spectrace stacks` on real hung process trees: the stuck rank is named, the waiting ones too."""

from __future__ import annotations

import json
import time
from pathlib import Path

from stacks_helpers import HungServer, spectrace, stacks_json, start_hung, stop

from spectrace.assemblers.run_config import RunConfig
from spectrace.pipeline import Analysis, FileSummary
from spectrace.stacks.findings import hang_findings
from spectrace.stacks.model import from_json, is_capture_file, load_capture


def _ranks(doc: dict[str, object]) -> dict[str, dict[str, object]]:
    analysis = doc["analysis"]
    assert isinstance(analysis, dict)
    return {r["label"]: r for r in analysis["ranks"]}


def test_names_the_spinning_rank_and_saves_what_it_saw(
    hung_sglang: HungServer, tmp_path: Path
) -> None:
    saved = tmp_path / "capture.json"
    args = (
        "stacks",
        str(hung_sglang.pid),
        "--samples",
        "3",
        "--interval",
        "0.2",
        "--save",
        str(saved),
    )
    result = spectrace(*args)
    assert result.returncode == 0, result.stderr
    verdict = ("Verdict: TP2 is in `verify` while TP0-1 and TP3 wait in all_reduce: "
               "the collective cannot finish until TP2 joins")  # fmt: skip
    assert verdict in result.stdout
    assert "verify (hang_program.py:" in result.stdout  # the innermost frame of the server's code
    doc = json.loads(saved.read_text())
    ranks = _ranks(doc)
    assert doc["analysis"]["kind"] == "straggler" and doc["analysis"]["odd"] == ["TP2"]
    assert sorted(ranks) == ["TP0", "TP1", "TP2", "TP3"]
    for label in ("TP0", "TP1", "TP3"):
        r = ranks[label]
        assert (r["state"], r["activity"], r["detail"], r["changed"]) == (
            "waiting",
            "collective",
            "all_reduce",
            False,
        )
    assert (ranks["TP2"]["state"], ranks["TP2"]["detail"], ranks["TP2"]["changed"]) == (
        "running",
        "verify",
        True,
    )
    pids = {p["pid"]: p for p in doc["processes"]}
    assert set(hung_sglang.rank_pids) <= set(pids)  # the whole tree, children included
    assert all(pids[p]["rank_source"] == "title" for p in hung_sglang.rank_pids)
    # the saved file is a capture (not a log), loads back, and shows the same verdict
    assert is_capture_file(saved) and not is_capture_file(hung_sglang.log)
    assert load_capture(saved).root_pid == hung_sglang.pid
    shown = spectrace("stacks", "--load", str(saved), "--no-threads")
    assert verdict in shown.stdout and shown.returncode == 0


def test_ranks_from_the_environment(live: None, tmp_path: Path) -> None:
    server = start_hung(tmp_path, "--world", "2", "--stuck", "0", "--title", "plain")
    try:
        doc = stacks_json(str(server.pid), "--samples", "1")
    finally:
        stop(server.proc)
    assert {p["rank"]: p["rank_source"] for p in doc["processes"] if p["rank"]} == {
        "rank0": "env RANK",
        "rank1": "env RANK",
    }


def test_spawned_ranks_without_title_or_env_are_found_from_locals(
    live: None, tmp_path: Path
) -> None:
    server = start_hung(tmp_path, "--world", "2", "--stuck", "1", "--title", "spawn")
    try:
        doc = stacks_json(str(server.pid), "--samples", "2", "--interval", "0.1")
    finally:
        stop(server.proc)
    lines = server.log.read_text().splitlines()
    files = [FileSummary(str(server.log), len(lines), 0, {})]
    (finding,) = hang_findings(from_json(doc), Analysis(files, [], [], RunConfig()))
    assert [(e.reason.split()[2], e.text) for e in finding.evidence] == [  # rank1 is the log's TP1
        ("rank1", next(t for t in reversed(lines) if " TP1] " in t)),
        ("rank0", next(t for t in reversed(lines) if " TP0] " in t)),
    ]
    sources = {p["rank"]: p["rank_source"] for p in doc["processes"] if p["rank"]}
    assert sources == {"rank0": "locals: rank in rank_main", "rank1": "locals: rank in rank_main"}
    assert doc["analysis"]["verdict"].startswith(
        "rank1 is in `verify` while rank0 waits in all_reduce"
    )


def _wait_for(paths: list[Path], seconds: float = 150) -> None:
    """Until every rank has dumped its parked trace; a generous deadline for a loaded box."""
    deadline = time.monotonic() + seconds
    while not all(p.exists() for p in paths):
        assert time.monotonic() < deadline, f"no flight-recorder dump after {seconds} s"
        time.sleep(0.1)


def test_torch_gloo_ranks_and_the_flight_recorder(live: None, tmp_path: Path) -> None:
    """Real torch.distributed: rank0 sleeps in verify, rank1 waits in torch's all_reduce;
    the flight-recorder dumps agree: rank0 never issued collective #2."""
    fr = tmp_path / "fr"
    fr.mkdir()
    server = start_hung(
        tmp_path,
        "--world",
        "2",
        "--stuck",
        "0",
        "--mode",
        "sleep",
        "--backend",
        "gloo",
        "--title",
        "fork",
        "--fr-dir",
        str(fr),
    )
    try:
        _wait_for([fr / "nccl_trace_rank_0", fr / "nccl_trace_rank_1"])
        doc = stacks_json(
            str(server.pid), "--samples", "2", "--interval", "0.1", "--flight", str(fr)
        )
    finally:
        stop(server.proc)
    ranks = _ranks(doc)
    assert doc["analysis"]["verdict"].startswith(
        "rank0 sleeps in `verify` while rank1 waits in all_reduce"
    )
    waiting = next(p for p in doc["processes"] if p["rank"] == "rank1")
    files = [f["filename"] for t in waiting["samples"][-1]["threads"] for f in t["frames"]]
    assert any(f.endswith("torch/distributed/distributed_c10d.py") for f in files)
    assert (
        waiting["rank_source"] == "locals: rank in rank_main"
        and ranks["rank1"]["detail"] == "all_reduce"
    )
    assert doc["flight_recorder"]["verdict"] == (
        "flight recorder: pg 0: rank1 waits in collective #2 (gloo:all_reduce); "
        "rank0 never issued it (rank0 last issued #1)"
    )


def test_native_frames_keep_the_verdict(hung_sglang: HungServer) -> None:
    doc = stacks_json(str(hung_sglang.pid), "--samples", "2", "--interval", "0.1", "--native")
    assert doc["native"] is True
    assert doc["analysis"]["verdict"].startswith(
        "TP2 is in `verify` while TP0-1 and TP3 wait in all_reduce"
    )
    tp0 = next(p for p in doc["processes"] if p["rank"] == "TP0")
    frames = tp0["samples"][-1]["threads"][0]["frames"]
    assert frames[0]["native"] and any(
        f["name"] == "all_reduce" and not f["native"] for f in frames
    )
