"""SGLang 0.5.x building blocks: the server-args dump, start-up, load lines, crash frames."""

from __future__ import annotations

import random
from dataclasses import dataclass

from logfmt import (
    SITE,
    Clock,
    Log,
    capture_bar,
    caret,
    nccl_info,
    server_args_dump,
    sgl,
    tqdm_redraws,
    uvicorn,
)

SG = f"{SITE}/sglang/srt"

# ServerArgs fields in class-definition order (0.5.9/0.5.10 era, abridged) with defaults.
# fmt: off
SERVER_ARGS_DEFAULTS: list[tuple[str, object]] = [
    ("model_path", ""), ("tokenizer_path", ""), ("tokenizer_mode", "auto"),
    ("tokenizer_worker_num", 1), ("skip_tokenizer_init", False), ("load_format", "auto"),
    ("model_loader_extra_config", "{}"), ("trust_remote_code", True), ("context_length", None),
    ("is_embedding", False), ("enable_multimodal", None), ("revision", None),
    ("model_impl", "auto"), ("host", "0.0.0.0"), ("port", 30000), ("skip_server_warmup", False),
    ("warmups", None), ("nccl_port", None), ("dtype", "auto"), ("quantization", None),
    ("quantization_param_path", None), ("kv_cache_dtype", "auto"), ("mem_fraction_static", 0.82),
    ("max_running_requests", None), ("max_queued_requests", None), ("max_total_tokens", None),
    ("chunked_prefill_size", 8192), ("max_prefill_tokens", 16384), ("schedule_policy", "fcfs"),
    ("enable_priority_scheduling", False), ("schedule_conservativeness", 1.0), ("page_size", 1),
    ("hybrid_kvcache_ratio", None), ("swa_full_tokens_ratio", 0.8),
    ("disable_hybrid_swa_memory", False), ("radix_eviction_policy", "lru"), ("device", "cuda"),
    ("tp_size", 1), ("pp_size", 1), ("pp_max_micro_batch_size", None), ("stream_interval", 1),
    ("stream_output", False), ("random_seed", 0), ("constrained_json_whitespace_pattern", None),
    ("watchdog_timeout", 300), ("dist_timeout", None), ("download_dir", None), ("base_gpu_id", 0),
    ("gpu_id_step", 1), ("sleep_on_idle", False), ("log_level", "info"), ("log_level_http", None),
    ("log_requests", False), ("log_requests_level", 2), ("crash_dump_folder", None),
    ("show_time_cost", False), ("enable_metrics", False), ("bucket_time_to_first_token", None),
    ("decode_log_interval", 40), ("enable_request_time_stats_logging", False), ("api_key", None),
    ("served_model_name", ""), ("weight_version", "default"), ("chat_template", None),
    ("completion_template", None), ("file_storage_path", "sglang_storage"),
    ("enable_cache_report", False), ("reasoning_parser", None), ("tool_call_parser", None),
    ("dp_size", 1), ("load_balance_method", "round_robin"), ("dist_init_addr", None), ("nnodes", 1),
    ("node_rank", 0), ("json_model_override_args", "{}"), ("preferred_sampling_params", None),
    ("enable_lora", None), ("max_lora_rank", None), ("lora_target_modules", None),
    ("lora_paths", None), ("max_loaded_loras", None), ("max_loras_per_batch", 8),
    ("lora_backend", "triton"), ("attention_backend", "flashinfer"),
    ("decode_attention_backend", None), ("prefill_attention_backend", None),
    ("sampling_backend", "flashinfer"), ("grammar_backend", "xgrammar"),
    ("mm_attention_backend", None), ("speculative_algorithm", None),
    ("speculative_draft_model_path", None), ("speculative_draft_model_revision", None),
    ("speculative_num_steps", None), ("speculative_eagle_topk", None),
    ("speculative_num_draft_tokens", None), ("speculative_accept_threshold_single", 1.0),
    ("speculative_accept_threshold_acc", 1.0), ("speculative_token_map", None),
    ("speculative_attention_mode", "prefill"), ("speculative_disable_batch_threshold", None),
    ("speculative_ngram_min_match_window_size", 1), ("speculative_ngram_max_match_window_size", 12),
    ("ep_size", 1), ("moe_a2a_backend", "none"), ("moe_runner_backend", "auto"),
    ("enable_eplb", False), ("enable_hierarchical_cache", False), ("hicache_ratio", 2.0),
    ("cuda_graph_max_bs", None), ("cuda_graph_bs", None), ("disable_cuda_graph", False),
    ("disable_cuda_graph_padding", False), ("enable_profile_cuda_graph", False),
    ("enable_cudagraph_gc", False), ("enable_nccl_nvls", False), ("enable_symm_mem", False),
    ("disable_flashinfer_cutlass_moe_fp4_allgather", False),
    ("enable_tokenizer_batch_encode", False), ("disable_outlines_disk_cache", False),
    ("disable_custom_all_reduce", False), ("enable_mscclpp", False),
    ("disable_overlap_schedule", False), ("enable_mixed_chunk", False),
    ("enable_dp_attention", False), ("enable_dp_lm_head", False),
    ("enable_two_batch_overlap", False), ("enable_torch_compile", False),
    ("torch_compile_max_bs", 32), ("torchao_config", ""), ("enable_nan_detection", False),
    ("enable_p2p_check", False), ("triton_attention_reduce_in_fp32", False),
    ("triton_attention_num_kv_splits", 8), ("num_continuous_decode_steps", 1),
    ("delete_ckpt_after_loading", False), ("enable_memory_saver", False),
    ("allow_auto_truncate", False), ("enable_custom_logit_processor", False),
    ("flashinfer_mla_disable_ragged", False), ("disable_shared_experts_fusion", False),
    ("disable_chunked_prefix_cache", False), ("disable_fast_image_processor", False),
    ("enable_return_hidden_states", False), ("warmup_context_length", None),
    ("debug_tensor_dump_output_folder", None), ("debug_tensor_dump_input_file", None),
    ("disaggregation_mode", "null"), ("disaggregation_transfer_backend", "mooncake"),
    ("custom_weight_loader", []), ("weight_loader_disable_mmap", False),
    ("enable_multi_layer_eagle", False),
]
# fmt: on


def server_args(**overrides: object) -> str:
    """The dump with overrides applied in place (unknown names are a bug in the story)."""
    names = {name for name, _ in SERVER_ARGS_DEFAULTS}
    unknown = set(overrides) - names
    if unknown:
        raise KeyError(f"not a ServerArgs field: {sorted(unknown)}")
    return server_args_dump([(n, overrides.get(n, v)) for n, v in SERVER_ARGS_DEFAULTS])


def rank_prefixes(tp: int) -> list[str]:
    return [f"TP{r}" for r in range(tp)] if tp > 1 else [""]


V2_OFF = (
    "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative "
    "algorithm. You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental "
    "overlap scheduler. "
)
V2_ON = (
    "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on."
)
MAX_RUNNING_48 = (
    "Max running requests is reset to 48 for speculative decoding. You can override this by "
    "explicitly setting --max-running-requests."
)
GLM_OCR = (
    "Ignore import error when loading sglang.srt.models.glm_ocr: "
    "No module named 'transformers.models.glm_ocr'"
)
FIRED_UP = "The server is fired up and ready to roll!"
SIGQUIT_RUNNING = "SIGQUIT received. signum=None, frame=None. It usually means one child failed."
SIGQUIT_LAUNCH = "Received sigquit from a child process. It usually means the child failed."
# expected.json entry: the main process's SIGQUIT line after a running crash, collateral of it
SIGQUIT_COLLATERAL = {"optional": True, "root_cause": False, "caused_by": 0,
                      "message_contains": "SIGQUIT received"}  # fmt: skip


@dataclass(frozen=True)
class Launch:
    """What a start-up sequence needs to know about the run."""

    tp: int
    model_type: str
    draft_type: str | None
    cuda_graph_bs: list[int]
    host: str = "gpu-node-3"
    first_pid: int = 41200
    capture_bar: bool = True
    prefixes: tuple[str, ...] = ()  # rank prefixes when not plain TP ("DP1 TP3 EP3", ...)


def startup_ranks(log: Log, clock: Clock, launch: Launch, rng: random.Random) -> None:
    """Everything each scheduler rank prints from import to 'max_total_num_tokens=' lines."""
    prefixes = list(launch.prefixes) or rank_prefixes(launch.tp)
    for p in prefixes:
        log.add(sgl(clock.tick(0.01), p) + GLM_OCR)
    clock.tick(1.2)
    for p in prefixes:
        log.add(
            sgl(clock.tick(0.02), p)
            + "Attention backend not specified. Use flashinfer backend by default."
        )
    for p in prefixes:
        log.add(sgl(clock.tick(0.01), p) + "Init torch distributed begin.")
    if launch.tp > 1:
        _nccl_init(log, launch, rng)
    for p in prefixes:
        used = rng.uniform(0.3, 0.9)  # one draw per line: the samples' line numbers depend on it
        log.add(
            sgl(clock.tick(0.05), p)
            + f"Init torch distributed ends. elapsed={used * 2.7:.2f} s, mem usage={used:.2f} GB"
        )
    _load_weights(log, clock, prefixes, launch.model_type, rng, 78.6)
    if launch.draft_type:
        _load_weights(log, clock, prefixes, launch.draft_type, rng, 41.2)
    for p in prefixes:
        log.add(
            sgl(clock.tick(0.1), p)
            + "KV Cache is allocated. #tokens: 1843200, K size: 10.55 GB, V size: 10.55 GB"
        )
        log.add(sgl(clock.tick(0.01), p) + "Memory pool end. avail mem=15.42 GB")
    _capture(log, clock, prefixes, launch, "cuda graph", 15.30)
    if launch.draft_type:
        _capture(log, clock, prefixes, launch, "draft cuda graph", 13.90)
        _capture(log, clock, prefixes, launch, "draft extend cuda graph", 13.10)
    for p in prefixes:
        log.add(
            sgl(clock.tick(0.02), p)
            + "max_total_num_tokens=1843200, chunked_prefill_size=8192, max_prefill_tokens=16384, "
            "max_running_requests=48, context_len=131072, available_gpu_mem=12.71 GB"
        )


def _nccl_init(log: Log, launch: Launch, rng: random.Random) -> None:
    for r in range(launch.tp):
        pid = launch.first_pid + r
        log.add(nccl_info(launch.host, pid, r, "Bootstrap : Using eth0:10.20.3.7<0>"))
        log.add(
            nccl_info(
                launch.host,
                pid,
                r,
                "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
            )
        )
        if r == 0:
            log.add(nccl_info(launch.host, pid, r, "cudaDriverVersion 12080"))
            log.add(nccl_info(launch.host, pid, r, "NCCL version 2.27.3+cuda12.9"))
    for r in range(launch.tp):
        pid = launch.first_pid + r
        comm = f"0x{rng.getrandbits(48):x}"
        log.add(
            nccl_info(
                launch.host,
                pid,
                r,
                f"comm {comm} rank {r} nranks {launch.tp} cudaDev {r} nvmlDev {r} busId {0x18000 + r * 0x10000:x} commId 0x5e2c1d0a77b3f1c2 - Init COMPLETE",
            )
        )


def _load_weights(
    log: Log, clock: Clock, prefixes: list[str], arch: str, rng: random.Random, mem: float
) -> None:
    for p in prefixes:
        log.add(sgl(clock.tick(0.02), p) + f"Load weight begin. avail mem={mem:.2f} GB")
    shards = 4 if "Eagle" in arch else 16
    log.add(
        tqdm_redraws(
            "Loading safetensors checkpoint shards", shards, [0.9 * i for i in range(shards + 1)]
        )
    )
    clock.tick(shards * 0.9)
    for p in prefixes:
        used = rng.uniform(0.9, 1.1) * (2.1 if "Eagle" in arch else 37.4)
        log.add(
            sgl(clock.tick(0.05), p)
            + f"Load weight end. elapsed={used / 2.1:.2f} s, type={arch}, avail mem={mem - used:.2f} GB, mem usage={used:.2f} GB."
        )


def _capture(
    log: Log, clock: Clock, prefixes: list[str], launch: Launch, what: str, mem: float
) -> None:
    for p in prefixes:
        log.add(
            sgl(clock.tick(0.02), p)
            + f"Capture {what} begin. This can take up to several minutes. avail mem={mem:.2f} GB"
        )
    if what == "cuda graph":
        log.add(
            sgl(clock.tick(0.01), prefixes[0]) + f"Capture cuda graph bs {launch.cuda_graph_bs}"
        )
    if launch.capture_bar:
        log.add(capture_bar(launch.cuda_graph_bs, mem - 0.4))
    clock.tick(len(launch.cuda_graph_bs) * 0.8)
    for p in prefixes:
        log.add(
            sgl(clock.tick(0.03), p)
            + f"Capture {what} end. Time elapsed: {len(launch.cuda_graph_bs) * 0.8 + 1.3:.2f} s. mem usage=0.62 GB. avail mem={mem - 0.62:.2f} GB."
        )


def server_ready(log: Log, clock: Clock, pid: int, port: int = 30000) -> None:
    """Uvicorn start-up, the warm-up request and the ready line (main process, no prefix)."""
    log.add(uvicorn(clock.tick(0.5), f"Started server process [{pid}]"))
    log.add(uvicorn(clock.tick(0.01), "Waiting for application startup."))
    log.add(uvicorn(clock.tick(0.01), "Application startup complete."))
    log.add(
        uvicorn(
            clock.tick(0.01), f"Uvicorn running on http://0.0.0.0:{port} (Press CTRL+C to quit)"
        )
    )
    log.add(uvicorn(clock.tick(0.9), '127.0.0.1:47110 - "GET /get_model_info HTTP/1.1" 200 OK'))
    log.add(uvicorn(clock.tick(1.6), '127.0.0.1:47124 - "POST /generate HTTP/1.1" 200 OK'))
    log.add(sgl(clock.tick(0.01)) + FIRED_UP)


def prefill_line(new_seq: int, new_tok: int, usage: float, running: int, trailing: bool) -> str:
    """``Prefill batch, ...``: 0.5.4-0.5.8 end with ``#queue-req: 0, ``; 0.5.9+ add throughput."""
    head = f"Prefill batch, #new-seq: {new_seq}, #new-token: {new_tok}, #cached-token: 0, token usage: {usage:.2f}, #running-req: {running}, #queue-req: 0, "
    return (
        head
        if trailing
        else head + f"cuda graph: False, input throughput (token/s): {new_tok * 41.3:.2f}"
    )


def decode_line(
    running: int, tokens: int, accept_len: float | None, n_draft: int, gen: float, trailing: bool
) -> str:
    """``Decode batch, ...`` in the 0.5.9+ form, or the 0.5.5-0.5.8 form with trailing comma."""
    spec = ""
    if accept_len is not None:
        spec = f"accept len: {accept_len:.2f}, accept rate: {accept_len / n_draft:.2f}, "
    line = (
        f"Decode batch, #running-req: {running}, #token: {tokens}, token usage: {tokens / 1843200:.2f}, "
        f"{spec}cuda graph: True, gen throughput (token/s): {gen:.2f}, #queue-req: 0"
    )
    return line + ", " if trailing else line


def sched_frames(loop: str) -> list[tuple[str, int, str, str | None]]:
    """The outer frames every scheduler traceback starts with (run_scheduler_process -> loop)."""
    return [
        (f"{SG}/managers/scheduler.py", 2703, "run_scheduler_process", f"scheduler.{loop}()"),
        (
            f"{SITE}/torch/utils/_contextlib.py",
            120,
            "decorate_context",
            caret("return func(*args, **kwargs)", "func(*args, **kwargs)"),
        ),
        (
            f"{SG}/managers/scheduler.py",
            1010 if loop == "event_loop_normal" else 1047,
            loop,
            "result = self.run_batch(batch)",
        ),
    ]
