"""SpeculativeAlgorithm and the worker SGLang 0.5.5-0.5.10 creates for it (``create_worker``)."""

from __future__ import annotations

from enum import IntEnum, auto
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spectrace_engine.distributed.parallel_state import GroupCoordinator
    from spectrace_engine.mem_cache.memory_pool import KVPool
    from spectrace_engine.models.weights import ModelPair
    from spectrace_engine.observe.host_sync import HostSync
    from spectrace_engine.server_args import EngineConfig


class SpeculativeAlgorithm(IntEnum):
    NONE = auto()
    EAGLE = auto()
    EAGLE3 = auto()

    def is_none(self) -> bool:
        return self is SpeculativeAlgorithm.NONE

    def is_eagle(self) -> bool:
        return self in (SpeculativeAlgorithm.EAGLE, SpeculativeAlgorithm.EAGLE3)

    def is_eagle3(self) -> bool:
        return self is SpeculativeAlgorithm.EAGLE3

    @staticmethod
    def from_string(name: str | None) -> SpeculativeAlgorithm:
        return SpeculativeAlgorithm[(name or "NONE").upper()]


def create_worker(
    cfg: EngineConfig, pair: ModelPair, pool: KVPool, tp: GroupCoordinator, syncs: HostSync
) -> Any:
    """NONE -> TpModelWorker; EAGLE/EAGLE3 -> EAGLEWorkerV2 with the overlap scheduler on (spec
    v2), else EAGLEWorker. ``cfg`` is already resolved, so the flags decided it."""
    from spectrace_engine.managers.tp_worker import TpModelWorker

    if not cfg.spec.enabled:
        return TpModelWorker(cfg, pair.target, pool, tp, syncs)
    target_worker = TpModelWorker(cfg, pair.target, pool, tp, syncs)
    if not cfg.disable_overlap_schedule:
        from spectrace_engine.speculative.eagle_worker_v2 import EAGLEWorkerV2

        return EAGLEWorkerV2(cfg, pair, target_worker)
    from spectrace_engine.speculative.eagle_worker import EAGLEWorker

    return EAGLEWorker(cfg, pair, target_worker)
