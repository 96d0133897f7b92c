"""Ranks, activities and verdicts from stacks shaped like real SGLang/vLLM servers under py-spy."""

from __future__ import annotations

from pathlib import Path

import pytest
from stacks_synth import (
    ALL_REDUCE,
    IDLE,
    LIBC,
    LOOP,
    SGL,
    TORCH,
    VERIFY,
    capture,
    native,
    py,
    still,
    thread,
)

from spectrace.stacks.classify import Activity, classify_stack, detect_rank, rank_from_locals
from spectrace.stacks.model import StackFrame, load_capture
from spectrace.stacks.verdict import VerdictKind, analyse, compress


@pytest.mark.parametrize(
    ("cmdline", "env", "expected"),
    [
        ("sglang::scheduler_TP3", {}, ("TP3", "title")),
        ("sglang::scheduler_DP0_TP3", {}, ("DP0 TP3", "title")),
        ("sglang::scheduler_DP1_PP0_ATTN_CP1_TP2_EP2", {}, ("DP1 PP0 ATTN_CP1 TP2 EP2", "title")),
        ("VLLM::Worker_PP1_TP3", {}, ("Worker_PP1_TP3", "title")),
        ("VllmWorker-1", {}, ("VllmWorker-1", "title")),
        ("python -m trtllm.worker --tp-rank 5", {}, ("TP5", "cmdline")),
        ("python train.py --local_rank=2", {}, ("rank2", "cmdline")),
        ("python serve.py", {"RANK": "6", "LOCAL_RANK": "2"}, ("rank6", "env RANK")),
        ("python serve.py", {"OMPI_COMM_WORLD_RANK": "1"}, ("rank1", "env OMPI_COMM_WORLD_RANK")),
        ("sglang::scheduler", {}, (None, None)),  # tp_size 1: no rank in the title
        ("python -m sglang.launch_server --tp 8", {}, (None, None)),
    ],
)
def test_rank_labels_match_the_log_prefixes(
    cmdline: str, env: dict[str, str], expected: tuple[str | None, str | None]
) -> None:
    assert detect_rank(cmdline, env) == expected


@pytest.mark.parametrize(
    ("frames", "active", "expected"),
    [
        (ALL_REDUCE, False, (Activity.COLLECTIVE, "all_reduce")),
        (ALL_REDUCE[2:], False, (Activity.COLLECTIVE, "all_reduce")),  # without --native
        (
            (native("cudaStreamSynchronize", "/usr/lib/libcudart.so.12"),) + VERIFY,
            False,
            (Activity.GPU_WAIT, "verify"),
        ),
        (
            (
                py(
                    "verify",
                    f"{SGL}/speculative/eagle_worker.py",
                    640,
                    "n = int(accept_length.sum().item())",
                ),
            )
            + LOOP,
            False,
            (Activity.GPU_WAIT, ".item() in verify"),
        ),
        (  # CUDA's default spin-wait makes the synchronising thread look on-CPU
            (
                py(
                    "verify",
                    f"{SGL}/speculative/eagle_worker.py",
                    640,
                    "ids = accept_index.tolist()",
                ),
            )
            + LOOP,
            True,
            (Activity.GPU_WAIT, ".tolist() in verify"),
        ),
        (VERIFY, True, (Activity.RUNNING, "verify")),
        # a rank held up inside the wrapper, before the collective itself
        (
            (
                py("_maybe_hang", "/srv/engine/tp.py", 65, "time.sleep(f.hang_s)"),
                py("all_reduce_logits", "/srv/engine/tp.py", 44),
            )
            + LOOP,
            False,
            (Activity.SLEEPING, "_maybe_hang"),
        ),
        (IDLE, False, (Activity.IDLE_LOOP, "recv_requests")),
        (
            (native("clock_nanosleep", "/usr/lib/x86_64-linux-gnu/libc.so.6"),) + VERIFY,
            False,
            (Activity.SLEEPING, "verify"),
        ),
        (
            (
                py("wait", "/usr/lib/python3.11/threading.py", 320, "waiter.acquire()"),
                py("get", "/usr/lib/python3.11/queue.py", 171),
            )
            + VERIFY,
            False,
            (Activity.BLOCKED, "verify"),
        ),
    ],
)
def test_what_a_thread_is_doing(
    frames: tuple[StackFrame, ...], active: bool, expected: tuple[Activity, str]
) -> None:
    assert classify_stack(thread(frames, active)) == expected


def test_the_odd_rank_out_of_eight() -> None:
    ranks = [(f"TP{i}", still(ALL_REDUCE)) for i in range(8)]
    ranks[3] = ("TP3", still(VERIFY, active=True))
    result = analyse(capture(*ranks))
    assert result.verdict == (
        "TP3 is in `verify` while TP0-2 and TP4-7 wait in all_reduce: "
        "the collective cannot finish until TP3 joins"
    )
    assert result.kind is VerdictKind.STRAGGLER and result.odd == ("TP3",)
    assert [g.labels for g in result.groups] == [
        ("TP0", "TP1", "TP2", "TP4", "TP5", "TP6", "TP7"),
        ("TP3",),
    ]


def test_ranks_in_different_collectives() -> None:
    gather = (
        py("all_gather_into_tensor", f"{TORCH}/distributed/distributed_c10d.py", 3100),
    ) + ALL_REDUCE[4:]
    result = analyse(
        capture(("TP0", still(gather)), *[(f"TP{i}", still(ALL_REDUCE)) for i in range(1, 4)])
    )
    assert result.kind is VerdictKind.MISMATCH
    assert (
        result.verdict
        == "TP0 waits in all_gather_into_tensor while TP1-3 wait in all_reduce: the ranks are in different collectives"
    )


def test_everyone_waiting_or_idle_or_busy() -> None:
    waiting = analyse(capture(*[(f"DP0 TP{i}", still(ALL_REDUCE)) for i in range(4)]))
    assert waiting.kind is VerdictKind.ALL_IN_COLLECTIVE and waiting.verdict.startswith(
        "DP0 TP0-3 wait in all_reduce: every rank here has joined"
    )
    idle = analyse(capture(*[(f"TP{i}", still(IDLE)) for i in range(2)]))
    assert (
        idle.verdict
        == "TP0-1 are idle in the scheduler loop (recv_requests): waiting for requests, not for each other"
    )
    moved = (VERIFY[0].__class__(name="verify", filename=VERIFY[0].filename, line=661),) + VERIFY[
        1:
    ]
    busy = analyse(capture(*[(f"TP{i}", [(VERIFY, True), (moved, True)]) for i in range(2)]))
    assert (
        busy.kind is VerdictKind.PROGRESS
        and busy.verdict == "TP0-1 are making progress (stacks change between samples)"
    )


def test_compress_labels() -> None:
    assert compress(["TP0", "TP1", "TP2", "TP4", "TP5", "TP6", "TP7"]) == "TP0-2 and TP4-7"
    assert compress(["rank10", "rank9", "Worker_TP1", "main"]) == "Worker_TP1, main and rank9-10"


def test_rank_from_the_entry_function_arguments() -> None:
    entry = StackFrame(
        "run_scheduler_process",
        f"{SGL}/managers/scheduler.py",
        2890,
        locals=(("server_args", "ServerArgs(...)"), ("gpu_id", "3"), ("tp_rank", "3")),
    )
    deep = StackFrame(
        "recv_requests", f"{SGL}/managers/scheduler.py", 1120, locals=(("rank", "0"),)
    )
    spawn = (
        StackFrame("_main", "/usr/lib/python3.11/multiprocessing/spawn.py", 135),
        StackFrame("<module>", "<string>", 1),
    )
    assert rank_from_locals([thread((deep, *(py("f", "/srv/x.py"),) * 8, entry, *spawn))]) == (
        "TP3",
        "locals: tp_rank in run_scheduler_process",
    )
    assert rank_from_locals([thread((deep, *(py("f", "/srv/x.py"),) * 8, *spawn))]) == (None, None)


# Native frames as py-spy 0.4.3 --native showed them on an H200 (torch 2.11+cu130, driver 580).
LIBCUDA = "/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04"
CUDA_SPIN = tuple(native(f"0x7fb5e78121{i:02x}", LIBCUDA) for i in range(3))
NCCL_WAIT = (
    native("clock_nanosleep", "/usr/lib/x86_64-linux-gnu/libc.so.6"),
    native("nanosleep", "/usr/lib/x86_64-linux-gnu/libc.so.6"),
    native("c10d::ProcessGroupNCCL::WorkNCCL::wait", f"{TORCH}/lib/libtorch_cuda.so"),
    native("pybind11::cpp_function::dispatcher", f"{TORCH}/lib/libtorch_python.so"),
    py("forward", f"{SGL}/layers/linear.py", 18, "work.wait()"),
) + LOOP
LAUNCH_BEHIND_KERNEL = (
    CUDA_SPIN
    + (
        native("cuLaunchKernel", LIBCUDA),
        native("cudaLaunchKernel", "/usr/local/lib/libcudart.so.13"),
        native("at::native::structured_sum_out::impl", f"{TORCH}/lib/libtorch_cpu.so"),
        py("verify", f"{SGL}/speculative/eagle_worker.py", 7, "return x.sum().item()"),
    )
    + LOOP
)
DEVICE_SYNC = (
    CUDA_SPIN
    + (
        native("cuCtxSynchronize_v2", LIBCUDA),
        native("cudaDeviceSynchronize", "/usr/local/lib/libcudart.so.13"),
        native("THCPModule_cudaSynchronize", f"{TORCH}/lib/libtorch_python.so"),
        py("synchronize", f"{TORCH}/cuda/__init__.py", 1162),
        py("draft", f"{SGL}/speculative/eagle_worker.py", 10, "torch.cuda.synchronize()"),
    )
    + LOOP
)


@pytest.mark.parametrize(
    ("frames", "expected"),
    [
        (NCCL_WAIT, (Activity.COLLECTIVE, "ProcessGroupNCCL::WorkNCCL::wait")),
        (LAUNCH_BEHIND_KERNEL, (Activity.GPU_WAIT, ".item() in verify")),
        (DEVICE_SYNC, (Activity.GPU_WAIT, "synchronize() in draft")),
        (
            (py("forward", f"{SGL}/layers/linear.py", 18, "dist.all_reduce(x)"),) + LOOP,
            (Activity.COLLECTIVE, "all_reduce"),
        ),
    ],
)
def test_real_cuda_and_nccl_waits(
    frames: tuple[StackFrame, ...], expected: tuple[Activity, str]
) -> None:
    assert classify_stack(thread(frames, active=True)) == expected


def test_a_thread_spinning_in_the_driver_has_not_moved() -> None:
    moved_pcs = tuple(native(f"0x7fb5e78122{i:02x}", LIBCUDA) for i in range(3)) + DEVICE_SYNC[3:]
    result = analyse(capture(("TP0", [(DEVICE_SYNC, True), (moved_pcs, True)])))
    assert result.ranks[0].view.changed is False


def test_no_majority_lists_each_rank_without_an_odd_one() -> None:
    result = analyse(
        capture(("TP0", still(LAUNCH_BEHIND_KERNEL, True)), ("TP1", still(DEVICE_SYNC, True)))
    )
    assert result.kind is VerdictKind.MIXED and result.odd == ()
    assert (
        result.verdict
        == "TP0 waits on the GPU (.item() in verify); TP1 waits on the GPU (synchronize() in draft)"
    )


def test_captures_from_a_real_h200() -> None:
    """What py-spy saw on a GPU: CUDA spin-waits and an NCCL wait, with and without --native."""
    data = Path(__file__).parent / "data"
    native = analyse(load_capture(data / "h200_native_capture.json"))
    assert [(r.label, r.view.activity, r.view.detail, r.view.changed) for r in native.ranks] == [
        ("TP0", Activity.GPU_WAIT, ".item() in verify", False),
        ("TP1", Activity.GPU_WAIT, "synchronize() in draft", False),
        ("TP2", Activity.COLLECTIVE, "ProcessGroupNCCL::WorkNCCL::wait", False),
    ]
    python_only = analyse(load_capture(data / "h200_python_capture.json"))
    assert python_only.verdict == (
        "TP0 waits on the GPU (.item() in verify); TP1 waits on the GPU (synchronize() in draft); "
        "TP2 is blocked in `forward`"
    )


def test_a_rank_that_moved_then_stuck_is_stuck() -> None:
    """Seen with the engine's hang fault: the first sample caught the previous all_reduce."""
    hang = (py("TPGroup._maybe_hang", "/srv/engine/tp.py", 81, "time.sleep(f.hang_s)"),) + LOOP
    result = analyse(capture(("rank1", [(ALL_REDUCE[2:], False), (hang, False), (hang, False)])))
    view = result.ranks[0].view
    assert (view.activity, view.detail, view.changed) == (
        Activity.SLEEPING,
        "TPGroup._maybe_hang",
        True,
    )


def test_an_address_py_spy_could_not_symbolise_is_never_the_verdict() -> None:
    """py-spy --native gives an unresolved PC as a frame named ``0x7f...`` in file ``?`` with
    no module: it is a native frame, so the rank is named by its Python function (``verify``)."""
    from spectrace.stacks.capture import is_native

    raw = [
        {"name": "0x7faf39c53a10", "filename": "?", "module": None, "line": 0},
        {
            "name": "__memmove_avx_unaligned",
            "filename": LIBC,
            "module": LIBC,
            "line": 0,
        },  # fmt: skip
        {
            "name": "verify",
            "filename": f"{SGL}/speculative/eagle_worker.py",
            "module": None,
            "line": 412,
        },  # fmt: skip
        {"name": "<module>", "filename": "<string>", "module": None, "line": 1},
    ]
    assert [is_native(f) for f in raw] == [True, True, False, False]
    frames = tuple(
        StackFrame(name=f["name"], filename=f["filename"], line=f["line"], native=is_native(f))
        for f in raw
    )
    busy = thread(frames[:3], active=True)
    activity, detail = classify_stack(busy)
    assert (activity, detail) == (Activity.RUNNING, "verify")
