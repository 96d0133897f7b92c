"""vLLM 0.11 sample: a TP2 EAGLE-3 EngineCore crash with interleaved worker tracebacks."""

from __future__ import annotations

import random
from datetime import datetime

from logfmt import PYLIB, Clock, Log, caret, traceback_body, vllm, vllm_raw
from vllm_parts import SHAPE, VL, core_frames, record, vllm_startup, vllm_traffic, worker_frames

PIDS = {"APIServer": 3811, "EngineCore_DP0": 3990, "Worker_TP0": 4101, "Worker_TP1": 4102}
CORE = ("EngineCore_DP0", PIDS["EngineCore_DP0"])
API = ("APIServer", PIDS["APIServer"])
WORKER_FAILED = (
    f"RuntimeError: Worker failed with error '{SHAPE}', please check the stack trace above "
    "for the root cause"
)
DEAD = (
    "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. "
    "See stack trace (above) for the root cause."
)
# fmt: off
INPUT_DUMPS = [  # what the engine core logs about the failed step before re-raising
    ("dump_input.py:69", "Dumping input data for V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', tensor_parallel_size=2, "),
    ("dump_input.py:76", "Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[], scheduled_cached_reqs=CachedRequestData(req_ids=['chatcmpl-5d1e', 'chatcmpl-77a0'], resumed_from_preemption=[false, false]), num_scheduled_tokens={chatcmpl-5d1e: 4, chatcmpl-77a0: 1}, total_num_scheduled_tokens=29, scheduled_spec_decode_tokens={chatcmpl-5d1e: [1820, 279, 374]}, scheduled_encoder_inputs={}, num_common_prefix_blocks=[0], finished_req_ids=[], free_encoder_mm_hashes=[], structured_output_request_ids={}, grammar_bitmask=null, kv_connector_metadata=null)"),
    ("dump_input.py:79", "Dumping scheduler stats: SchedulerStats(num_running_reqs=8, num_waiting_reqs=0, step_counter=0, current_wave=0, kv_cache_usage=0.0312, prefix_cache_stats=PrefixCacheStats(reset=False, requests=0, queries=0, hits=0), spec_decoding_stats=None, num_corrupted_reqs=0)"),
]
# fmt: on


def workers_fail(log: Log, at: datetime) -> int:
    """Both workers log the same traceback at once, interleaved line by line; TP1 first."""
    body = "\n".join(
        ["WorkerProc hit an exception."] + traceback_body(worker_frames(), f"RuntimeError: {SHAPE}")
    )
    where = "multiproc_executor.py:654"
    tp1 = record("Worker_TP1", PIDS["Worker_TP1"], "ERROR", at, where, body)
    tp0 = record("Worker_TP0", PIDS["Worker_TP0"], "ERROR", at, where, body)
    first = log.next_lineno
    for a, b in zip(tp1, tp0, strict=True):
        log.add(a)
        log.add(b)
    return first


def core_fails(log: Log, at: datetime) -> int:
    """Input dumps, the fatal-error record, then multiprocessing's own plain traceback."""
    for where, text in INPUT_DUMPS:
        log.add(vllm(*CORE, "ERROR", at, where, text))
    text = "\n".join(
        ["EngineCore encountered a fatal error."] + traceback_body(core_frames(), WORKER_FAILED)
    )
    fatal = log.extend(record(*CORE, "ERROR", at, "core.py:710", text))
    log.add(vllm_raw(*CORE, "Process EngineCore_DP0:"))
    process = f"{PYLIB}/multiprocessing/process.py"
    plain = [
        (process, 314, "_bootstrap", "self.run()"),
        (process, 108, "run", "self._target(*self._args, **self._kwargs)"),
        (f"{VL}/v1/engine/core.py", 712, "run_engine_core", "raise e"),
    ] + core_frames()
    for line in traceback_body(plain, WORKER_FAILED):
        log.add(vllm_raw(*CORE, line))
    return fatal


def client_gives_up(log: Log, clock: Clock) -> tuple[int, int]:
    """The API server sees the engine core die; its output handler raises EngineDeadError."""
    died = log.add(
        vllm(*API, "ERROR", clock.tick(0.4), "core_client.py:564",
             "Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.")
    )  # fmt: skip
    get = caret(
        "outputs = await engine_core.get_output_async()", "await engine_core.get_output_async()"
    )
    frames = [
        (f"{VL}/v1/engine/async_llm.py", 439, "output_handler", get),
        (f"{VL}/v1/engine/core_client.py", 846, "get_output_async", "raise self._format_exception(outputs) from None"),
    ]  # fmt: skip
    text = "\n".join(["AsyncLLM output_handler failed."] + traceback_body(frames, DEAD))
    dead = log.extend(record(*API, "ERROR", clock.now, "async_llm.py:480", text))
    log.add(
        vllm_raw(
            *API,
            'INFO:     127.0.0.1:40388 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
        )
    )
    log.add(vllm_raw(*API, "INFO:     Shutting down"))
    return died, dead


def vllm_enginecore() -> tuple[dict[str, bytes], dict]:
    """TP=2 EAGLE-3: both workers fail in EagleProposer.propose, interleaved line by line."""
    rng = random.Random(20251017)
    log, clock = Log(), Clock(datetime(1900, 10, 17, 14, 1, 2))
    vllm_startup(log, clock, PIDS)
    vllm_traffic(log, clock, PIDS["APIServer"], rng)
    at = clock.tick(3.3)
    first = workers_fail(log, at)
    fatal = core_fails(log, at)
    died, dead = client_gives_up(log, clock)
    expected = {
        "inputs": ["vllm_serve.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "RuntimeError", "message_contains": SHAPE, "root_cause": True,
                "origin_rank": "Worker_TP1", "ranks": ["Worker_TP1", "Worker_TP0"], "first_line": first,
                "worker_path": "other", "worker_class": "EagleProposer",
            },
            {"root_cause": False, "caused_by": 0, "exception_type": "RuntimeError",
             "message_contains": "Worker failed with error", "first_line": fatal},
            {"root_cause": False, "caused_by": 0, "exception_type": "vllm.v1.engine.exceptions.EngineDeadError",
             "message_contains": "EngineCore encountered an issue", "first_line": dead},
            {"optional": True, "root_cause": False, "caused_by": 0, "message_contains": "died unexpectedly", "first_line": died},
        ],
        "missing_markers": [],
    }  # fmt: skip
    return {"vllm_serve.log": log.text().encode()}, expected
