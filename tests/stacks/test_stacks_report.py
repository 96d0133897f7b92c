"""The text report: what a user reads, and hostile process text never becomes terminal escapes."""

from __future__ import annotations

import io
from dataclasses import replace

from rich.console import Console
from stacks_synth import ALL_REDUCE, VERIFY, capture, py, still, thread

from spectrace.stacks.model import StackFrame
from spectrace.stacks.report import StacksReport
from spectrace.stacks.verdict import analyse

IDLE_POOL = (
    py("wait", "/usr/lib/python3.11/threading.py", 327, "waiter.acquire()"),
    py(
        "_worker",
        "/usr/lib/python3.11/concurrent/futures/thread.py",
        81,
        "work_item = work_queue.get(block=True)",
    ),
)


def render(cap, width: int = 160) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    Console(file=out, width=width, color_system="truecolor", force_terminal=True).print(
        StacksReport(cap, analyse(cap))
    )
    return out.getvalue()


def plain(cap) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(StacksReport(cap, analyse(cap)))
    return out.getvalue()


def test_report_shows_verdict_ranks_frames_and_movement() -> None:
    moved = (replace(VERIFY[0], line=661),) + VERIFY[1:]
    cap = capture(
        ("TP0", still(ALL_REDUCE)), ("TP1", [(VERIFY, True), (moved, True), (VERIFY, True)])
    )
    text = plain(cap)
    assert (
        "Verdict: TP1 is in `verify` while TP0 waits in all_reduce: the collective cannot finish until TP1 joins"
        in text
    )
    assert "verify (eagle_worker.py:655)  accept_index = accept_index[accept_index != -1]" in text
    assert "moved between samples: verify:655 -> verify:661; verify:661 -> verify:655" in text
    assert "2 processes, 3 samples 0.5s apart" in text


def test_escapes_and_markup_from_the_process_stay_inert() -> None:
    evil = "[bold red]x[/] \x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\ \x1b[2J"
    frame = StackFrame(
        name="verify" + evil, filename="/srv/eagle_worker.py", line=3, code="y = 1 " + evil
    )
    cap = capture(("TP0", still(ALL_REDUCE)), ("TP1", still((frame,) + VERIFY[1:], active=True)))
    cap = replace(cap, processes=tuple(replace(p, cmdline=p.cmdline + evil) for p in cap.processes))
    out = render(cap)
    assert "\x1b]8;;http://evil" not in out and "\x1b[2J" not in out
    assert "[bold red]x[/]" in plain(cap)  # shown literally, not interpreted as markup


def test_many_alike_threads_fold_into_one_line() -> None:
    pool = tuple(
        replace(
            thread(IDLE_POOL, pid=100 + 0),
            thread_id=900 + i,
            name=f"ThreadPoolExecutor-0_{i}",
            os_thread_id=900 + i,
        )
        for i in range(6)
    )
    cap = capture(("TP0", still(ALL_REDUCE)))
    sample = cap.processes[0].samples[-1]
    proc = replace(cap.processes[0], samples=(replace(sample, threads=sample.threads + pool),))
    text = plain(replace(cap, processes=(proc,)))
    assert (
        "6 threads (ThreadPoolExecutor-0_0, ThreadPoolExecutor-0_1, ThreadPoolExecutor-0_2, "
        "ThreadPoolExecutor-0_3 +2): blocked (wait) at wait (threading.py:327)"
    ) in text
