"""SGLang start-up crash: the draft CUDA-graph capture runs out of memory on both ranks."""

from __future__ import annotations

from datetime import datetime

from logfmt import SITE, Clock, Log, frame, sgl
from sglang_parts import GLM_OCR, SG, SIGQUIT_LAUNCH, V2_OFF, rank_prefixes
from stories_sglang import QWEN, QWEN_DRAFT, v1_dump

SP = f"{SG}/speculative"
OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 1 has a total "
    "capacity of 79.19 GiB of which 812.00 MiB is free."
)
HELP = [  # CUDA_GRAPH_CAPTURE_FAILED_MSG (LOG_FORMATS 1.8): part of the exception message
    "Possible solutions:",
    "1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)",
    "2. set --cuda-graph-max-bs to a smaller value (e.g., 16)",
    "3. disable torch compile by not using --enable-torch-compile",
    "4. disable CUDA graph by --disable-cuda-graph. (Not recommended. Huge performance loss)",
    "Open an issue on GitHub https://github.com/sgl-project/sglang/issues/new/choose ",
]


def capture_body() -> list[str]:
    """torch OOM inside capture_one_batch_size, re-raised as 'Capture cuda graph failed'."""
    runner = f"{SP}/eagle_draft_cuda_graph_runner.py"
    out = ["Traceback (most recent call last):"]
    out += frame(runner, 121, "__init__", "self.capture()")
    out += frame(runner, 178, "capture", "CudaGraphRunner.capture(self)")
    out += frame(
        f"{SG}/model_executor/cuda_graph_runner.py",
        612,
        "capture",
        ") = self.capture_one_batch_size(bs, forward)",
    )
    out += frame(runner, 246, "capture_one_batch_size", "out = run_once()")
    out += frame(f"{SITE}/torch/cuda/graphs.py", 186, "__exit__", "self.cuda_graph.capture_end()")
    out += [
        OOM,
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
    ]
    out += frame(
        f"{SG}/managers/scheduler.py", 2698, "run_scheduler_process", "scheduler = Scheduler("
    )
    out += frame(f"{SG}/managers/scheduler.py", 312, "__init__", "self.launch_draft_worker(")
    out += frame(
        f"{SG}/managers/scheduler.py",
        455,
        "launch_draft_worker",
        "self.draft_worker = self.spec_algorithm.create_worker(",
    )
    out += frame(f"{SP}/eagle_worker.py", 171, "__init__", "self.init_cuda_graphs()")
    out += frame(
        f"{SP}/eagle_worker.py",
        262,
        "init_cuda_graphs",
        "self.cuda_graph_runner = EAGLEDraftCudaGraphRunner(self)",
    )
    out += frame(f"{SP}/eagle_draft_cuda_graph_runner.py", 123, "__init__", "raise Exception(")
    out += [f"Exception: Capture cuda graph failed: {OOM.split(': ', 1)[1]}"] + HELP
    return out  # fmt: skip


def capture_failed() -> tuple[dict[str, bytes], dict]:
    """Launch phase: the schedulers die in __init__, so the parent prints the launch-time line."""
    log, clock = Log(), Clock(datetime(2026, 3, 9, 8, 14, 2))
    bs = [1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 160]
    warning = log.add(V2_OFF)
    dump = log.add(sgl(clock.tick(4)) + v1_dump(2, QWEN, QWEN_DRAFT, bs, mem_fraction_static=0.92))
    for p in rank_prefixes(2):
        log.add(sgl(clock.tick(9.0), p) + GLM_OCR)
    for p in rank_prefixes(2):
        log.add(
            sgl(clock.tick(0.1), p)
            + "Capture cuda graph begin. This can take up to several minutes. avail mem=6.10 GB"
        )
    for p in rank_prefixes(2):
        log.add(
            sgl(clock.tick(31.0), p)
            + "Capture cuda graph end. Time elapsed: 31.02 s. mem usage=4.21 GB. avail mem=1.89 GB."
        )
    for p in rank_prefixes(2):
        log.add(
            sgl(clock.tick(0.1), p)
            + "Capture draft cuda graph begin. This can take up to several minutes. avail mem=1.89 GB"
        )
    at = clock.tick(6.4)
    first = {}
    for p in ("TP1", "TP0"):
        body = capture_body()
        first[p] = log.add(sgl(at, p) + "Scheduler hit an exception: " + body[0])
        log.extend(body[1:])
    log.add(sgl(clock.tick(0.2)) + SIGQUIT_LAUNCH)
    expected = {
        "inputs": ["server.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "Exception", "message_contains": "Capture cuda graph failed", "root_cause": True,
                "origin_rank": "TP1", "ranks": ["TP1", "TP0"], "first_line": first["TP1"],
                "worker_path": "v1", "worker_class": "EAGLEWorker",
                "chain": [["torch.OutOfMemoryError", "context"], ["Exception", None]],
                "evidence_lines": [dump, warning],
            },
            {"optional": True, "root_cause": False, "caused_by": 0, "message_contains": "Received sigquit from a child"},
        ],
        "missing_markers": [],
        "config": {"disable_overlap_schedule": True, "speculative_eagle_topk": 4, "cuda_graph_max_bs": 48, "tp_size": 2},
    }  # fmt: skip
    return {"server.log": log.text().encode()}, expected
