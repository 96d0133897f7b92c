"""Traceback and faulthandler assembly: chains, interleaved ranks, mid-way starts, vLLM headers."""

from __future__ import annotations

from asm_helpers import assemble

from spectrace.assemblers.crash import CrashKind
from spectrace.assemblers.tracebacks import parse_exception

SG = "[2026-02-27 21:00:18 {rank}] "
SCHED = '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 2703, in run_scheduler_process'
WORKER = '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/speculative/eagle_worker.py", line 312, in forward_batch_generation'


def test_sglang_scheduler_traceback_is_one_crash() -> None:
    crashes = assemble([
        SG.format(rank="TP7") + "Scheduler hit an exception: Traceback (most recent call last):",
        SCHED,
        "    scheduler.event_loop_normal()",
        WORKER,
        "    batch_result = self.draft(batch)",
        "RuntimeError: The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0",
        "",
        SG.format(rank="TP0") + "Decode batch, #running-req: 10",
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert (c.kind, c.exception_type, c.rank, c.lineno, c.end_lineno) == (
        CrashKind.TRACEBACK,
        "RuntimeError",
        "TP7",
        1,
        6,
    )
    assert c.message.startswith("The size of tensor a (160)")
    assert c.header == "Scheduler hit an exception"
    assert [f.function for f in c.frames] == ["run_scheduler_process", "forward_batch_generation"]
    assert c.frames[1].code == "batch_result = self.draft(batch)" and c.frames[1].line == 312
    assert c.chain == ()


def test_chained_exceptions_are_one_crash_with_every_link() -> None:
    crashes = assemble([
        SG.format(rank="TP0") + "Scheduler hit an exception: Traceback (most recent call last):",
        WORKER,
        "    out_cache_loc, backup = alloc_token_slots(",
        "ValueError: too many values to unpack (expected 2)",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        WORKER,
        "UnboundLocalError: cannot access local variable 'backup' where it is not associated with a value",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        SCHED,
        '    raise RuntimeError("EAGLE draft failed") from e',
        "RuntimeError: EAGLE draft failed",
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert (c.exception_type, c.message) == ("RuntimeError", "EAGLE draft failed")
    assert [(link.exception_type, link.relation) for link in c.chain] == [
        ("ValueError", "context"), ("UnboundLocalError", "cause"), ("RuntimeError", None),
    ]  # fmt: skip
    assert c.chain[0].message == "too many values to unpack (expected 2)"
    assert (
        c.frames[0].code == 'raise RuntimeError("EAGLE draft failed") from e'
    )  # a code line, not an exception


def test_interleaved_vllm_workers_stay_apart() -> None:
    h = "\x1b[1;36m(Worker_TP{r} pid=410{r})\x1b[0;0m ERROR 10-17 14:03:53 [multiproc_executor.py:654] "
    lines = []
    for text in ["WorkerProc hit an exception.", "Traceback (most recent call last):",
                 '  File "/v/eagle.py", line 240, in propose',
                 "    last_token_indices = last_token_indices.view(batch_size, k)",
                 "RuntimeError: shape '[8, 3]' is invalid for input of size 21"]:  # fmt: skip
        lines += [h.format(r=1) + text, h.format(r=0) + text]
    crashes = sorted(assemble(lines), key=lambda c: c.rank or "")
    assert [(c.rank, c.exception_type, c.header, c.lineno) for c in crashes] == [
        ("Worker_TP0", "RuntimeError", "WorkerProc hit an exception.", 2),
        ("Worker_TP1", "RuntimeError", "WorkerProc hit an exception.", 1),
    ]
    assert all(len(c.frames) == 1 and c.frames[0].function == "propose" for c in crashes)


def test_untagged_interleaved_sglang_bodies_complete_every_rank() -> None:
    crashes = assemble([
        SG.format(rank="TP7") + "Scheduler hit an exception: Traceback (most recent call last):",
        SG.format(rank="TP3") + "Scheduler hit an exception: Traceback (most recent call last):",
        SCHED, "    scheduler.event_loop_normal()", "RuntimeError: boom",
        SCHED, "    scheduler.event_loop_normal()", "RuntimeError: boom",
    ])  # fmt: skip
    assert sorted((c.rank, c.exception_type, len(c.frames)) for c in crashes) == [
        ("TP3", "RuntimeError", 1), ("TP7", "RuntimeError", 1),
    ]  # fmt: skip


def test_traceback_pasted_from_the_middle() -> None:
    crashes = assemble([WORKER, "    batch_result = self.draft(batch)", "KeyError: 'rid-7'"])
    assert [(c.exception_type, c.message, c.header, c.rank) for c in crashes] == [
        ("KeyError", "'rid-7'", None, None)
    ]


def test_exception_without_message_and_dotted_types() -> None:
    crashes = assemble(["Traceback (most recent call last):", SCHED, "AssertionError", "",
                        "Traceback (most recent call last):", WORKER,
                        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."])  # fmt: skip
    assert [(c.exception_type, c.message) for c in crashes] == [
        ("AssertionError", ""), ("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB."),
    ]  # fmt: skip


def test_multi_line_message_keeps_first_line_as_message() -> None:
    crashes = assemble([
        "Traceback (most recent call last):", WORKER,
        "torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
        "CUDA kernel errors might be asynchronously reported at some other API call.",
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
        "", "[2026-02-27 21:00:19] SIGQUIT received. signum=None, frame=None.",
    ])  # fmt: skip
    assert len(crashes) == 1
    assert crashes[0].message == "CUDA error: an illegal memory access was encountered"
    assert crashes[0].lines[-1] == "For debugging consider passing CUDA_LAUNCH_BLOCKING=1"


def test_faulthandler_dump_uses_the_current_thread() -> None:
    crashes = assemble([
        "Fatal Python error: Segmentation fault", "",
        "Thread 0x00007f3a2bfff640 (most recent call first):",
        '  File "/usr/lib/python3.12/threading.py", line 355 in wait', "",
        "Current thread 0x00007f3b8c1f4740 (most recent call first):",
        '  File "/s/eagle_info.py", line 301 in verify',
        '  File "/s/eagle_worker.py", line 640 in forward_batch_generation', "",
        "Extension modules: numpy.core._multiarray_umath, torch._C (total: 52)",
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert (c.kind, c.exception_type, c.message) == (
        CrashKind.FAULTHANDLER,
        "SIGSEGV",
        "Segmentation fault",
    )
    assert [f.function for f in c.frames] == [
        "forward_batch_generation",
        "verify",
    ]  # outermost first
    assert c.end_lineno == 10


def test_parse_exception_rejects_code_and_prose() -> None:
    assert parse_exception("RuntimeError: x") == ("RuntimeError", "x")
    assert parse_exception("KeyboardInterrupt") == ("KeyboardInterrupt", "")
    assert parse_exception("raise RuntimeError(x)") is None
    assert parse_exception("Possible solutions:") is None
    assert parse_exception("Loading") is None


def test_unfinished_traceback_is_still_reported_at_end() -> None:
    crashes = assemble(["Traceback (most recent call last):", SCHED])
    assert [(c.exception_type, c.end_lineno) for c in crashes] == [("Traceback", 2)]


def test_error_level_line_before_a_bare_traceback_is_its_header() -> None:
    crashes = assemble([
        "[2025-10-21 08:15:10] ERROR:    Exception in ASGI application",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.12/site-packages/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi',
        "KeyError: 'rid'",
    ])  # fmt: skip
    assert [(c.header, c.lineno, c.exception_type) for c in crashes] == [
        ("Exception in ASGI application", 1, "KeyError")
    ]


def test_headerless_dump_after_other_ranks_lines_has_no_rank() -> None:
    """With several writers the last header is a guess; with one (a per-rank file) it is the rank."""
    crashes = assemble([
        "[2026-02-27 21:00:17 TP1] Decode batch, #running-req: 10",
        "[2026-02-27 21:00:17 TP0] Decode batch, #running-req: 10",
        "Fatal Python error: Segmentation fault", "",
        "Current thread 0x00007f3b8c1f4740 (most recent call first):",
        '  File "/s/eagle_info.py", line 301 in verify',
        "[2026-02-27 21:00:18 TP0] Decode batch, #running-req: 10",
        "[2026-02-27 21:00:19 TP1] Prefill failed:",
        "Traceback (most recent call last):", SCHED, "KeyError: 'rid'",
    ])  # fmt: skip
    assert [(c.exception_type, c.rank, c.header) for c in crashes] == [
        ("SIGSEGV", None, None), ("KeyError", "TP1", "Prefill failed:"),
    ]  # fmt: skip


def test_headerless_traceback_in_a_single_writer_file_takes_its_rank() -> None:
    crashes = assemble([
        "[rank2]:[W519 05:31:02.940383402 ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank 2] no device_id",
        "2026-05-19 05:48:21,337 ERROR spec_bench: [rank2] draft step 2417 failed",
        "Traceback (most recent call last):", WORKER, "torch.OutOfMemoryError: CUDA out of memory.",
    ])  # fmt: skip
    assert [(c.exception_type, c.rank) for c in crashes] == [("torch.OutOfMemoryError", "rank2")]


def test_quoted_traceback_in_a_request_repr_is_not_a_start() -> None:
    line = "[2026-02-27 20:59:41] Receive: obj=GenerateReqInput(text='Why?\\nTraceback (most recent call last):\\n  File \"a.py\"')"
    assert assemble([line]) == []


def test_bare_exception_takes_no_message_lines() -> None:
    crashes = assemble(["Traceback (most recent call last):", SCHED, "KeyboardInterrupt",
                        "Process SpawnProcess-3:", "Traceback (most recent call last):", SCHED,
                        "KeyboardInterrupt"])  # fmt: skip
    assert [(c.exception_type, c.message, c.end_lineno) for c in crashes] == [
        ("KeyboardInterrupt", "", 3), ("KeyboardInterrupt", "", 7),
    ]  # fmt: skip
