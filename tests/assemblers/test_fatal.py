"""Fatal-line rules, benign noise and classification, through the Collector a scan uses."""

from __future__ import annotations

import pytest
from asm_helpers import RULES, collect

from spectrace.assemblers.crash import CrashKind
from spectrace.assemblers.fatal import FatalMatcher


@pytest.mark.parametrize(
    ("line", "etype", "cls", "kind", "collateral"),
    [
        (
            "[rank1]:[E519 05:58:22.475 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600000 milliseconds before timing out.",
            "NCCLTimeout",
            "nccl_timeout",
            CrashKind.FATAL_LINE,
            True,
        ),
        (
            "[2026-02-27 21:00:19] Received sigquit from a child proces. It usually means the child failed.",
            "SIGQUIT",
            "sigquit",
            CrashKind.PROCESS_DEATH,
            True,
        ),
        (
            "[2026-02-27 21:00:19] SIGQUIT received. signum=None, frame=None. It usually means one child failed.",
            "SIGQUIT",
            "sigquit",
            CrashKind.PROCESS_DEATH,
            True,
        ),
        (
            "[2026-02-27 21:00:19] Subprocess scheduler_0 (pid=48211) crashed with exit code -9. Triggering SIGQUIT for cleanup...",
            "SubprocessCrashed",
            "subprocess_crashed",
            CrashKind.PROCESS_DEATH,
            True,
        ),
        (
            "[2026-02-27 21:00:19] Rank 3 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer.",
            "SchedulerDead",
            "scheduler_dead",
            CrashKind.PROCESS_DEATH,
            True,
        ),
        (
            "(APIServer pid=3811) ERROR 10-17 14:03:54 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.",
            "EngineCoreDied",
            "engine_core_died",
            CrashKind.PROCESS_DEATH,
            True,
        ),
        (
            "(EngineCore_DP0 pid=3990) ERROR 10-17 14:03:54 [multiproc_executor.py:149] Worker proc VllmWorker-0 died unexpectedly, shutting down executor.",
            "WorkerDied",
            "worker_died",
            CrashKind.PROCESS_DEATH,
            True,
        ),
        ("Killed", "OOMKilled", "oom_killed", CrashKind.PROCESS_DEATH, False),
        (
            "[2026-02-27 21:00:18 TP7] RuntimeError: CUDA error: an illegal memory access was encountered",
            "RuntimeError",
            "cuda_illegal_memory",
            CrashKind.FATAL_LINE,
            False,
        ),
        (
            "[2026-02-27 21:00:18 TP7] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
            "torch.OutOfMemoryError",
            "cuda_oom",
            CrashKind.FATAL_LINE,
            False,
        ),
        (
            "ERROR 10-17 14:03:54 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.",
            "vllm.v1.engine.exceptions.EngineDeadError",
            "engine_dead",
            CrashKind.PROCESS_DEATH,
            True,
        ),
    ],
)
def test_fatal_lines(line: str, etype: str, cls: str, kind: CrashKind, collateral: bool) -> None:
    crashes = collect([line])
    assert [(c.exception_type, c.crash_class, c.kind, c.collateral) for c in crashes] == [
        (etype, cls, kind, collateral)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "[2026-02-27 20:49:03 TP2] Ignore import error when loading sglang.srt.models.glm_ocr: No module named 'transformers.models.glm_ocr'",
        "[2026-02-27 20:49:03 TP2] Ignore import error when loading sglang.srt.models.x: ImportError: cannot import name 'Y'",
        "WARNING 10-17 14:00:00 [__init__.py:22] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")",
        "/usr/lib/python3.12/site-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml package is deprecated.",
        "[2026-02-27 20:50:00] Finish: obj=GenerateReqInput(), out={'meta_info': {'error_msg=None'}}",
        "[2026-02-27 20:50:00 TP0] Speculative stats: acceptance rate: 0.0%",
        "nvidia-smi: TraceBack buffer flushed (driver)",
        "host-1:4242:4242 [0] NCCL INFO Channel 00/02 : 0 1 2 3 4 5 6 7",
        '[2026-02-27 20:50:00 TP0]     raise RuntimeError("debug print")',
    ],
)
def test_benign_noise_is_never_a_crash(line: str) -> None:
    assert collect([line]) == []


def test_engine_core_header_is_not_a_second_crash() -> None:
    h = "(EngineCore_DP0 pid=3990) ERROR 10-17 14:03:53 [core.py:710] "
    crashes = collect([h + "EngineCore encountered a fatal error.", h + "Traceback (most recent call last):",
                       h + '  File "/v/core.py", line 701, in run_engine_core', h + "RuntimeError: Worker failed with error 'x'"])  # fmt: skip
    assert [(c.kind, c.header, c.lineno, c.crash_class, c.collateral) for c in crashes] == [
        (CrashKind.TRACEBACK, "EngineCore encountered a fatal error.", 1, "worker_failed", True)
    ]


def test_summary_line_after_a_traceback_is_not_a_second_crash() -> None:
    crashes = collect([
        "[2026-02-27 21:00:18 TP7] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/s/scheduler.py", line 1, in run',
        "ValueError: too many values to unpack (expected 2)",
        "[2026-02-27 21:00:18 TP7] ValueError: too many values to unpack (expected 2)",
    ])  # fmt: skip
    assert [(c.kind, c.crash_class) for c in crashes] == [(CrashKind.TRACEBACK, "unpack_mismatch")]


def test_nccl_lines_of_one_failure_fold_into_one_crash() -> None:
    p = "[rank0]:[E519 05:58:22.475 ProcessGroupNCCL.cpp:{n}] [PG 0 Rank 0] "
    crashes = collect([
        p.format(n=1595) + "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2417, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.",
        p.format(n=1601) + "Some NCCL operations have failed or timed out.",
        p.format(n=1904) + "Process group watchdog thread terminated with exception: [Rank 0] Watchdog caught collective operation timeout",
        "[rank0]:terminate called after throwing an instance of 'c10::DistBackendError'",
    ])  # fmt: skip
    assert [(c.exception_type, c.lineno) for c in crashes] == [("NCCLTimeout", 1)]


CUDA_C10 = "[rank0]:[E519 05:58:22.118204551 CUDAException.cpp:43] CUDA error: an illegal memory access was encountered"
WATCHDOG_CUDA = (
    "[rank3]:[E519 05:58:22.118204551 ProcessGroupNCCL.cpp:1904] [PG ID 2 PG GUID 3 Rank 3] "
    "Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered"
)


@pytest.mark.parametrize(
    ("fatal", "thrown"), [(CUDA_C10, "c10::Error"), (WATCHDOG_CUDA, "c10::DistBackendError")]
)
def test_terminate_after_a_c10_cuda_line_is_the_same_crash(fatal: str, thrown: str) -> None:
    crashes = collect([
        fatal,
        f"terminate called after throwing an instance of '{thrown}'",
        "  what():  " + fatal.split("] ", 1)[1],
        "Exception raised from c10_cuda_check_implementation at /pytorch/c10/cuda/CUDAException.cpp:43 (most recent call first):",
    ])  # fmt: skip
    assert [(c.exception_type, c.crash_class, c.collateral) for c in crashes] == [
        ("CUDAError", "cuda_illegal_memory", False)
    ]
    assert crashes[0].lines[1].startswith("terminate called") and crashes[0].end_lineno >= 2


def test_terminate_on_its_own_is_still_a_crash() -> None:
    crashes = collect([
        CUDA_C10, "[rank0]:step 1", "[rank0]:step 2", "[rank0]:step 3", "[rank0]:step 4",
        "[rank1]:terminate called after throwing an instance of 'c10::Error'",
    ])  # fmt: skip
    assert [(c.exception_type, c.rank) for c in crashes] == [
        ("CUDAError", "rank0"), ("c10::Error", "rank1")
    ]  # fmt: skip


def test_classify_uses_chain_links() -> None:
    matcher = FatalMatcher(RULES)
    crashes = collect(["Traceback (most recent call last):", '  File "/x.py", line 1, in f',
                       "RuntimeError: Capture cuda graph failed: CUDA out of memory"])  # fmt: skip
    assert crashes[0].crash_class == "cuda_oom"
    assert matcher.classify(crashes[0]).rule_id == "cuda_oom"
