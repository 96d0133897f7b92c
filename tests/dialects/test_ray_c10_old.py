"""Ray's own log format, the stamp-less c10 header of torch <= 2.3 and TensorRT-LLM 1.x's
``[RANK r]`` tag (lines written by us)."""

from __future__ import annotations

from datetime import datetime

from spectrace.dialects.c10 import C10Dialect
from spectrace.dialects.detect import LineParser
from spectrace.dialects.ray import RayDialect
from spectrace.dialects.trtllm import TrtllmDialect


def test_ray_line_gives_stamp_and_level_and_keeps_the_writer() -> None:
    h = RayDialect().parse(
        "2024-03-01 10:00:00,412\tWARNING worker.py:2058 -- A worker died or was killed"
    )
    assert h is not None and h.anonymous
    assert (h.level, h.ts, h.text) == (
        "WARNING",
        datetime(2024, 3, 1, 10, 0, 0, 412000),
        "A worker died or was killed",
    )
    parser = LineParser("t.log")
    parser.parse(b"(RayWorkerWrapper pid=7, ip=10.0.0.2) INFO 03-01 10:00:00 [w.py:1] ready", 1, 0)
    line = parser.parse(
        b"2024-03-01 10:00:01,000\tINFO compiled_dag_node.py:2109 -- Tearing down", 2, 0
    )
    assert (line.dialect, line.level, line.text) == ("ray", "INFO", "Tearing down")


def test_ray_format_needs_its_tab_and_dashes() -> None:
    assert RayDialect().parse("2024-03-01 10:00:00,412 WARNING worker.py:2058 -- x") is None
    assert RayDialect().parse("2024-03-01 10:00:00,412\tWARNING worker.py:2058 x") is None


def test_c10_header_without_a_stamp() -> None:
    h = C10Dialect().parse("[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught collective")
    assert h is not None
    assert (h.level, h.ts, h.text) == ("ERROR", None, "[Rank 0] Watchdog caught collective")
    assert C10Dialect().parse("[E something else] x") is None
    line = LineParser("t.log").parse(b"[rank3]:[W ProcessGroupNCCL.cpp:1414] x", 1, 0)
    assert (line.rank, line.dialect, line.level) == ("rank3", "c10", "WARNING")


def test_trtllm_1x_rank_tag() -> None:
    h = TrtllmDialect().parse("[12/04/2025-18:38:28] [TRT-LLM] [RANK 3] [E] Error in event loop: x")
    assert h is not None and (h.rank, h.level, h.text) == (
        "rank3",
        "ERROR",
        "Error in event loop: x",
    )


def test_ray_core_cpp_line_gives_stamp_and_level() -> None:
    text = "[2025-03-07 11:22:33,456 E 5120 5188] core_worker.cc:900: Unhandled exception: boom"
    header = RayDialect().parse(text)
    assert header is not None
    assert (header.ts, header.ts_text, header.level) == (
        datetime(2025, 3, 7, 11, 22, 33, 456000), "2025-03-07 11:22:33,456", "ERROR"
    )  # fmt: skip
    assert header.text == "Unhandled exception: boom"


def test_ray_core_format_needs_its_pid_and_thread_ids() -> None:
    assert RayDialect().parse("[2025-03-07 11:22:33,456 E] core_worker.cc:900: x") is None
    assert RayDialect().parse("[2025-03-07 11:22:33 TP0] Scheduler hit an exception:") is None
