"""vLLM 0.11 sample: a TP2 EAGLE-3 EngineCore crash with interleaved worker tracebacks."""

from __future__ import annotations

import random
from datetime import datetime

from logfmt import (
    PYLIB,
    Clock,
    Log,
    caret,
    traceback_body,
    vllm,
    vllm_raw,
)
from vllm_parts import SHAPE, VL, core_frames, record, vllm_startup, vllm_traffic, worker_frames


def vllm_enginecore() -> tuple[dict[str, bytes], dict]:
    """TP=2 EAGLE-3: both workers fail in EagleProposer.propose, interleaved line by line."""
    rng = random.Random(20251017)
    pids = {"APIServer": 3811, "EngineCore_DP0": 3990, "Worker_TP0": 4101, "Worker_TP1": 4102}
    log, clock = Log(), Clock(datetime(1900, 10, 17, 14, 1, 2))
    vllm_startup(log, clock, pids)
    vllm_traffic(log, clock, pids["APIServer"], rng)
    at = clock.tick(3.3)
    body = "\n".join(
        ["WorkerProc hit an exception."] + traceback_body(worker_frames(), f"RuntimeError: {SHAPE}")
    )
    tp1 = record("Worker_TP1", pids["Worker_TP1"], "ERROR", at, "multiproc_executor.py:654", body)
    tp0 = record("Worker_TP0", pids["Worker_TP0"], "ERROR", at, "multiproc_executor.py:654", body)
    first = log.next_lineno
    for a, b in zip(tp1, tp0, strict=True):
        log.add(a)
        log.add(b)
    core = "EngineCore_DP0", pids["EngineCore_DP0"]
    log.add(
        vllm(
            *core,
            "ERROR",
            at,
            "dump_input.py:69",
            "Dumping input data for V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', tensor_parallel_size=2, ",
        )
    )
    log.add(
        vllm(
            *core,
            "ERROR",
            at,
            "dump_input.py:76",
            "Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[], scheduled_cached_reqs=CachedRequestData(req_ids=['chatcmpl-5d1e', 'chatcmpl-77a0'], resumed_from_preemption=[false, false]), num_scheduled_tokens={chatcmpl-5d1e: 4, chatcmpl-77a0: 1}, total_num_scheduled_tokens=29, scheduled_spec_decode_tokens={chatcmpl-5d1e: [1820, 279, 374]}, scheduled_encoder_inputs={}, num_common_prefix_blocks=[0], finished_req_ids=[], free_encoder_mm_hashes=[], structured_output_request_ids={}, grammar_bitmask=null, kv_connector_metadata=null)",
        )
    )
    log.add(
        vllm(
            *core,
            "ERROR",
            at,
            "dump_input.py:79",
            "Dumping scheduler stats: SchedulerStats(num_running_reqs=8, num_waiting_reqs=0, step_counter=0, current_wave=0, kv_cache_usage=0.0312, prefix_cache_stats=PrefixCacheStats(reset=False, requests=0, queries=0, hits=0), spec_decoding_stats=None, num_corrupted_reqs=0)",
        )
    )
    worker_failed = f"RuntimeError: Worker failed with error '{SHAPE}', please check the stack trace above for the root cause"
    fatal = log.extend(
        record(
            *core,
            "ERROR",
            at,
            "core.py:710",
            "\n".join(
                ["EngineCore encountered a fatal error."]
                + traceback_body(core_frames(), worker_failed)
            ),
        )
    )
    log.add(vllm_raw(*core, "Process EngineCore_DP0:"))
    plain = [
        (f"{PYLIB}/multiprocessing/process.py", 314, "_bootstrap", "self.run()"),
        (
            f"{PYLIB}/multiprocessing/process.py",
            108,
            "run",
            "self._target(*self._args, **self._kwargs)",
        ),
        (f"{VL}/v1/engine/core.py", 712, "run_engine_core", "raise e"),
    ] + core_frames()
    for line in traceback_body(plain, worker_failed):
        log.add(vllm_raw(*core, line))
    api = "APIServer", pids["APIServer"]
    died = log.add(
        vllm(
            *api,
            "ERROR",
            clock.tick(0.4),
            "core_client.py:564",
            "Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.",
        )
    )
    dead = traceback_body(
        [
            (
                f"{VL}/v1/engine/async_llm.py",
                439,
                "output_handler",
                caret(
                    "outputs = await engine_core.get_output_async()",
                    "await engine_core.get_output_async()",
                ),
            ),
            (
                f"{VL}/v1/engine/core_client.py",
                846,
                "get_output_async",
                "raise self._format_exception(outputs) from None",
            ),
        ],
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
    )
    dead_first = log.extend(
        record(
            *api,
            "ERROR",
            clock.now,
            "async_llm.py:480",
            "\n".join(["AsyncLLM output_handler failed."] + dead),
        )
    )
    log.add(
        vllm_raw(
            *api,
            'INFO:     127.0.0.1:40388 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
        )
    )
    log.add(vllm_raw(*api, "INFO:     Shutting down"))
    expected = {
        "inputs": ["vllm_serve.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "RuntimeError",
                "message_contains": SHAPE,
                "root_cause": True,
                "origin_rank": "Worker_TP1",
                "ranks": ["Worker_TP1", "Worker_TP0"],
                "first_line": first,
                "worker_path": "other",
                "worker_class": "EagleProposer",
            },
            {
                "root_cause": False,
                "caused_by": 0,
                "exception_type": "RuntimeError",
                "message_contains": "Worker failed with error",
                "first_line": fatal,
            },
            {
                "root_cause": False,
                "caused_by": 0,
                "exception_type": "vllm.v1.engine.exceptions.EngineDeadError",
                "message_contains": "EngineCore encountered an issue",
                "first_line": dead_first,
            },
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "died unexpectedly",
                "first_line": died,
            },
        ],
        "missing_markers": [],
    }
    return {"vllm_serve.log": log.text().encode()}, expected
