"""vLLM / TensorRT-LLM / Ray fatal lines seen in public issue threads (lines written by us in
the same formats): each is found once, named and classed, and a worker's failure notice
heads its own traceback even when other workers' lines come between."""

from __future__ import annotations

import pytest
from asm_helpers import collect

from spectrace.assemblers.crash import CrashKind

SHM = (
    "No available shared memory broadcast block found in 60 seconds. This typically happens "
    "when some processes are hanging or doing some time-consuming work (e.g. compilation)."
)


@pytest.mark.parametrize(
    ("line", "etype", "cls", "kind", "collateral"),
    [
        (
            "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:307 'an illegal memory access was encountered'",
            "CUDAError", "cuda_illegal_memory", CrashKind.FATAL_LINE, False,
        ),
        (
            "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:307 'invalid argument'",
            "CUDAError", "cuda_error", CrashKind.FATAL_LINE, False,
        ),
        (
            "[04/30/2025-14:03:32] [TRT-LLM] [E] Failed to initialize executor on rank 6: [TensorRT-LLM][ERROR] CUDA driver error in cuModuleLoadData: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered. (/src/gemmCommon.h:741)",
            "CUDAError", "cuda_illegal_memory", CrashKind.FATAL_LINE, False,
        ),
        (
            "(Worker_TP3 pid=77) ERROR 10-06 18:54:30 [multiproc_executor.py:597] WorkerProc failed to start.",
            "WorkerProcFailed", "worker_proc_failed", CrashKind.PROCESS_DEATH, False,
        ),
        (
            "ERROR 07-01 13:54:43 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 4242 died, exit code: -6",
            "WorkerDied", "worker_died", CrashKind.PROCESS_DEATH, True,
        ),
        (
            "2024-03-01 10:00:00,001\tWARNING worker.py:2058 -- A worker died or was killed while executing a task by an unexpected system error.",
            "RayWorkerDied", "worker_died", CrashKind.PROCESS_DEATH, True,
        ),
        (
            "[2]    4242 IOT instruction (core dumped)  python3 -m tensorrt_llm.commands.serve",
            "SIGABRT", "abort", CrashKind.PROCESS_DEATH, False,
        ),
        (
            "[node7:04242] Signal: Aborted (6)",
            "SIGABRT", "abort", CrashKind.PROCESS_DEATH, False,
        ),
        (
            "zsh: segmentation fault (core dumped)  python serve.py",
            "SIGSEGV", "segfault", CrashKind.PROCESS_DEATH, False,
        ),
    ],
)  # fmt: skip
def test_fatal_line_is_one_named_crash(
    line: str, etype: str, cls: str, kind: CrashKind, collateral: bool
) -> None:
    crashes = collect(["INFO 10-06 18:54:29 [core.py:1] serving", line])
    assert [(c.exception_type, c.crash_class, c.kind, c.collateral) for c in crashes] == [
        (etype, cls, kind, collateral)
    ]


def test_a_word_before_a_colon_is_not_an_exception_type() -> None:
    (crash,) = collect(["Failed: Cuda error /w/custom_all_reduce.cuh:1 'out of memory'"])
    assert crash.exception_type == "CUDAError"


def test_repeated_broadcast_waits_are_a_hang_warning_not_a_crash_per_minute() -> None:
    tag = "(EngineCore_DP0 pid=9) INFO 12-09 11:{m:02d}:53 [shm_broadcast.py:466] "
    crashes = collect([tag.format(m=m) + SHM for m in range(25, 29)])
    assert {(c.exception_type, c.crash_class, c.severity, c.rank) for c in crashes} == {
        ("BroadcastWait", "hang_suspected", "warning", "EngineCore_DP0")
    }


def test_worker_failure_notice_heads_its_traceback_across_interleaved_workers() -> None:
    def tp(n: int, text: str) -> str:
        return f"(Worker_TP{n} pid=5{n}) ERROR 10-06 18:54:30 [multiproc_executor.py:597] {text}"

    workers = (3, 2, 1, 0)
    body = [
        "WorkerProc failed to start.",
        "Traceback (most recent call last):",
        '  File "/x/vllm/v1/worker/gpu_model_runner.py", line 2641, in load_model',
        "    self.drafter.load_model(self.model)",
        "AttributeError: 'NoneType' object has no attribute 'weight'",
    ]
    crashes = collect([tp(n, text) for text in body for n in workers])
    assert [(c.kind, c.rank, c.header) for c in crashes] == [
        (CrashKind.TRACEBACK, f"Worker_TP{n}", "WorkerProc failed to start.") for n in workers
    ]


def test_worker_init_failure_in_the_engine_core_is_collateral() -> None:
    ec = "(EngineCore_DP0 pid=2391) "
    crashes = collect([
        ec + "Traceback (most recent call last):",
        ec + '  File "/x/vllm/v1/executor/multiproc_executor.py", line 660, in wait_for_ready',
        ec + "    raise e from None",
        ec + "Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.",
    ])  # fmt: skip
    assert [(c.crash_class, c.collateral) for c in crashes] == [("worker_init_failed", True)]


def test_mpi_rank_killed_by_a_signal_and_mpi_abort() -> None:
    killed = (
        "mpirun noticed that process rank 6 with PID 0 on node gpu-07 exited on signal 9 (Killed)."
    )
    abort = "MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD with errorcode 1."
    assert [(c.exception_type, c.message, c.collateral) for c in collect([killed])] == [
        ("MPIProcessKilled", "9 (Killed)", False)
    ]
    assert [(c.exception_type, c.collateral) for c in collect([abort])] == [("MPIAbort", True)]
    # one MPI failure told twice is one crash
    assert len(collect([killed, abort])) == 1


def test_trtllm_assertion_in_a_traceback_is_classed() -> None:
    (crash,) = collect([
        "Traceback (most recent call last):",
        '  File "/x/tensorrt_llm/runtime/model_runner_cpp.py", line 98, in from_dir',
        "    world_config = WorldConfig.mpi(tensor_parallelism=tp_size,",
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/src/worldConfig.cpp:99)",
    ])  # fmt: skip
    assert (crash.exception_type, crash.crash_class) == ("RuntimeError", "trtllm_assertion")


def test_the_what_line_under_a_terminate_line_is_its_message() -> None:
    crashes = collect([
        "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'",
        "  what():  [TensorRT-LLM][ERROR] Assertion failed: Failed: MPI error /src/mpiUtils.cpp:211 '6'",
        "1       0x7fb4aebbeb71 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 82",
    ])  # fmt: skip
    assert [(c.exception_type, c.message, c.end_lineno) for c in crashes] == [(
        "tensorrt_llm::common::TllmException",
        "[TensorRT-LLM][ERROR] Assertion failed: Failed: MPI error /src/mpiUtils.cpp:211 '6'",
        3,  # the native frame under it is part of it
    )]  # fmt: skip
    assert [f.symbol for f in crashes[0].native_frames] == [
        "tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&)"
    ]


def test_a_rejected_request_is_a_warning_not_a_root_cause() -> None:
    err = "ERROR 07-03 03:19:15 [serving_chat.py:200] "
    (crash,) = collect([
        err + "Error in preprocessing prompt inputs",
        err + "Traceback (most recent call last):",
        err + '  File "/x/vllm/entrypoints/openai/serving_chat.py", line 183, in create_chat_completion',
        err + "    ) = await self._preprocess_chat(",
        err + "ValueError: This model's maximum context length is 16384 tokens. However, you requested 20000 tokens.",
    ])  # fmt: skip
    assert (crash.crash_class, crash.severity, crash.collateral) == (
        "request_rejected",
        "warning",
        True,
    )


def test_cuda_oom_and_a_kv_cache_too_small_at_start_up() -> None:
    oom = collect(["RuntimeError: CUDA error: out of memory"])
    assert [c.crash_class for c in oom] == ["cuda_oom"]
    (kv,) = collect([
        "Traceback (most recent call last):",
        '  File "/x/vllm/v1/core/kv_cache_utils.py", line 700, in check_enough_kv_cache_memory',
        "    raise ValueError(",
        "ValueError: To serve at least one request with the models's max seq len (131072), (16.0 GiB "
        "KV cache is needed, which is larger than the available KV cache memory (9.5 GiB).",
    ])  # fmt: skip
    assert (kv.crash_class, kv.severity) == ("kv_cache_too_small", "fatal")


def test_an_exception_group_around_the_real_error_is_collateral() -> None:
    api = "(APIServer pid=1) "
    crashes = collect([
        api + "ERROR:    Exception in ASGI application",
        api + "  + Exception Group Traceback (most recent call last):",
        api + '  |   File "/x/starlette/middleware/base.py", line 174, in __call__',
        api + "  |     async with anyio.create_task_group() as task_group:",
        api + "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)",
        api + "  +-+---------------- 1 ----------------",
        api + "    | Traceback (most recent call last):",
        api + '    |   File "/x/vllm/entrypoints/openai/api_server.py", line 560, in create_chat_completion',
        api + "    |     generator = await handler.create_chat_completion(request, raw_request)",
        api + "    | ValueError: bad request",
    ])  # fmt: skip
    assert [(c.exception_type, c.collateral) for c in crashes] == [
        ("ExceptionGroup", True),
        ("ValueError", False),
    ]


def test_ucx_signal_handler_line_is_a_process_death() -> None:
    (crash,) = collect(
        ["[gpu-node-7:4242:0:4242] Caught signal 7 (Bus error: nonexistent physical address)"]
    )
    assert (crash.exception_type, crash.message, crash.kind) == (
        "CaughtSignal",
        "7 (Bus error: nonexistent physical address)",
        CrashKind.PROCESS_DEATH,
    )


def test_a_trtllm_1x_error_line_names_its_rank() -> None:
    (crash,) = collect(["[12/04/2025-18:38:28] [TRT-LLM] [RANK 2] [E] Error in event loop: boom"])
    assert (crash.exception_type, crash.rank) == ("TRTLLMError", "rank2")
