"""Who a process is (its rank) and what each of its threads is doing, from the captured stacks."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from spectrace.stacks.model import ProcessCapture, StackFrame, ThreadStack

_SGLANG_TITLE = re.compile(r"sglang::scheduler((?:_(?:DP|PP|ATTN_CP|MOE_DP|TP|EP)\d+)+)")
_SGLANG_TAG = re.compile(r"(ATTN_CP|MOE_DP|DP|PP|TP|EP)(\d+)")
_VLLM_TITLE = re.compile(r"\b(Worker(?:_DP\d+)?(?:_PP\d+)?_TP\d+(?:_EP\d+)?)\b")
_VLLM_MP_NAME = re.compile(r"\b(VllmWorker-\d+)\b")
_TP_FLAG = re.compile(r"--tp[-_]rank[= ](\d+)\b")
_RANK_FLAG = re.compile(r"--(?:local[-_])?rank[= ](\d+)\b")
_ENV_RANKS = (
    ("SGLANG_TP_RANK", "TP"),
    ("TP_RANK", "TP"),
    ("RANK", "rank"),
    ("OMPI_COMM_WORLD_RANK", "rank"),
    ("PMI_RANK", "rank"),
    ("SLURM_PROCID", "rank"),
    ("LOCAL_RANK", "rank"),
)


def detect_rank(cmdline: str, env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(label, source): labels follow the log's rank labels so a capture links to log lines."""
    if m := _SGLANG_TITLE.search(cmdline):
        return " ".join(f"{tag}{n}" for tag, n in _SGLANG_TAG.findall(m.group(1))), "title"
    for pattern in (_VLLM_TITLE, _VLLM_MP_NAME):
        if m := pattern.search(cmdline):
            return m.group(1), "title"
    if m := _TP_FLAG.search(cmdline):
        return f"TP{m.group(1)}", "cmdline"
    if m := _RANK_FLAG.search(cmdline):
        return f"rank{m.group(1)}", "cmdline"
    for key, prefix in _ENV_RANKS:
        if env.get(key, "").isdigit():
            return f"{prefix}{env[key]}", f"env {key}"
    return None, None


_RANK_LOCALS = (
    ("tp_rank", "TP"),
    ("rank", "rank"),
    ("local_rank", "rank"),
    ("global_rank", "rank"),
)
ENTRY_FRAMES = (
    8  # only the outermost frames: a worker's entry function, not a loop variable deep inside
)


def rank_from_locals(threads: Sequence[ThreadStack]) -> tuple[str | None, str | None]:
    """A rank argument of the process's entry function (``run_scheduler_process(tp_rank=3)``)."""
    for thread in threads:
        python = [f for f in thread.frames if not f.native][::-1][:ENTRY_FRAMES]
        for frame in python:
            values = dict(frame.locals)
            for name, prefix in _RANK_LOCALS:
                if values.get(name, "").isdigit():
                    return f"{prefix}{values[name]}", f"locals: {name} in {frame.name}"
    return None, None


class Activity(Enum):
    """What a thread is doing, most telling first (a rank is shown by its most telling thread)."""

    COLLECTIVE = "waiting in a collective"
    GPU_WAIT = "waiting on the GPU"
    RUNNING = "running Python code"
    BLOCKED = "blocked"
    IDLE_LOOP = "idle in the scheduler loop"
    SLEEPING = "sleeping"


class State(Enum):
    RUNNING = "running"
    WAITING = "waiting"
    IDLE = "idle"


STATE_OF = {
    Activity.COLLECTIVE: State.WAITING,
    Activity.GPU_WAIT: State.WAITING,
    Activity.RUNNING: State.RUNNING,
    Activity.SLEEPING: State.IDLE,
    Activity.BLOCKED: State.WAITING,
    Activity.IDLE_LOOP: State.IDLE,
}

# Distinctive collective names match anywhere (sglang/vLLM wrap torch's in their own functions);
# generic ones (send, wait, reduce...) only inside a distributed module.
_COLLECTIVE_NAME = re.compile(r"all_reduce|all_gather|reduce_scatter|all_to_all|barrier|broadcast")
_GENERIC_COLLECTIVE = {
    "send",
    "recv",
    "isend",
    "irecv",
    "reduce",
    "gather",
    "scatter",
    "wait",
    "batch_isend_irecv",
    "_wait",
}
_NATIVE_COLLECTIVE = re.compile(r"ProcessGroupNCCL|ProcessGroupGloo|c10d::|nccl[A-Z]|gloo::")
# Seen on an H200 (torch 2.11, driver 580): torch.cuda.synchronize() spins in cuCtxSynchronize_v2
# under cudaDeviceSynchronize; a kernel launch queued behind a long kernel spins in cuLaunchKernel.
_NATIVE_GPU = re.compile(
    r"cu(?:da)?(?:Stream|Device|Event|Ctx)Synchronize|cudaMemcpy|cuMemcpy|"
    r"_local_scalar_dense|synchronize|cu(?:da)?LaunchKernel"
)
_GPU_CODE = re.compile(r"\.item\(\)|\.tolist\(\)|\.cpu\(\)|synchronize\(|\.numpy\(\)")
_COLLECTIVE_CODE = re.compile(
    r"\b(all_reduce\w*|all_gather\w*|reduce_scatter\w*|all_to_all\w*|barrier|broadcast)\s*\("
)
_TEMPLATE = re.compile(r"<[^<>]*>")
_IDLE_NAMES = re.compile(
    r"^(?:event_loop\w*|recv_requests|_run_once|run_forever|serve_forever|worker_busy_loop|"
    r"_process_input_queue)$"
)
# A message queue's own read loop: waiting in it is waiting for work, not server code at work.
_QUEUE_PLUMBING = re.compile(r"shm_broadcast\.py$")
_SLEEP_NATIVE = re.compile(r"nanosleep|time_sleep")
_LIBRARY_PKG = re.compile(
    r"[/\\](?:site|dist)-packages[/\\](?:torch|zmq|triton|numpy|uvloop|"
    r"psutil|ray|tqdm|setproctitle|anyio|uvicorn|starlette|multiprocess|tokenizers)[/\\]"
)
_STDLIB = re.compile(r"[/\\]lib[/\\]python3\.\d+[/\\](?!site-packages|dist-packages)|^<frozen ")
# py-spy's text dump shortens paths to the import path ("threading.py", "torch/nn/module.py")
_SHORT_TOP = re.compile(r"^([A-Za-z_]\w*)(?:\.py$|/)")
_LIBRARY_TOPS = frozenset(
    "torch zmq triton numpy uvloop psutil ray tqdm setproctitle anyio uvicorn starlette "
    "multiprocess tokenizers".split()
)


def is_own_code(frame: StackFrame) -> bool:
    """Server code (sglang, vllm, the user's script), not the stdlib, torch or zmq."""
    return (
        not frame.native
        and not _STDLIB.search(frame.filename)
        and not _LIBRARY_PKG.search(frame.filename)
        and not _short_library(frame.filename)
    )


def _short_library(filename: str) -> bool:
    """A pasted dump's short path into the stdlib or infrastructure (``queue.py``, ``zmq/...``)."""
    m = _SHORT_TOP.match(filename)
    return m is not None and (m.group(1) in sys.stdlib_module_names or m.group(1) in _LIBRARY_TOPS)


@dataclass(frozen=True, slots=True)
class ThreadView:
    """One thread across the samples: what it does and whether its stack moved."""

    thread: ThreadStack  # the last sample's stack
    activity: Activity
    detail: str  # "all_reduce", "x.item()", "verify", "recv_requests"
    own_frame: StackFrame | None  # innermost frame of the server's own code
    changed: bool  # the stack differed between samples
    changes: tuple[str, ...] = ()  # "verify:12 -> verify:14", one per changed sample pair


def classify_stack(thread: ThreadStack) -> tuple[Activity, str]:
    """Activity of one sample of one thread, with the name that shows it."""
    frames = thread.frames
    for frame in frames:  # up to the innermost server frame: a wrapper named *all_reduce* that
        if _is_collective(frame):  # is sleeping in its own helper has not entered it yet
            return Activity.COLLECTIVE, frame.name if not frame.native else _native_op(frames)
        if is_own_code(frame):
            break
    own = next((f for f in frames if is_own_code(f)), None)
    if own is not None and own.code and (m := _COLLECTIVE_CODE.search(own.code)):
        return Activity.COLLECTIVE, m.group(1)  # a C-level collective called from this line
    python = [f for f in frames if not f.native]
    if any(f.native and _NATIVE_GPU.search(f.name) for f in frames) or (
        python and python[0].name == "synchronize" and "cuda" in python[0].filename
    ):
        return Activity.GPU_WAIT, _gpu_detail(own)
    # CUDA spin-waits by default, so a thread stuck in .item() can look on-CPU: no active check.
    if own is not None and own.code and _GPU_CODE.search(own.code):
        return Activity.GPU_WAIT, _gpu_detail(own)
    # Idle: the innermost frame that is the server's own (or an event loop) is the loop itself;
    # a loop polling a message queue (vLLM's shm ring buffer spins) is idle even when on CPU.
    idle = next((f for f in python if _IDLE_NAMES.match(f.name) or _loop_candidate(f)), None)
    polled = idle is not None and any(_QUEUE_PLUMBING.search(f.filename) for f in python)
    if idle is not None and _IDLE_NAMES.match(idle.name) and (polled or not thread.active):
        return Activity.IDLE_LOOP, idle.name
    caller = next((f for f in python if _loop_candidate(f)), own)  # who reads the queue
    if thread.active:
        return Activity.RUNNING, caller.name if caller else (python[0].name if python else "?")
    if any(f.native and _SLEEP_NATIVE.search(f.name) for f in frames) or (
        own is not None and own.code is not None and "sleep(" in own.code
    ):
        return Activity.SLEEPING, own.name if own else "sleep"
    leaf = caller or (python[0] if python else None)
    return Activity.BLOCKED, leaf.name if leaf else "?"


def _loop_candidate(frame: StackFrame) -> bool:
    return is_own_code(frame) and not _QUEUE_PLUMBING.search(frame.filename)


def _is_collective(frame: StackFrame) -> bool:
    if frame.native:
        return bool(_NATIVE_COLLECTIVE.search(frame.name))
    if _COLLECTIVE_NAME.search(frame.name):
        return True
    return frame.name in _GENERIC_COLLECTIVE and "distributed" in frame.filename


def _native_op(frames: Sequence[StackFrame]) -> str:
    """Prefer the Python collective's name; fall back to the native symbol's last part."""
    for frame in frames:
        if not frame.native and _COLLECTIVE_NAME.search(frame.name):
            return frame.name
    name = next(f.name for f in frames if f.native and _NATIVE_COLLECTIVE.search(f.name))
    return "::".join(_TEMPLATE.sub("", name.split("(")[0]).split("::")[-3:])


def _gpu_detail(own: StackFrame | None) -> str:
    if own is None:
        return "synchronize"
    if own.code and (m := _GPU_CODE.search(own.code)):
        call = m.group(0) if m.group(0).endswith(")") else m.group(0) + ")"
        return f"{call} in {own.name}"
    return own.name


def frame_key(frame: StackFrame) -> str:
    return f"{frame.name}:{frame.line}"


def thread_view(history: Sequence[ThreadStack]) -> ThreadView:
    """Classify one thread over its samples; a moving stack means progress, not a hang."""
    last = history[-1]
    activity, detail = classify_stack(last)
    changes = tuple(  # Python frames only: a thread spinning in a driver moves its native PCs
        _describe_change(a, b)
        for a, b in zip(history, history[1:], strict=False)
        if _python(a) != _python(b)
    )
    moving = len(history) > 1 and _python(history[-2]) != _python(history[-1])
    if moving and activity in (Activity.BLOCKED, Activity.SLEEPING):
        activity = Activity.RUNNING  # still moving at the end; an early move is how it got stuck
    own = next((f for f in last.frames if is_own_code(f)), None)
    return ThreadView(
        thread=last,
        activity=activity,
        detail=detail,
        own_frame=own,
        changed=bool(changes),
        changes=changes,
    )


def _python(thread: ThreadStack) -> tuple[tuple[str, str, int], ...]:
    return tuple((f.name, f.filename, f.line) for f in thread.frames if not f.native)


def _describe_change(a: ThreadStack, b: ThreadStack) -> str:
    fa = next((f for f in a.frames if not f.native), None)
    fb = next((f for f in b.frames if not f.native), None)
    return f"{frame_key(fa) if fa else '-'} -> {frame_key(fb) if fb else '-'}"


def thread_views(process: ProcessCapture) -> list[ThreadView]:
    """Every thread seen in the last sample, with its history across samples."""
    if not process.samples:
        return []
    history: dict[int, list[ThreadStack]] = {}
    for sample in process.samples:
        for thread in sample.threads:
            history.setdefault(thread.thread_id, []).append(thread)
    last_ids = [t.thread_id for t in process.samples[-1].threads]
    return [thread_view(history[tid]) for tid in last_ids]


def main_view(process: ProcessCapture, views: Sequence[ThreadView]) -> ThreadView | None:
    """The thread that speaks for the rank: the most telling activity, the main thread on ties."""
    if not views:
        return None
    order = list(Activity)

    def key(view: ThreadView) -> tuple[int, int]:
        is_main = view.thread.os_thread_id == process.pid or view.thread.name == "MainThread"
        interesting = view.own_frame is not None or view.activity is Activity.COLLECTIVE
        return (order.index(view.activity) if interesting else len(order), 0 if is_main else 1)

    return min(views, key=key)
