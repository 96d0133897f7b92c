"""A missing --expect marker in a log of several runs: each run's own worker path, never a mix."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import analyse

MARKER = "Dynamic speculation disable enabled"
DUMP = (
    "[2026-02-27 {hms}] server_args=ServerArgs(model_path='m', speculative_algorithm='EAGLE3', "
    "speculative_num_steps=3, speculative_eagle_topk={topk}, speculative_num_draft_tokens=16, "
    "disable_overlap_schedule={off}, tp_size=2)"
)
V1_WARN = (
    "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative "
    "algorithm. You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental overlap "
    "scheduler. "
)
V2_WARN = (
    "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on."
)
DECODE = (
    "[2026-02-27 {hms} TP0] Decode batch, #running-req: 8, #token: 100, token usage: 0.01, "
    "accept len: 2.50, accept rate: 0.40, cuda graph: True, gen throughput (token/s): 300.00, "
    "#queue-req: 0"
)


def _run(hms: str, v2: bool) -> list[str]:
    dump = DUMP.format(hms=hms, topk=1 if v2 else 4, off=not v2)
    return [V2_WARN if v2 else V1_WARN, dump, DECODE.format(hms=hms)]


def _missing(tmp_path: Path, lines: list[str]) -> list[tuple[str | None, str | None]]:
    log = tmp_path / "server.log"
    log.write_text("\n".join(lines) + "\n")
    found = analyse([str(log)], expect=[MARKER]).findings
    return [
        (f.worker_path.value if f.worker_path else None, f.detail)
        for f in found
        if f.kind == "missing_marker"
    ]


def test_a_restarted_server_gets_one_finding_per_run(tmp_path: Path) -> None:
    lines = _run("21:00:01", v2=False) + _run("22:00:01", v2=True)
    got = _missing(tmp_path, lines)
    assert [value for value, _ in got] == ["v1", "v2"]
    assert got[0][1] is not None and got[0][1].endswith(
        "in the run started at " + f"{tmp_path / 'server.log'}:2"
    )
    assert got[1][1] is not None and got[1][1].endswith(f"{tmp_path / 'server.log'}:5")


def test_one_run_keeps_its_single_finding(tmp_path: Path) -> None:
    got = _missing(tmp_path, _run("21:00:01", v2=False))
    assert got == [("v1", "worker path from config: v1 (EAGLEWorker)")]


def test_runs_without_a_path_fall_back_to_one_finding(tmp_path: Path) -> None:
    plain = "[2026-02-27 {hms}] server_args=ServerArgs(model_path='m', tp_size=2)"
    lines = [plain.format(hms="21:00:01"), plain.format(hms="22:00:01")]
    got = _missing(tmp_path, lines)
    assert len(got) == 1 and got[0][0] == "unknown"


def test_a_worker_file_takes_its_own_directory_run_not_a_later_one(tmp_path: Path) -> None:
    """Two runs' logs triaged together: run A's rank file has no start-up of its own; run B
    started later elsewhere. A's crash keeps A's flags (v2), not the latest start-up's (v1)."""
    for name, hms, v2 in (("run-a", "21:00:01", True), ("run-b", "21:05:01", False)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "server.log").write_text("\n".join(_run(hms, v2)) + "\n")
    (tmp_path / "run-a" / "rank1.log").write_text(
        "[2026-02-27 21:10:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/sgl/python/sglang/srt/managers/scheduler.py", line 9, in run_batch\n'
        "    out = self.model_worker.forward_batch_generation(batch)\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    (incident,) = analyse([str(tmp_path)]).incidents
    assert incident.worker_path is not None and incident.worker_path.value == "v2"
    assert incident.flags["speculative_eagle_topk"].value == 1
