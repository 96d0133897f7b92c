"""Shapes seen in a sixth round of public issue threads (docs/real-logs.md, round 6).

Every line here is written by us in the engines' real formats; none is pasted from a thread.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

SGL = "/workspace/sglang/python/sglang"
TVM_CALL = (
    '  File "python/tvm_ffi/cython/function.pxi", line 929, in tvm_ffi.core.Function.__call__'
)
WORK = "WorkNCCL(SeqNum=41, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000)"


def test_a_c10_line_wrapped_mid_message_is_classed_whole(tmp_path: Path) -> None:
    """A terminal hard-wrapped the watchdog's line after ``Watchdog``: the rest is read with it."""
    lines = [
        "[E402 07:08:09.123456789 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog",
        f"caught collective operation timeout: {WORK} ran for 600042 milliseconds before timing out.",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "NCCLTimeout"
    assert inc.crash_class == "nccl_timeout"
    assert inc.origin_rank == "rank3"
    assert inc.message.startswith("WorkNCCL(SeqNum=41")


def test_an_ordinary_line_after_a_headed_one_is_not_joined_to_it(tmp_path: Path) -> None:
    """Only a join that makes a rule match is kept: two harmless lines stay harmless."""
    lines = [
        "[I402 07:08:09.123456789 ProcessGroupNCCL.cpp:900] [PG ID 0 PG GUID 0 Rank 3] Watchdog",
        "thread started for collective operation timeout checks",
        "[E402 07:08:10.123456789 ProcessGroupNCCL.cpp:632] [Rank 3] Some other line",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    incidents = roots(run(tmp_path, lines))
    assert [i.exception_type for i in incidents] == ["RuntimeError"]
    assert incidents[0].first_seen.lineno == 4


def test_an_exception_line_ending_in_a_colon_takes_its_message_from_the_next_line(
    tmp_path: Path,
) -> None:
    lines = [
        "Traceback (most recent call last):",
        f'  File "{SGL}/jit_kernel/rope.py", line 88, in fused_rope',
        "    module.forward(q, k, positions)",
        TVM_CALL,
        "tvm.error.InternalError:",
        "  Check failed: (n == m) is false: rope tables disagree",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.message == "Check failed: (n == m) is false: rope tables disagree"


def test_tvm_ffi_root_cause_detail_joins_the_message_and_is_decoded(tmp_path: Path) -> None:
    """tvm_ffi's tensor check prints what failed on a ``- Root cause:`` line of its own."""
    lines = [
        "[2026-06-01 02:03:04 TP2 EP2] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SGL}/srt/speculative/eagle_worker_v2.py", line 745, in verify',
        "    out = self.target_worker.forward_batch_generation(batch)",
        f'  File "{SGL}/jit_kernel/deepseek_v4.py", line 680, in fused_rope',
        "    module.forward(q, k, freqs, positions, inverse)",
        TVM_CALL,
        "tvm.error.InternalError: Tensor match failed for Tensor<62>[strides=<1>, dtype=int32, "
        f"device=cuda:2] at {SGL}/jit_kernel/csrc/rope.cuh:131",
        "- Root cause: Size mismatch for shape#0('batch_size'): expected 64 but got 62",
        "",
        "[2026-06-01 02:03:04] SIGQUIT received. signum=None, frame=None. It usually means one child failed.",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.message.endswith(
        "Root cause: Size mismatch for shape#0('batch_size'): expected 64 but got 62"
    )
    assert inc.crash_class == "shape_mismatch"
    assert inc.shape_mismatch is not None
    assert inc.shape_mismatch.numbers == {"dim": 0, "expected": 64, "got": 62}
    assert inc.origin_rank == "TP2 EP2"


def test_a_cann_stamp_with_two_fractions_times_its_crash(tmp_path: Path) -> None:
    lines = [
        "EE9999: [PID: 5150] 2026-02-03-04:05:06.789.012 Kernel task happen error, "
        "retCode=0x31, [vector core exception].",
        "        Solution: check the kernel's inputs.",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "EE9999"
    assert inc.first_seen.ts is not None
    assert (inc.first_seen.ts.hour, inc.first_seen.ts.microsecond) == (4, 789012)


def test_an_unstamped_npu_traceback_takes_the_stamp_of_the_cann_records_under_it(
    tmp_path: Path,
) -> None:
    site = "/usr/local/python3.11.10/lib/python3.11/site-packages"
    lines = [
        "Traceback (most recent call last):",
        f'  File "{site}/vllm_ascend/worker/model_runner_v1.py", line 2210, in execute_model',
        "    hidden = self.model(input_ids, positions)",
        "RuntimeError: NPU function error: call aclnnAdd failed, error code is 507015",
        "[ERROR] 2026-02-03-04:05:07 (PID:5150, Device:1, RankID:-1) ERR00100 PTA call acl api failed",
        "EE1001: [PID: 5150] 2026-02-03-04:05:07.001.002 The argument is invalid.",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "RuntimeError"
    assert inc.first_seen.ts is not None
    assert (inc.first_seen.ts.minute, inc.first_seen.ts.second) == (5, 7)


def test_a_compose_service_with_a_container_name_is_peeled(tmp_path: Path) -> None:
    """``container_name:`` drops compose's replica number: ``my-vllm  | (APIServer pid=1) ...``."""
    pad = "my-vllm    | "
    tag = "(APIServer pid=1) ERROR 04-05 06:07:08 [async_llm.py:560] "
    site = "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine"
    lines = [
        pad + "(EngineCore_DP0 pid=88) For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
        pad + tag + "AsyncLLM output_handler failed.",
        pad + tag + "Traceback (most recent call last):",
        pad + tag + f'  File "{site}/async_llm.py", line 510, in output_handler',
        pad + tag + "    outputs = await engine_core.get_output_async()",
        pad + tag + "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type.endswith("EngineDeadError")
    assert inc.origin_rank == "APIServer"
    assert inc.first_seen.ts_text is not None and "06:07:08" in inc.first_seen.ts_text


def test_a_go_panic_in_a_cri_log_is_a_crash(tmp_path: Path) -> None:
    """llm-d's and KServe's Go components die with a panic; containerd splits its long lines."""
    cri = "2026-07-08T09:10:11.123456789+00:00 stderr "
    lines = [
        cri + "F panic: assignment to entry in nil map",
        cri + "F ",
        cri + "P goroutine 77 [running",
        cri + "F ]:",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "GoPanic"
    assert inc.message == "assignment to entry in nil map"
    assert inc.first_seen.ts is not None


def test_pod_and_container_names_before_each_line_are_peeled(tmp_path: Path) -> None:
    """Several pods' logs merged (stern): "pod container " before each writer's own line."""
    pod = "llm-d-decode-7d9f8b6c5-x2k4q"
    tag = f"{pod} vllm (EngineCore_DP0 pid=311) ERROR 07-08 09:10:11 [core.py:720] "
    site = "/opt/vllm/lib64/python3.12/site-packages/vllm/v1/engine/core.py"
    lines = [
        tag + "EngineCore encountered a fatal error.",
        tag + "Traceback (most recent call last):",
        tag + f'  File "{site}", line 711, in run_engine_core',
        tag + "    engine_core.run_busy_loop()",
        tag + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
        f'{pod} routing-proxy E0708 09:10:12.000001       1 proxy.go:268] "waiting for vLLM"',
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "torch.OutOfMemoryError"
    assert inc.origin_rank == "EngineCore_DP0"
    assert [f.function for f in inc.frames] == ["run_engine_core"]


def test_a_container_name_before_a_bare_traceback_is_peeled(tmp_path: Path) -> None:
    site = "/kserve-workspace/prod_venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py"
    lines = [
        "kserve-container Traceback (most recent call last):",
        f'kserve-container   File "{site}", line 300, in add_cli_args',
        "kserve-container     parser.add_argument('--device')",
        "kserve-container ValueError: unknown device type",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "ValueError"
    assert [f.function for f in inc.frames] == ["add_cli_args"]


def test_kserve_logging_format_and_its_start_failure(tmp_path: Path) -> None:
    """KServe logs ``ts pid name LEVEL [file.py:func():N] msg``; a failed load is one line."""
    lines = [
        "2026-03-04 05:06:07.089 1 kserve INFO [model_server.py:register_model():410] Registering",
        "2026-03-04 05:06:09.512 1 kserve ERROR [__main__.py:<module>():301] Failed to start model "
        "server: list index out of range",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.exception_type == "ModelServerStartFailed"
    assert inc.message == "list index out of range"
    assert inc.first_seen.ts_text == "2026-03-04 05:06:09.512"


def test_markdown_bold_and_a_backtick_typed_into_a_pasted_line_are_ignored(tmp_path: Path) -> None:
    """A reader bolded the words that matter and opened an inline code span before the tag."""
    lines = [
        "`[rank2]:[E611 01:02:03.456789012 ProcessGroupNCCL.cpp:632] [Rank 2] **Watchdog caught "
        f"collective operation timeout:** {WORK} ran for 600100 milliseconds before timing out.`",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.crash_class == "nccl_timeout"
    assert inc.origin_rank == "rank2"
    assert inc.message.startswith("WorkNCCL(SeqNum=41")


def test_python_double_star_arguments_are_not_taken_for_bold(tmp_path: Path) -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/srv/app.py", line 9, in run',
        "    return fn(*args, **kwargs)",
        "TypeError: fn() got an unexpected keyword argument '**opts**'",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert inc.frames[0].code == "return fn(*args, **kwargs)"
