"""What every worker shares: the graph runners, prefill, plain decode and the draft-KV catch-up."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch
from spectrace_engine.distributed.parallel_state import TPGroup
from spectrace_engine.faults import Fault
from spectrace_engine.layers.sampler import Sampler
from spectrace_engine.managers.schedule_batch import (
    EagleDraftInput,
    ForwardMode,
    ModelWorkerBatch,
    Req,
    ScheduleBatch,
)
from spectrace_engine.mem_cache.memory_pool import KVPool, causal_mask, extend_inputs
from spectrace_engine.model_executor.cuda_graph_runner import (
    GraphRunner,
    ReplayInfo,
    RunnerInput,
    StaticBuffers,
)
from spectrace_engine.models.weights import ModelPair
from spectrace_engine.observe.events import GpuSpan
from spectrace_engine.server_args import EngineConfig
from torch import Tensor

NAN_MESSAGE = "Detected errors during sampling! NaN in the logits."


@dataclass(slots=True)
class StepOutput:
    """One decode step as the scheduler and the events see it (host values)."""

    mode: str  # "decode" | "verify"
    info: ReplayInfo
    phases: dict[str, float] = field(default_factory=dict)  # wall µs per phase
    gpu_phases: dict[str, GpuSpan] = field(default_factory=dict)  # CUDA only, read at flush
    accepted: list[int] | None = None  # drafts accepted per request (verify only)
    spec_shapes: dict[str, object] | None = None
    host_syncs: int = 0  # device->host reads inside the step
    future: object | None = None  # v2: device results the scheduler resolves after the step


class Phases:
    """Per-phase wall time on the host and, on CUDA, GPU spans resolved only at event flush."""

    def __init__(self, device: torch.device) -> None:
        self.out: dict[str, float] = {}
        self.gpu: dict[str, GpuSpan] = {}
        self._t = time.perf_counter_ns()
        self._ev = self._event() if device.type == "cuda" else None

    @staticmethod
    def _event() -> torch.cuda.Event:
        ev = torch.cuda.Event(enable_timing=True)
        ev.record()
        return ev

    def mark(self, name: str) -> None:
        now = time.perf_counter_ns()
        self.out[name] = round((now - self._t) / 1000.0, 1)
        self._t = now
        if self._ev is not None:
            ev = self._event()
            self.gpu[name] = GpuSpan(self._ev, ev)
            self._ev = ev


class BaseWorker:
    """Target (+ draft) forwards through graph runners; subclasses add the speculative step."""

    def __init__(self, cfg: EngineConfig, pair: ModelPair, pool: KVPool, tp: TPGroup) -> None:
        self.cfg, self.pair, self.pool, self.tp = cfg, pair, pool, tp
        self.target, self.draft = pair.target, pair.draft
        self.device = next(self.target.parameters()).device
        self.dtype = next(self.target.parameters()).dtype
        self.max_len = pool.max_len
        self.step_no = 0
        self.sampler = Sampler(cfg.sampling, cfg.seed, self.device)
        s = cfg.spec
        self.n_draft = s.num_draft_tokens if s.enabled else 1
        self.target_runner = self._runner(
            "target", self._target_fwd, {"decode": 1, "verify": self.n_draft}, None
        )
        self.draft_runners: list[GraphRunner] = []
        if s.enabled:
            dim = self.target.cfg.dim
            self.draft_runner = self._runner("draft", self._draft_fwd, {"draft": s.eagle_topk}, dim)
            self.draft_extend_runner = self._runner(
                "draft_extend", self._draft_fwd, {"draft_extend": s.num_steps + 1}, dim
            )
            self.draft_runners = [self.draft_runner, self.draft_extend_runner]

    def _runner(self, name: str, fwd, modes: dict[str, int], hidden: int | None) -> GraphRunner:
        bs = self.cfg.graph_bs
        bufs = StaticBuffers.allocate(
            max(bs), max(bs) * max(modes.values()), self.max_len, hidden, self.device, self.dtype
        )
        return GraphRunner(
            name,
            fwd,
            modes,
            bs,
            bufs,
            self.pool.scratch_slot,
            enabled=not self.cfg.disable_cuda_graph,
            neutralise=not self.cfg.faults.on(Fault.DIRTY_PADDING),
        )

    def _target_fwd(
        self,
        tok: Tensor,
        pos: Tensor,
        slots: Tensor,
        locs: Tensor,
        mask: Tensor,
        hidden: Tensor | None,
    ) -> tuple[Tensor, Tensor]:
        return self.target(tok, pos, slots, locs, mask, self.pool.target)

    def _draft_fwd(
        self,
        tok: Tensor,
        pos: Tensor,
        slots: Tensor,
        locs: Tensor,
        mask: Tensor,
        hidden: Tensor | None,
    ) -> tuple[Tensor, Tensor]:
        assert hidden is not None and self.pool.draft is not None
        return self.draft(tok, hidden, pos, slots, locs, mask, self.pool.draft)

    @property
    def runners(self) -> list[GraphRunner]:
        return [self.target_runner, *self.draft_runners]

    # --- target forward (SGLang's ModelRunner.forward) -------------------------------------
    def run_target(self, mwb: ModelWorkerBatch) -> tuple[Tensor, Tensor, ReplayInfo]:
        """The spec token coefficient of the attached spec_info decides the row count."""
        per_req = mwb.spec_info.tokens_per_req() if mwb.spec_info is not None else 1
        if mwb.forward_mode is ForwardMode.TARGET_VERIFY:
            mode, positions = "verify", mwb.spec_info.positions  # type: ignore[union-attr]
            mask = mwb.spec_info.custom_mask  # type: ignore[union-attr]
        else:
            mode, positions = "decode", mwb.seq_lens
            mask = causal_mask(mwb.seq_lens, self.max_len)
        inp = RunnerInput(
            mwb.bs, per_req, mwb.input_ids, positions, mwb.out_cache_loc, mwb.req_pool_indices, mask
        )
        (logits, aux), info = self.target_runner.run(mode, inp)
        return self.tp.all_reduce_logits(logits, self.step_no), aux, info

    def poison(self, logits: Tensor) -> Tensor:
        """nan_logits fault: one request's logits become NaN at the configured step."""
        f = self.cfg.faults
        if f.on(Fault.NAN_LOGITS) and self.step_no == f.fault_step:
            logits = logits.clone()
            logits[-1] = float("nan")
        return logits

    def check_nan(self, logits: Tensor) -> None:
        """SGLang's sampler NaN detection (a host sync; v2 defers it to the step boundary)."""
        if bool(torch.isnan(logits).any()):
            raise ValueError(NAN_MESSAGE)

    # --- prefill ------------------------------------------------------------------------------
    def forward_extend(self, reqs: list[Req], spec: bool) -> ScheduleBatch:
        """Target prefill of new requests; with speculation on, the draft extends over them too."""
        for r in reqs:
            r.slot = self.pool.alloc_slot()
        lengths = [len(r.prompt) for r in reqs]
        pos, cols, mask = extend_inputs(lengths, [0] * len(reqs), self.device, self.max_len)
        tokens = torch.zeros(pos.shape, dtype=torch.long, device=self.device)
        for b, r in enumerate(reqs):
            tokens[b, : lengths[b]] = torch.tensor(r.prompt, device=self.device)
        slots = torch.tensor([r.slot for r in reqs], device=self.device)
        logits, aux = self.target(tokens, pos, slots, cols, mask, self.pool.target)
        logits = self.tp.all_reduce_logits(logits, self.step_no)
        last = torch.tensor(lengths, device=self.device) - 1
        first = logits[torch.arange(len(reqs), device=self.device), last]
        self.check_nan(first)
        for r, tok in zip(reqs, self.sampler.sample(first).tolist(), strict=True):
            r.output.append(tok)
        batch = ScheduleBatch(reqs, self.device, is_spec_v2=self.cfg.worker == "v2")
        if self.draft is not None and self.cfg.spec.enabled:
            for b, r in enumerate(reqs):
                r.draft_len, r.pending = 0, [aux[b, : lengths[b]]]
            if spec:
                batch.spec_info = self.catch_up_draft(batch, last_only=False)
        return batch

    # --- plain decode ---------------------------------------------------------------------------
    def forward_decode(self, batch: ScheduleBatch) -> StepOutput:
        """One token per request through the decode graph (speculation off or algorithm NONE)."""
        ph = Phases(self.device)
        batch.prepare_for_decode(self.pool)
        logits, aux, info = self.run_target(batch.get_model_worker_batch())
        ph.mark("decode")
        logits = self.poison(logits[:, 0])
        self.check_nan(logits)
        next_ids = self.sampler.sample(logits)  # after replay: the graph holds the forward only
        if self.cfg.spec.enabled:
            feats = aux[:, 0].clone()
            for b, r in enumerate(batch.reqs):
                r.pending.append(feats[b : b + 1])
        for r, tok in zip(batch.reqs, next_ids.tolist(), strict=True):
            r.output.append(tok)
        batch.seq_lens = batch.seq_lens + 1
        batch.output_ids = next_ids
        ph.mark("commit")
        return StepOutput("decode", info, ph.out, gpu_phases=ph.gpu, host_syncs=2)

    # --- draft KV bookkeeping across spec on/off ----------------------------------------------
    def remember_for_catch_up(self, batch: ScheduleBatch) -> None:
        """Spec -> plain: keep the last target feature so the catch-up re-runs the last row."""
        si = batch.spec_info
        if not isinstance(si, EagleDraftInput) or len(si.target_hidden) != batch.batch_size():
            return
        for b, r in enumerate(batch.reqs):
            r.draft_len, r.pending = r.kv_len - 1, [si.target_hidden[b : b + 1]]

    def catch_up_draft(self, batch: ScheduleBatch, last_only: bool) -> EagleDraftInput:
        """Draft extend over every position the draft has not seen (eager, variable length)."""
        reqs = batch.reqs
        starts, feats, toks = [], [], []
        for r in reqs:
            feat = torch.cat(r.pending)
            d = r.kv_len - feat.shape[0]
            if last_only:
                feat, d = feat[-1:], r.kv_len - 1
            starts.append(d)
            feats.append(feat)
            toks.append(r.tokens[d + 1 : r.kv_len + 1])
        lengths = [len(t) for t in toks]
        pos, cols, mask = extend_inputs(lengths, starts, self.device, self.max_len)
        t = pos.shape[1]
        tokens = torch.zeros(len(reqs), t, dtype=torch.long, device=self.device)
        fpad = feats[0].new_zeros(len(reqs), t, feats[0].shape[-1])
        for b in range(len(reqs)):
            tokens[b, : lengths[b]] = torch.tensor(toks[b], device=self.device)
            fpad[b, : lengths[b]] = feats[b]
        logits, hout = self.draft(
            tokens, self.draft.fuse(fpad), pos, batch.req_pool_indices, cols, mask, self.pool.draft
        )
        rows = torch.arange(len(reqs), device=self.device)
        last = torch.tensor(lengths, device=self.device) - 1
        topk_p, topk_index = torch.softmax(logits[rows, last], -1).topk(self.cfg.spec.eagle_topk)
        for r in reqs:
            r.draft_len, r.pending = r.kv_len, []
        return EagleDraftInput(
            topk_p,
            topk_index,
            hout[rows, last],
            batch.output_ids.clone(),
            fpad[rows, last],
            self.n_draft,
        )
