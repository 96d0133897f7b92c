"""Synthetic stacks shaped like SGLang ranks under py-spy (paths and names as real servers show)."""

from __future__ import annotations

from spectrace.stacks.model import Capture, ProcessCapture, Sample, StackFrame, ThreadStack

SGL = "/sgl-workspace/sglang/python/sglang/srt"
TORCH = "/usr/local/lib/python3.11/dist-packages/torch"
ZMQ = "/usr/local/lib/python3.11/dist-packages/zmq/sugar/socket.py"
LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"


def py(name: str, filename: str, line: int = 10, code: str | None = None) -> StackFrame:
    return StackFrame(name=name, filename=filename, line=line, code=code)


def native(name: str, lib: str = "/usr/lib/x86_64-linux-gnu/libnccl.so.2") -> StackFrame:
    return StackFrame(name=name, filename=lib, line=0, native=True)


LOOP = (
    py("event_loop_normal", f"{SGL}/managers/scheduler.py", 980),
    py("run_scheduler_process", f"{SGL}/managers/scheduler.py", 2890),
)
ALL_REDUCE = (
    native("ncclGroupEnd"),
    native(
        "c10d::ProcessGroupNCCL::allreduce(std::vector<at::Tensor>&)",
        f"{TORCH}/lib/libtorch_cuda.so",
    ),
    py(
        "all_reduce",
        f"{TORCH}/distributed/distributed_c10d.py",
        2806,
        "work = group.allreduce([tensor], opts)",
    ),
    py("all_reduce", f"{SGL}/distributed/parallel_state.py", 512),
    py("forward", f"{SGL}/layers/linear.py", 1301),
    py("forward_batch_speculative_generation", f"{SGL}/speculative/eagle_worker.py", 270),
) + LOOP
VERIFY = (
    py(
        "verify",
        f"{SGL}/speculative/eagle_worker.py",
        655,
        "accept_index = accept_index[accept_index != -1]",
    ),
    py("forward_batch_speculative_generation", f"{SGL}/speculative/eagle_worker.py", 281),
) + LOOP
IDLE = (
    py("recv_pyobj", ZMQ, 989, "msg = self.recv(flags)"),
    py(
        "recv_requests",
        f"{SGL}/managers/scheduler.py",
        1120,
        "recv_req = self.recv_from_tokenizer.recv_pyobj(zmq.NOBLOCK)",
    ),
) + LOOP


def thread(frames: tuple[StackFrame, ...], active: bool = False, pid: int = 0) -> ThreadStack:
    return ThreadStack(
        thread_id=pid * 10,
        name="MainThread",
        active=active,
        owns_gil=active,
        frames=frames,
        os_thread_id=pid,
    )


def capture(*ranks: tuple[str, list[tuple[tuple[StackFrame, ...], bool]]]) -> Capture:
    procs = tuple(
        ProcessCapture(
            pid=100 + i,
            ppid=1,
            cmdline=f"sglang::scheduler_{label}",
            rank=label,
            rank_source="title",
            samples=tuple(
                Sample(at=0.5 * n, threads=(thread(f, a, 100 + i),))
                for n, (f, a) in enumerate(history)
            ),
        )
        for i, (label, history) in enumerate(ranks)
    )
    return Capture(
        root_pid=1,
        started="2026-12-02T11:00:00+00:00",
        interval=0.5,
        native=True,
        locals=False,
        pyspy_version="0.4.3",
        processes=procs,
    )


def still(
    frames: tuple[StackFrame, ...], active: bool = False, n: int = 3
) -> list[tuple[tuple[StackFrame, ...], bool]]:
    return [(frames, active)] * n
