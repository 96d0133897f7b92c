"""Engine: one rank's life (start-up lines, weights, KV, graphs, the scheduler loop, the crash path).

Whatever happens, the rank writes its ``error`` event and flushes its events before it dies; the
log gets SGLang's ``Scheduler hit an exception: Traceback ...`` with the real traceback.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import platform
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from spectrace_engine.distributed.parallel_state import GroupCoordinator
from spectrace_engine.managers.io_struct import SourceSpec
from spectrace_engine.managers.scheduler import Scheduler
from spectrace_engine.mem_cache.allocator import TokenToKVPoolAllocator
from spectrace_engine.mem_cache.feature_store import FeatureStore
from spectrace_engine.mem_cache.memory_pool import KVPool, ReqToTokenPool
from spectrace_engine.models.loader import load_pair
from spectrace_engine.observe.events import EventWriter
from spectrace_engine.observe.host_sync import HostSync
from spectrace_engine.observe.latency import LatencyBook
from spectrace_engine.observe.logs import GB, EngineLog, avail_mem_gb, graph_word
from spectrace_engine.observe.roofline import weight_traffic
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.spec_info import create_worker

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass(frozen=True, slots=True)
class RunPaths:
    out_dir: Path
    log: Path
    run_id: str

    def events(self, rank: int, tp_size: int) -> Path:
        return self.out_dir / ("events.jsonl" if tp_size == 1 else f"events.tp{rank}.jsonl")


def config_dict(cfg: EngineConfig) -> dict[str, Any]:
    """The resolved config as JSON-ready data (frozensets become sorted lists)."""
    d = dataclasses.asdict(cfg)
    d["faults"]["faults"] = sorted(f.value for f in cfg.faults.faults)
    d["cuda_graph_bs"] = list(cfg.graph_bs)
    d["worker"] = cfg.worker
    return d


def param_gb(tensors: Any) -> float:
    return sum(x.numel() * x.element_size() for x in tensors) / GB


def weights_gb(device: str, avail_drop_gb: float, model: Any) -> float:
    """CUDA: the drop in free device memory; CPU: the weights' bytes (free RAM on a shared host
    moves with everyone else's work)."""
    if device == "cuda":
        return max(avail_drop_gb, 0.0)
    return param_gb(model.parameters())


class Engine:
    """One TP rank: set up, serve the load, and always leave a complete record behind."""

    def __init__(
        self,
        cfg: EngineConfig,
        load: SourceSpec,
        paths: RunPaths,
        rank: int = 0,
        warnings: tuple[str, ...] = (),
        progress: Any = None,
        pair: Any = None,
    ) -> None:
        self.cfg, self.load_spec, self.paths, self.rank = cfg, load, paths, rank
        self.preloaded = pair  # a ModelPair already in cfg's device and dtype (bench sweeps)
        self.log = EngineLog(paths.log, rank, cfg.tp_size)
        self.events = EventWriter(paths.events(rank, cfg.tp_size), paths.run_id, rank)
        self.warnings, self.progress = warnings, progress
        self.tp = GroupCoordinator(
            rank, cfg.tp_size, cfg.faults, on_fault=self._fault_event, watchdog_log=self.log.bare
        )
        self.scheduler: Scheduler | None = None
        self.worker: Any = None
        self.pair: Any = None
        self.t0 = time.perf_counter()
        self.t_serve: float | None = None  # when the first request could be admitted

    def _fault_event(self, fault: str, detail: str) -> None:
        self.events.emit("fault", fault=fault, detail=detail)
        self.events.flush()

    def run(self, port: int = 0, on_ready: Any = None) -> int:
        """Set up and serve; 0 on success, 1 after a crash (already logged and recorded)."""
        status, code = "ok", 0
        try:
            with torch.inference_mode():
                self.setup(port)
                if on_ready is not None:
                    on_ready()
                self.serve()
        except Exception as exc:  # the scheduler's last word: log, record, exit non-zero
            status, code = "error", 1
            self.record_crash(exc)
        except BaseException as exc:  # Ctrl-C or SIGTERM: recorded, not logged as a crash
            status = "interrupted"
            self.record_crash(exc, logged=False)
            raise
        finally:
            self.finish(status)
        return code

    # --- start-up --------------------------------------------------------------------------------
    def setup(self, port: int) -> None:
        cfg, log = self.cfg, self.log
        if cfg.device == "cuda":
            torch.cuda.set_device(self.rank % torch.cuda.device_count())  # one GPU per rank
        if cfg.tp_size > 1:
            t, mem = time.perf_counter(), avail_mem_gb(cfg.device)
            log.info("Init torch distributed begin.")
            self.tp.init(port, "nccl" if cfg.device == "cuda" else "gloo", cfg.dist_timeout_s)
            log.info(
                f"Init torch distributed ends. elapsed={time.perf_counter() - t:.2f} s, "
                f"mem usage={max(mem - avail_mem_gb(cfg.device), 0):.2f} GB"
            )
        torch.manual_seed(cfg.seed)
        if cfg.device == "cpu":
            torch.set_num_threads(cfg.cpu_threads)
        pair = self.load_weights()
        pool = self.allocate_kv(pair)
        self.worker = create_worker(cfg, pair, pool, self.tp, HostSync())
        self.emit_run_start(pair)
        self.capture_graphs()
        self.capture_prefill(pair)
        self.warm_verify(pair)
        if self.rank == 0:
            log.info(
                f"max_total_num_tokens={pool.capacity_tokens}, chunked_prefill_size=-1, "
                f"max_prefill_tokens={cfg.max_prefill_tokens}, max_running_requests={cfg.max_running_requests}, "
                f"context_len={cfg.max_seq_len}, "
                f"available_gpu_mem={avail_mem_gb(cfg.device):.2f} GB"
            )
        if cfg.spec.disable_batch_threshold is not None and cfg.spec.enabled:
            log.info("Dynamic speculation disable enabled")
        if cfg.spec.simulate_accept_len is not None:
            log.info(
                f"SIMULATED acceptance: each verify's accept length is drawn to mean "
                f"{cfg.spec.simulate_accept_len} emitted tokens; the draft and verify compute is real"
            )
        self.pair = pair

    def warm_verify(self, pair: Any) -> None:
        """Triton's verify kernel compiled before the first request: no JIT inside a timed step."""
        cfg, s = self.cfg, self.cfg.spec
        if not s.enabled or cfg.verify_backend != "triton":
            return
        from spectrace_engine.kernels.verify import warm_up

        t = time.perf_counter()
        tree, sampling = s.eagle_topk > 1, not cfg.sampling.greedy
        warm_up(s.num_draft_tokens, s.num_steps, pair.target.cfg.vocab_size, tree, sampling,
                torch.device(cfg.device))  # fmt: skip
        kind = "tree sampling" if sampling else "tree greedy" if tree else "chain greedy"
        self.log.info(
            f"Verify kernel ready (triton, {kind}). elapsed={time.perf_counter() - t:.2f} s"
        )

    def load_weights(self) -> Any:
        cfg, log = self.cfg, self.log
        t, mem = time.perf_counter(), avail_mem_gb(cfg.device)
        log.info(f"Load weight begin. avail mem={mem:.2f} GB")
        algorithm = cfg.spec.algorithm or "EAGLE3"
        pair = self.preloaded or load_pair(
            cfg.model, cfg.device, DTYPES[cfg.dtype], self.tp, algorithm
        )
        after = avail_mem_gb(cfg.device)
        log.info(
            f"Load weight end. elapsed={time.perf_counter() - t:.2f} s, "
            f"type=LlamaForCausalLM, avail mem={after:.2f} GB, mem usage="
            f"{weights_gb(cfg.device, mem - after, pair.target):.2f} GB."
        )
        if cfg.spec.enabled:
            log.info(f"Load weight begin. avail mem={after:.2f} GB")
            # the pair loads as one (the target's line carries the time)
            log.info(
                f"Load weight end. elapsed=0.00 s, type={pair.draft.architecture}, "
                f"avail mem={after:.2f} GB, mem usage={param_gb(pair.draft.own_state_dict().values()):.2f} GB."
            )
        return pair

    def allocate_kv(self, pair: Any) -> KVPool:
        """One ReqToTokenPool row per running request (+ the scratch row) and ``size`` KV tokens
        for the target and, speculating, the draft, both addressed through the same rows."""
        cfg = self.cfg
        running = cfg.max_running_requests or 48
        size = cfg.max_total_tokens or running * cfg.max_seq_len
        device = pair.target.embed.weight.device
        req_to_token_pool = ReqToTokenPool(running, cfg.max_seq_len, device)
        table = req_to_token_pool.req_to_token
        target_kv = pair.target.new_kv_cache(running + 1, cfg.max_seq_len, size, table)
        draft_kv = None
        if cfg.spec.enabled:
            draft_kv = pair.draft.new_kv_cache(running + 1, cfg.max_seq_len, size, table)
        kv_gb = target_kv.k.numel() * target_kv.k.element_size() / GB
        self.log.info(
            f"KV Cache is allocated. #tokens: {size}, K size: {kv_gb:.2f} GB, V size: {kv_gb:.2f} GB"
        )
        self.log.info(f"Memory pool end. avail mem={avail_mem_gb(cfg.device):.2f} GB")
        allocator = TokenToKVPoolAllocator(size, device)
        features = None
        if cfg.spec.enabled:
            dtype = pair.target.embed.weight.dtype
            rows, dim = running + 1, pair.draft.feature_dim
            features = FeatureStore(rows, cfg.max_seq_len, dim, dtype, device)
        return KVPool(target_kv, draft_kv, req_to_token_pool, allocator, self.log.info, features)

    def capture_graphs(self) -> None:
        """Target first, then draft and draft extend, largest bs first, one memory pool per runner.

        A shared pool is safe only when graphs replay in the order they were captured: the draft
        graph (captured after the target's) would place its outputs (the tree's retrieve links,
        read by the verify after the target replays) in blocks the target graph's intermediates
        were captured into, and the target's replay overwrites them (on CUDA only: a tree verify
        read garbage links, a device-side assert or an illegal memory access at c=16)."""
        cfg, log = self.cfg, self.log
        if cfg.disable_cuda_graph:
            return
        word = graph_word(cfg.device)
        titles = {
            "target": "",
            "target_decode": "",
            "draft": "draft ",
            "draft_extend": "draft extend ",
        }
        for runner in self.worker.graph_runners:
            t, mem = time.perf_counter(), avail_mem_gb(cfg.device)
            title = titles[runner.name]
            log.info(
                f"Capture {title}{word} begin. This can take up to several minutes. "
                f"avail mem={mem:.2f} GB"
            )
            if runner.name == "target" and self.rank == 0:
                log.info(f"Capture {word} bs {list(runner.capture_bs)}")
            runner.capture(torch.cuda.graph_pool_handle() if cfg.device == "cuda" else None)
            after = avail_mem_gb(cfg.device)
            log.info(
                f"Capture {title}{word} end. Time elapsed: {time.perf_counter() - t:.2f} s. "
                f"mem usage={max(mem - after, 0):.2f} GB. avail mem={after:.2f} GB."
            )
            for mode, bs, rows, t_us in runner.stats.captured:
                self.events.emit(
                    "capture",
                    runner=runner.name,
                    mode=mode,
                    bs=bs,
                    rows=rows,
                    t_us=round(t_us, 1),
                    graph="capture" if cfg.device == "cuda" else "emulated",
                )

    def capture_prefill(self, pair: Any) -> None:
        """Prefill graphs (target, then the draft's extend) at the longest prompt rounded up to
        8 tokens, one memory pool per set (the target's features feed the draft's replay)."""
        cfg = self.cfg
        sets = [g for g in self.worker.model_runner.prefill_sets if g.enabled]
        if not sets or not pair.prompts:
            return
        tokens = -(-max(len(p) for p in pair.prompts) // 8) * 8
        t, mem = time.perf_counter(), avail_mem_gb(cfg.device)
        for graphs in sets:
            graphs.capture(torch.cuda.graph_pool_handle(), tokens)
        bs = [b for b, _, _ in sets[0].captured]
        self.log.info(
            f"Capture prefill cuda graph end. tokens {tokens}, bs {sorted(bs)}, "
            f"Time elapsed: {time.perf_counter() - t:.2f} s. "
            f"mem usage={max(mem - avail_mem_gb(cfg.device), 0):.2f} GB."
        )

    def emit_run_start(self, pair: Any) -> None:
        cfg = self.cfg
        device = torch.cuda.get_device_name() if cfg.device == "cuda" else platform.machine()
        self.events.emit(
            "run_start",
            config=config_dict(cfg),
            worker=cfg.worker,
            worker_class=cfg.worker_class,
            disable_overlap_schedule=cfg.disable_overlap_schedule,
            versions={"torch": torch.__version__, "triton": importlib.metadata.version("triton")},
            device=f"{cfg.device}:{device}",
            weights=dict(pair.sha256),
            faults=sorted(f.value for f in cfg.faults.faults),
            log_path=str(self.paths.log),
            warnings=list(self.warnings),
            tp_size=cfg.tp_size,
            load=self.load_spec.describe(),
            simulated_accept_len=cfg.spec.simulate_accept_len,  # None: real acceptance
        )
        self.events.flush()

    # --- serving --------------------------------------------------------------------------------
    def serve(self) -> None:
        self.t_serve = time.perf_counter()
        load = self.load_spec.make_source(self.pair.prompts)
        self.scheduler = Scheduler(
            self.cfg, self.worker, self.log, self.events, load, self.progress
        )
        if not self.cfg.disable_overlap_schedule:
            self.scheduler.event_loop_overlap()
        else:
            self.scheduler.event_loop_normal()

    def record_crash(self, exc: BaseException, logged: bool = True) -> None:
        """The error event (always, flushed at once) after SGLang's traceback line (if logged)."""
        ts = self.log.scheduler_exception(exc) if logged else None
        ctx = dict(self.scheduler.context) if self.scheduler is not None else {"phase": "setup"}
        tail = traceback.format_exception(type(exc), exc, exc.__traceback__)[-4:]
        self.events.emit(
            "error",
            exc_type=type(exc).__name__,
            message=str(exc).split("\n")[0],
            traceback_tail="".join(tail),
            collateral=self.tp.in_collective or not logged,
            faults=sorted(f.value for f in self.cfg.faults.faults),
            log_ts=ts,
            log_ns=self.log.last_write_ns if logged else None,
            log_end=self.log.last_write_end if logged else None,
            worker=self.cfg.worker,
            **ctx,
        )
        self.events.flush()

    def serving_numbers(self) -> dict[str, Any]:
        """Latency percentiles and the weight bytes a step reads (the bench's HBM floor)."""
        book = self.scheduler.latency if self.scheduler is not None else LatencyBook()
        out = book.summary()
        if self.pair is not None:
            draft = self.pair.draft if self.cfg.spec.enabled else None
            w = weight_traffic(self.pair.target, draft, self.cfg.spec.num_steps)
            out["weight_bytes_target"] = w.target_bytes
            out["weight_bytes_spec_extra"] = w.spec_extra_bytes
        return out

    def target_rows(self) -> int:
        """Live rows the target's graphs ran (bs per plain step, bs x N per verify)."""
        runners = self.worker.graph_runners if self.worker is not None else []
        return sum(r.stats.live_rows for r in runners if r.name.startswith("target"))

    def finish(self, status: str) -> None:
        s = self.scheduler
        tot = s.totals if s is not None else None
        stats = [r.stats for r in self.worker.graph_runners] if self.worker is not None else []
        live = sum(st.live_rows for st in stats)
        padded = sum(st.padded_rows for st in stats)
        now = time.perf_counter()
        wall, serve = now - self.t0, now - (self.t_serve or now)
        self.events.emit(
            "run_end",
            status=status,
            steps=tot.steps if tot else 0,
            requests_finished=s.source.finished if s else 0,
            tokens_out=tot.tokens_out if tot else 0,
            mean_accepted=(tot.accepted / tot.verifies) if tot and tot.verifies else None,
            mean_emitted=((tot.accepted + tot.verifies) / tot.verifies)
            if tot and tot.verifies
            else None,
            spec_steps=tot.spec_steps if tot else 0,
            graph_replays=sum(st.replays for st in stats),
            graph_misses=sum(st.eager for st in stats),
            padding_waste=padded / (live + padded) if live + padded else 0.0,
            wall_s=round(wall, 3),
            serve_s=round(serve, 3),
            gen_throughput=round((tot.tokens_out if tot else 0) / max(serve, 1e-9), 2),
            host_ms_per_step=self.worker.syncs.clock.per_step_ms(tot.steps) if tot else {},
            target_rows=self.target_rows(),  # the bench's FLOP floor
            **self.serving_numbers(),
        )
        self.events.close()
        self.log.close()
        self.tp.destroy()
