"""Speculative workers: EAGLEWorker (v1, non-overlap) and EAGLEWorkerV2 (overlap-style, topk 1)."""

from __future__ import annotations

from spectrace_engine.distributed.parallel_state import TPGroup
from spectrace_engine.managers.tp_worker import BaseWorker
from spectrace_engine.mem_cache.memory_pool import KVPool
from spectrace_engine.models.weights import ModelPair
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.eagle_worker import EAGLEWorker
from spectrace_engine.speculative.eagle_worker_v2 import EAGLEWorkerV2


def create_worker(cfg: EngineConfig, pair: ModelPair, pool: KVPool, tp: TPGroup) -> BaseWorker:
    """SGLang's SpeculativeAlgorithm.create_worker: overlap on -> V2, off -> v1; NONE -> v1's
    plain path (its speculate flag is never set)."""
    if cfg.worker == "v2":
        return EAGLEWorkerV2(cfg, pair, pool, tp)
    return EAGLEWorker(cfg, pair, pool, tp)
