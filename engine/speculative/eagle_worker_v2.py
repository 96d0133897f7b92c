"""EAGLEWorkerV2 + EagleDraftWorker (overlap): topk 1 chains in fixed ``bs x N`` layouts.

Nothing inside a step reads a device value on the host: the verify rows, KV columns and draft
extend rows are laid out from shapes alone (``N = steps + 1`` rows per request), the accepted
lengths select rows on the device, and the host sees the results only when the scheduler
processes them (``FutureTokens``), after it has launched the next step. The worker takes a
ModelWorkerBatch and never touches the ScheduleBatch: the next draft input, KV lengths and roots
come back in the result, and the scheduler keeps them.
"""

from __future__ import annotations

import torch
from spectrace_engine.managers.overlap_utils import FutureTokens
from spectrace_engine.managers.schedule_batch import ModelWorkerBatch, Req, ScheduleBatch
from spectrace_engine.managers.tp_worker import GenerationBatchResult, Phases, TpModelWorker
from spectrace_engine.model_executor.cuda_graph_runner import CudaGraphRunner, ReplayInfo
from spectrace_engine.model_executor.forward_batch_info import ForwardMode
from spectrace_engine.models.weights import ModelPair
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.build_eagle_tree import DraftTree, StepSelection, chain_tree
from spectrace_engine.speculative.eagle_info import EagleDraftInput, EagleVerifyInput
from spectrace_engine.speculative.eagle_worker_common import EagleDraftBase
from torch import Tensor


class EagleDraftWorker(EagleDraftBase):
    """v2's draft side: a fixed chain layout, depth d's single pick is draft token d + 1."""

    def organize_tree(self, verified_id: Tensor, sels: list[StepSelection]) -> DraftTree:
        drafts = torch.stack([sel.input_ids for sel in sels], dim=1)
        return chain_tree(verified_id, drafts)


class EAGLEWorkerV2:
    """draft chain -> verify -> device accept -> draft extend; results read after the step."""

    def __init__(self, cfg: EngineConfig, pair: ModelPair, target_worker: TpModelWorker) -> None:
        self.cfg, self.target_worker = cfg, target_worker
        self.draft_worker = EagleDraftWorker(cfg, pair, target_worker)
        self.pool, self.syncs, self.device = (
            target_worker.pool,
            target_worker.syncs,
            target_worker.device,
        )
        self.n_draft = cfg.spec.num_draft_tokens
        self.model_runner = target_worker.model_runner  # the step number lives there

    @property
    def graph_runners(self) -> list[CudaGraphRunner]:
        return self.draft_worker.graph_runners

    def forward_extend(self, reqs: list[Req], spec: bool) -> ScheduleBatch:
        return self.draft_worker.forward_extend(reqs, spec)

    def remember_for_catch_up(self, batch: ScheduleBatch) -> None:
        self.draft_worker.remember_for_catch_up(batch)

    def catch_up_draft(self, batch: ScheduleBatch, last_only: bool) -> EagleDraftInput:
        return self.draft_worker.catch_up_draft(batch, last_only)

    def forward_batch_generation(self, mwb: ModelWorkerBatch) -> GenerationBatchResult:
        if mwb.spec_algorithm.is_none():  # dynamic disable: a plain step
            return self.target_worker.forward_batch_generation(mwb)  # type: ignore[return-value]
        ph, before, dw = Phases(self.device, self.syncs.clock), self.syncs.n, self.draft_worker
        draft_input = mwb.spec_info
        assert isinstance(draft_input, EagleDraftInput)
        verify_input = dw.draft(mwb.seq_lens, mwb.req_pool_indices, draft_input)
        ph.mark("draft")
        logits, aux, info = self.verify(mwb, verify_input)
        ph.mark("verify_forward")
        logits = self.target_worker.poison(logits)
        nan_seen = verify_input.nan_seen(logits)
        out = verify_input.verify(logits, dw.sampler, self.cfg.spec, self.cfg.verify_backend)
        ph.mark("verify_kernel")
        next_input, seq_lens = dw.forward_draft_extend_after_decode(
            mwb.seq_lens, mwb.req_pool_indices, out, aux
        )
        ph.mark("draft_extend")
        return GenerationBatchResult(
            "verify",
            info,
            ph.out,
            ph.gpu,
            None,
            verify_input.shapes(),
            host_syncs=self.syncs.n - before,
            future=FutureTokens.launch(out.tokens, out.accept_length, nan_seen),
            next_token_ids=next_input.verified_id,
            seq_lens=seq_lens,
            next_draft_input=next_input,
        )

    def verify(
        self, mwb: ModelWorkerBatch, vi: EagleVerifyInput
    ) -> tuple[Tensor, Tensor, ReplayInfo]:
        """Verify rows and KV columns from shapes only: n + 0..N-1 per request, no allocator sync."""
        locs = mwb.seq_lens[:, None] + torch.arange(self.n_draft, device=self.device)
        verify_batch = ModelWorkerBatch(
            ForwardMode.TARGET_VERIFY,
            mwb.bs,
            vi.draft_token,
            mwb.req_pool_indices,
            mwb.seq_lens,
            locs.flatten(),
            vi,
            mwb.spec_algorithm,
        )
        return self.target_worker.forward_batch_generation(verify_batch, is_verify=True)  # type: ignore[return-value]
