"""Wrappers as vLLM issue threads show them (lines written by us in those shapes): a line glued
after a tqdm bar that lost its newline, tags behind a whole-paste indent or a viewer gutter."""

from __future__ import annotations

from spectrace.dialects.detect import LineParser
from spectrace.dialects.wrappers import peel, unglue

BAR = (
    "Processed prompts:   0%|          | 0/112 [00:00<?, ?it/s, est. speed input: 0.00 toks/s, "
    "output: 0.00 toks/s]"
)


def test_a_line_glued_after_a_progress_bar_is_that_line() -> None:
    assert unglue(BAR + "[rank0]: Traceback (most recent call last):") == (
        "[rank0]: Traceback (most recent call last):"
    )
    line = LineParser("t.log").parse(
        (BAR + "[rank0]: Traceback (most recent call last):").encode(), 1, 0
    )
    assert (line.rank, line.text) == ("rank0", "Traceback (most recent call last):")


def test_a_bar_alone_or_prose_with_brackets_stays() -> None:
    assert unglue(BAR) == BAR
    shards = (
        "Loading safetensors checkpoint shards:  74% Completed | 121/163 [00:26<00:07,  5.89it/s]"
    )
    assert unglue(shards + "   ") == shards + "   "
    assert unglue("x = [1<2, 3] and more") == "x = [1<2, 3] and more"


def test_tags_behind_an_indent_or_a_gutter_still_name_the_writer() -> None:
    p = peel("    [rank7]:[E816 01:45:40.183 ProcessGroupNCCL.cpp:607] [Rank 7] Watchdog caught")
    assert (p.torch_rank, p.text[:5]) == ("rank7", "[E816")
    g = peel("  | ERROR 07-01 13:54:43 multiproc_worker_utils.py:120] Worker died")
    assert g.text.startswith("ERROR 07-01")
    w = peel("  (Worker_TP1 pid=530) ERROR 10-06 18:54:30 [multiproc_executor.py:597] x")
    assert w.proc_name == "Worker_TP1"


def test_a_gutter_paste_keeps_rank_and_time() -> None:
    parser = LineParser("t.log")
    line = parser.parse(
        b"  | [rank0]:[E1001 16:06:04.537 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught", 1, 0
    )
    assert (line.rank, line.dialect, line.ts_text) == ("rank0", "c10", "10-01 16:06:04.537")


def test_exception_group_borders_leave_the_nested_traceback_readable() -> None:
    parser = LineParser("t.log")
    line = parser.parse(b"    | ValueError: boom", 1, 0)
    assert line.text == "ValueError: boom"


def test_an_sglang_header_glued_to_another_writers_output_starts_the_line() -> None:
    glued = "_ctypes, numpy.linalg._umath[2026-02-11 08:30:12 TP2] Scheduler hit an exception: x"
    line = LineParser("t.log").parse(glued.encode(), 1, 0)
    assert (line.rank, line.ts_text, line.text) == (
        "TP2", "2026-02-11 08:30:12", "Scheduler hit an exception: x"
    )  # fmt: skip
    frame = '  File "<frozen os>", line 12 in [2026-02-11 08:30:12] Received sigquit from a child'
    assert unglue(frame) == "[2026-02-11 08:30:12] Received sigquit from a child"


def test_a_header_quoted_after_a_blank_or_a_headed_line_stays_whole() -> None:
    quoted = "the log said [2026-02-11 08:30:12 TP2] Prefill batch"
    assert unglue(quoted) == quoted
    headed = "[2026-02-11 08:30:11 TP1] got x[2026-02-11 08:30:12 TP2] Prefill batch"
    assert unglue(headed) == headed


def test_ray_data_actor_tag_nested_in_parentheses_under_a_nanosecond_stamp() -> None:
    raw = (
        "2026-04-02 10:00:01.123456789 (MapWorker(MapBatches(EngineActor)) pid=51, ip=10.0.0.2) "
        "(EngineCore_DP1 pid=77) ERROR 04-02 02:00:01 [core.py:900] EngineCore encountered a "
        "fatal error."
    )
    line = LineParser("t.log").parse(raw.encode(), 1, 0)
    assert (line.rank, line.ts_text) == ("EngineCore_DP1", "04-02 02:00:01")
    assert line.text == "EngineCore encountered a fatal error."
    p = peel("2026-04-02 10:00:01.123456 (MapWorker(MapBatches(EngineActor)) pid=51) text")
    assert (p.proc_name, p.ts and p.ts.ts_text, p.text) == (
        "MapWorker(MapBatches(EngineActor))", "2026-04-02 10:00:01.123456", "text"
    )  # fmt: skip


def test_an_editors_line_numbers_before_a_writers_tag() -> None:
    numbered = (
        " 404 ^[[36m(RayWorkerWrapper pid=22, ip=10.0.0.9)^[[0m ERROR 02-18 15:16:57 x.py:5] boom"
    )
    line = LineParser("t.log").parse(numbered.encode(), 1, 0)
    assert (line.rank, line.ts_text, line.text) == ("RayWorkerWrapper", "02-18 15:16:57", "boom")
    tabbed = peel("   17\t(Worker_TP1 pid=5) ERROR 02-18 15:16:57 [core.py:1] x")
    assert tabbed.proc_name == "Worker_TP1"
    assert peel("404 Not Found (pid=3)").text == "404 Not Found (pid=3)"
