"""A server_args dump wrapped over lines (a terminal copy, an issue paste) is read whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.pipeline import analyse

FIELDS = [
    "model_path='/models/Qwen3-8B'", "tp_size=2", "speculative_algorithm='EAGLE3'",
    "speculative_num_steps=3", "speculative_eagle_topk=1", "speculative_num_draft_tokens=4",
    *(f"padding_field_{n}='value {n} (kept)'" for n in range(40)),
    "enable_dp_attention=False", "dp_size=1", "disable_overlap_schedule=False",
    "cuda_graph_max_bs=32",
]  # fmt: skip
DUMP = "[2026-03-01 10:00:02] server_args=ServerArgs(" + ", ".join(FIELDS) + ")"
CRASH = [
    "[2026-03-01 10:05:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl/srt/managers/scheduler.py", line 2730, in run_scheduler_process',
    "    scheduler.event_loop_overlap()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _flags(tmp_path: Path, dump_lines: list[str]) -> dict[str, object]:
    log = tmp_path / "server.log"
    log.write_text("\n".join(["[2026-03-01 10:00:01] Launching", *dump_lines, *CRASH]) + "\n")
    analysis = analyse([str(log)])
    assert [i.exception_type for i in analysis.incidents] == ["RuntimeError"]
    return {name: flag.value for name, flag in analysis.config.flags.items()}


@pytest.mark.parametrize("width", [80, 137, 400])
def test_a_wrapped_dump_gives_the_same_flags_as_the_whole_line(tmp_path: Path, width: int) -> None:
    whole = _flags(tmp_path, [DUMP])
    wrapped = _flags(tmp_path, [DUMP[i : i + width] for i in range(0, len(DUMP), width)])
    assert wrapped == whole
    assert wrapped["disable_overlap_schedule"] is False and wrapped["dp_size"] == 1


def test_a_dump_cut_short_ends_at_the_next_header(tmp_path: Path) -> None:
    cut = DUMP[: len(DUMP) // 2]
    flags = _flags(tmp_path, [cut, "[2026-03-01 10:00:03] Load weight begin."])
    assert flags["speculative_eagle_topk"] == 1 and "dp_size" not in flags
