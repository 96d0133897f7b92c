"""torchrun sample: per-rank files of an NCCL watchdog cascade after one rank's real error."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from logfmt import (
    SITE,
    Clock,
    Log,
    c10,
    caret,
    nccl_timeout_text,
    traceback_body,
)

OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a total "
    "capacity of 79.19 GiB of which 1.07 GiB is free. Including non-PyTorch memory, this process "
    "has 78.11 GiB memory in use. Of the allocated memory 74.02 GiB is allocated by PyTorch, and "
    "2.61 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large "
    "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
    "documentation for Memory Management  "
    "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
)
MODULE = f"{SITE}/torch/nn/modules/module.py"
# fmt: off
OOM_FRAMES = [
    ("/workspace/spec_bench.py", 131, "speculative_decode", caret("draft_logits = draft(draft_ids, input_pos)", "draft(draft_ids, input_pos)")),
    (MODULE, 1775, "_wrapped_call_impl", caret("return self._call_impl(*args, **kwargs)", "self._call_impl(*args, **kwargs)")),
    (MODULE, 1786, "_call_impl", caret("return forward_call(*args, **kwargs)", "forward_call(*args, **kwargs)")),
    ("/workspace/draft_head.py", 88, "forward", caret("mask = self.tree_mask[None, None, input_pos].expand(bsz, 1, -1, -1)", "self.tree_mask[None, None, input_pos].expand(bsz, 1, -1, -1)")),
]
ABORT_TAIL = [  # what libstdc++ and c10 print when the watchdog takes the process down
    "Exception raised from checkTimeout at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618 (most recent call first):",
    f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f1b2a3b9e28 in {SITE}/torch/lib/libc10.so)",
    f"frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x2a4 (0x7f1ae8c0d4b4 in {SITE}/torch/lib/libtorch_cuda.so)",
    f"frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x8c0 (0x7f1ae8c0f7e0 in {SITE}/torch/lib/libtorch_cuda.so)",
    "frame #3: <unknown function> + 0xdc253 (0x7f1b2b6dc253 in /lib/x86_64-linux-gnu/libstdc++.so.6)",
    "",
]
# fmt: on


def progress(log: Log, rank: int, rng: random.Random) -> None:
    """A c10 start-up warning, then the benchmark's own logging every 100 steps."""
    clock = Clock(datetime(2026, 5, 19, 5, 31, 2))
    warn = f"[PG ID 0 PG GUID 0 Rank {rank}]  no device_id was passed to init_process_group(); the rank-to-GPU mapping is guessed from LOCAL_RANK."
    log.add(c10(rank, "W", clock.now, rng.randint(0, 10**9 - 1), "ProcessGroupNCCL.cpp:4561", warn))
    for step in range(100, 2500, 100):
        stamp = f"{clock.tick(42.0):%Y-%m-%d %H:%M:%S},{rng.randint(0, 999):03d}"
        rate = f"mean accepted 2.{rng.randint(10, 60)} tok/verify, 1{rng.randint(10, 99)} tok/s"
        log.add(f"{stamp} INFO spec_bench: [rank{rank}] step {step} {rate}")


def watchdog_abort(log: Log, rank: int, oom: bool) -> None:
    """Ten minutes on, the NCCL watchdog times out, reports, and aborts the process."""
    at = datetime(2026, 5, 19, 5, 58, 22) + timedelta(seconds=rank // 2)
    op, numel = ("ALLGATHER", 8 * 4) if oom else ("ALLREDUCE", 8 * 8192)
    text = nccl_timeout_text(rank, 2417, numel, 600011 + rank).replace("ALLREDUCE", op)
    pg = f"[PG ID 0 PG GUID 0(default_pg) Rank {rank}]"
    what = f"{pg} Process group watchdog thread terminated with exception: {text.split('] ', 1)[1]}"
    # fmt: off
    for nanos, where, message in [
        (475101234, "ProcessGroupNCCL.cpp:1595", text),
        (475402111, "ProcessGroupNCCL.cpp:1634", f"{pg} Exception (either an error or timeout) detected by watchdog at work: 2417, last enqueued NCCL work: 2417, last completed NCCL work: 2416."),
        (475501923, "ProcessGroupNCCL.cpp:630", f"[Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."),
        (475530004, "ProcessGroupNCCL.cpp:636", f"[Rank {rank}] To avoid data inconsistency, we are taking the entire process down."),
    ]:
        log.add(c10(rank, "E", at, nanos + rank * 1000, where, message))
    # fmt: on
    log.add(c10(rank, "E", at + timedelta(seconds=1), 115482930, "ProcessGroupNCCL.cpp:1715", what))
    log.add("terminate called after throwing an instance of 'c10::DistBackendError'")
    log.add(f"  what():  {what}")
    log.extend(ABORT_TAIL)


def rank_file(rank: int, rng: random.Random, oom: bool) -> tuple[Log, int | None]:
    """One torchrun rank's stderr: progress logging, maybe the real error, then the watchdog."""
    log, first = Log(), None
    progress(log, rank, rng)
    if oom:  # the logging.error line that prints the traceback is where the crash starts
        first = log.add(
            f"2026-05-19 05:48:21,337 ERROR spec_bench: [rank{rank}] draft step 2417 failed; "
            "falling back to target-only decode"
        )
        log.extend(traceback_body(OOM_FRAMES, OOM))
    watchdog_abort(log, rank, oom)
    return log, first


def nccl_watchdog() -> tuple[dict[str, bytes], dict]:
    """Four per-rank files: rank2 hits a real OOM and skips a collective; all four time out."""
    rng = random.Random(20260519)
    files, first = {}, None
    for rank in range(4):
        log, line = rank_file(rank, rng, oom=rank == 2)
        files[f"rank{rank}.log"] = log.text().encode()
        first = line if line is not None else first
    expected = {
        "inputs": [f"rank{r}.log" for r in range(4)],
        "expect": [],
        "incidents": [
            {
                "exception_type": "torch.OutOfMemoryError",
                "message_contains": "CUDA out of memory. Tried to allocate 2.00 GiB",
                "root_cause": True,
                "origin_rank": "rank2",
                "ranks": ["rank2"],
                "first_line": first,
                "source": "rank2.log",
            },
            {
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "Watchdog caught collective operation timeout",
                "ranks_union": ["rank0", "rank1", "rank2", "rank3"],
            },
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "DistBackendError",
            },
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "Process group watchdog thread terminated",
            },
        ],
        "missing_markers": [],
    }
    return files, expected
