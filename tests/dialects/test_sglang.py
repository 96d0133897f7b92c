"""SGLang headers: ms / no ms, rank tags in any order, uvicorn lines left to their dialect."""

from __future__ import annotations

from datetime import datetime

import pytest

from spectrace.dialects.sglang import SGLangDialect

D = SGLangDialect()


@pytest.mark.parametrize(
    ("line", "rank", "text"),
    [
        ("[2026-02-27 20:49:03 TP2] Ignore import error", "TP2", "Ignore import error"),
        (
            "[2026-02-27 21:00:18 DP0 TP7] Decode batch, #running-req: 10",
            "DP0 TP7",
            "Decode batch, #running-req: 10",
        ),
        (
            "[2026-02-27 21:00:18 DP1 PP0 ATTN_CP1 MOE_DP0 TP3 EP3] x",
            "DP1 PP0 ATTN_CP1 MOE_DP0 TP3 EP3",
            "x",
        ),
        ("[2026-02-27 21:00:18 TP0 EP0 PP1 DP2] any order", "TP0 EP0 PP1 DP2", "any order"),
        (
            "[2025-08-04 10:10:06] Load weight begin. avail mem=78.84 GB",
            None,
            "Load weight begin. avail mem=78.84 GB",
        ),
    ],
)
def test_rank_tags_become_rank_and_stream(line: str, rank: str | None, text: str) -> None:
    h = D.parse(line)
    assert h is not None
    assert (h.rank, h.stream, h.text) == (rank, rank or "", text)
    assert h.level is None  # sglang prints no level


def test_milliseconds_are_kept_in_the_stamp() -> None:
    h = D.parse(
        "[2025-10-21 08:14:03.123 TP0] Scheduler hit an exception: Traceback (most recent call last):"
    )
    assert h is not None
    assert h.ts == datetime(2025, 10, 21, 8, 14, 3, 123000)
    assert h.ts_text == "2025-10-21 08:14:03.123"
    assert h.text.startswith("Scheduler hit an exception")


def test_2024_form_without_ms() -> None:
    h = D.parse("[2024-06-01 12:00:00 TP1] Capture cuda graph begin.")
    assert (
        h is not None
        and h.ts == datetime(2024, 6, 1, 12, 0, 0)
        and h.ts_text == "2024-06-01 12:00:00"
    )


@pytest.mark.parametrize(
    "line",
    [
        '[2025-10-21 08:15:10] INFO:     127.0.0.1:51234 - "POST /generate HTTP/1.1" 200 OK',
        '  File "/x/scheduler.py", line 2703, in run_scheduler_process',
        "[TP] no number",
    ],
)
def test_not_sglang(line: str) -> None:
    assert D.parse(line) is None


def test_impossible_date_keeps_header_without_ts() -> None:
    h = D.parse("[2025-13-45 10:00:00 TP0] odd")
    assert h is not None and h.ts is None and h.rank == "TP0"


def test_diffusion_runtime_header_without_the_year() -> None:
    """sglang's multimodal_gen prints ``[MM-DD HH:MM:SS]``; the line parser supplies the year."""
    h = D.parse(
        "[03-02 10:15:42] Rank 0 scheduler is dead. Please check if there are relevant logs."
    )
    assert h is not None and h.rank is None
    assert h.ts is not None and (h.ts.month, h.ts.day, h.ts.hour) == (3, 2, 10)
    assert h.text.startswith("Rank 0 scheduler is dead.")
    assert D.parse("[03-02 10:15:42 TP1] x") is not None


def test_2024_header_with_the_time_alone() -> None:
    """sglang 0.3.x: ``[23:17:08 TP4] ``: the rank is kept, the time only as printed text."""
    h = D.parse("[23:17:08 TP4] Exception in run_tp_server:")
    assert h is not None and (h.rank, h.ts, h.ts_text) == ("TP4", None, "23:17:08")
    assert h.text == "Exception in run_tp_server:"
    assert D.parse("[00:26<00:07,  5.89it/s] tqdm's bar end") is None


def test_tags_kept_when_a_paste_cut_the_stamps_by_hand() -> None:
    header = SGLangDialect().parse("[DP1 TP3] Scheduler hit an exception: Traceback (most recent")
    assert header is not None
    assert (header.rank, header.ts, header.text[:9]) == ("DP1 TP3", None, "Scheduler")
    assert SGLangDialect().parse("[TPX] not a tag") is None
    assert SGLangDialect().parse("[rank0]: Traceback") is None
