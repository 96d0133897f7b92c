"""`py-spy dump` text pasted into a log (or saved alone) is read as a stacks capture by triage."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import subprocess
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import IO

import pytest
from stacks_helpers import spectrace

from spectrace.parallel import merge_ranges
from spectrace.pipeline import analyse, build_spec
from spectrace.read import Reader
from spectrace.ruleset import RuleSet
from spectrace.scan import ScanResult, scan_range
from spectrace.stacks.findings import stack_findings
from spectrace.stacks.pasted import PastedDump

SGL = "sglang/srt"
LOOP = [
    f"    event_loop_normal ({SGL}/managers/scheduler.py:980)",
    f"    run_scheduler_process ({SGL}/managers/scheduler.py:2890)",
    "    run (multiprocessing/process.py:108)",
    "    <module> (<string>:1)",
]
ALL_REDUCE = [
    "    all_reduce (torch/distributed/distributed_c10d.py:2806)",
    f"    all_reduce ({SGL}/distributed/parallel_state.py:512)",
    f"    forward ({SGL}/layers/linear.py:1301)",
    *LOOP,
]
VERIFY = [
    f"    verify ({SGL}/speculative/eagle_worker.py:655)",
    f"    forward_batch_speculative_generation ({SGL}/speculative/eagle_worker.py:281)",
    *LOOP,
]
TQDM = [
    'Thread 4188 (idle): "tqdm_monitor"',
    "    wait (threading.py:331)",
    "    run (tqdm/_monitor.py:60)",
    "    _bootstrap_inner (threading.py:1045)",
]


def dump(pid: int, title: str, frames: list[str], state: str = "idle") -> list[str]:
    """One process as `py-spy dump --pid` prints it (py-spy 0.4: decimal native thread ids)."""
    return [
        f"Process {pid}: {title}",
        "Python v3.11.10 (/usr/bin/python3.11)",
        "",
        f'Thread {pid} ({state}): "MainThread"',
        *frames,
        *TQDM,
    ]


def sglang(tp: int, msg: str, second: int = 18) -> str:
    return f"[2026-02-27 21:05:{second:02d} TP{tp}] {msg}"


def decode(tp: int) -> str:
    return sglang(tp, "Decode batch. #running-req: 10, #token: 5120, token usage: 0.02, "
                  "gen throughput (token/s): 812.44, #queue-req: 0", 1)  # fmt: skip


def watchdog_log(tmp_path: Path, odd: int = 2) -> Path:
    """Four ranks; the watchdog dumps each scheduler; rank ``odd`` is in verify."""
    lines = [decode(tp) for tp in range(4)]
    for tp in range(4):
        lines.append(sglang(tp, f"Pyspy dump for PID {4100 + tp}:"))
        frames = VERIFY if tp == odd else ALL_REDUCE
        lines += dump(4100 + tp, f"sglang::scheduler_TP{tp}", frames,
                      "active+gil" if tp == odd else "idle")  # fmt: skip
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n")
    return path


def find_dumps(path: str) -> list[PastedDump]:
    """The dumps the analysis found in the scan's single pass over the log."""
    return analyse([path]).pasted


def hang(path: Path | str) -> list:
    analysis = analyse([str(path)])
    return [f for f in stack_findings(analysis, [], []) if f.kind == "hang"]


def test_the_rank_in_another_frame_is_named_and_the_dump_is_no_crash(tmp_path: Path) -> None:
    log = watchdog_log(tmp_path)
    analysis = analyse([str(log)])
    assert analysis.incidents == []  # frame lines are not a traceback, nor crash lines
    (finding,) = stack_findings(analysis, [], [])
    assert finding.kind == "hang"
    assert finding.message == (
        f"py-spy dump of 4 processes at {log}:6: TP2 is in `verify` while TP0-1 and TP3 wait "
        "in all_reduce: the collective cannot finish until TP2 joins"
    )
    assert finding.detail is not None and finding.detail.startswith("TP2 (pid 4102): running")
    assert (finding.evidence[0].lineno, finding.evidence[0].text) == (
        6, "Process 4100: sglang::scheduler_TP0")  # fmt: skip


def test_threads_states_and_native_frames_are_read_as_py_spy_prints_them(tmp_path: Path) -> None:
    lines = dump(77, "python3 -m sglang.launch_server --tp 2", [
        "    0x7f1398316d71 (libc.so.6)",
        "    PyThread_acquire_lock_timed (python3.12)",
        *ALL_REDUCE,
    ])  # fmt: skip
    lines[3] = 'Thread 0x7F13A1B2C740 (active+gil): "MainThread"'  # older py-spy: hex Python id
    (path := tmp_path / "dump.txt").write_text("\n".join(lines) + "\n")
    (found,) = find_dumps(str(path))
    (proc,) = found.capture.processes
    main, tqdm = proc.samples[0].threads
    assert (main.thread_id, main.os_thread_id, main.active, main.owns_gil) == (
        0x7F13A1B2C740, None, True, True)  # fmt: skip
    assert [f.native for f in main.frames[:3]] == [True, True, False]
    assert (main.frames[2].name, main.frames[2].line) == ("all_reduce", 2806)
    assert (tqdm.os_thread_id, tqdm.name, tqdm.active) == (4188, "tqdm_monitor", False)


def test_locals_are_attached_to_their_frame_not_read_as_frames(tmp_path: Path) -> None:
    frames = [
        ALL_REDUCE[0],
        "        Arguments:",
        "            tensor: <Tensor at 0x7f2c1c0>",
        "            group: <ProcessGroup at 0x7f2c1d0>",
        "        Locals:",
        "            err: RuntimeError('NCCL error (stale)')",
        *ALL_REDUCE[1:],
    ]
    (path := tmp_path / "d.log").write_text("\n".join(dump(9, "sglang::scheduler_TP1", frames)))
    (found,) = find_dumps(str(path))
    main = found.capture.processes[0].samples[0].threads[0]
    assert len(main.frames) == len(ALL_REDUCE)
    assert main.frames[0].locals == (
        ("tensor", "<Tensor at 0x7f2c1c0>"), ("group", "<ProcessGroup at 0x7f2c1d0>"),
        ("err", "RuntimeError('NCCL error (stale)')"),
    )  # fmt: skip
    assert found.capture.processes[0].rank == "TP1"
    assert analyse([str(path)]).incidents == []


def test_a_dump_interleaved_with_other_ranks_log_lines_keeps_every_frame(tmp_path: Path) -> None:
    odd = dump(5001, "VLLM::Worker_TP1", VERIFY, "active")
    waiting = dump(5000, "VLLM::Worker_TP0", ALL_REDUCE)
    lines = ["INFO 02-27 21:00:01 [core.py:220] EngineCore started"]
    for i, line in enumerate(waiting):  # another writer's lines fall between the frames
        lines.append(line)
        if i % 3 == 2:
            lines.append(f"INFO 02-27 21:00:{i:02d} [loggers.py:116] Engine 000: Avg prompt "
                         "throughput: 0.0 tokens/s, Running: 4 reqs, Waiting: 0 reqs")  # fmt: skip
    lines += odd
    (path := tmp_path / "vllm.log").write_text("\n".join(lines) + "\n")
    (finding,) = hang(path)
    assert finding.message.endswith(
        "Worker_TP1 is in `verify` while Worker_TP0 waits in all_reduce: "
        "the collective cannot finish until Worker_TP1 joins"
    )
    (found,) = find_dumps(str(path))
    frames = found.capture.processes[0].samples[0].threads[0].frames
    assert [f.name for f in frames] == [line.split()[0] for line in ALL_REDUCE]


def test_periodic_dumps_of_one_pid_are_samples_of_one_process(tmp_path: Path) -> None:
    lines = dump(7, "sglang::scheduler_TP0", VERIFY, "active") + dump(
        7, "sglang::scheduler_TP0", ALL_REDUCE)  # fmt: skip
    (path := tmp_path / "d.log").write_text("\n".join(lines) + "\n")
    (found,) = find_dumps(str(path))
    (proc,) = found.capture.processes
    assert [s.at for s in proc.samples] == [0.0, 1.0]


def test_faulthandler_thread_dumps_are_a_hang_but_a_fatal_error_stays_a_crash(
    tmp_path: Path,
) -> None:
    def fault(rank: int, frames: list[tuple[str, int, str]]) -> list[str]:
        return [f"[rank{rank}]: Thread 0x00007f5e2a7fc640 (most recent call first):"] + [
            f'[rank{rank}]:   File "{file}", line {line} in {func}' for file, line, func in frames
        ]  # fmt: skip

    reduce = [("/t/torch/distributed/distributed_c10d.py", 2806, "all_reduce"),
              ("/w/train.py", 40, "step"), ("/w/train.py", 90, "main")]  # fmt: skip
    sleep = [("/w/train.py", 33, "slow_io"), ("/w/train.py", 41, "step"),
             ("/w/train.py", 90, "main")]  # fmt: skip
    (path := tmp_path / "hang.log").write_text("\n".join(fault(0, reduce) + fault(1, sleep)) + "\n")
    (finding,) = hang(path)
    assert analyse([str(path)]).incidents == []  # a thread dump on request is no crash
    assert "faulthandler dump of 2 processes" in finding.message
    assert "rank1 is in `slow_io` while rank0 waits in all_reduce" in finding.message

    crash = ["Fatal Python error: Segmentation fault", "",
             *[line.split(": ", 1)[1] for line in fault(0, reduce)]]  # fmt: skip
    (path := tmp_path / "crash.log").write_text("\n".join(crash) + "\n")
    assert hang(path) == []
    assert [i.exception_type for i in analyse([str(path)]).incidents] == ["SIGSEGV"]


def test_triage_reports_a_dump_saved_as_its_own_file(tmp_path: Path) -> None:
    lines = dump(4100, "sglang::scheduler_TP0", ALL_REDUCE) + dump(
        4101, "sglang::scheduler_TP1", VERIFY, "active")  # fmt: skip
    (path := tmp_path / "pyspy.txt").write_text("\n".join(lines) + "\n")
    result = spectrace("triage", str(path), "--format", "json")
    assert result.returncode == 0, result.stderr
    (finding,) = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "hang"]
    assert finding["message"].endswith("the collective cannot finish until TP1 joins")
    assert spectrace("triage", str(path), "--fail-on", "any").returncode == 1


def test_lines_that_only_look_like_a_process_header_are_no_dump(tmp_path: Path) -> None:
    (path := tmp_path / "workers.log").write_text(
        "\n".join(
            [
                decode(0),
                "Process 4100: sglang::scheduler_TP0",
                decode(1),
                "Process 4101: sglang::scheduler_TP1",
                "    resolve (x.py:3)",
            ]
        )
        + "\n"  # fmt: skip
    )
    assert analyse([str(path)]).pasted == [] and hang(path) == []


def test_a_log_without_a_dump_gives_no_hang_finding(tmp_path: Path) -> None:
    (path := tmp_path / "plain.log").write_text(
        "\n".join([decode(0), sglang(0, "Thread pool (idle): 4 workers"), "    resolve (x.py:3)"])
        + "\n"  # fmt: skip
    )
    assert hang(path) == []


@pytest.mark.parametrize(
    ("name", "opener"),
    [("server.log.gz", gzip.open), ("server.log.xz", lzma.open), ("rank0", bz2.open)],
)
def test_a_dump_deep_in_a_large_compressed_log_is_found_at_its_line(
    tmp_path: Path, name: str, opener: Callable[..., IO[str]]
) -> None:
    noise = [decode(i % 4) for i in range(3000)]  # far more than the context parsed above it
    lines = noise + dump(4100, "sglang::scheduler_TP0", ALL_REDUCE) + noise + dump(
        4101, "sglang::scheduler_TP1", VERIFY, "active")  # fmt: skip
    path = tmp_path / name  # the codec is read from the content, not the name
    with opener(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    first, second = find_dumps(str(path))
    assert (first.lineno, first.text) == (3001, "Process 4100: sglang::scheduler_TP0")
    assert second.lineno == 3000 + len(dump(4100, "", ALL_REDUCE)) + 3001
    assert second.capture.processes[0].rank == "TP1"


def test_a_ranks_last_log_line_is_never_a_line_of_the_dump(tmp_path: Path) -> None:
    log = watchdog_log(tmp_path)  # nothing is logged after the dump
    (finding,) = hang(log)
    (found,) = find_dumps(str(log))
    lines = log.read_text().splitlines()
    linked = {e.lineno for e in finding.evidence[1:]}
    assert linked and not any(found.lineno <= n <= found.end_lineno for n in linked)
    assert all(lines[n - 1].startswith("[2026-02-27 ") for n in linked)


def test_a_crash_another_rank_writes_in_the_middle_of_a_dump_is_still_a_crash(
    tmp_path: Path,
) -> None:
    lines = watchdog_log(tmp_path).read_text().splitlines()
    middle = len(lines) - 8  # inside the last process's dump
    lines[middle:middle] = [
        sglang(5, "Scheduler hit an exception: Traceback (most recent call last):", 19),
        f'  File "/x/{SGL}/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
    ]
    (log := tmp_path / "server.log").write_text("\n".join(lines) + "\n")
    analysis = analyse([str(log)])
    assert [(i.exception_type, i.origin_rank) for i in analysis.incidents] == [
        ("RuntimeError", "TP5")
    ]
    assert len(hang(log)) == 1


@pytest.mark.parametrize("segment", [997, 4096, 65_536])
def test_reading_the_log_in_small_blocks_finds_the_same_dumps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, segment: int
) -> None:
    noise = [decode(i % 4) for i in range(400)]
    lines = noise + dump(4100, "sglang::scheduler_TP0", ALL_REDUCE) + noise[:7] + dump(
        4101, "sglang::scheduler_TP1", VERIFY, "active") + noise  # fmt: skip
    lines += [sglang(3, "Pyspy dump for PID 4103:")] + dump(4103, "sglang::scheduler_None", LOOP)
    (log := tmp_path / "server.log").write_text("\n".join(lines + noise) + "\n")

    def seen() -> list[tuple[int, int, tuple[tuple[str | None, int], ...]]]:
        return [
            (d.lineno, d.end_lineno, tuple(
                (p.rank, len(p.samples[0].threads[0].frames)) for p in d.capture.processes))
            for d in find_dumps(str(log))
        ]  # fmt: skip

    whole = seen()  # a dump cut by a block edge is still one dump, read on across the edge
    monkeypatch.setattr("spectrace.scan.Reader", partial(Reader, block_size=segment))
    assert seen() == whole and len(whole) >= 2
    assert {rank for _, _, procs in whole for rank, _ in procs} == {"TP0", "TP1", "TP3"}


def test_a_dump_piped_on_stdin_is_a_hang_finding(tmp_path: Path) -> None:
    text = watchdog_log(tmp_path).read_text()
    result = spectrace("triage", "-", "--format", "json", input=text)
    assert result.returncode == 0, result.stderr
    (finding,) = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "hang"]
    assert finding["message"] == (
        "py-spy dump of 4 processes at <stdin>:6: TP2 is in `verify` while TP0-1 and TP3 wait "
        "in all_reduce: the collective cannot finish until TP2 joins"
    )


def test_a_dump_read_from_a_fifo_is_found_once(tmp_path: Path) -> None:
    text = watchdog_log(tmp_path).read_text()
    fifo = tmp_path / "server.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", str(tmp_path / "server.log"),
                               str(fifo)])  # fmt: skip
    try:
        (found,) = find_dumps(str(fifo))
    finally:
        writer.wait(timeout=30)
    assert (found.lineno, found.tool, len(found.capture.processes)) == (6, "py-spy", 4)
    assert text.splitlines()[found.lineno - 1] == found.text


def test_ranges_scanned_in_parallel_find_the_same_dumps(tmp_path: Path) -> None:
    noise = [decode(i % 4) for i in range(300)]
    lines = noise + dump(4100, "sglang::scheduler_TP0", ALL_REDUCE) + noise
    lines += dump(4101, "sglang::scheduler_TP1", VERIFY, "active") + noise
    (log := tmp_path / "server.log").write_text("\n".join(lines) + "\n")
    spec = build_spec(RuleSet.load(), [])

    def seen(result: ScanResult) -> list[tuple[int, int, str, tuple[int, ...]]]:
        return [(d.lineno, d.end_lineno, d.capture.started, tuple(sorted(d.lines)))
                for d in result.pasted]  # fmt: skip

    one = seen(scan_range(str(log), spec))
    assert len(one) == 2
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    first, second = 301, 300 + len(dump(0, "", ALL_REDUCE)) + 301
    # cut in the noise, on a dump's first line, inside its frames, at its tail thread
    for cut in (100, first - 1, first + 5, first + 12, second + 3):
        points = [0, starts[cut - 1], starts[-1]]
        parts = [scan_range(str(log), spec, start=a, stop=b) for a, b in pairwise(points)]
        assert seen(merge_ranges(parts, None)) == one, cut
