"""EAGLEWorker (v1, non-overlap): any topk, tree verify, accept lengths read on the host.

The scheduler hands it the ScheduleBatch itself, as SGLang's v1 does, and it lays out the verify
rows on the batch: ``bs x N`` KV tokens allocated here, in the worker (``prepare_for_decode``
leaves an EAGLE batch alone), the draft's scratch tokens allocated and handed back around the
draft (``backup_state`` / ``restore_state``), and after the verify the rejected nodes' tokens
freed and the accepted ones re-pointed in ``req_to_token`` so the kept path is contiguous.
"""

from __future__ import annotations

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.kernels.verify import VerifyOutput
from spectrace_engine.managers.schedule_batch import ScheduleBatch
from spectrace_engine.managers.tp_worker import GenerationBatchResult, Phases
from spectrace_engine.mem_cache.memory_pool import (
    alloc_token_slots,
    assign_req_to_token_pool,
    release_columns,
)
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
        ph, before = Phases(self.device, self.syncs.clock), self.syncs.n
        draft_input = batch.spec_info
        assert isinstance(draft_input, EagleDraftInput)
        verify_input = self.draft_with_scratch(batch, draft_input)
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

    def draft_with_scratch(self, batch: ScheduleBatch, di: EagleDraftInput) -> EagleVerifyInput:
        """The draft steps write ``topk x (steps-1)`` KV rows per request: tokens lent for the
        draft only, handed back before the verify allocates (SGLang's ``_draft_preprocess_decode``)."""
        s = self.cfg.spec
        width = s.eagle_topk * max(s.num_steps - 1, 0)
        rows, n = batch.req_pool_indices, batch.seq_lens
        if not width:
            return self.draft(n, rows, di)
        locs, state = alloc_token_slots(self.pool, batch.batch_size() * width, backup_state=True)
        assign_req_to_token_pool(self.pool, rows, n, width, locs)
        verify_input = self.draft(n, rows, di)
        self.pool.allocator.restore_state(state)
        release_columns(self.pool, rows, n, width)
        return verify_input

    def verify(
        self, batch: ScheduleBatch, vi: EagleVerifyInput
    ) -> tuple[Tensor, Tensor, ReplayInfo]:
        """Target forward in TARGET_VERIFY mode over bs x N rows whose KV tokens v1 allocates."""
        batch.spec_info = vi
        batch.forward_mode = ForwardMode.TARGET_VERIFY
        batch.input_ids = vi.draft_token
        locs = alloc_token_slots(self.pool, batch.batch_size() * self.n_draft)
        assign_req_to_token_pool(
            self.pool, batch.req_pool_indices, batch.seq_lens, self.n_draft, locs
        )  # type: ignore[arg-type]
        cols = batch.seq_lens[:, None] + torch.arange(self.n_draft, device=self.device)
        batch.out_cache_loc = cols.flatten()
        return self.target_worker.forward_batch_generation(  # type: ignore[return-value]
            batch.get_model_worker_batch(), is_verify=True
        )

    def accept(self, batch: ScheduleBatch, out: VerifyOutput) -> list[int]:
        """Host side: append emitted tokens (truncated at max_new_tokens), keep the accepted
        nodes' KV tokens and free the rest."""
        packed = torch.cat([out.accept_length[:, None], out.tokens], 1)
        acc = []
        for r, row in zip(batch.reqs, self.syncs.tolist(packed), strict=True):
            a, room = row[0], r.max_new_tokens - len(r.output)
            r.output.extend(row[1 : a + 2][:room])
            r.kv_allocated_len += a + 1  # the kept path: root + accepted drafts
            acc.append(a)
        self.free_rejected(batch, out, sum(acc) + len(acc))
        return acc

    def free_rejected(self, batch: ScheduleBatch, out: VerifyOutput, kept: int) -> None:
        """Accepted tree nodes sit at columns n + node; point n, n+1, ... at their tokens, give
        back the other nodes' tokens and clear their columns. ``kept`` (host) sizes the free list
        slice, so no device value is read for it."""
        bs, width = out.accept_index.shape
        rows, n, dev = batch.req_pool_indices, batch.seq_lens[:, None], self.device
        cols = n + torch.arange(self.n_draft, device=dev)
        tokens = self.pool.req_to_token[rows[:, None], cols].flatten()
        hits = torch.zeros(bs * self.n_draft, dtype=torch.long, device=dev)
        hits.index_add_(
            0, out.accept_index.clamp(min=0).flatten(), (out.accept_index >= 0).long().flatten()
        )
        rejected = torch.argsort((hits > 0).long(), stable=True)[: bs * self.n_draft - kept]
        dst = n + torch.arange(width, device=dev)
        node = out.accept_index - torch.arange(bs, device=dev)[:, None] * self.n_draft
        src = torch.where(out.accept_index >= 0, n + node, dst)
        self.pool.req_to_token[rows[:, None], dst] = self.pool.req_to_token[rows[:, None], src]
        stale = torch.arange(self.n_draft, device=dev)[None, :] > out.accept_length[:, None]
        self.pool.req_to_token[rows[:, None], cols] = torch.where(
            stale, 0, self.pool.req_to_token[rows[:, None], cols]
        )
        self.pool.allocator.free(tokens[rejected])
