"""ModelRunner: one model's forward, through its captured graphs when they fit (SGLang's forward).

The target's runner keeps ONE graph set, as SGLang's does: TARGET_VERIFY (``N`` rows per request)
when speculating, DECODE (one row) when not. Dynamic speculation disable needs plain steps too, so
only then is a DECODE set captured beside it; it serves batches that carry no spec_info, and a
batch that still carries one is a speculative batch, laid out ``bs x N`` by the verify graphs.
"""

from __future__ import annotations

from spectrace_engine.distributed.parallel_state import GroupCoordinator
from spectrace_engine.faults import Fault
from spectrace_engine.mem_cache.memory_pool import KVPool
from spectrace_engine.model_executor.cuda_graph_runner import (
    CudaGraphRunner,
    ReplayInfo,
    eager_forward,
    new_runner,
)
from spectrace_engine.model_executor.forward_batch_info import ForwardBatch, ForwardMode
from spectrace_engine.model_executor.prefill_graph import PrefillGraphs
from spectrace_engine.models.llama import TargetModel
from spectrace_engine.server_args import EngineConfig
from torch import Tensor


class ModelRunner:
    """The target model, its KV cache and its graph runners."""

    def __init__(
        self, cfg: EngineConfig, model: TargetModel, pool: KVPool, tp: GroupCoordinator
    ) -> None:
        self.cfg, self.model, self.pool, self.tp = cfg, model, pool, tp
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self.step_no = 0
        self.graph_runner = self._runner("target", *self.capture_mode())
        self.decode_graph_runner: CudaGraphRunner | None = None
        if cfg.spec.enabled and cfg.spec.disable_batch_threshold is not None:
            self.decode_graph_runner = self._runner("target_decode", ForwardMode.DECODE, 1)
        graphs = not cfg.disable_cuda_graph and tp.size == 1  # no collectives in these graphs
        self.prefill_graphs = PrefillGraphs(
            self._forward_fn, self.device, pool.max_len, pool.scratch_slot, None, graphs
        )
        self.prefill_sets = [self.prefill_graphs]  # the draft's joins (engine.capture_prefill)

    def capture_mode(self) -> tuple[ForwardMode, int]:
        """SGLang's ``capture_forward_mode`` and ``num_tokens_per_bs``."""
        s = self.cfg.spec
        if s.enabled:
            return ForwardMode.TARGET_VERIFY, s.num_draft_tokens
        return ForwardMode.DECODE, 1

    def _runner(self, name: str, mode: ForwardMode, tokens: int) -> CudaGraphRunner:
        cfg = self.cfg
        return new_runner(
            name,
            self._forward_fn,
            mode,
            tokens,
            cfg.graph_bs,
            self.pool.max_len,
            None,
            self.device,
            self.dtype,
            self.pool.scratch_slot,
            enabled=not cfg.disable_cuda_graph,
            neutralise=not cfg.faults.on(Fault.DIRTY_PADDING),
        )

    @property
    def graph_runners(self) -> list[CudaGraphRunner]:
        return [r for r in (self.graph_runner, self.decode_graph_runner) if r is not None]

    def _forward_fn(self, tok, pos, slots, locs, mask, hidden) -> tuple[Tensor, Tensor]:  # type: ignore[no-untyped-def]
        return self.model(tok, pos, slots, locs, mask, self.pool.target)

    def graph_runner_for(self, forward_batch: ForwardBatch) -> CudaGraphRunner:
        if self.decode_graph_runner is not None and forward_batch.spec_info is None:
            return self.decode_graph_runner
        return self.graph_runner

    def forward(self, forward_batch: ForwardBatch) -> tuple[Tensor, Tensor, ReplayInfo]:
        """Logits (gathered over the TP ranks by the LM head), target features, and how the
        forward ran."""
        runner = self.graph_runner_for(forward_batch)
        self.tp.maybe_hang(self.step_no)
        if forward_batch.forward_mode.is_cuda_graph() and runner.can_run(forward_batch):
            (logits, aux), info = runner.replay(forward_batch)
        else:
            runner.stats.eager += 1
            (logits, aux), info = eager_forward(self._forward_fn, forward_batch)
        return logits, aux, info

    def forward_extend(self, tokens: list[list[int]], slots: Tensor) -> tuple[Tensor, Tensor]:
        """Prefill of new requests from column 0 (a captured bucket when one fits, else eager)."""
        return self.prefill_graphs.run(tokens, [0] * len(tokens), slots, None)
