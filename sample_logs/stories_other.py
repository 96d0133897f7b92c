"""Non-SGLang samples: vLLM 0.11 EngineCore crash, torchrun NCCL watchdog cascade, TRT-LLM."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from logfmt import (
    PYLIB,
    SITE,
    Clock,
    Log,
    c10,
    caret,
    nccl_timeout_text,
    traceback_body,
    trt_py,
    vllm,
    vllm_raw,
)

VL = f"{SITE}/vllm"
SHAPE = "shape '[8, 3]' is invalid for input of size 21"


def record(proc: str, pid: int, level: str, ts: datetime, where: str, text: str) -> list[str]:
    """A multi-line vLLM record: NewLineFormatter repeats the header and ends inner lines in CR."""
    parts = text.split("\n")
    lines = [vllm(proc, pid, level, ts, where, part) for part in parts]
    return [line + "\r" for line in lines[:-1]] + lines[-1:]


def worker_frames() -> list[tuple[str, int, str, str | None]]:
    return [
        (
            f"{VL}/v1/executor/multiproc_executor.py",
            649,
            "worker_busy_loop",
            caret("output = func(*args, **kwargs)", "func(*args, **kwargs)"),
        ),
        (
            f"{VL}/v1/worker/gpu_worker.py",
            447,
            "execute_model",
            caret(
                "output = self.model_runner.execute_model(scheduler_output,",
                "self.model_runner.execute_model(scheduler_output,",
            ),
        ),
        (
            f"{SITE}/torch/utils/_contextlib.py",
            120,
            "decorate_context",
            caret("return func(*args, **kwargs)", "func(*args, **kwargs)"),
        ),
        (
            f"{VL}/v1/worker/gpu_model_runner.py",
            2403,
            "execute_model",
            "self._draft_token_ids = self.propose_draft_token_ids(",
        ),
        (
            f"{VL}/v1/worker/gpu_model_runner.py",
            2638,
            "propose_draft_token_ids",
            "draft_token_ids = self.drafter.propose(",
        ),
        (
            f"{VL}/v1/spec_decode/eagle.py",
            241,
            "propose",
            caret(
                "last_token_indices = last_token_indices.view(batch_size, self.num_speculative_tokens)",
                "last_token_indices.view(batch_size, self.num_speculative_tokens)",
            ),
        ),
    ]


def core_frames() -> list[tuple[str, int, str, str | None]]:
    core, mp = f"{VL}/v1/engine/core.py", f"{VL}/v1/executor/multiproc_executor.py"
    return [
        (core, 701, "run_engine_core", "engine_core.run_busy_loop()"),
        (core, 728, "run_busy_loop", "self._process_engine_step()"),
        (
            core,
            754,
            "_process_engine_step",
            caret("outputs, model_executed = self.step_fn()", "self.step_fn()"),
        ),
        (core, 284, "step", "model_output = self.execute_model_with_error_logging("),
        (core, 270, "execute_model_with_error_logging", "raise err"),
        (
            core,
            261,
            "execute_model_with_error_logging",
            caret("return model_fn(scheduler_output)", "model_fn(scheduler_output)"),
        ),
        (mp, 181, "execute_model", "(output, ) = self.collective_rpc("),
        (mp, 264, "collective_rpc", "raise RuntimeError("),
    ]


def vllm_startup(log: Log, clock: Clock, pids: dict[str, int]) -> None:
    api, core = pids["APIServer"], pids["EngineCore_DP0"]
    log.add(
        vllm(
            "APIServer",
            api,
            "INFO",
            clock.now,
            "api_server.py:1839",
            "vLLM API server version 0.11.0",
        )
    )
    log.add(
        vllm(
            "APIServer",
            api,
            "INFO",
            clock.tick(0.01),
            "utils.py:233",
            "non-default args: {'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', 'tensor_parallel_size': 2, 'speculative_config': {'method': 'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 3}}",
        )
    )
    log.add(
        vllm(
            "APIServer",
            api,
            "INFO",
            clock.tick(4.2),
            "model.py:547",
            "Resolved architecture: LlamaForCausalLM",
        )
    )
    log.add(
        vllm(
            "APIServer",
            api,
            "INFO",
            clock.tick(0.1),
            "scheduler.py:205",
            "Chunked prefill is enabled with max_num_batched_tokens=2048.",
        )
    )
    log.add(
        vllm(
            "EngineCore_DP0",
            core,
            "INFO",
            clock.tick(2.0),
            "core.py:77",
            "Initializing a V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=131072, download_dir=None, load_format=auto, tensor_parallel_size=2, pipeline_parallel_size=1, data_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=meta-llama/Llama-3.1-8B-Instruct, enable_prefix_caching=True, chunked_prefill_enabled=True, pooler_config=None, compilation_config={\"level\":3,\"cudagraph_mode\":[2,1],\"use_cudagraph\":true,\"max_capture_size\":512}",
        )
    )
    log.add(
        vllm(
            "EngineCore_DP0",
            core,
            "WARNING",
            clock.tick(0.3),
            "multiproc_executor.py:720",
            "Reducing Torch parallelism from 16 threads to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment to tune this value as needed.",
        )
    )
    for r in (0, 1):
        w, pid = f"Worker_TP{r}", pids[f"Worker_TP{r}"]
        log.add(
            vllm(
                w,
                pid,
                "INFO",
                clock.tick(3.1),
                "parallel_state.py:1208",
                f"rank {r} in world size 2 is assigned as DP rank 0, PP rank 0, TP rank {r}, EP rank {r}",
            )
        )
    for r in (0, 1):
        w, pid = f"Worker_TP{r}", pids[f"Worker_TP{r}"]
        log.add(
            vllm(
                w,
                pid,
                "INFO",
                clock.tick(0.2),
                "gpu_model_runner.py:2602",
                "Starting to load model meta-llama/Llama-3.1-8B-Instruct...",
            )
        )
        log.add(
            vllm(
                w,
                pid,
                "INFO",
                clock.tick(0.1),
                "cuda.py:366",
                "Using Flash Attention backend on V1 engine.",
            )
        )
    w0 = pids["Worker_TP0"]
    log.add(
        vllm_raw(
            "Worker_TP0",
            w0,
            "\rLoading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]\rLoading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00,  1.71it/s]",
        )
    )
    for r in (0, 1):
        w, pid = f"Worker_TP{r}", pids[f"Worker_TP{r}"]
        log.add(vllm(w, pid, "INFO", clock.tick(2.4), "eagle.py:712", "Loading drafter model..."))
        log.add(
            vllm(
                w,
                pid,
                "INFO",
                clock.tick(1.1),
                "gpu_model_runner.py:2653",
                "Model loading took 8.61 GiB and 4.48 seconds",
            )
        )
        log.add(
            vllm(
                w,
                pid,
                "INFO",
                clock.tick(9.0),
                "gpu_worker.py:298",
                "Available KV cache memory: 58.23 GiB",
            )
        )
    log.add(
        vllm(
            "EngineCore_DP0",
            core,
            "INFO",
            clock.tick(0.1),
            "kv_cache_utils.py:1087",
            "GPU KV cache size: 953,952 tokens",
        )
    )
    log.add(
        vllm_raw(
            "Worker_TP0",
            w0,
            "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 67/67 [00:06<00:00, 10.12it/s]",
        )
    )
    log.add(
        vllm(
            "EngineCore_DP0",
            core,
            "INFO",
            clock.tick(9.4),
            "core.py:210",
            "init engine (profile, create kv cache, warmup model) took 41.21 seconds",
        )
    )
    log.add(
        vllm(
            "APIServer",
            api,
            "INFO",
            clock.tick(0.5),
            "api_server.py:1912",
            "Starting vLLM API server 0 on http://0.0.0.0:8000",
        )
    )
    log.add(vllm_raw("APIServer", api, f"INFO:     Started server process [{api}]"))
    log.add(vllm_raw("APIServer", api, "INFO:     Application startup complete."))


def vllm_traffic(log: Log, clock: Clock, api: int, rng: random.Random) -> None:
    for i in range(12):
        log.add(
            vllm_raw(
                "APIServer",
                api,
                f'INFO:     127.0.0.1:{40300 + i} - "POST /v1/chat/completions HTTP/1.1" 200 OK',
            )
        )
        running = min(8, 2 + i)
        acc = rng.uniform(2.2, 2.7)
        drafted = 600 + 40 * running
        accepted = int(drafted * (acc - 1) / 3)
        log.add(
            vllm(
                "APIServer",
                api,
                "INFO",
                clock.tick(10),
                "loggers.py:127",
                f"Engine 000: Avg prompt throughput: {rng.uniform(80, 200):.1f} tokens/s, Avg generation throughput: {120.0 * running:.1f} tokens/s, Running: {running} reqs, Waiting: 0 reqs, GPU KV cache usage: {0.4 * running:.1f}%, Prefix cache hit rate: 12.3%",
            )
        )
        log.add(
            vllm(
                "APIServer",
                api,
                "INFO",
                clock.now,
                "metrics.py:96",
                f"SpecDecoding metrics: Mean acceptance length: {acc:.2f}, Accepted throughput: {accepted / 10:.2f} tokens/s, Drafted throughput: {drafted / 10:.2f} tokens/s, Accepted: {accepted} tokens, Drafted: {drafted} tokens, Per-position acceptance rate: 0.762, 0.468, 0.253, Avg Draft acceptance rate: {100 * accepted / drafted:.1f}%",
            )
        )


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


def rank_file(rank: int, rng: random.Random, oom: bool) -> tuple[Log, int | None]:
    """One torchrun rank's stderr: progress logging, maybe the real error, then the watchdog."""
    log, clock, first = Log(), Clock(datetime(2026, 5, 19, 5, 31, 2)), None
    log.add(
        c10(
            rank,
            "W",
            clock.now,
            rng.randint(0, 10**9 - 1),
            "ProcessGroupNCCL.cpp:4561",
            f"[PG ID 0 PG GUID 0 Rank {rank}]  no device_id was passed to init_process_group(); the rank-to-GPU mapping is guessed from LOCAL_RANK.",
        )
    )
    for step in range(100, 2500, 100):
        log.add(
            f"{clock.tick(42.0):%Y-%m-%d %H:%M:%S},{rng.randint(0, 999):03d} INFO spec_bench: [rank{rank}] step {step} mean accepted 2.{rng.randint(10, 60)} tok/verify, 1{rng.randint(10, 99)} tok/s"
        )
    if oom:
        log.add(
            f"2026-05-19 05:48:21,337 ERROR spec_bench: [rank{rank}] draft step 2417 failed; falling back to target-only decode"
        )
        first = log.extend(
            traceback_body(
                [
                    (
                        "/workspace/spec_bench.py",
                        131,
                        "speculative_decode",
                        caret(
                            "draft_logits = draft(draft_ids, input_pos)",
                            "draft(draft_ids, input_pos)",
                        ),
                    ),
                    (
                        f"{SITE}/torch/nn/modules/module.py",
                        1775,
                        "_wrapped_call_impl",
                        caret(
                            "return self._call_impl(*args, **kwargs)",
                            "self._call_impl(*args, **kwargs)",
                        ),
                    ),
                    (
                        f"{SITE}/torch/nn/modules/module.py",
                        1786,
                        "_call_impl",
                        caret(
                            "return forward_call(*args, **kwargs)", "forward_call(*args, **kwargs)"
                        ),
                    ),
                    (
                        "/workspace/draft_head.py",
                        88,
                        "forward",
                        caret(
                            "mask = self.tree_mask[None, None, input_pos].expand(bsz, 1, -1, -1)",
                            "self.tree_mask[None, None, input_pos].expand(bsz, 1, -1, -1)",
                        ),
                    ),
                ],
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a total capacity of 79.19 GiB of which 1.07 GiB is free. Including non-PyTorch memory, this process has 78.11 GiB memory in use. Of the allocated memory 74.02 GiB is allocated by PyTorch, and 2.61 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
            )
        )
    at = datetime(2026, 5, 19, 5, 58, 22) + timedelta(seconds=rank // 2)
    op, numel = ("ALLGATHER", 8 * 4) if oom else ("ALLREDUCE", 8 * 8192)
    text = nccl_timeout_text(rank, 2417, numel, 600011 + rank).replace("ALLREDUCE", op)
    pg = f"[PG ID 0 PG GUID 0(default_pg) Rank {rank}]"
    log.add(c10(rank, "E", at, 475101234 + rank * 1000, "ProcessGroupNCCL.cpp:1595", text))
    log.add(
        c10(
            rank,
            "E",
            at,
            475402111 + rank * 1000,
            "ProcessGroupNCCL.cpp:1634",
            f"{pg} Exception (either an error or timeout) detected by watchdog at work: 2417, last enqueued NCCL work: 2417, last completed NCCL work: 2416.",
        )
    )
    log.add(
        c10(
            rank,
            "E",
            at,
            475501923 + rank * 1000,
            "ProcessGroupNCCL.cpp:630",
            f"[Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        )
    )
    log.add(
        c10(
            rank,
            "E",
            at,
            475530004 + rank * 1000,
            "ProcessGroupNCCL.cpp:636",
            f"[Rank {rank}] To avoid data inconsistency, we are taking the entire process down.",
        )
    )
    what = f"{pg} Process group watchdog thread terminated with exception: {text.split('] ', 1)[1]}"
    log.add(c10(rank, "E", at + timedelta(seconds=1), 115482930, "ProcessGroupNCCL.cpp:1715", what))
    log.add("terminate called after throwing an instance of 'c10::DistBackendError'")
    log.add(f"  what():  {what}")
    log.add(
        "Exception raised from checkTimeout at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618 (most recent call first):"
    )
    log.add(
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f1b2a3b9e28 in {SITE}/torch/lib/libc10.so)"
    )
    log.add(
        f"frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x2a4 (0x7f1ae8c0d4b4 in {SITE}/torch/lib/libtorch_cuda.so)"
    )
    log.add(
        f"frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x8c0 (0x7f1ae8c0f7e0 in {SITE}/torch/lib/libtorch_cuda.so)"
    )
    log.add(
        "frame #3: <unknown function> + 0xdc253 (0x7f1b2b6dc253 in /lib/x86_64-linux-gnu/libstdc++.so.6)"
    )
    log.add("")
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


def trtllm() -> tuple[dict[str, bytes], dict]:
    """trtllm-serve, 2 MPI ranks, EAGLE-3 one-model: a CUDA fault in the forward step on rank 1."""
    log, clock = Log(), Clock(datetime(2025, 10, 21, 8, 12, 40))
    log.add("[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc2")
    log.add(trt_py(clock.now, "I", "Using LLM with PyTorch backend"))
    log.add(trt_py(clock.tick(0.2), "W", "Using default gpus_per_node: 8"))
    log.add(
        trt_py(
            clock.tick(0.4),
            "I",
            "speculative_config: Eagle3DecodingConfig(max_draft_len=3, speculative_model_dir='/models/EAGLE3-LLaMA3.1-Instruct-8B', eagle3_one_model=True)",
        )
    )
    for r in (0, 1):
        log.add(
            trt_py(
                clock.tick(3.0),
                "I",
                "ATTENTION RUNTIME FEATURES:  AttentionRuntimeFeatures(chunked_prefill=False, cache_reuse=True, has_speculative_draft_tokens=True)",
                r,
            )
        )
        log.add(
            trt_py(
                clock.tick(0.1),
                "I",
                "Error-free startup check passed; no Exception raised during warmup",
                r,
            )
        )
    for r in (0, 1):
        log.add(trt_py(clock.tick(11.0), "I", "[Autotuner] Autotuning process ends", r))
    log.add(trt_py(clock.tick(1.0), "I", "Executor started; waiting for requests"))
    for i in range(6):
        log.add(f'INFO:     127.0.0.1:{33100 + i} - "POST /v1/completions HTTP/1.1" 200 OK')
        clock.tick(7.5)
    at = clock.tick(1.3)
    first = log.add(
        trt_py(
            at,
            "E",
            "Encountered an error in forward function: CUDA error: an illegal memory access was encountered",
            1,
        )
    )
    log.add(
        "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information."
    )
    pe = f"{SITE}/tensorrt_llm/_torch/pyexecutor"
    tb = traceback_body(
        [
            (
                f"{pe}/py_executor.py",
                1423,
                "_executor_loop",
                caret(
                    "batch_outputs = self._forward_step(scheduled_batch)",
                    "self._forward_step(scheduled_batch)",
                ),
            ),
            (
                f"{pe}/py_executor.py",
                1981,
                "_forward_step",
                "outputs = forward(scheduled_requests, self.resource_manager, new_tensors_device)",
            ),
            (
                f"{pe}/model_engine.py",
                2210,
                "forward",
                "outputs = self.cuda_graph_runner.replay(batch_size, inputs)",
            ),
            (f"{pe}/cuda_graph_runner.py", 311, "replay", "self.graphs[key].replay()"),
            (f"{SITE}/torch/cuda/graphs.py", 88, "replay", "super().replay()"),
        ],
        "torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
    )
    tb_first = log.extend(tb)
    log.extend(
        [
            "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.",
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
            "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
            "",
        ]
    )
    collateral = log.add(trt_py(clock.tick(0.6), "E", "Executor worker returned error", 0))
    log.add('INFO:     127.0.0.1:33188 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error')
    expected = {
        "inputs": ["trtllm_serve.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "torch.AcceleratorError",
                "message_contains": "an illegal memory access was encountered",
                "root_cause": True,
                "origin_rank": "rank1",
                "first_line_any": [first, tb_first],
            },
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "Executor worker returned error",
                "first_line": collateral,
            },
        ],
        "missing_markers": [],
    }
    return {"trtllm_serve.log": log.text().encode()}, expected
