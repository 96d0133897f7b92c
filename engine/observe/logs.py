"""SGLang-format log lines (LOG_FORMATS.md 1.2-1.11): product output that spectrace triage parses.

All ranks append to ONE file; each message is a single ``os.write`` on an O_APPEND descriptor, so
lines of different ranks interleave but never tear, as with SGLang's per-rank schedulers.
"""

from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from spectrace_engine.observe.append import write_all
from spectrace_engine.server_args import EngineConfig

GB = 1024**3


def avail_mem_gb(device: str) -> float:
    """Free device memory in GB, the number SGLang prints as ``avail mem``."""
    if device == "cuda":
        import torch

        return torch.cuda.mem_get_info()[0] / GB
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / GB


class EngineLog:
    """One rank's writer: ``[YYYY-MM-DD HH:MM:SS TPn] msg`` (no TP tag when tp_size == 1)."""

    def __init__(self, path: Path, tp_rank: int, tp_size: int) -> None:
        self.path = path
        self.tag = f" TP{tp_rank}" if tp_size > 1 else ""
        self.tp_rank = tp_rank
        self.last_write_ns = 0  # wall clock just before the latest headed write
        self.last_write_end = 0  # file offset after it: log order across ranks, race-free
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def stamp(self) -> str:
        return datetime.now().strftime("%Y-%m-%d %H:%M:%S")

    def info(self, msg: str) -> str:
        """Write one headed message; returns the timestamp text used."""
        ts = self.stamp()
        self.last_write_ns = time.time_ns()
        self._write(f"[{ts}{self.tag}] {msg}\n")
        if self._fd >= 0:  # O_APPEND leaves our fd's offset at the end of our own write
            self.last_write_end = os.lseek(self._fd, 0, os.SEEK_CUR)
        return ts

    def bare(self, msg: str) -> None:
        """A message printed before logging is configured (ServerArgs warnings): no header."""
        self._write(msg + "\n")

    def scheduler_exception(self, exc: BaseException) -> str:
        """SGLang's ``Scheduler hit an exception: {traceback}``, one header then raw lines."""
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return self.info(f"Scheduler hit an exception: {tb}")

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _write(self, text: str) -> None:
        if self._fd >= 0:
            write_all(self._fd, text.encode())


def graph_word(device: str) -> str:
    """Capture lines name what is captured: CUDA graphs, or the CPU emulation of their buffers."""
    return "cuda graph" if device == "cuda" else "cpu graph"


def server_args_line(cfg: EngineConfig, model_path: str, draft_path: str | None) -> str:
    """``server_args=ServerArgs(...)``: dataclass-repr style, SGLang field order, final values."""
    s = cfg.spec
    fields: list[tuple[str, object]] = [
        ("model_path", model_path),
        ("tokenizer_path", model_path),
        ("tokenizer_mode", "auto"),
        ("skip_tokenizer_init", False),
        ("load_format", "auto"),
        ("trust_remote_code", False),
        ("dtype", cfg.dtype),
        ("kv_cache_dtype", "auto"),
        ("quantization", None),
        ("context_length", cfg.max_seq_len),
        ("device", cfg.device),
        ("served_model_name", model_path),
        ("preferred_sampling_params", cfg.sampling.preferred_json()),
        ("sampling_defaults", "model"),
        ("random_seed", cfg.seed),
        ("mem_fraction_static", 0.88),
        ("max_running_requests", cfg.max_running_requests),
        ("max_total_tokens", None),
        ("chunked_prefill_size", -1),  # the engine never chunks a prefill
        ("max_prefill_tokens", cfg.max_prefill_tokens),
        ("schedule_policy", "fcfs"),
        ("tp_size", cfg.tp_size),
        ("pp_size", 1),
        ("dp_size", 1),
        ("log_level", "info"),
        ("decode_log_interval", cfg.decode_log_interval),
        ("speculative_algorithm", s.algorithm),
        ("speculative_draft_model_path", draft_path),
        ("speculative_draft_model_revision", "main" if draft_path else None),
        ("speculative_num_steps", s.num_steps if s.enabled else None),
        ("speculative_eagle_topk", s.eagle_topk if s.enabled else None),
        ("speculative_num_draft_tokens", s.num_draft_tokens if s.enabled else None),
        ("speculative_accept_threshold_single", s.accept_threshold_single),
        ("speculative_accept_threshold_acc", s.accept_threshold_acc),
        ("speculative_token_map", None),
        ("speculative_attention_mode", "prefill"),
        ("speculative_disable_batch_threshold", s.disable_batch_threshold),
        ("attention_backend", "torch_native"),
        ("disable_cuda_graph", cfg.disable_cuda_graph),
        ("cuda_graph_max_bs", max(cfg.graph_bs)),
        ("cuda_graph_bs", list(cfg.graph_bs)),
        ("disable_overlap_schedule", cfg.disable_overlap_schedule),
        ("enable_mixed_chunk", False),
        ("enable_multi_layer_eagle", False),
        ("watchdog_timeout", 300),
        ("dist_timeout", int(cfg.dist_timeout_s)),
    ]
    body = ", ".join(f"{k}={v!r}" for k, v in fields)
    return f"server_args=ServerArgs({body})"


@dataclass(slots=True)
class DecodeStats:
    """Counters over one ``decode_log_interval``; reset after each Decode batch line."""

    steps: int = 0
    tokens_out: int = 0
    spec_verifies: int = 0  # sum over spec steps of live requests (the ``bs`` of accept len)
    spec_accepted: int = 0  # sum of accepted draft tokens (excluding the bonus)
    t_start: float = 0.0


def decode_batch_line(
    running: int,
    tokens: int,
    usage: float,
    stats: DecodeStats,
    n_draft: int,
    used_graph: bool,
    throughput: float,
    queue: int,
) -> str:
    """The 0.5.9+ ``Decode batch`` line; accept fields only when speculation ran in the interval.
    ``cuda graph`` is True only when the last step replayed a captured CUDA graph (never on CPU)."""
    parts = [
        f"Decode batch, #running-req: {running}",
        f"#token: {tokens}",
        f"token usage: {usage:.2f}",
    ]
    if stats.spec_verifies:
        emitted = stats.spec_accepted + stats.spec_verifies
        parts.append(f"accept len: {emitted / stats.spec_verifies:.2f}")
        parts.append(f"accept rate: {emitted / (stats.spec_verifies * n_draft):.2f}")
    parts += [
        f"cuda graph: {used_graph}",
        f"gen throughput (token/s): {throughput:.2f}",
        f"#queue-req: {queue}",
    ]
    return ", ".join(parts)


def prefill_batch_line(
    new_seq: int,
    new_token: int,
    usage: float,
    running: int,
    queue: int,
    throughput: float,
) -> str:
    """No ``#cached-token``: the engine has no prefix cache, so it has no such number to give."""
    return (
        f"Prefill batch, #new-seq: {new_seq}, #new-token: {new_token}, "
        f"token usage: {usage:.2f}, #running-req: {running}, #queue-req: {queue}, "
        f"cuda graph: False, input throughput (token/s): {throughput:.2f}"
    )
