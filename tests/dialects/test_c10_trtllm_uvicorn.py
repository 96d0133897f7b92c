"""c10/glog, TensorRT-LLM (Python, C++, old) and uvicorn headers."""

from __future__ import annotations

from datetime import datetime

import pytest

from spectrace.dialects.c10 import C10Dialect
from spectrace.dialects.trtllm import TrtllmDialect
from spectrace.dialects.uvicorn import UvicornDialect


def test_c10_bracket_form() -> None:
    h = C10Dialect().parse(
        "[E519 05:58:22.475 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 1] Watchdog caught collective operation timeout"
    )
    assert h is not None
    assert (h.level, h.ts) == ("ERROR", datetime(1900, 5, 19, 5, 58, 22, 475000))
    assert h.text.startswith("[PG 0 Rank 1] Watchdog caught")


def test_glog_form_with_thread_id() -> None:
    h = C10Dialect().parse(
        "W0519 05:58:22.475123 12345 socket.cpp:464] [c10d] The server socket failed"
    )
    assert h is not None and h.level == "WARNING" and h.text == "[c10d] The server socket failed"


@pytest.mark.parametrize(
    ("line", "rank", "level", "ts"),
    [
        (
            "[10/21/2025-08:14:03] [TRT-LLM] [E] Executor worker returned error",
            None,
            "ERROR",
            datetime(2025, 10, 21, 8, 14, 3),
        ),
        (
            "[10/21/2025-08:14:03] [TRT-LLM] [MPI_Rank 1] [E] Encountered an error",
            "rank1",
            "ERROR",
            datetime(2025, 10, 21, 8, 14, 3),
        ),
        (
            "10-21-2025 08:14:03.123456 [TRT-LLM] [E] [3] Assertion failed",
            "rank3",
            "ERROR",
            datetime(2025, 10, 21, 8, 14, 3, 123456),
        ),
        ("[TRT-LLM] [W] Logger level set", None, "WARNING", None),
        (  # the PyTorch backend's module logger puts the rank after the level
            "[03/04/2026-05:06:07] [TRT-LLM] [E] [_torch][RANK 5] Executor loop failed",
            "rank5",
            "ERROR",
            datetime(2026, 3, 4, 5, 6, 7),
        ),
        ("[TensorRT-LLM][ERROR] Assertion failed: cuda", None, "ERROR", None),
    ],
)
def test_trtllm_forms(line: str, rank: str | None, level: str, ts: datetime | None) -> None:
    h = TrtllmDialect().parse(line)
    assert h is not None
    assert (h.rank, h.level, h.ts) == (rank, level, ts)
    assert "TRT-LLM]" not in h.text and "TensorRT-LLM]" not in h.text
    assert "RANK" not in h.text


def test_uvicorn_with_and_without_stamp() -> None:
    u = UvicornDialect()
    h = u.parse(
        '[2025-10-21 08:15:10] INFO:     127.0.0.1:51234 - "POST /generate HTTP/1.1" 200 OK'
    )
    assert h is not None and h.level == "INFO" and h.text.startswith("127.0.0.1:51234")
    bare = u.parse("INFO:     Started server process [4242]")
    assert bare is not None and bare.text == "Started server process [4242]" and bare.ts is None
    assert u.parse("ERROR: bare colon is not uvicorn padding") is None
