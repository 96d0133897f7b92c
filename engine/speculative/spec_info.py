"""Speculative workers: EAGLEWorker (v1, non-overlap) and EAGLEWorkerV2 (overlap-style, topk 1)."""

from __future__ import annotations

from ..config import EngineConfig
from ..kv_cache import KVPool
from ..loader import ModelPair
from ..tp import TPGroup
from .base import BaseWorker
from .eagle_v1 import EAGLEWorker
from .eagle_v2 import EAGLEWorkerV2


def create_worker(cfg: EngineConfig, pair: ModelPair, pool: KVPool, tp: TPGroup) -> BaseWorker:
    """SGLang's SpeculativeAlgorithm.create_worker: overlap on -> V2, off -> v1; NONE -> v1's
    plain path (its speculate flag is never set)."""
    if cfg.worker == "v2":
        return EAGLEWorkerV2(cfg, pair, pool, tp)
    return EAGLEWorker(cfg, pair, pool, tp)
