"""A capture beside the logs becomes a hang finding linked to each rank's last log line."""

from __future__ import annotations

from stacks_helpers import HungServer

from spectrace.assemblers.config import RunConfig
from spectrace.pipeline import Analysis, FileSummary
from spectrace.stacks.capture import CaptureOptions, capture
from spectrace.stacks.findings import hang_findings


def test_hang_finding_names_the_odd_rank_and_links_last_lines(hung_sglang: HungServer) -> None:
    lines = hung_sglang.log.read_text().splitlines()
    summary = FileSummary(
        path=str(hung_sglang.log), lines=len(lines), bytes=0, dialects={"sglang": len(lines)}
    )
    analysis = Analysis(files=[summary], incidents=[], findings=[], config=RunConfig())
    snap = capture(hung_sglang.pid, CaptureOptions(samples=2, interval=0.1))

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
    (finding,) = hang_findings(capture(hung_sglang.pid, CaptureOptions(samples=1)))
    assert finding.evidence == () and "no log line found" in (finding.detail or "")
