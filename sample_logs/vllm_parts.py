"""vLLM 0.11 building blocks: multi-line records, worker/core frames, start-up, metrics."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

from logfmt import (
    SITE,
    Clock,
    Log,
    caret,
    vllm,
    vllm_raw,
)

VL = f"{SITE}/vllm"
SHAPE = "shape '[8, 3]' is invalid for input of size 21"


def record(
    proc: str, pid: int, level: str, ts: datetime, where: str, text: str,
    fmt: Callable[[str, int, str, datetime, str, str], str] = vllm,
) -> list[str]:  # fmt: skip
    """A multi-line vLLM record: NewLineFormatter repeats the header and ends inner lines in CR."""
    parts = text.split("\n")
    lines = [fmt(proc, pid, level, ts, where, part) for part in parts]
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


_CONFIG = (
    "Initializing a V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', "
    "speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', "
    "num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', skip_tokenizer_init=False, "
    "tokenizer_mode=auto, revision=None, trust_remote_code=False, dtype=torch.bfloat16, "
    "max_seq_len=131072, download_dir=None, load_format=auto, tensor_parallel_size=2, "
    "pipeline_parallel_size=1, data_parallel_size=1, disable_custom_all_reduce=False, "
    "quantization=None, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0, "
    "served_model_name=meta-llama/Llama-3.1-8B-Instruct, enable_prefix_caching=True, "
    "chunked_prefill_enabled=True, pooler_config=None, "
    'compilation_config={"level":3,"cudagraph_mode":[2,1],"use_cudagraph":true,"max_capture_size":512}'
)
_ARGS = (
    "non-default args: {'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'model': "
    "'meta-llama/Llama-3.1-8B-Instruct', 'tensor_parallel_size': 2, 'speculative_config': "
    "{'method': 'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 3}}"
)
_SHARDS = (
    "\rLoading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]"
    "\rLoading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00,  1.71it/s]"
)
_GRAPHS = "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 67/67 [00:06<00:00, 10.12it/s]"
_W0, _W1, _CORE, _API = "Worker_TP0", "Worker_TP1", "EngineCore_DP0", "APIServer"
# (process, level or None for an undecorated raw line, seconds since the line before, where, text)
# fmt: off
STARTUP: list[tuple[str, str | None, float, str, str]] = [
    (_API, "INFO", 0.0, "api_server.py:1839", "vLLM API server version 0.11.0"),
    (_API, "INFO", 0.01, "utils.py:233", _ARGS),
    (_API, "INFO", 4.2, "model.py:547", "Resolved architecture: LlamaForCausalLM"),
    (_API, "INFO", 0.1, "scheduler.py:205", "Chunked prefill is enabled with max_num_batched_tokens=2048."),
    (_CORE, "INFO", 2.0, "core.py:77", _CONFIG),
    (_CORE, "WARNING", 0.3, "multiproc_executor.py:720", "Reducing Torch parallelism from 16 threads to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment to tune this value as needed."),
    (_W0, "INFO", 3.1, "parallel_state.py:1208", "rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0"),
    (_W1, "INFO", 3.1, "parallel_state.py:1208", "rank 1 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 1"),
    (_W0, "INFO", 0.2, "gpu_model_runner.py:2602", "Starting to load model meta-llama/Llama-3.1-8B-Instruct..."),
    (_W0, "INFO", 0.1, "cuda.py:366", "Using Flash Attention backend on V1 engine."),
    (_W1, "INFO", 0.2, "gpu_model_runner.py:2602", "Starting to load model meta-llama/Llama-3.1-8B-Instruct..."),
    (_W1, "INFO", 0.1, "cuda.py:366", "Using Flash Attention backend on V1 engine."),
    (_W0, None, 0.0, "", _SHARDS),
    (_W0, "INFO", 2.4, "eagle.py:712", "Loading drafter model..."),
    (_W0, "INFO", 1.1, "gpu_model_runner.py:2653", "Model loading took 8.61 GiB and 4.48 seconds"),
    (_W0, "INFO", 9.0, "gpu_worker.py:298", "Available KV cache memory: 58.23 GiB"),
    (_W1, "INFO", 2.4, "eagle.py:712", "Loading drafter model..."),
    (_W1, "INFO", 1.1, "gpu_model_runner.py:2653", "Model loading took 8.61 GiB and 4.48 seconds"),
    (_W1, "INFO", 9.0, "gpu_worker.py:298", "Available KV cache memory: 58.23 GiB"),
    (_CORE, "INFO", 0.1, "kv_cache_utils.py:1087", "GPU KV cache size: 953,952 tokens"),
    (_W0, None, 0.0, "", _GRAPHS),
    (_CORE, "INFO", 9.4, "core.py:210", "init engine (profile, create kv cache, warmup model) took 41.21 seconds"),
    (_API, "INFO", 0.5, "api_server.py:1912", "Starting vLLM API server 0 on http://0.0.0.0:8000"),
    (_API, None, 0.0, "", "INFO:     Started server process [{pid}]"),
    (_API, None, 0.0, "", "INFO:     Application startup complete."),
]
# fmt: on


def vllm_startup(log: Log, clock: Clock, pids: dict[str, int]) -> None:
    """API server, engine core and both workers from version line to 'startup complete'."""
    for proc, level, secs, where, text in STARTUP:
        pid = pids[proc]
        if level is None:
            log.add(vllm_raw(proc, pid, text.format(pid=pid)))
        else:
            log.add(vllm(proc, pid, level, clock.tick(secs), where, text))


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
