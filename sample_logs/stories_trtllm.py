"""TensorRT-LLM sample: trtllm-serve with 2 MPI ranks, a CUDA fault in the forward step."""

from __future__ import annotations

from datetime import datetime

from logfmt import (
    SITE,
    Clock,
    Log,
    caret,
    traceback_body,
    trt_cpp,
    trt_py,
)

PE = f"{SITE}/tensorrt_llm/_torch/pyexecutor"
ILLEGAL = "CUDA error: an illegal memory access was encountered"
SEARCH = "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information."
# fmt: off
FORWARD_FRAMES = [
    (f"{PE}/py_executor.py", 1423, "_executor_loop", caret("batch_outputs = self._forward_step(scheduled_batch)", "self._forward_step(scheduled_batch)")),
    (f"{PE}/py_executor.py", 1981, "_forward_step", "outputs = forward(scheduled_requests, self.resource_manager, new_tensors_device)"),
    (f"{PE}/model_engine.py", 2210, "forward", "outputs = self.cuda_graph_runner.replay(batch_size, inputs)"),
    (f"{PE}/cuda_graph_runner.py", 311, "replay", "self.graphs[key].replay()"),
    (f"{SITE}/torch/cuda/graphs.py", 88, "replay", "super().replay()"),
]
CUDA_HELP = [
    SEARCH,
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    "",
]
# fmt: on


def startup(log: Log, clock: Clock) -> None:
    """Python-logger and C++-logger lines of both MPI ranks up to 'Executor started'."""
    log.add("[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc2")
    log.add(trt_py(clock.now, "I", "Using LLM with PyTorch backend"))
    log.add(trt_py(clock.tick(0.2), "W", "Using default gpus_per_node: 8"))
    spec = "speculative_config: Eagle3DecodingConfig(max_draft_len=3, speculative_model_dir='/models/EAGLE3-LLaMA3.1-Instruct-8B', eagle3_one_model=True)"
    log.add(trt_py(clock.tick(0.4), "I", spec))
    features = "ATTENTION RUNTIME FEATURES:  AttentionRuntimeFeatures(chunked_prefill=False, cache_reuse=True, has_speculative_draft_tokens=True)"
    for r in (0, 1):
        log.add(trt_py(clock.tick(3.0), "I", features, r))
        log.add(
            trt_py(
                clock.tick(0.1),
                "I",
                "Error-free startup check passed; no Exception raised during warmup",
                r,
            )
        )
    for r in (0, 1):  # the C++ runtime logs through its own logger (stdout, rank in brackets)
        log.add(
            trt_cpp(
                clock.tick(2.0),
                "W",
                "Using 23.41 GiB for the KV cache; the draft layers share it",
                r,
            )
        )
        log.add(trt_py(clock.tick(9.0), "I", "[Autotuner] Autotuning process ends", r))
    log.add(trt_py(clock.tick(1.0), "I", "Executor started; waiting for requests"))


def trtllm() -> tuple[dict[str, bytes], dict]:
    """trtllm-serve, 2 MPI ranks, EAGLE-3 one-model: a CUDA fault in the forward step on rank 1."""
    log, clock = Log(), Clock(datetime(2025, 10, 21, 8, 12, 40))
    startup(log, clock)
    for i in range(6):
        log.add(f'INFO:     127.0.0.1:{33100 + i} - "POST /v1/completions HTTP/1.1" 200 OK')
        clock.tick(7.5)
    at = clock.tick(1.3)
    first = log.add(trt_py(at, "E", f"Encountered an error in forward function: {ILLEGAL}", 1))
    log.add(SEARCH)
    tb_first = log.extend(traceback_body(FORWARD_FRAMES, f"torch.AcceleratorError: {ILLEGAL}"))
    log.extend(CUDA_HELP)
    collateral = log.add(trt_py(clock.tick(0.6), "E", "Executor worker returned error", 0))
    log.add('INFO:     127.0.0.1:33188 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error')
    expected = {
        "inputs": ["trtllm_serve.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "torch.AcceleratorError", "message_contains": "an illegal memory access was encountered",
                "root_cause": True, "origin_rank": "rank1", "first_line_any": [first, tb_first],
            },
            {"optional": True, "root_cause": False, "caused_by": 0, "message_contains": "Executor worker returned error", "first_line": collateral},
        ],
        "missing_markers": [],
    }  # fmt: skip
    return {"trtllm_serve.log": log.text().encode()}, expected
