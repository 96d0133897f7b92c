"""Records a progress bar drew over with \\r on one physical line are each kept (lines by us)."""

from __future__ import annotations

from pathlib import Path

from spectrace.dialects.redraws import split_redraws
from spectrace.pipeline import analyse

BAR = "Loading safetensors checkpoint shards:  60% Completed | 3/5 [00:02<00:01]"
CRASH = [
    "[2026-02-27 21:00:17 TP3] Decode batch, #running-req: 10, #token: 8421, token usage: 0.04",
    "[2026-02-27 21:00:18 TP7] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    "RuntimeError: The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0",
]  # fmt: skip


def _incidents(tmp_path: Path, lines: list[str]) -> list[tuple[str, str, str | None]]:
    log = tmp_path / "server.log"
    log.write_text("\n".join(lines) + "\n")
    return [(i.exception_type, i.message, i.origin_rank) for i in analyse([str(log)]).incidents]


def test_an_exception_line_a_bar_drew_over_keeps_its_message(tmp_path: Path) -> None:
    clean = _incidents(tmp_path, CRASH)
    drawn_over = _incidents(tmp_path, CRASH[:-1] + [CRASH[-1] + "\r" + BAR + "\r" + BAR])
    assert drawn_over == clean
    assert clean[0][1].startswith("The size of tensor a (160)")


def test_a_header_right_after_a_bar_without_a_rate_is_its_own_record(tmp_path: Path) -> None:
    glued = CRASH[:1] + ["\r" + BAR + CRASH[1]] + CRASH[2:]
    assert _incidents(tmp_path, glued) == _incidents(tmp_path, CRASH)
    assert _incidents(tmp_path, glued)[0][2] == "TP7"


def test_bar_states_alone_stay_one_line_and_wrappers_reach_every_record() -> None:
    states = f"\r{BAR}\r{BAR.replace('60%', '80%')}\n".encode()
    assert split_redraws(states) == [states]
    cri = "2026-02-27T21:00:18.217+08:00 stderr F "
    parts = split_redraws(f"{cri}RuntimeError: boom\r{BAR}\n".encode())
    assert [p.decode() for p in parts] == [f"{cri}RuntimeError: boom", f"{cri}{BAR}"]
