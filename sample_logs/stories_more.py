"""SGLang samples with a chained traceback, a faulthandler segfault, and a healthy noisy run."""

from __future__ import annotations

import random
from datetime import datetime

from logfmt import (
    PYLIB,
    SITE,
    Clock,
    Log,
    fault_frame,
    frame,
    nccl_info,
    sgl,
    tqdm_redraws,
    uvicorn,
)
from sglang_parts import (
    GLM_OCR,
    SG,
    SIGQUIT_COLLATERAL,
    SIGQUIT_RUNNING,
    V2_OFF,
    Launch,
    decode_line,
    prefill_line,
    rank_prefixes,
    sched_frames,
    server_ready,
    startup_ranks,
)
from stories_sglang import QWEN, QWEN_DRAFT, v1_dump

EW = f"{SG}/speculative/eagle_worker.py"
BS = [1, 2, 4, 8, 12, 16, 24, 32, 40, 48]


def chained_body() -> list[str]:
    """ValueError -> (context) UnboundLocalError -> (cause) RuntimeError, as Python prints it."""
    out = ["Traceback (most recent call last):"]
    out += frame(
        EW,
        528,
        "_draft_preprocess_decode",
        "out_cache_loc, token_to_kv_pool_state_backup = alloc_token_slots(",
    )
    out += [
        "ValueError: too many values to unpack (expected 2)",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
    ]
    out += frame(EW, 296, "forward_batch_generation", "spec_info = self.draft(batch)")
    out += frame(EW, 455, "draft", "self._draft_preprocess_decode(batch)")
    out += frame(
        EW,
        541,
        "_draft_preprocess_decode",
        "self.token_to_kv_pool_allocator.restore_state(token_to_kv_pool_state_backup)",
    )
    out += [
        "UnboundLocalError: cannot access local variable 'token_to_kv_pool_state_backup' where it is not associated with a value",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
    ]
    for path, line, func, code in sched_frames("event_loop_normal"):
        out += frame(path, line, func, code)
    out += frame(
        f"{SG}/managers/scheduler.py",
        1846,
        "run_batch",
        "batch_result = self.draft_worker.forward_batch_generation(batch)",
    )
    out += frame(EW, 299, "forward_batch_generation", "raise RuntimeError(")
    out.append(
        "RuntimeError: EAGLE draft failed with 10 running requests after speculation was re-enabled"
    )
    return out


def chained_traceback() -> tuple[dict[str, bytes], dict]:
    rng = random.Random(20260227 + 2)
    log, clock = Log(), Clock(datetime(2026, 2, 27, 21, 31, 2))
    model = "/models/Qwen3-30B-A3B-Instruct-2507"
    warning = log.add(V2_OFF)
    dump = log.add(sgl(clock.tick(4)) + v1_dump(2, model, "/models/Qwen3-30B-A3B-EAGLE3", BS))
    startup_ranks(
        log,
        clock,
        Launch(2, "Qwen3MoeForCausalLM", "LlamaForCausalLMEagle3", BS, capture_bar=False),
        rng,
    )
    server_ready(log, clock, pid=9120)
    for running in [2, 4, 6, 8, 10, 10]:
        log.add(
            sgl(clock.tick(0.4), "TP0") + prefill_line(2, 390, 0.01, running - 2, trailing=False)
        )
        for _ in range(4):
            log.add(
                sgl(clock.tick(1.6), "TP0")
                + decode_line(running, 2200 * running, 2.7, 16, 33.0 * running, trailing=False)
            )
    crash_at = clock.tick(0.8)
    body = chained_body()
    first = {}
    for rank in ("TP0", "TP1"):
        first[rank] = log.add(sgl(crash_at, rank) + "Scheduler hit an exception: " + body[0])
        log.extend(body[1:])
    log.add(sgl(crash_at) + SIGQUIT_RUNNING)
    expected = {
        "inputs": ["server.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "RuntimeError",
                "message_contains": "EAGLE draft failed with 10 running requests",
                "root_cause": True,
                "origin_rank": "TP0",
                "ranks": ["TP0", "TP1"],
                "first_line": first["TP0"],
                "worker_path": "v1",
                "worker_class": "EAGLEWorker",
                "load_running_req": 10,
                "chain": [
                    ["ValueError", "context"],
                    ["UnboundLocalError", "cause"],
                    ["RuntimeError", None],
                ],
                "evidence_lines": [dump, warning],
            },
            SIGQUIT_COLLATERAL,
        ],
        "missing_markers": [],
        "config": {"disable_overlap_schedule": True, "speculative_eagle_topk": 4, "tp_size": 2},
    }
    return {"server.log": log.text().encode()}, expected


def segfault_dump() -> list[str]:
    """faulthandler output of the scheduler process (raw stderr, no header, Python 3.12)."""
    th = f"{PYLIB}/threading.py"
    out = [
        "Fatal Python error: Segmentation fault",
        "",
        "Thread 0x00007f2b6bfff640 (most recent call first):",
    ]
    out += [
        fault_frame(th, 359, "wait"),
        fault_frame(th, 655, "wait"),
        fault_frame(f"{SITE}/tqdm/_monitor.py", 60, "run"),
        fault_frame(th, 1075, "_bootstrap_inner"),
        fault_frame(th, 1032, "_bootstrap"),
        "",
    ]
    out += [
        "Thread 0x00007f2b7e3fe640 (most recent call first):",
        fault_frame(f"{SITE}/zmq/sugar/socket.py", 812, "recv_pyobj"),
        fault_frame(f"{SG}/managers/scheduler.py", 3012, "_watch_requests"),
        fault_frame(th, 1012, "run"),
        fault_frame(th, 1075, "_bootstrap_inner"),
        fault_frame(th, 1032, "_bootstrap"),
        "",
    ]
    out += [
        "Current thread 0x00007f3c9a1b5740 (most recent call first):",
        fault_frame(
            f"{SITE}/sgl_kernel/speculative.py", 43, "tree_speculative_sampling_target_only"
        ),
        fault_frame(f"{SG}/speculative/eagle_info.py", 361, "verify"),
        fault_frame(EW, 688, "verify"),
        fault_frame(EW, 296, "forward_batch_generation"),
        fault_frame(f"{SG}/managers/scheduler.py", 1846, "run_batch"),
        fault_frame(f"{SG}/managers/scheduler.py", 1010, "event_loop_normal"),
        fault_frame(f"{SITE}/torch/utils/_contextlib.py", 120, "decorate_context"),
        fault_frame(f"{SG}/managers/scheduler.py", 2703, "run_scheduler_process"),
        fault_frame(f"{PYLIB}/multiprocessing/process.py", 108, "run"),
        fault_frame(f"{PYLIB}/multiprocessing/process.py", 314, "_bootstrap"),
        fault_frame(f"{PYLIB}/multiprocessing/spawn.py", 135, "_main"),
        fault_frame(f"{PYLIB}/multiprocessing/spawn.py", 122, "spawn_main"),
        fault_frame("<string>", 1, "<module>"),
        "",
    ]
    out.append(
        "Extension modules: numpy._core._multiarray_umath, numpy.linalg._umath_linalg, torch._C, "
        "torch._C._dynamo.autograd_compiler, torch._C._dynamo.eval_frame, torch._C._dynamo.guards, "
        "zmq.backend.cython._zmq, uvloop.loop, msgspec._core, sgl_kernel.common_ops (total: 97)"
    )
    return out


def faulthandler_segfault() -> tuple[dict[str, bytes], dict]:
    rng = random.Random(20260304)
    log, clock = Log(), Clock(datetime(2026, 3, 4, 9, 1, 30))
    model, draft = "/models/Llama-3.1-8B-Instruct", "/models/EAGLE3-LLaMA3.1-Instruct-8B"
    warning = log.add(V2_OFF)
    dump = log.add(sgl(clock.tick(3)) + v1_dump(1, model, draft, BS))
    startup_ranks(log, clock, Launch(1, "LlamaForCausalLM", "LlamaForCausalLMEagle3", BS), rng)
    server_ready(log, clock, pid=48190)
    for running in [4, 8, 16, 24, 32]:
        log.add(sgl(clock.tick(0.5)) + prefill_line(4, 800, 0.02, running - 4, trailing=False))
        for _ in range(5):
            log.add(
                sgl(clock.tick(1.1))
                + decode_line(running, 1900 * running, 3.1, 16, 48.0 * running, trailing=False)
            )
    first = log.extend(segfault_dump())
    clock.tick(2.4)
    death = log.add(
        sgl(clock.now)
        + "Subprocess scheduler_0 (pid=48211) crashed with exit code -11. Triggering SIGQUIT for cleanup..."
    )
    log.add(sgl(clock.tick(0.01)) + SIGQUIT_RUNNING)
    expected = {
        "inputs": ["server.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "SIGSEGV",
                "message_contains": "Segmentation fault",
                "root_cause": True,
                "origin_rank": None,
                "first_line": first,
                "worker_path": "v1",
                "worker_class": "EAGLEWorker",
                "load_running_req": 32,
                "evidence_lines": [dump, warning],
            },
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "crashed with exit code -11",
                "first_line": death,
            },
            SIGQUIT_COLLATERAL,
        ],
        "missing_markers": [],
        "config": {"disable_overlap_schedule": True, "speculative_eagle_topk": 4, "tp_size": 1},
    }
    return {"server.log": log.text().encode()}, expected


def benign_noise(log: Log, clock: Clock, rng: random.Random, i: int) -> None:
    """One of the healthy lines that contain alarming words but are not crashes."""
    kind = i % 9
    ts = clock.tick(rng.uniform(0.2, 1.5))
    if kind == 0:
        log.add(
            sgl(ts)
            + f"Finish: obj=GenerateReqInput(rid='{rng.getrandbits(64):016x}'), out=BatchStrOut(finished_reasons=[{{'type': 'length', 'length': 256}}], error_msg=None)"
        )
    elif kind == 1:
        log.add(f"[spec-debug] step={i * 40} drafted=3 accepted=0 acceptance rate: 0.0%")
    elif kind == 2:
        log.add(
            f'[spec-debug] would raise RuntimeError("draft tree exhausted") at step {i * 40}; SPEC_DEBUG_SOFT=1 so continuing'
        )
    elif kind == 3:
        log.add(
            "[nv-fabricmanager-agent] TraceBack collection disabled for this container (set FM_TRACEBACK=1 to enable)"
        )
    elif kind == 4:
        log.add(nccl_info("gpu-node-4", 30211 + i % 2, i % 2, "Channel 03/24 :    0   1"))
    elif kind == 5:
        log.add(
            sgl(ts, "TP0")
            + "KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.5312 -> 0.8000"
        )
    elif kind == 6:
        log.add(uvicorn(ts, f'127.0.0.1:{52000 + i} - "GET /favicon.ico HTTP/1.1" 404 Not Found'))
    elif kind == 7:
        log.add(sgl(ts) + "Health check: error_msg=None, last exception: None, status=ok")
    else:
        log.add(tqdm_redraws("Processing prompts", 4, [0.5 * k for k in range(5)]))


def benign_only() -> tuple[dict[str, bytes], dict]:
    """A long healthy run full of words like error/Exception/Traceback: zero incidents."""
    rng = random.Random(20260305)
    log, clock = Log(), Clock(datetime(2026, 3, 5, 16, 0, 0))
    log.add(
        f"{SITE}/torch/cuda/__init__.py:63: FutureWarning: The pynvml package is deprecated. Please install nvidia-ml-py instead."
    )
    log.add("  import pynvml  # type: ignore[import]")
    log.add(V2_OFF)
    log.add(sgl(clock.tick(3)) + v1_dump(2, QWEN, QWEN_DRAFT, BS))
    log.add(
        sgl(clock.tick(0.5))
        + "Ignore import error when loading sglang.srt.models.mllama4: cannot import name 'Llama4TextConfig' from 'transformers' (/usr/local/lib/python3.12/dist-packages/transformers/__init__.py)"
    )
    startup_ranks(
        log,
        clock,
        Launch(
            2,
            "Qwen3MoeForCausalLM",
            "LlamaForCausalLMEagle3",
            BS,
            host="gpu-node-4",
            first_pid=30211,
        ),
        rng,
    )
    for p in rank_prefixes(2):
        log.add(
            sgl(clock.tick(0.01), p)
            + "Ignore import error when loading sglang.srt.multimodal.processors.glm4v: ImportError while importing optional dependency 'decord'"
        )
        log.add(
            f"{SITE}/torch/_dynamo/eval_frame.py:929: UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly."
        )
        log.add(
            f"{SITE}/transformers/utils/generic.py:441: DeprecationWarning: `torch.utils._pytree._register_pytree_node` is deprecated. Please use `torch.utils._pytree.register_pytree_node` instead."
        )
    log.add(sgl(clock.tick(0.2)) + GLM_OCR)
    server_ready(log, clock, pid=30170)
    for i in range(900):
        running = 1 + (i // 60) % 12
        log.add(
            sgl(clock.tick(rng.uniform(0.5, 1.5)), "TP0")
            + decode_line(
                running, 2000 * running, rng.uniform(2.2, 3.2), 16, 30.0 * running, trailing=False
            )
        )
        if i % 3 == 0:
            benign_noise(log, clock, rng, i // 3)
    expected = {"inputs": ["server.log"], "expect": [], "incidents": [], "missing_markers": []}
    return {"server.log": log.text().encode()}, expected
