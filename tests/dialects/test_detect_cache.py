"""Lines repeated thousands of times (a crash storm) are remembered, never their writer."""

from __future__ import annotations

import pytest

from spectrace.dialects import detect
from spectrace.dialects.detect import LineParser

FRAME = '  File "/usr/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", line 9, in f'
SGLANG = (
    "[2026-02-27 21:00:01 TP{r}] Scheduler hit an exception: Traceback (most recent call last):"
)
VLLM = "(EngineCore_DP0 pid=7) ERROR 02-27 21:00:01 [core.py:710] " + FRAME


def _parse(lines: list[str]) -> list[tuple[str, str | None, str, bool]]:
    parser = LineParser("storm.log")
    out = []
    for n, line in enumerate(lines, 1):
        got = parser.parse(line.encode(), n, n * 100)
        out.append((got.stream, got.rank, got.text, got.headed))
    return out


def test_a_repeated_frame_follows_whichever_writer_printed_last() -> None:
    lines = [SGLANG.format(r=3), FRAME, SGLANG.format(r=5), FRAME, FRAME, VLLM, FRAME]
    got = _parse(lines)
    vllm = "EngineCore_DP0 pid=7"
    assert [g[0] for g in got] == ["TP3", "TP3", "TP5", "TP5", "TP5", vllm, vllm]
    assert [g[3] for g in got] == [True, False, True, False, False, True, False]
    assert got[5][2] == FRAME


@pytest.mark.parametrize("size", [1, 2, 3])
def test_a_full_cache_gives_the_same_lines(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    lines = [SGLANG.format(r=r % 8) if r % 3 == 0 else FRAME for r in range(40)]
    lines += [VLLM, VLLM, 'INFO:     127.0.0.1:1 - "GET / HTTP/1.1" 200 OK', FRAME, "Killed"]
    expected = _parse(lines)
    monkeypatch.setattr(detect, "MISS_CACHE", size)
    assert _parse(lines) == expected
