"""Shapes seen in a fourth round of public issue threads (docs/real-logs.md, round 4).

Every line here is written by us in the engines' real formats; none is pasted from a thread.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

SITE = "/opt/venv/lib/python3.12/site-packages"
WATCHDOG = (
    "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, "
    "NumelIn=64, NumelOut=64, Timeout(ms)=600000) ran for 600042 milliseconds before timing out."
)


def test_ray_core_log_line_under_an_actor_prefix_keeps_its_time(tmp_path: Path) -> None:
    actor = "(TrainerActor pid=5120, ip=10.1.2.3) "
    lines = [
        actor + "[2025-03-07 11:22:33,456 E 5120 5188] logging.cc:101: Unhandled exception: "
        "N3c1016DistBackendErrorE. what(): [PG ID 0 PG GUID 0(default_pg) Rank 5] Process group "
        "watchdog thread terminated with exception: [Rank 5] " + WATCHDOG,
        actor + "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:618 (most recent call first):",
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert inc.exception_type == "NCCLTimeout"
    assert inc.first_seen.ts_text == "2025-03-07 11:22:33,456"
    assert inc.origin_rank == "TrainerActor"


def test_nccl_timeout_without_a_rank_tag_takes_the_rank_it_names(tmp_path: Path) -> None:
    lines = [
        "[E ProcessGroupNCCL.cpp:459] [Rank 3] " + WATCHDOG,
        "[E ProcessGroupNCCL.cpp:473] Some NCCL operations have failed or timed out.",
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.origin_rank) == ("NCCLTimeout", "rank3")


def test_faulthandler_dump_of_one_unmarked_thread_keeps_its_frames(tmp_path: Path) -> None:
    pkg = f"{SITE}/sglang/srt/disaggregation/mooncake"
    lines = [
        "Fatal Python error: Segmentation fault",
        "",
        "Thread 0x00007f00aa001640 (most recent call first):",
        f'  File "{pkg}/transfer_engine.py", line 81 in transfer_sync',
        f'  File "{pkg}/conn.py", line 270 in process_layer',
        '  File "/usr/lib/python3.12/threading.py", line 1010 in run',
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert inc.exception_type == "SIGSEGV"
    assert [f.function for f in inc.frames] == ["run", "process_layer", "transfer_sync"]


def test_faulthandler_dump_of_several_threads_takes_only_the_current_one(tmp_path: Path) -> None:
    lines = [
        "Fatal Python error: Aborted",
        "",
        "Thread 0x00007f00aa001640 (most recent call first):",
        '  File "/usr/lib/python3.12/threading.py", line 331 in wait',
        "",
        "Current thread 0x00007f00bb002740 (most recent call first):",
        f'  File "{SITE}/sglang/srt/managers/scheduler.py", line 990 in event_loop_normal',
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert [f.function for f in inc.frames] == ["event_loop_normal"]


def test_rocm_hsa_queue_abort_is_a_fatal_gpu_error(tmp_path: Path) -> None:
    lines = [
        ":0:rocdevice.cpp            :3020: 1234567890 us: [pid:77   tid:0x7f11] Callback: Queue "
        "0x7f2200000000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation "
        "resulted in a hardware exception. code: 0x1016",
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.severity, inc.root_cause) == (
        "HSA_STATUS_ERROR_EXCEPTION", "fatal", True
    )  # fmt: skip
    assert inc.message.startswith("An HSAIL operation resulted in a hardware exception")


def test_hipblaslt_library_load_failure_is_reported(tmp_path: Path) -> None:
    lib = f"{SITE}/torch/lib/hipblaslt/library/TensileLibrary_lazy_gfx942.dat"
    (inc,) = run(tmp_path, ["", f"rocblaslt error: Could not load {lib}", ""]).incidents
    assert (inc.exception_type, inc.root_cause) == ("RocBLASLtError", True)
    assert inc.message == f"Could not load {lib}"


def test_torchrun_worker_exit_heads_the_launchers_cut_traceback(tmp_path: Path) -> None:
    lines = [
        "[2024-05-06 07:08:09,123] torch.distributed.elastic.multiprocessing.api: [ERROR] "
        "failed (exitcode: -9) local_rank: 1 (pid: 4242) of binary: /opt/venv/bin/python",
        "Traceback (most recent call last):",
        '  File "/opt/venv/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        f'  File "{SITE}/torch/distributed/run.py", line 806, in main',
        "    run(args)",
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.message, inc.root_cause) == (
        "WorkerExited",
        "exitcode: -9",
        True,
    )
    assert inc.first_seen.ts_text == "2024-05-06 07:08:09,123"


def test_pd_kv_transfer_failures_are_one_warning_that_does_not_fail_the_run(tmp_path: Path) -> None:
    lines = [
        f"[2025-10-01 08:00:0{n} TP{n}] Decode transfer failed for request rank={n} "
        f"decode_req.req.rid='ab{n}' decode_req.req.bootstrap_room=99{n} with exception "
        f"KVTransferError(bootstrap_room=99{n}): Failed to get kvcache from prefill instance"
        for n in (1, 2)
    ]
    a = run(tmp_path, lines)
    (inc,) = a.incidents
    assert (inc.exception_type, inc.severity, inc.ranks) == (
        "KVTransferError",
        "warning",
        ["TP1", "TP2"],
    )
    assert not roots(a)


def _core(n: int, text: str, second: str = "21") -> str:
    return f"(EngineCore_{n} pid=70{n}) ERROR 04-23 21:31:{second} [core.py:387] {text}"


CORE = f"{SITE}/vllm/v1/engine/core.py"


def test_cut_tracebacks_of_peer_workers_in_one_second_are_one_incident(tmp_path: Path) -> None:
    lines = [
        _core(1, f'  File "{CORE}", line 67, in __init__'),
        _core(0, "    engine_core = DPEngineCoreProc(*args, **kwargs)"),
        _core(1, "    self.model_executor = executor_class(vllm_config)"),
        _core(0, f'  File "{CORE}", line 564, in __init__'),
        _core(0, "    super().__init__(input_path, output_path, vllm_config)"),
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert inc.ranks == ["EngineCore_1", "EngineCore_0"]
    assert len(inc.occurrences) == 2


def test_a_peers_cut_traceback_joins_the_named_crash_of_that_second(tmp_path: Path) -> None:
    def worker(n: int, text: str) -> str:
        return f"(Worker_TP{n}_EP{n} pid=50{n}) ERROR 06-12 08:47:03 [multiproc_executor.py:962] {text}"

    runner = f"{SITE}/vllm_ascend/worker/model_runner_v1.py"
    lines = [
        worker(7, "RuntimeError: NPUModelRunner init failed"),
        worker(0, "    graph_bytes = self.model_runner.capture_model()"),
        worker(0, f'  File "{runner}", line 4365, in capture_model'),
        worker(0, "    with _torch_cuda_wrapper():"),
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.origin_rank) == ("RuntimeError", "Worker_TP7_EP7")
    assert inc.ranks == ["Worker_TP7_EP7", "Worker_TP0_EP0"]


def test_cut_tracebacks_of_other_roles_or_seconds_stay_apart(tmp_path: Path) -> None:
    api = f'(APIServer pid=9) ERROR 04-23 21:31:21 [core.py:387]   File "{CORE}", line 9, in run'
    lines = [
        _core(1, f'  File "{CORE}", line 67, in __init__'),
        api,
        _core(0, f'  File "{CORE}", line 564, in run_busy_loop', second="29"),
    ]
    assert len(run(tmp_path, lines).incidents) == 3


def test_unstamped_kernel_assertion_over_a_cut_traceback_takes_the_next_stamp(
    tmp_path: Path,
) -> None:
    lines = [
        "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1553: indexSelectLargeIndex: block: "
        "[7,0,0], thread: [32,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
        "[2026-01-05 10:11:12 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/sglang/srt/managers/scheduler.py", line 2612, in run_scheduler_process',
        "    scheduler.event_loop_overlap()",
    ]
    cause, cut = run(tmp_path, lines).incidents
    assert (cause.exception_type, cause.root_cause, cut.root_cause) == (
        "CUDAKernelAssert",
        True,
        False,
    )
    assert cause.first_seen.ts_text == "~2026-01-05 10:11:12"
    assert cause.first_seen.ts == cut.first_seen.ts


def test_an_unstamped_crash_far_from_any_stamp_keeps_no_time(tmp_path: Path) -> None:
    filler = [f"loading shard {n}" for n in range(20)]
    lines = ["Segmentation fault (core dumped)", *filler, "[2026-01-05 10:11:12] server started"]
    (inc,) = run(tmp_path, lines).incidents
    assert inc.first_seen.ts is None


def _failure(n: int, rank: int, code: int) -> list[str]:
    return [
        f"[{n}]:",
        "  time      : 2025-02-03_04:05:06",
        "  host      : gpu-node-7.cluster",
        f"  rank      : {rank} (local_rank: {rank % 8})",
        f"  exitcode  : {code} (pid: 3100{n})",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def test_torchrun_table_names_the_first_failed_rank_and_its_time(tmp_path: Path) -> None:
    rule = "=" * 60
    lines = [
        f'  File "{SITE}/torch/distributed/launcher/api.py", line 264, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        rule,
        "serve.py FAILED",
        "-" * 60,
        "Failures:",
        *_failure(1, 9, 1),
        "-" * 60,
        "Root Cause (first observed failure):",
        *_failure(0, 8, -6),
        rule,
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert inc.message == "serve.py FAILED (first failure: rank8, exitcode -6)"
    assert inc.origin_rank == "rank8"
    assert inc.first_seen.ts_text == "2025-02-03_04:05:06"


def test_hand_edited_vllm_paste_without_stamps_or_pids_is_one_crash(tmp_path: Path) -> None:
    def core(text: str) -> str:
        return f"(EngineCore) ERROR [core.py:1138] {text}"

    lines = [
        core("EngineCore encountered a fatal error."),
        core("Traceback (most recent call last):"),
        core(f'  File "{SITE}/vllm/v1/engine/core.py", line 1129, in run_engine_core'),
        core("    engine_core.run_busy_loop()"),
        core("RuntimeError: CUDA error: an illegal memory access was encountered"),
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.origin_rank, inc.root_cause) == (
        "RuntimeError",
        "EngineCore",
        True,
    )
    assert inc.message == "CUDA error: an illegal memory access was encountered"


def test_forum_markdown_escapes_around_the_vllm_header_are_read(tmp_path: Path) -> None:
    def core(text: str) -> str:
        return f"(EngineCore pid=31) ERROR 05-06 07:08:09 \\[core.py:1138\\] {text}"

    lines = [
        core("Traceback (most recent call last):"),
        core(f'  File "{SITE}/vllm/v1/engine/core.py", line 1129, in run\\_engine\\_core'),
        core("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."),
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.origin_rank) == ("torch.OutOfMemoryError", "EngineCore")
    assert inc.first_seen.ts_text == "05-06 07:08:09"
    assert inc.frames[-1].function == "run_engine_core"


def test_rays_dedup_suffix_leaves_frames_and_messages_alone(tmp_path: Path) -> None:
    def ray(text: str) -> str:
        return f"(RayWorkerWrapper pid=41, ip=10.0.0.2) ERROR 08-07 04:48:56 [worker_base.py:619] {text}"

    nixl = f"{SITE}/vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py"
    lines = [
        ray("Traceback (most recent call last):"),
        ray(f'  File "{nixl}", line 816, in register_kv_caches [repeated 3x across cluster]'),
        ray("    self.connector_worker.register_kv_caches(kv_caches)"),
        ray("RuntimeError: NIXL_ERR_BACKEND [repeated 3x across cluster]"),
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert inc.frames[-1].function == "register_kv_caches"
    assert inc.message == "NIXL_ERR_BACKEND"


def test_ascend_inner_error_alone_is_the_root_cause(tmp_path: Path) -> None:
    lines = [
        "[rank1]:[W0102 03:04:05.123456789 compiler_depend.ts:57] Warning: EZ9999: Inner Error!",
        "EZ9999: [PID: 4321] 2025-01-02-03:04:05.111.222 The error from device(chipId:1, dieId:0), "
        "there is an exception of aivec error, core id is 3",
        "        TraceBack (most recent call last):",
        "       Kernel task happen error, retCode=0x31, [vector core exception].",
    ]
    roots_ = roots(run(tmp_path, lines))
    assert [(i.exception_type, i.crash_class, i.origin_rank) for i in roots_] == [
        ("EZ9999", "npu_error", "rank1")
    ]


def test_torch_npu_runtime_error_heads_its_cann_lines(tmp_path: Path) -> None:
    lines = [
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm_ascend/worker/worker_v1.py", line 140, in init_device',
        "    torch.npu.set_device(device)",
        "RuntimeError: GetDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:60 NPU function "
        "error: aclrtGetCurrentContext(&used_devices[local_device]), error code is 107002",
        "[ERROR] 2025-05-09-08:06:34 (PID:343, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
        "EE1001: [PID: 343] 2025-05-09-08:06:34.182.218 The argument is invalid.",
    ]
    roots_ = roots(run(tmp_path, lines))
    assert [(i.exception_type, i.crash_class) for i in roots_] == [("RuntimeError", "npu_error")]


def test_nixl_transfer_failure_classes_the_cut_traceback_under_it(tmp_path: Path) -> None:
    def w(text: str) -> str:
        return f"(Worker_TP0 pid=86) ERROR 05-01 15:00:23 [nixl_connector.py:1263] {text}"

    lines = [
        w("NIXL transfer failure: handshake_setup_failed | Context: {'request_id': None}"),
        w("Traceback (most recent call last):"),
        w(
            f'  File "{SITE}/vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py", '
            "line 1261, in done_callback"
        ),  # fmt: skip
        w("    self._remote_agents[eid] = f.result()"),
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.crash_class, inc.origin_rank) == ("kv_transfer_failed", "Worker_TP0")


def _engine(text: str, second: str = "44", site: str = "core.py:1138") -> str:
    return f"(EngineCore pid=196) ERROR 05-13 10:46:{second} [{site}] {text}"


WORKER_DIED = _engine(
    "Worker proc VllmWorker-0 died unexpectedly, shutting down executor.",
    second="43",
    site="multiproc_executor.py:283",
)
ENGINE_CUT = [
    _engine("EngineCore encountered a fatal error."),
    _engine("Traceback (most recent call last):"),
    _engine(f'  File "{CORE}", line 1129, in run_engine_core'),
    _engine("    engine_core.run_busy_loop()"),
]


def test_a_workers_death_is_the_cause_of_the_engine_cores_cut_traceback(tmp_path: Path) -> None:
    a = run(tmp_path, [WORKER_DIED, *ENGINE_CUT])
    assert [(i.exception_type, i.root_cause) for i in a.incidents] == [
        ("WorkerDied", True),
        ("Traceback", False),
    ]


def test_a_worker_death_explained_by_an_earlier_crash_stays_collateral(tmp_path: Path) -> None:
    worker = (
        "(Worker_TP0 pid=197) ERROR 05-13 10:46:42 [multiproc_executor.py:600] "
        "RuntimeError: CUDA error: an illegal memory access was encountered"
    )
    a = run(tmp_path, [worker, WORKER_DIED, *ENGINE_CUT])
    assert [(i.exception_type, i.root_cause) for i in roots(a)] == [("RuntimeError", True)]


def test_slurm_time_limit_is_the_cause_of_the_tasks_it_ended(tmp_path: Path) -> None:
    lines = [
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        "slurmstepd: error: *** STEP 9911.0 ON gpu-a17 CANCELLED AT 2025-06-01T10:00:00 "
        "DUE TO TIME LIMIT ***",
        "srun: error: gpu-a17: tasks 0-7: Terminated",
    ]
    a = run(tmp_path, lines)
    cause, tasks = a.incidents
    assert (cause.exception_type, cause.message, cause.root_cause) == (
        "SlurmCancelled",
        "DUE TO TIME LIMIT",
        True,
    )
    assert (tasks.exception_type, tasks.root_cause, tasks.caused_by) == (
        "SlurmTaskFailed",
        False,
        cause.id,
    )


def test_slurm_oom_kill_and_a_cancel_by_hand(tmp_path: Path) -> None:
    oom = "slurmstepd: error: Detected 2 oom_kill events in StepId=7154.0. Some of the step tasks have been OOM Killed."
    (inc,) = run(tmp_path, [oom]).incidents
    assert (inc.exception_type, inc.crash_class, inc.root_cause) == (
        "OOMKilled",
        "oom_killed",
        True,
    )
    cancel = "slurmstepd: error: *** JOB 7155 ON gpu-a03 CANCELLED AT 2025-06-01T11:00:00 ***"
    a = run(tmp_path, [cancel], name="cancel.log")
    assert (a.incidents[0].severity, roots(a)) == ("warning", [])


def test_a_launchers_logger_forwarding_sglang_lines_keeps_rank_and_frames(tmp_path: Path) -> None:
    def fwd(ms: int, text: str) -> str:
        return f"2025-03-07 23:50:31,{ms:03d} - __main__ - INFO - {text}"

    lines = [
        fwd(
            100,
            "[2025-03-07 23:50:31 TP2] Scheduler hit an exception: Traceback (most recent call last):",
        ),
        fwd(
            101,
            f'  File "{SITE}/sglang/srt/managers/scheduler.py", line 1748, in run_scheduler_process',
        ),
        fwd(101, "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)"),
        fwd(102, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB."),
        "2025-03-07 23:50:32,300 - __main__ - WARNING - Attempt 16: waiting for the server...",
    ]
    (inc,) = run(tmp_path, lines).incidents
    assert (inc.exception_type, inc.origin_rank) == ("torch.OutOfMemoryError", "TP2")
    assert [f.function for f in inc.frames] == ["run_scheduler_process"]


def test_rocm_queue_abort_and_the_cuda_error_after_it_are_one_fault(tmp_path: Path) -> None:
    lines = [
        ":0:rocdevice.cpp            :3020: 99 us: [pid:77   tid:0x7f11] Callback: Queue 0x7f22 "
        "aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to "
        "access memory beyond the largest legal address. code: 0x29",
        "",
        "RuntimeError: CUDA error: unspecified launch failure",
    ]
    a = run(tmp_path, lines)
    assert [(i.exception_type, i.root_cause) for i in a.incidents] == [
        ("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", True),
        ("RuntimeError", False),
    ]


def test_glibc_heap_corruption_is_the_cause_of_the_abort_after_it(tmp_path: Path) -> None:
    lines = [
        "free(): invalid pointer",
        "Fatal Python error: Aborted",
        "",
        "Current thread 0x00007f11aa000640 (most recent call first):",
        f'  File "{SITE}/sglang/srt/speculative/ngram_worker.py", line 210 in _update_ngram_cache',
    ]
    a = run(tmp_path, lines)
    assert [(i.exception_type, i.root_cause) for i in a.incidents] == [
        ("HeapCorruption", True),
        ("SIGABRT", False),
    ]
    assert a.incidents[0].message == "free(): invalid pointer"
