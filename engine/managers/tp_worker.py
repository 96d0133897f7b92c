"""TpModelWorker: the target model's worker (SGLang's), prefill and plain decode with its sampler.

A plain server (``--speculative-algorithm NONE``) runs this worker alone; the EAGLE workers hold
one as their ``target_worker`` and call it for prefill and for the verify forward
(``is_verify``), as SGLang's speculative workers do.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch
from spectrace_engine.distributed.parallel_state import GroupCoordinator
from spectrace_engine.faults import Fault
from spectrace_engine.layers.sampler import SampleEpilogue, Sampler
from spectrace_engine.managers.overlap_utils import FutureTokens, PinnedRing
from spectrace_engine.managers.schedule_batch import ModelWorkerBatch, Req, ScheduleBatch
from spectrace_engine.mem_cache.memory_pool import KVPool
from spectrace_engine.model_executor.cuda_graph_runner import CudaGraphRunner, ReplayInfo
from spectrace_engine.model_executor.forward_batch_info import ForwardBatch
from spectrace_engine.model_executor.model_runner import ModelRunner
from spectrace_engine.models.llama import TargetModel
from spectrace_engine.observe.events import GpuSpan
from spectrace_engine.observe.host_sync import HostSync
from spectrace_engine.observe.host_time import PHASE_CATEGORY, HostClock
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.eagle_verify_cuda_graph import verify_epilogue
from torch import Tensor

NAN_MESSAGE = "Detected errors during sampling! NaN in the logits."


def sample_epilogue(cfg: EngineConfig, sampler: Sampler, vocab: int) -> SampleEpilogue | None:
    """The plain decode's token choice for its graphs, or None where it must follow the replay:
    the same exceptions as the verify's (eagle_verify_cuda_graph.verify_epilogue)."""
    if not cfg.verify_in_graph or cfg.disable_cuda_graph or cfg.tp_size > 1:
        return None
    if cfg.faults.on(Fault.NAN_LOGITS):
        return None
    return SampleEpilogue(sampler, max(cfg.graph_bs), vocab)


@dataclass(slots=True)
class GenerationBatchResult:
    """One decode step as the scheduler and the events see it."""

    mode: str  # "decode" | "verify"
    info: ReplayInfo
    phases: dict[str, float] = field(default_factory=dict)  # wall µs per phase
    gpu_phases: dict[str, GpuSpan] = field(default_factory=dict)  # CUDA only, read at flush
    accepted: list[int] | None = None  # drafts accepted per request (v1: read in the step)
    spec_shapes: dict[str, object] | None = None
    host_syncs: int = 0  # device -> host reads inside the step, measured (HostSync)
    resolve_syncs: int = 0  # reads when the scheduler processed the result (FutureTokens)
    future: FutureTokens | None = None  # results the scheduler reads after the step
    # [bs] each request's new root, on the device; after a plain graph step a view of the graph's
    # output, which its next replay rewrites: read it before the next launch (the next step's
    # inputs are) or clone it. The lengths (seq_lens) are a fresh tensor.
    next_token_ids: Tensor | None = None
    seq_lens: Tensor | None = None  # [bs] KV length after the step, on the device
    next_draft_input: object | None = None  # the EagleDraftInput the next step drafts from
    target_hidden: Tensor | None = None  # plain step of a spec server: features for catch-up


class Phases:
    """Per-phase wall time on the host and, on CUDA, GPU spans resolved only at event flush;
    each phase is also a lap of the rank's host clock (observe/host_time.py)."""

    def __init__(self, device: torch.device, clock: HostClock) -> None:
        self.out: dict[str, float] = {}
        self.gpu: dict[str, GpuSpan] = {}
        self.clock = clock
        clock.lap("prepare")  # the worker batch and forward batch were built before the phases
        self._t = time.perf_counter_ns()
        cuda = device.type == "cuda"
        self._stream = torch.cuda.current_stream() if cuda else None  # looked up once a step
        self._ev = self._event() if cuda else None

    def _event(self) -> torch.cuda.Event:
        ev = torch.cuda.Event(enable_timing=True)
        ev.record(self._stream)
        return ev

    def mark(self, name: str) -> None:
        self.clock.lap(PHASE_CATEGORY[name])
        now = time.perf_counter_ns()
        self.out[name] = round((now - self._t) / 1000.0, 1)
        self._t = now
        if self._ev is not None:
            ev = self._event()
            self.gpu[name] = GpuSpan(self._ev, ev)
            self._ev = ev


class TpModelWorker:
    """Target forwards through the model runner, then the sampler."""

    def __init__(
        self,
        cfg: EngineConfig,
        model: TargetModel,
        pool: KVPool,
        tp: GroupCoordinator,
        syncs: HostSync,
    ) -> None:
        self.cfg, self.model, self.pool, self.tp, self.syncs = cfg, model, pool, tp, syncs
        self.model_runner = ModelRunner(cfg, model, pool, tp)
        self.device, self.max_len = self.model_runner.device, pool.max_len
        self.sampler = Sampler(cfg.sampling, cfg.seed, self.device)
        self.n_draft = 1
        vocab, runner = model.cfg.vocab_size, self.model_runner
        if cfg.spec.enabled:  # the verify runs inside the target's verify graphs
            runner.graph_runner.epilogue = verify_epilogue(cfg, self.sampler, vocab, self.device)
        self.sample_epilogue = sample_epilogue(cfg, self.sampler, vocab)
        decode_runner = runner.decode_graph_runner or runner.graph_runner
        if decode_runner.derive:  # plain decode graphs choose their tokens too
            decode_runner.epilogue = self.sample_epilogue
        self.ring = PinnedRing(max(cfg.graph_bs), 3, self.device)  # rows [0, token, nan]

    @property
    def graph_runners(self) -> list[CudaGraphRunner]:
        return self.model_runner.graph_runners

    def poison(self, logits: Tensor) -> Tensor:
        """nan_logits fault: one request's logits become NaN at the configured step."""
        f = self.cfg.faults
        if f.on(Fault.NAN_LOGITS) and self.model_runner.step_no == f.fault_step:
            logits = logits.clone()
            logits[-1] = float("nan")
        return logits

    def check_nan(self, logits: Tensor) -> None:
        """SGLang's sampler NaN detection: a host read inside the step."""
        if self.syncs.any(torch.isnan(logits)):
            raise ValueError(NAN_MESSAGE)

    def forward_extend(self, reqs: list[Req], spec: bool = False) -> ScheduleBatch:
        """Prefill new requests into a batch of their own (the scheduler merges it)."""
        self.forward_target_extend(reqs)
        return ScheduleBatch(reqs, self.device, self.pool)

    def sample_after(self, logits: Tensor) -> tuple[Tensor, Tensor]:
        """The token choice launched after the forward: tokens and their ``[0, token, nan]``."""
        logits = self.poison(logits)
        ids = self.sampler.sample(logits)
        nan = torch.isnan(logits).any(-1).long()
        return ids, torch.stack((torch.zeros_like(ids), ids, nan), 1)

    def forward_target_extend(self, reqs: list[Req]) -> Tensor:
        """Prefill new requests (rows and tokens allocated by the scheduler; a retracted request
        re-reads its output too), sample each one's next token; returns the target features."""
        slots = torch.tensor([r.slot for r in reqs], device=self.device)
        fills = [r.tokens for r in reqs]
        logits, aux = self.model_runner.forward_extend(fills, slots)
        last = torch.tensor([len(f) - 1 for f in fills], device=self.device)
        first = logits[torch.arange(len(reqs), device=self.device), last]
        self.check_nan(first)
        for r, tok in zip(reqs, self.syncs.tolist(self.sampler.sample(first)), strict=True):
            r.output.append(tok)
        return aux

    def forward_batch_generation(
        self, mwb: ModelWorkerBatch, is_verify: bool = False
    ) -> GenerationBatchResult | tuple[Tensor, Tensor, ReplayInfo]:
        """A verify returns the raw forward; a decode samples on the device and launches the
        copy of its tokens, which the scheduler reads when it processes the result."""
        fb = ForwardBatch.init_new(mwb, self.max_len)
        if is_verify:
            return self.model_runner.forward(fb)
        ph, before = Phases(self.device, self.syncs.clock), self.syncs.n
        logits, aux, info = self.model_runner.forward(fb)
        ph.mark("decode")
        chosen = self.sample_epilogue.take() if self.sample_epilogue is not None else ()
        if info.epilogue and chosen:  # the graph chose: views of its outputs
            next_ids, packed = chosen
        else:  # eager, or the choice after the replay (TP > 1, nan_logits)
            next_ids, packed = self.sample_after(logits[:, 0])
        future = self.ring.launch(packed)
        ph.mark("sample")
        return GenerationBatchResult(
            "decode",
            info,
            ph.out,
            ph.gpu,
            host_syncs=self.syncs.n - before,
            future=future,
            next_token_ids=next_ids,
            seq_lens=mwb.seq_lens + 1,  # a fresh tensor: the old lengths stay readable
            target_hidden=aux[:, 0].clone() if self.cfg.spec.enabled else None,
        )
