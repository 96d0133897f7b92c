"""Whole crashes as people paste them into issue threads: each shape below hid a real crash
(or its rank and time) before. The lines are ours, in the exact SGLang formats, wrapped as
GitHub, k9s, log shippers and JSON transports deliver them."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from spectrace.pipeline import analyse

SITE = "/usr/local/lib/python3.12/dist-packages/sglang/srt"
TRACE = [
    "[2026-03-02 10:15:42 TP3] Scheduler hit an exception: Traceback (most recent call last):",
    f'  File "{SITE}/managers/scheduler.py", line 2769, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    f'  File "{SITE}/speculative/eagle_worker.py", line 325, in forward_batch_speculative_generation',
    "    self.verify(batch, spec_info)",
    "RuntimeError: The size of tensor a (96) must match the size of tensor b (12) at non-singleton dimension 0",
    "",
    "[2026-03-02 10:15:43] Received sigquit from a child process. It usually means the child failed.",
]  # fmt: skip
QUOTED = ["> " + line if line else ">" for line in TRACE]
INLINE = ["`" + TRACE[0], *TRACE[1:5], TRACE[5] + "`"]
FENCED = ["```" + TRACE[0], *TRACE[1:5], TRACE[5] + "```"]
BOXED = [TRACE[0] + " " * 30 + "│"] + ["│ " + line + " " * 20 + "│" for line in TRACE[1:6]]
SHIPPED = [
    f"[2026-03-02T18:15:42+08:00] rl-job-0 >> (SGLangEngine pid=411) {line}" for line in TRACE
]
ESCAPED = [line.replace('"', '\\"') for line in TRACE]
CRLF = [line + "\r" for line in TRACE]


def write(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "issue.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")
    return str(path)


@pytest.mark.parametrize(
    "lines",
    [TRACE, QUOTED, INLINE, FENCED, BOXED, SHIPPED, ESCAPED, CRLF],
    ids=["plain", "quoted", "inline-code", "fenced", "k9s-box", "shipper", "json-escaped", "crlf"],
)
def test_pasted_crash_keeps_type_message_rank_time_frames_and_path(
    tmp_path: Path, lines: list[str]
) -> None:
    analysis = analyse([write(tmp_path, lines)])
    roots = [i for i in analysis.incidents if i.root_cause]
    assert len(roots) == 1
    crash = roots[0]
    assert crash.exception_type == "RuntimeError"
    assert crash.message == (
        "The size of tensor a (96) must match the size of tensor b (12) at non-singleton dimension 0"
    )
    assert (crash.origin_rank, crash.first_seen.ts) == ("TP3", datetime(2026, 3, 2, 10, 15, 42))
    assert [f.function for f in crash.frames] == [
        "run_scheduler_process",
        "forward_batch_speculative_generation",
    ]
    assert crash.worker_path is not None and crash.worker_path.worker_class == "EAGLEWorker"
    assert crash.shape_mismatch is not None


def test_docker_json_file_records(tmp_path: Path) -> None:
    """``/var/lib/docker/containers/*/*-json.log``: one JSON record per line, colours escaped."""
    records = [
        json.dumps({"log": "\x1b[36m" + line + "\x1b[0m\n", "stream": "stderr", "time": "x"})
        for line in TRACE
    ]
    analysis = analyse([write(tmp_path, [*records, '{"log":"cut sho'])])
    (crash,) = [i for i in analysis.incidents if i.root_cause]
    assert (crash.exception_type, crash.origin_rank) == ("RuntimeError", "TP3")
    assert crash.worker_path is not None and crash.worker_path.worker_class == "EAGLEWorker"


def test_stream_capturing_logger_keeps_a_traceback_whole(tmp_path: Path) -> None:
    """FastChat-style workers log stderr line by line: ``ts | ERROR | stderr | <line>``."""
    stamp = "sglang-worker-1  | 2024-08-27 12:54:55 | ERROR | stderr | "
    lines = [stamp + line for line in TRACE[1:6]]
    lines.insert(0, stamp + "Traceback (most recent call last):")
    (crash,) = analyse([write(tmp_path, lines)]).incidents
    assert (crash.exception_type, len(crash.frames)) == ("RuntimeError", 2)
    assert crash.shape_mismatch is not None


def test_log_indented_as_a_whole_keeps_its_exception(tmp_path: Path) -> None:
    """A log pasted under a list item: every line, the header line too, moved right by two."""
    lines = ["  " + line if line else "  " for line in TRACE]
    (crash,) = [i for i in analyse([write(tmp_path, lines)]).incidents if i.root_cause]
    assert (crash.exception_type, crash.origin_rank) == ("RuntimeError", "TP3")
    assert crash.message.startswith("The size of tensor a (96)")
    assert [f.code for f in crash.frames] == [
        "scheduler.event_loop_normal()",
        "self.verify(batch, spec_info)",
    ]


def test_indented_fatal_lines_without_a_traceback(tmp_path: Path) -> None:
    """A Markdown code block by indentation: only the exception line and the shell's notice."""
    lines = ["    ValueError: too many values to unpack (expected 2)", "    Killed"]
    got = {(i.exception_type, i.crash_class) for i in analyse([write(tmp_path, lines)]).incidents}
    assert got == {("ValueError", "unpack_mismatch"), ("OOMKilled", "oom_killed")}


def test_indented_c10_abort_and_faulthandler_dump(tmp_path: Path) -> None:
    lines = [
        "    terminate called after throwing an instance of 'c10::DistBackendError'",
        "      what():  [PG ID 0 PG GUID 0 Rank 3] Process group watchdog thread terminated "
        "with exception: [Rank 3] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=9141, OpType=ALLREDUCE) ran for 600020 milliseconds before timing out.",
        "",
        "    Fatal Python error: Aborted",
        "",
        "    Current thread 0x00007f95ca716740 (most recent call first):",
        '      File "/srv/sglang/srt/managers/scheduler.py", line 1419 in watchdog_thread',
    ]
    got = {(i.exception_type, i.message[:20]) for i in analyse([write(tmp_path, lines)]).incidents}
    assert got == {("c10::DistBackendError", "[PG ID 0 PG GUID 0 R"), ("SIGABRT", "Aborted")}


def test_indent_made_of_non_breaking_spaces(tmp_path: Path) -> None:
    """Copied from a rendered page or a chat: the indentation comes as U+00A0."""
    lines = [("    " + line).replace("  ", "\u00a0 ") for line in TRACE]
    (crash,) = [i for i in analyse([write(tmp_path, lines)]).incidents if i.root_cause]
    assert (crash.exception_type, crash.origin_rank) == ("RuntimeError", "TP3")


def test_lines_a_terminal_copy_wrapped_at_80_columns(tmp_path: Path) -> None:
    """tmux / screen copies break long lines at the terminal width, inside words."""
    lines = [line[i : i + 80] for line in TRACE for i in range(0, len(line), 80)]
    assert len(lines) > len(TRACE)  # the header and both frame lines were cut
    (crash,) = [i for i in analyse([write(tmp_path, lines)]).incidents if i.root_cause]
    assert (crash.exception_type, crash.origin_rank) == ("RuntimeError", "TP3")
    assert [f.function for f in crash.frames] == [
        "run_scheduler_process",
        "forward_batch_speculative_generation",
    ]
    assert crash.worker_path is not None and crash.worker_path.worker_class == "EAGLEWorker"


def test_grep_n_output_with_context_lines(tmp_path: Path) -> None:
    """``grep -n -A5 "hit an exception" server.log``: "N:" on the match, "N-" on context."""
    lines = [f"{4810 + i}{':' if i == 0 else '-'}{line}" for i, line in enumerate(TRACE[:6])]
    (crash,) = [i for i in analyse([write(tmp_path, lines)]).incidents if i.root_cause]
    assert (crash.exception_type, crash.origin_rank) == ("RuntimeError", "TP3")
    assert len(crash.frames) == 2 and crash.frames[0].code == "scheduler.event_loop_normal()"
