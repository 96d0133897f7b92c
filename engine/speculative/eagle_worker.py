"""EAGLEWorker (v1, non-overlap): any topk, tree verify, accept lengths read on the host.

The scheduler hands it the ScheduleBatch itself, as SGLang's v1 does, and it lays out the verify
rows on the batch: ``bs x N`` KV columns allocated here, in the worker.
"""

from __future__ import annotations

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.kernels.verify import VerifyOutput
from spectrace_engine.managers.schedule_batch import ScheduleBatch
from spectrace_engine.managers.tp_worker import GenerationBatchResult, Phases
from spectrace_engine.mem_cache.memory_pool import alloc_token_slots
from spectrace_engine.model_executor.cuda_graph_runner import ReplayInfo
from spectrace_engine.model_executor.forward_batch_info import ForwardMode
from spectrace_engine.speculative.eagle_info import EagleDraftInput, EagleVerifyInput
from spectrace_engine.speculative.eagle_worker_common import EagleDraftBase
from torch import Tensor


class EAGLEWorker(EagleDraftBase):
    """draft -> build tree -> verify -> host-side accept -> draft extend, one step at a time."""

    def forward_batch_generation(self, batch: ScheduleBatch) -> GenerationBatchResult:
        """One decode step; a batch the scheduler turned plain (dynamic disable) goes to the
        target worker alone."""
        if batch.spec_algorithm.is_none():
            mwb = batch.get_model_worker_batch()
            if self.cfg.faults.on(Fault.CLEAR_MWB_SPEC_INFO):
                mwb.spec_info = None  # story crash 3: the copy is cleared, the batch keeps it
            return self.target_worker.forward_batch_generation(mwb)  # type: ignore[return-value]
        ph, before = Phases(self.device), self.syncs.n
        draft_input = batch.spec_info
        assert isinstance(draft_input, EagleDraftInput)
        verify_input = self.draft(batch.seq_lens, batch.req_pool_indices, draft_input)
        ph.mark("draft")
        logits, aux, info = self.verify(batch, verify_input)
        ph.mark("verify_forward")
        logits = self.target_worker.poison(logits)
        self.target_worker.check_nan(logits)
        out = verify_input.verify(logits, self.sampler, self.cfg.spec, self.cfg.verify_backend)
        ph.mark("verify_kernel")
        accepted = self.accept(batch, out)
        ph.mark("commit")
        batch.spec_info, batch.seq_lens = self.forward_draft_extend_after_decode(
            batch.seq_lens, batch.req_pool_indices, out, aux
        )
        batch.output_ids = batch.input_ids = batch.spec_info.verified_id
        batch.forward_mode = ForwardMode.DECODE
        ph.mark("draft_extend")
        return GenerationBatchResult(
            "verify",
            info,
            ph.out,
            ph.gpu,
            accepted,
            verify_input.shapes(),
            host_syncs=self.syncs.n - before,
        )

    def verify(
        self, batch: ScheduleBatch, vi: EagleVerifyInput
    ) -> tuple[Tensor, Tensor, ReplayInfo]:
        """Target forward in TARGET_VERIFY mode over bs x N rows whose KV columns v1 allocates."""
        batch.spec_info = vi
        batch.forward_mode = ForwardMode.TARGET_VERIFY
        batch.input_ids = vi.draft_token
        batch.out_cache_loc = alloc_token_slots(self.pool, batch.seq_lens, self.n_draft)  # type: ignore[assignment]
        return self.target_worker.forward_batch_generation(  # type: ignore[return-value]
            batch.get_model_worker_batch(), is_verify=True
        )

    def accept(self, batch: ScheduleBatch, out: VerifyOutput) -> list[int]:
        """Host side: append emitted tokens (truncated at max_new_tokens), compact target KV."""
        packed = torch.cat([out.accept_length[:, None], out.tokens], 1)
        acc = []
        for r, row in zip(batch.reqs, self.syncs.tolist(packed), strict=True):
            a, room = row[0], r.max_new_tokens - len(r.output)
            r.output.extend(row[1 : a + 2][:room])
            acc.append(a)
        if self.cfg.spec.eagle_topk > 1:
            self.move_accepted_kv(batch, out)
        return acc

    def move_accepted_kv(self, batch: ScheduleBatch, out: VerifyOutput) -> None:
        """Accepted tree nodes sit at columns n + node; the kept path must be n, n+1, ..."""
        bs, width = out.accept_index.shape
        n = batch.seq_lens[:, None]
        dst = n + torch.arange(width, device=self.device)
        node = out.accept_index - torch.arange(bs, device=self.device)[:, None] * self.n_draft
        src = torch.where(out.accept_index >= 0, n + node, dst)
        self.pool.target.move(batch.req_pool_indices, src, dst)
