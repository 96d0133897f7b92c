"""A capture beside the logs becomes a hang finding linked to each rank's last log line."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

from stacks_helpers import HungServer
from stacks_synth import ALL_REDUCE, VERIFY, capture, still

from spectrace.assemblers.run_config import RunConfig
from spectrace.pipeline import Analysis, FileSummary
from spectrace.stacks.capture import CaptureOptions
from spectrace.stacks.capture import capture as live_capture
from spectrace.stacks.findings import hang_findings, split_inputs, stack_findings
from spectrace.stacks.model import save_capture


def test_hang_finding_names_the_odd_rank_and_links_last_lines(hung_sglang: HungServer) -> None:
    lines = hung_sglang.log.read_text().splitlines()
    summary = FileSummary(
        path=str(hung_sglang.log), lines=len(lines), bytes=0, dialects={"sglang": len(lines)}
    )
    analysis = Analysis(files=[summary], incidents=[], findings=[], config=RunConfig())
    snap = live_capture(hung_sglang.pid, CaptureOptions(samples=2, interval=0.1))

    (finding,) = hang_findings(snap, analysis)

    assert finding.kind == "hang"
    assert finding.message.endswith(
        "TP2 is in `verify` while TP0-1 and TP3 wait in all_reduce: "
        "the collective cannot finish until TP2 joins"
    )
    by_rank = {e.reason.split()[2]: e for e in finding.evidence}
    assert list(by_rank) == ["TP2", "TP0", "TP1", "TP3"]  # the odd one first
    for rank, ev in by_rank.items():
        last = max(n for n, text in enumerate(lines, 1) if f" {rank}] " in text)
        assert (ev.source, ev.lineno, ev.text) == (str(hung_sglang.log), last, lines[last - 1])
    assert "Decode batch" in by_rank["TP0"].text
    assert by_rank["TP2"].reason.endswith("py-spy: running Python code (verify)")
    assert finding.detail is not None and finding.detail.splitlines()[0].startswith("TP2 (pid ")


def test_without_logs_the_finding_still_carries_the_verdict(hung_sglang: HungServer) -> None:
    (finding,) = hang_findings(live_capture(hung_sglang.pid, CaptureOptions(samples=1)))
    assert finding.evidence == () and "no log line found" in (finding.detail or "")


def test_vllm_workers_link_by_pid_even_when_labels_differ(tmp_path: Path) -> None:
    """An old vLLM prints `(VllmWorker TP0 pid=N)` while the process is named VllmWorker-0."""
    log = tmp_path / "vllm.log"
    log.write_text(
        "\x1b[1;36m(VllmWorker TP0 pid=2236551)\x1b[0;0m INFO 09-09 11:51:36 [multiproc_executor.py:511] Worker ready\n"
        "\x1b[1;36m(VllmWorker TP1 pid=22365)\x1b[0;0m INFO 09-09 11:51:36 [multiproc_executor.py:511] Worker ready\n"
        "\x1b[1;36m(VllmWorker TP1 pid=2236552)\x1b[0;0m INFO 09-09 11:51:37 [gpu_model_runner.py:1290] Model loading took 14.9 GiB\n"
    )
    snap = capture(
        ("VllmWorker-0", still(ALL_REDUCE)), ("VllmWorker-1", still(VERIFY, active=True))
    )
    snap = replace(
        snap, processes=tuple(replace(p, pid=2236551 + i) for i, p in enumerate(snap.processes))
    )
    analysis = Analysis([FileSummary(str(log), 3, 0, {})], [], [], RunConfig())
    (finding,) = hang_findings(snap, analysis)
    assert [(e.reason.split()[2], e.lineno) for e in finding.evidence] == [
        ("VllmWorker-1", 3),
        ("VllmWorker-0", 1),
    ]


def test_captures_and_dumps_given_beside_logs_are_not_logs(tmp_path: Path) -> None:
    log, cap, fr = tmp_path / "server.log", tmp_path / "hang.json", tmp_path / "nccl_trace_rank_0"
    log.write_text("[2026-02-27 20:49:03 TP1] Load weight begin. avail mem=78.84 GB\n")
    save_capture(capture(("TP0", still(ALL_REDUCE)), ("TP1", still(VERIFY, active=True))), cap)
    fr.write_bytes(pickle.dumps({"pg_status": {"0": {"last_enqueued_collective": 1, "last_completed_collective": 1}},
                                 "entries": []}))  # fmt: skip
    assert split_inputs([str(log), str(cap), str(fr), "-", str(tmp_path)]) == (
        [str(log), "-", str(tmp_path)], [str(cap)], [str(fr)])  # fmt: skip
    analysis = Analysis([FileSummary(str(log), 1, 0, {})], [], [], RunConfig())
    hang, flight = stack_findings(analysis, [str(cap)], [str(fr)])
    assert hang.message.endswith(
        "TP1 is in `verify` while TP0 waits in all_reduce: the collective cannot finish until TP1 joins"
    )
    assert (hang.evidence[0].lineno, hang.evidence[0].reason.split()[2]) == (1, "TP1")
    assert flight.message == "flight recorder: every collective issued was completed on every rank"
