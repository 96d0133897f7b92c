"""SGLang failure lines seen in real issue threads that were missed: GPU kernel assertions
and a server that stops answering its health check. The lines are ours, in SGLang's formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.pipeline import analyse

ASSERT = (
    "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectSmallIndex: block: [7,0,0], "
    "thread: [{t},0,0] Assertion `srcIndex < srcSelectDimSize` failed."
)
TRACE = [
    "[2026-03-02 10:15:42 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/srv/sglang/srt/managers/scheduler.py", line 2506, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    "RuntimeError: CUDA error: device-side assert triggered",
]
HEALTH = (
    "[2026-03-02 10:{m}:18] Health check failed. Server couldn't get a response from detokenizer "
    "for last 20 seconds. tic start time: 10:{m}:58. last_heartbeat time: 10:14:38"
)


def run(tmp_path: Path, lines: list[str]):  # noqa: ANN201 - the Analysis
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)])


def test_kernel_assertion_is_linked_under_the_device_assert_traceback(tmp_path: Path) -> None:
    a = run(tmp_path, [ASSERT.format(t=t) for t in (60, 61, 62)] + TRACE)
    roots = [i for i in a.incidents if i.root_cause]
    assert [(i.exception_type, i.crash_class) for i in roots] == [
        ("RuntimeError", "cuda_device_assert")
    ]
    (kernel,) = [i for i in a.incidents if not i.root_cause]
    assert (kernel.exception_type, kernel.caused_by) == ("CUDAKernelAssert", roots[0].id)
    assert len(a.incidents) == 2 and "srcIndex < srcSelectDimSize" in kernel.message


def test_kernel_assertion_alone_still_fails_the_run(tmp_path: Path) -> None:
    a = run(tmp_path, ["Out Of Bound Tensor access detected at dim[1]: assert(64 < 63)"] * 4)
    (only,) = a.incidents
    assert (only.exception_type, only.root_cause, only.severity) == (
        "CUDAKernelAssert", True, "fatal"
    )  # fmt: skip


def test_failing_health_check_is_a_suspected_hang(tmp_path: Path) -> None:
    a = run(tmp_path, [HEALTH.format(m=m) for m in (15, 17, 19)])
    (hang,) = a.incidents
    assert (hang.crash_class, hang.severity, hang.root_cause) == ("hang_suspected", "error", True)
    assert hang.message.startswith("Health check failed.")


@pytest.mark.parametrize(
    ("line", "etype"),
    [
        ("已杀死", "OOMKilled"),  # zh_CN bash: Killed
        ("bash: 行 1: 4242 已杀死               python3 -m sglang.launch_server", "OOMKilled"),
        ("段错误 (核心已转储)", "SIGSEGV"),  # Segmentation fault (core dumped)
        ("已放弃 (核心已转储)", "SIGABRT"),  # Aborted (core dumped)
    ],
)
def test_process_death_in_a_chinese_locale(tmp_path: Path, line: str, etype: str) -> None:
    a = run(tmp_path, ["[2026-03-02 10:15:40] The server is fired up and ready to roll!", line])
    (death,) = a.incidents
    assert (death.exception_type, death.root_cause) == (etype, True)


def test_kernel_assertion_lines_above_another_header_are_not_its_header(tmp_path: Path) -> None:
    lines = [ASSERT.format(t=4), "Exception in ModelTpServer:", *TRACE[1:]]
    lines[2:2] = ["Traceback (most recent call last):"]
    a = run(tmp_path, lines)
    assert sorted(i.exception_type for i in a.incidents) == ["CUDAKernelAssert", "RuntimeError"]
    (tb,) = [i for i in a.incidents if i.exception_type == "RuntimeError"]
    assert tb.header is None or "Assertion" not in tb.header


@pytest.mark.parametrize(
    ("line", "crash_class"),
    [
        ("RuntimeError: HIP error: an illegal memory access was encountered", "cuda_illegal_memory"),
        ("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB.", "cuda_oom"),
        ("RuntimeError: HIP error: invalid device function", "cuda_error"),
        ("Memory access fault by GPU node-9 (Agent handle: 0x55d7c0fa2a10) on address "
         "0x7f2e5c000000. Reason: Unknown.", "cuda_illegal_memory"),
    ],
)  # fmt: skip
def test_rocm_forms_of_the_gpu_faults(tmp_path: Path, line: str, crash_class: str) -> None:
    """sglang on MI300X: the same faults, spelled HIP, and ROCm's own memory-fault abort."""
    (fault,) = run(tmp_path, [line]).incidents
    assert (fault.crash_class, fault.severity, fault.root_cause) == (crash_class, "fatal", True)


@pytest.mark.parametrize(
    "announce",
    ["Exception in thread Thread-3 (forward_thread_func):", "Exception in ModelTpServer:"],
)
def test_header_python_or_old_sglang_prints_before_a_traceback(
    tmp_path: Path, announce: str
) -> None:
    """The overlap thread's crash (threading's hook) and sglang 0.1-0.3's own announcement."""
    lines = [announce, "Traceback (most recent call last):", *TRACE[1:]]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.header, crash.exception_type) == (announce, "RuntimeError")


RETRACT_FORMS = (
    "KV cache pool is full. Retract requests. #retracted_reqs: 2, #new_token_ratio: 0.4312 -> 0.9020",
    "Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.7000 -> 1.0000",
    "KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 646, "
    "#new_token_ratio: 0.0980 -> 0.3487",
)


@pytest.mark.parametrize("line", RETRACT_FORMS)
def test_retraction_is_benign(tmp_path: Path, line: str) -> None:
    """Each SGLang era's wording of a decode retraction: the server kept serving."""
    assert run(tmp_path, [f"[2026-03-02 10:15:4{i} TP0] {line}" for i in range(3)]).incidents == []


@pytest.mark.parametrize(
    "first", ["Out of memory.", "Prefill out of memory.", "Decode out of memory."]
)
def test_allocator_out_of_memory_is_a_fatal_root_cause(tmp_path: Path, first: str) -> None:
    """Page size 1 and the paged allocator word it differently; the class is the same."""
    lines = [
        *TRACE[:3],
        '  File "/srv/sglang/srt/mem_cache/common.py", line 312, in alloc_token_slots',
        "    raise RuntimeError(error_msg)",
        f"RuntimeError: {first} Try to lower your batch size.",
        "Try to allocate 4096 tokens.",
        "Available tokens: 3136 (available_size=3136 + evictable_size=0)",
    ]
    roots = [i for i in run(tmp_path, lines).incidents if i.root_cause]
    assert [(i.crash_class, i.severity) for i in roots] == [("kv_pool_oom", "fatal")]


def test_a_logged_then_raised_message_is_one_root_cause(tmp_path: Path) -> None:
    """SGLang's allocator logs its error, then raises it: the traceback is the one to read."""
    lines = [
        "[2026-03-02 10:15:42 TP0] Out of memory. Try to lower your batch size.",
        "Try to allocate 192 tokens.",
        "Available tokens: 31 (available_size=31 + evictable_size=0)",
        "",
        *TRACE[:3],
        '  File "/srv/sglang/srt/mem_cache/common.py", line 312, in alloc_token_slots',
        "    raise RuntimeError(error_msg)",
        "RuntimeError: Out of memory. Try to lower your batch size.",
    ]
    a = run(tmp_path, lines)
    roots = [i for i in a.incidents if i.root_cause]
    assert [(i.kind, i.crash_class) for i in roots] == [("traceback", "kv_pool_oom")]
    assert len(a.incidents) == 2
