"""Shapes seen in a third round of public issue threads (docs/real-logs.md, round 3).

Every line here is written by us in the engines' real formats; none is pasted from a thread.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import run

DEAD = [
    "[2026-03-04 09:12:40] Rank 0 scheduler is dead. Please check if there are relevant logs.",
    "[2026-03-04 09:12:41] Exit code: -9",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/entrypoints/engine.py", '
    "line 812, in _launch_subprocesses",
    "    data = scheduler_pipe_readers[i].recv()",
]
EOF_TAIL = [
    '  File "/usr/lib/python3.12/multiprocessing/connection.py", line 395, in _recv',
    "    raise EOFError",
    "EOFError",
]
SCHED_CRASH = [
    "[2026-03-04 09:12:35 TP1] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", '
    "line 2901, in run_scheduler_process",
    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank)",
    "RuntimeError: CUDA error: out of memory",
    "",
]


def test_scheduler_dead_over_a_cut_traceback_is_one_death_not_a_traceback(tmp_path: Path) -> None:
    (dead,) = run(tmp_path, DEAD).incidents
    assert (dead.exception_type, dead.crash_class, dead.root_cause) == (
        "SchedulerDead", "scheduler_dead", True
    )  # fmt: skip
    assert dead.message.startswith("Rank 0 scheduler is dead.")
    assert dead.first_seen.ts_text == "2026-03-04 09:12:40"


def test_scheduler_dead_over_the_parents_eoferror_is_the_death(tmp_path: Path) -> None:
    (dead,) = run(tmp_path, DEAD + EOF_TAIL).incidents
    assert (dead.exception_type, dead.severity) == ("SchedulerDead", "fatal")


def test_scheduler_dead_is_collateral_of_the_schedulers_own_crash(tmp_path: Path) -> None:
    tail = [f"[2026-03-04 09:12:42] Scheduler or DataParallelController {p} terminated with 1"
            for p in (4401, 4402)]  # fmt: skip
    a = run(tmp_path, SCHED_CRASH + DEAD + EOF_TAIL + tail)
    roots = [i for i in a.incidents if i.root_cause]
    assert [(i.exception_type, i.origin_rank) for i in roots] == [("RuntimeError", "TP1")]
    assert all(i.caused_by == roots[0].id for i in a.incidents if not i.root_cause)
    assert "SchedulerDead" in {i.exception_type for i in a.incidents}


def test_scheduler_terminated_alone_fails_the_run(tmp_path: Path) -> None:
    line = "[2026-03-04 09:12:42] Scheduler or DataParallelController 4401 terminated with -9"
    (only,) = run(tmp_path, [line]).incidents
    assert (only.exception_type, only.root_cause) == ("SchedulerTerminated", True)
    assert only.message == "Scheduler or DataParallelController 4401 terminated with -9"


def test_nccl_heartbeat_monitor_finding_the_watchdog_stuck(tmp_path: Path) -> None:
    lines = [
        f"[rank{r}]:[F0304 09:20:11.1234567{r} ProcessGroupNCCL.cpp:1224] [PG 3 Rank {r}] "
        f"[PG 3 Rank {r}] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making "
        "progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API hang."
        for r in (2, 3)
    ]
    (stuck,) = run(tmp_path, lines).incidents
    assert (stuck.crash_class, stuck.severity, stuck.origin_rank) == (
        "hang_watchdog",
        "fatal",
        "rank2",
    )
    assert stuck.ranks == ["rank2", "rank3"]
    assert stuck.message.startswith("watchdog got stuck for 480 seconds")


def test_kernel_assertion_with_an_empty_condition(tmp_path: Path) -> None:
    line = (
        "/opt/pytorch/aten/src/ATen/native/cuda/TensorCompare.cu:110: _assert_async_cuda_kernel: "
        "block: [0,0,0], thread: [0,0,0] Assertion `` failed."
    )
    (only,) = run(tmp_path, [line, line]).incidents
    assert (only.exception_type, only.root_cause) == ("CUDAKernelAssert", True)


def test_vllm_08_engine_core_hit_an_exception_names_the_class(tmp_path: Path) -> None:
    lines = [
        "ERROR 04-02 10:11:12 [core.py:340] EngineCore hit an exception: Traceback (most recent "
        "call last):",
        'ERROR 04-02 10:11:12 [core.py:340]   File "/opt/venv/lib/python3.12/site-packages/vllm/'
        'v1/engine/core.py", line 333, in run_engine_core',
        "ERROR 04-02 10:11:12 [core.py:340]     engine_core.run_busy_loop()",
    ]
    (cut,) = run(tmp_path, lines).incidents
    assert cut.crash_class == "engine_core_fatal"


def test_a_line_made_bold_in_markdown_keeps_its_exception(tmp_path: Path) -> None:
    lines = [
        '  File "/srv/client.py", line 88, in run_request',
        "    raise RuntimeError(response.error_message)",
        "**RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: !mDraftTokens.empty() "
        "(/src/tensorrt_llm/cpp/executor/request.cpp:41)**",
    ]
    (only,) = run(tmp_path, ["Traceback (most recent call last):", *lines]).incidents
    assert (only.exception_type, only.crash_class) == ("RuntimeError", "trtllm_assertion")
    assert only.message.endswith("request.cpp:41)")


def test_engine_dead_notice_before_the_cut_engine_traceback_stays_collateral(
    tmp_path: Path,
) -> None:
    lines = [
        "ERROR 08-14 11:02:03 [async_llm.py:420] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause.",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
        "    self.run()",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 640, '
        "in run_engine_core",
        "    engine_core.run_busy_loop()",
    ]
    a = run(tmp_path, lines)
    (root,) = [i for i in a.incidents if i.root_cause]
    (dead,) = [i for i in a.incidents if not i.root_cause]
    assert root.exception_type == "Traceback" and dead.caused_by == root.id
    assert dead.exception_type.endswith("EngineDeadError")


def test_vllm_launch_with_unquoted_speculative_config_names_the_proposer(tmp_path: Path) -> None:
    lines = [
        "vllm serve /models/dsv3 \\",
        "    --tensor-parallel-size 8 \\",
        '    --speculative-config {"method": "deepseek_mtp", "num_speculative_tokens": 2} \\',
        "    > out.log &",
        "(Worker_TP3 pid=4120) ERROR 02-06 10:01:02 [multiproc_executor.py:820] WorkerProc hit "
        "an exception.",
        "(Worker_TP3 pid=4120) ERROR 02-06 10:01:02 [multiproc_executor.py:820] Traceback (most "
        "recent call last):",
        '(Worker_TP3 pid=4120) ERROR 02-06 10:01:02 [multiproc_executor.py:820]   File "/opt/'
        'venv/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 815, '
        "in worker_busy_loop",
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert crash.origin_rank == "Worker_TP3"
    assert crash.worker_path is not None
    assert (crash.worker_path.value, crash.worker_path.worker_class) == ("other", "EagleProposer")
    assert crash.flags["speculative_config.method"].value == "deepseek_mtp"
    assert crash.flags["speculative_config.num_spec_tokens"].value == 2


def test_colour_codes_and_cr_in_caret_notation(tmp_path: Path) -> None:
    tag = "^[[1;36m(Worker_TP1 pid=2210)^[[0;0m ERROR 11-03 07:15:20 [multiproc_executor.py:700] "
    lines = [
        tag + "WorkerProc hit an exception.^M",
        tag + "Traceback (most recent call last):^M",
        tag + '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/executor/multiproc_'
        'executor.py", line 695, in worker_busy_loop^M',
        tag + "    output = func(*args, **kwargs)^M",
        tag + "ValueError: draft token ids out of range^M",
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.exception_type, crash.message) == ("ValueError", "draft token ids out of range")
    assert (crash.origin_rank, crash.first_seen.ts_text) == ("Worker_TP1", "11-03 07:15:20")


def test_triton_kernel_assertion_from_a_generated_file(tmp_path: Path) -> None:
    line = (
        "/tmp/torchinductor_u/ab/cab12.py:41: unknown: block: [3,0,0], thread: [{t},0,0] "
        "Assertion `index out of bounds: 0 <= tmp4 < 4096` failed."
    )
    (only,) = run(tmp_path, [line.format(t=t) for t in (7, 8, 9)]).incidents
    assert (only.exception_type, only.crash_class) == ("CUDAKernelAssert", "cuda_device_assert")


def test_trtllm_cuda_runtime_error_is_an_illegal_memory_access(tmp_path: Path) -> None:
    line = (
        "[06/02/2025-11:04:09] [TRT-LLM] [E] Failed to initialize executor on rank 1: "
        "[TensorRT-LLM][ERROR] CUDA runtime error in cudaMemcpyAsync(dst, src, n, kind, stream): "
        "an illegal memory access was encountered (/src/cpp/kernels/moe.cu:310)"
    )
    (only,) = run(tmp_path, [line]).incidents
    assert (only.crash_class, only.severity) == ("cuda_illegal_memory", "fatal")
    assert only.first_seen.ts_text == "06/02/2025-11:04:09"


def test_an_error_stated_above_its_cut_traceback_is_one_root_cause(tmp_path: Path) -> None:
    lines = [
        "KeyError: 'req-17'",
        "",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", '
        "line 1500, in execute_model",
        "    req_state = self.requests[req_id]",
    ]
    a = run(tmp_path, lines)
    (root,) = [i for i in a.incidents if i.root_cause]
    assert (root.exception_type, root.message) == ("KeyError", "'req-17'")
    assert [i.caused_by for i in a.incidents if not i.root_cause] == [root.id]


def test_bracketed_ci_stamp_before_the_vllm_worker_tag(tmp_path: Path) -> None:
    ci = "[2026-01-20T08:01:02Z] (Worker_TP2 pid=811) ERROR 01-20 00:01:02 [multiproc_executor.py:826] "
    lines = [
        ci + '  File "/usr/local/lib/python3.12/dist-packages/torch/cuda/graphs.py", line 130, '
        "in capture_end",
        ci + "    super().capture_end()",
        ci + "RuntimeError: CUDA error: operation failed due to a previous error during capture",
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.exception_type, crash.origin_rank) == ("RuntimeError", "Worker_TP2")
    assert crash.first_seen.ts_text == "01-20 00:01:02"


def test_vllm_085_worker_proc_hit_an_exception_with_a_colon(tmp_path: Path) -> None:
    tag = "(VllmWorker rank=2 pid=7001) ERROR 05-20 09:00:01 [multiproc_executor.py:380] "
    lines = [
        tag + "WorkerProc hit an exception: %s",
        tag + "Traceback (most recent call last):",
        tag + '  File "/opt/venv/lib/python3.11/site-packages/vllm/v1/worker/gpu_model_runner.py", '
        "line 1480, in _dummy_sampler_run",
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.crash_class, crash.origin_rank) == ("worker_proc_failed", "VllmWorker rank=2")


def test_exception_repr_above_a_cut_traceback_names_it(tmp_path: Path) -> None:
    lines = [
        "ERROR 04-30 10:00:01 [engine.py:160] OutOfMemoryError('CUDA out of memory. Tried to "
        "allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB')",
        "ERROR 04-30 10:00:01 [engine.py:160] Traceback (most recent call last):",
        'ERROR 04-30 10:00:01 [engine.py:160]   File "/opt/venv/lib/python3.12/site-packages/'
        'vllm/engine/multiprocessing/engine.py", line 158, in start',
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.exception_type, crash.crash_class) == ("OutOfMemoryError", "cuda_oom")
    assert (
        crash.message
        == "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB"
    )


def test_an_op_that_cannot_be_captured_is_a_graph_capture_failure(tmp_path: Path) -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/model_executor/'
        'cuda_graph_runner.py", line 401, in capture',
        "    self.capture_one_batch_size(bs, forward)",
        "RuntimeError: CUDA error: operation not permitted when stream is capturing",
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.crash_class, crash.severity) == ("cuda_graph_capture", "fatal")


def test_a_shell_killed_line_never_heads_the_parents_traceback(tmp_path: Path) -> None:
    lines = [
        "[2026-03-04 09:12:35 TP0] Load weight begin. avail mem=78.00 GB",
        "Killed",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/entrypoints/engine.py", '
        "line 1277, in _wait_for_scheduler_ready",
        "    raise _scheduler_died_error(i, scheduler_procs[i])",
        "RuntimeError: Rank 0 scheduler died during initialization (exit code: -9).",
    ]
    a = run(tmp_path, lines)
    (root,) = [i for i in a.incidents if i.root_cause]
    (died,) = [i for i in a.incidents if not i.root_cause]
    assert (root.exception_type, died.crash_class) == ("OOMKilled", "scheduler_dead")
    assert died.caused_by == root.id and died.message.startswith("Rank 0 scheduler died")


def test_torch_abort_handler_on_windows(tmp_path: Path) -> None:
    lines = [
        "Loading Model: [2/2]\tBuilding TRT-LLM engine",
        "Unhandled exception caught in c10/util/AbortHandler.h",
        "00007FFE00000000 ucrtbase.dll!terminate [<unknown file> @ <unknown line number>]",
    ]
    (only,) = run(tmp_path, lines).incidents
    assert (only.crash_class, only.severity, only.root_cause) == ("cpp_terminate", "fatal", True)


def test_vllm_v0_worker_error_executing_method(tmp_path: Path) -> None:
    tag = "(RayWorkerWrapper pid=2101, ip=10.0.0.5) ERROR 03-27 10:29:13 [worker_base.py:620] "
    lines = [
        tag + "Error executing method 'determine_num_available_blocks'. This might cause "
        "deadlock in distributed execution.",
        tag + "Traceback (most recent call last):",
        tag + '  File "/opt/venv/lib/python3.12/site-packages/vllm/worker/worker_base.py", '
        "line 612, in execute_method",
    ]
    (crash,) = run(tmp_path, lines).incidents
    assert (crash.crash_class, crash.origin_rank) == ("worker_proc_failed", "RayWorkerWrapper")
    alone = run(tmp_path, lines[:1], name="alone.log").incidents
    assert [(i.exception_type, i.message) for i in alone] == [
        ("WorkerMethodFailed", "determine_num_available_blocks")
    ]


def test_an_nccl_error_saying_run_with_nccl_debug_is_no_env_dump(tmp_path: Path) -> None:
    line = (
        "[11/20/2025-10:00:01] [TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: "
        "[TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error /src/runtime/ncclComm.cpp:90 "
        "'unhandled system error (run with NCCL_DEBUG=INFO for details)'"
    )
    (only,) = run(tmp_path, [line, "NCCL_DEBUG=INFO NCCL_IB_HCA=mlx5 python serve.py"]).incidents
    assert (only.crash_class, only.origin_rank) == ("trtllm_assertion", "rank1")


def test_a_traceback_logged_as_one_string_with_lines_pushed_right(tmp_path: Path) -> None:
    lines = [
        'E0301 08:00:01.000123 77 model.py:106] "Traceback (most recent call last):',
        '   File \\"/models/bls/1/model.py\\", line 94, in execute',
        "   for res in res_gen:",
        '     File \\"/models/bls/1/lib/decode.py\\", line 190, in decode',
        "        out = self._generate(req)",
        "         pb_utils.TritonModelException: Executor failed: out of KV cache blocks",
    ]
    (only,) = run(tmp_path, lines).incidents
    assert (only.exception_type, only.message) == (
        "pb_utils.TritonModelException", "Executor failed: out of KV cache blocks"
    )  # fmt: skip
    assert only.header is None and len(only.frames) == 2


def test_a_kernel_assertion_wrapped_after_the_kernel_name(tmp_path: Path) -> None:
    lines = [
        "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex:",
        "  block: [16,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
    ]
    (only,) = run(tmp_path, lines).incidents
    assert (only.exception_type, only.root_cause) == ("CUDAKernelAssert", True)


def test_a_line_number_gutter_before_torchs_rank_tag(tmp_path: Path) -> None:
    line = (
        "[80746] [rank3]:[E321 10:11:12.123456789 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog "
        "caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for "
        "600012 milliseconds before timing out."
    )
    (only,) = run(tmp_path, [line]).incidents
    assert (only.crash_class, only.origin_rank) == ("nccl_timeout", "rank3")


def test_the_rank_an_mpi_line_names_is_its_origin(tmp_path: Path) -> None:
    line = (
        "mpirun noticed that process rank 5 with PID 0 on node gpu-07 exited on signal 9 (Killed)."
    )
    (only,) = run(tmp_path, [line]).incidents
    assert (only.origin_rank, only.crash_class) == ("rank5", "mpi_process_died")


def test_killed_after_sglangs_sigquit_is_its_own_clean_up(tmp_path: Path) -> None:
    lines = [
        "[2026-02-01 07:00:01 TP2] Scheduler watchdog timeout (self.watchdog_timeout=300, "
        "self.soft=False)",
        "[2026-02-01 07:00:06] SIGQUIT received. signum=None, frame=None. It usually means one "
        "child failed.",
        "Killed",
    ]
    a = run(tmp_path, lines)
    (root,) = [i for i in a.incidents if i.root_cause]
    assert (root.crash_class, root.origin_rank) == ("hang_watchdog", "TP2")
    killed = next(i for i in a.incidents if i.exception_type == "OOMKilled")
    assert killed.caused_by == root.id and "not the OOM killer" in killed.hints[0]


def test_sigquit_and_killed_alone_still_fail_the_run(tmp_path: Path) -> None:
    lines = [
        "[2026-02-01 07:00:06] Received sigquit from a child process. It usually means the child "
        "failed.",
        "Killed",
    ]
    a = run(tmp_path, lines)
    assert [i.crash_class for i in a.incidents if i.root_cause] == ["sigquit"]
