"""Crash grouping: one incident per crash across ranks, origin rank, collateral, stable signatures."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from synthetic import FRAMES, SHAPE_MESSAGE, SITE, nccl_crash, seed_crashes, shape_crash

from spectrace.assemblers.crash import Frame
from spectrace.incidents import build_incidents, crash_signature, mask_message, signature
from spectrace.pipeline import analyse


def test_same_crash_on_eight_ranks_is_one_incident_with_origin_first() -> None:
    crashes = [
        shape_crash(f"TP{r}", 30 if r != 7 else 18, 100 + r) for r in (10, 2, 0, 7, 1, 3, 4, 5)
    ]
    [incident] = build_incidents(crashes)
    assert incident.origin_rank == "TP7"
    assert incident.ranks == ["TP7", "TP0", "TP1", "TP2", "TP3", "TP4", "TP5", "TP10"]
    assert len(incident.occurrences) == 8
    assert incident.first_seen.rank == "TP7" and incident.first_seen.lineno == 107
    assert incident.root_cause and incident.caused_by is None


def test_equal_times_break_ties_by_file_position() -> None:
    crashes = [shape_crash("TP3", 18, 500), shape_crash("TP5", 18, 200)]
    [incident] = build_incidents(crashes)
    assert incident.origin_rank == "TP5"


def test_nccl_timeouts_are_collateral_of_the_earlier_root_cause() -> None:
    root, collateral = build_incidents(seed_crashes())
    assert (root.id, collateral.id) == ("I1", "I2")
    assert root.root_cause and not collateral.root_cause
    assert collateral.caused_by == "I1" and root.collateral == ["I2"]
    assert collateral.ranks == ["TP0", "TP1", "TP3", "TP10"]


def test_collateral_before_any_root_goes_to_the_first_root_after() -> None:
    early_timeout = replace(nccl_crash("TP0", 1, 10), ts=shape_crash("TP7", 10, 1).ts)
    incidents = build_incidents([early_timeout, shape_crash("TP7", 18, 800)])
    timeout = next(i for i in incidents if i.exception_type == "NCCLTimeout")
    assert timeout.id == "I1" and timeout.caused_by == "I2"


def test_collateral_goes_to_the_nearest_earlier_root() -> None:
    first = shape_crash("TP7", 1, 10)
    second = shape_crash(
        "TP1", 5, 20, exception_type="ValueError", message="too many values to unpack (expected 2)"
    )
    timeout = replace(nccl_crash("TP0", 1, 30), ts=shape_crash("TP0", 9, 1).ts)
    incidents = {i.exception_type: i for i in build_incidents([first, second, timeout])}
    assert incidents["NCCLTimeout"].caused_by == incidents["ValueError"].id


def test_only_collateral_still_yields_a_root_cause() -> None:
    [incident] = build_incidents([nccl_crash("TP3", 1, 10), nccl_crash("TP1", 1, 11)])
    assert incident.root_cause and incident.caused_by is None


def test_ids_follow_first_occurrence_in_time_not_input_order() -> None:
    late = shape_crash(
        "TP0", 50, 10, exception_type="ValueError", message="too many values to unpack (expected 2)"
    )
    early = shape_crash("TP0", 5, 90)
    incidents = build_incidents([late, early])
    assert [(i.id, i.exception_type) for i in incidents] == [
        ("I1", "RuntimeError"),
        ("I2", "ValueError"),
    ]


def test_no_crash_no_incident() -> None:
    assert build_incidents([]) == []


def test_signature_ignores_line_numbers_pids_times_and_sizes() -> None:
    base = shape_crash("TP7", 18, 800)
    moved = replace(
        base,
        frames=tuple(replace(f, line=(f.line or 0) + 37) for f in FRAMES),
        message=SHAPE_MESSAGE.replace("160", "320").replace("(2)", "(4)"),
        lineno=9000,
        ts=None,
        rank="TP3",
    )
    assert crash_signature(base) == crash_signature(moved)


def test_message_masking_covers_run_specific_values() -> None:
    a = "Process 4242 at 0x7f3a2b10 failed reading /tmp/run-1/kv.bin for req 3f1c2a9e-1b2c-4d5e-8f90-aabbccddeeff key 'abc'"
    b = "Process 99 at 0xdeadbeef failed reading /data/other/kv.bin for req 00000000-1111-2222-3333-444455556666 key 'xyz'"
    assert mask_message(a) == mask_message(b)
    assert (
        "<hex>" in mask_message(a) and "<uuid>" in mask_message(a) and "<path>" in mask_message(a)
    )


def test_signature_uses_the_servers_frames_not_torch() -> None:
    torch_changed = FRAMES[:-2] + (Frame(f"{SITE}/torch/_tensor.py", 12, "__add__"),)
    assert signature("RuntimeError", SHAPE_MESSAGE, FRAMES) == signature(
        "RuntimeError", SHAPE_MESSAGE, torch_changed
    )
    app_changed = (
        FRAMES[:3]
        + (Frame(f"{SITE}/sglang/srt/speculative/eagle_worker_v2.py", 1, "verify"),)
        + FRAMES[4:]
    )
    assert signature("RuntimeError", SHAPE_MESSAGE, FRAMES) != signature(
        "RuntimeError", SHAPE_MESSAGE, app_changed
    )


def test_signature_separates_different_exceptions() -> None:
    assert signature("RuntimeError", SHAPE_MESSAGE, FRAMES) != signature(
        "ValueError", SHAPE_MESSAGE, FRAMES
    )
    assert signature("ValueError", "too many values to unpack (expected 2)") != signature(
        "ValueError", "not enough values to unpack (expected 2, got 1)"
    )


def test_signature_falls_back_to_innermost_frames_when_none_are_app_frames() -> None:
    only_torch = (Frame(f"{SITE}/torch/a.py", 1, "f"), Frame(f"{SITE}/torch/b.py", 2, "g"))
    other = (Frame(f"{SITE}/torch/a.py", 1, "f"), Frame(f"{SITE}/torch/c.py", 2, "h"))
    assert signature("E", "m", only_torch) != signature("E", "m", other)


def test_dtypes_and_identifiers_keep_their_digits() -> None:
    masked = mask_message(
        "expected bfloat16 but got float32 on cuda:1 for tensor of 4096 elements (v0.5.10)"
    )
    assert "bfloat16" in masked and "float32" in masked and "4096" not in masked
    assert signature("TypeError", "expected bfloat16 but got float32") != signature(
        "TypeError", "expected float16 but got float32"
    )


def test_a_kernel_assertion_before_a_cut_traceback_is_the_root_cause(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("\n".join([
        "/workspace/csrc/speculative/eagle_utils.cu:212: build_tree_kernel_efficient: block: "
        "[3,0,0], thread: [17,0,0] Assertion `idx < max_tokens` failed.",
        "[2026-03-04 11:20:08 TP1] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/sgl/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
    ]) + "\n")  # fmt: skip
    assert_, cut = analyse([str(log)]).incidents
    assert (assert_.exception_type, assert_.root_cause) == ("CUDAKernelAssert", True)
    assert (cut.exception_type, cut.root_cause, cut.caused_by) == ("Traceback", False, assert_.id)


def _crash_log(path: Path, day: int, lines: list[str]) -> str:
    path.write_text("\n".join(line.format(day=day) for line in lines) + "\n")
    return str(path)


CRASH_RUN = [
    "[2026-03-{day:02d} 11:20:08 TP1] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]  # fmt: skip
QUIT_RUN = [
    "[2026-03-{day:02d} 11:20:09] Received sigquit from a child process. It usually means the child failed.",
]  # fmt: skip


def test_logs_of_runs_days_apart_are_not_linked_but_rank_files_of_one_run_are(
    tmp_path: Path,
) -> None:
    crash = _crash_log(tmp_path / "monday.log", 2, CRASH_RUN)
    other_run = _crash_log(tmp_path / "friday.log", 6, QUIT_RUN)
    apart = analyse([crash, other_run]).incidents
    assert [(i.root_cause, i.caused_by) for i in apart] == [(True, None), (True, None)]
    same_run = _crash_log(tmp_path / "rank0.log", 2, QUIT_RUN)
    together = analyse([crash, same_run]).incidents
    assert [(i.root_cause, i.caused_by) for i in together] == [(True, None), (False, "I1")]
