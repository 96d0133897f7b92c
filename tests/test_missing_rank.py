"""Item 9: the rank that never arrived in a collective is named, and its crash is the cause.

The lines are ours, in SGLang's and c10's real formats (LOG_FORMATS.md 1.2, 3.x).
"""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import Analysis, analyse

STAMP = "2026-02-27 21:10:01"


def watchdog(rank: int, seq: int = 88231) -> str:
    return (f"[E227 21:10:01.{475101234 + rank} ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) "
            f"Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
            f"OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for {600011 + rank} "
            "milliseconds before timing out.")  # fmt: skip


def dump(**sizes: object) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in sizes.items())
    return f"[2026-02-27 21:00:00] server_args=ServerArgs(model_path='/models/m', {args}, disable_overlap_schedule=True)"


def run(tmp_path: Path, lines: list[str]) -> Analysis:
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n")
    return analyse([str(path)])


def crash(rank: str) -> list[str]:
    return [
        f"[2026-02-27 21:00:01 {rank}] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 1010, in event_loop_normal',
        "ValueError: too many values to unpack (expected 2)",
    ]


def test_timeouts_name_the_rank_that_never_arrived_and_point_at_its_crash(tmp_path: Path) -> None:
    lines = [dump(tp_size=8), *crash("TP3"), *(watchdog(r) for r in range(8) if r != 3)]
    a = run(tmp_path, lines)
    (root,) = [i for i in a.incidents if i.root_cause]
    timeouts = next(i for i in a.incidents if i.crash_class == "nccl_timeout")
    assert root.origin_rank == "TP3"
    assert timeouts.missing_ranks == ["TP3"]
    assert timeouts.caused_by == root.id and not timeouts.root_cause
    assert len(timeouts.ranks) == 7  # each rank's watchdog line counts, none folded away
    assert "TP3 (rank3) never reached collective SeqNum=88231 ALLREDUCE" in timeouts.hints[0]
    assert not [f for f in a.findings if f.kind == "hang"]


def test_arithmetic_beats_time_when_another_rank_crashed_later(tmp_path: Path) -> None:
    """TP3 crashed first, TP6 later; the collective TP3 never joined points at TP3's crash."""
    lines = [dump(tp_size=8), *crash("TP3"), *crash("TP6")[:1], *crash("TP6")[1:],
             *(watchdog(r) for r in range(8) if r != 3)]  # fmt: skip
    a = run(tmp_path, lines)
    timeouts = next(i for i in a.incidents if i.crash_class == "nccl_timeout")
    cause = next(i for i in a.incidents if i.id == timeouts.caused_by)
    assert cause.origin_rank == "TP3"


def test_with_no_crash_the_missing_rank_is_the_hangs_suspect(tmp_path: Path) -> None:
    a = run(tmp_path, [dump(tp_size=8), *(watchdog(r) for r in range(8) if r != 5)])
    (hang,) = [f for f in a.findings if f.kind == "hang"]
    assert "TP5 (rank5) never reached collective SeqNum=88231" in hang.message
    assert "hang's suspect" in hang.message


def test_dp_attention_names_the_missing_rank_by_its_dp_group(tmp_path: Path) -> None:
    lines = [dump(tp_size=8, dp_size=4, enable_dp_attention=True),
             *(watchdog(r) for r in range(8) if r != 5)]  # fmt: skip
    a = run(tmp_path, lines)
    timeouts = next(i for i in a.incidents if i.crash_class == "nccl_timeout")
    assert timeouts.missing_ranks == ["DP2 TP5"]


def test_different_collectives_are_not_one_gap(tmp_path: Path) -> None:
    """Ranks stuck in different collectives (SeqNum apart) say nothing about a missing rank."""
    lines = [dump(tp_size=4), watchdog(0, 10), watchdog(1, 11), watchdog(2, 12)]
    a = run(tmp_path, lines)
    assert all(not i.missing_ranks for i in a.incidents)
    assert not [f for f in a.findings if f.kind == "hang"]
