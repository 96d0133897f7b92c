"""EAGLEWorker (v1, non-overlap): any topk, tree verify, accept lengths read on the host."""

from __future__ import annotations

import torch
from spectrace_engine.kernels.verify import VerifyOutput
from spectrace_engine.managers.schedule_batch import (
    EagleDraftInput,
    EagleVerifyInput,
    ForwardMode,
    ScheduleBatch,
)
from spectrace_engine.managers.tp_worker import Phases, StepOutput
from spectrace_engine.model_executor.cuda_graph_runner import ReplayInfo
from spectrace_engine.speculative.eagle_worker_common import SpecOps
from torch import Tensor


class EAGLEWorker(SpecOps):
    """draft -> build tree -> verify -> host-side accept -> draft extend, one step at a time."""

    def forward_batch_generation(self, batch: ScheduleBatch, speculate: bool) -> StepOutput:
        """One decode step: speculative when ``speculate``, else the plain decode graph."""
        if not speculate:
            return self.forward_decode(batch)
        ph = Phases(self.device)
        batch.prepare_for_decode(self.pool)  # lays out bs x N verify rows (spec_info attached)
        draft_input = batch.spec_info
        assert isinstance(draft_input, EagleDraftInput)
        tree = self.draft_tree(batch, draft_input)
        ph.mark("draft")
        verify_input = self.build_verify_input(tree, batch.seq_lens)
        ph.mark("build_tree")
        logits, aux, info = self.verify(batch, verify_input)
        ph.mark("verify_forward")
        logits = self.poison(logits)
        self.check_nan(logits)
        out = self.verify_kernel(tree, logits)
        ph.mark("verify_kernel")
        accepted = self.accept(batch, out)
        ph.mark("commit")
        batch.spec_info = self.forward_draft_extend_after_decode(batch, out, aux)
        ph.mark("draft_extend")
        return StepOutput(
            "verify", info, ph.out, ph.gpu, accepted, verify_input.shapes(), host_syncs=3
        )

    def verify(
        self, batch: ScheduleBatch, vi: EagleVerifyInput
    ) -> tuple[Tensor, Tensor, ReplayInfo]:
        """Target forward in TARGET_VERIFY mode over the bs x N rows prepare_for_decode set up."""
        batch.spec_info = vi
        batch.forward_mode = ForwardMode.TARGET_VERIFY
        batch.input_ids = vi.draft_token
        return self.run_target(batch.get_model_worker_batch())

    def accept(self, batch: ScheduleBatch, out: VerifyOutput) -> list[int]:
        """Host side: append emitted tokens (truncated at max_new_tokens), compact target KV."""
        acc = out.accept_length.tolist()
        tokens = out.tokens.tolist()
        for r, a, toks in zip(batch.reqs, acc, tokens, strict=True):
            room = r.max_new_tokens - len(r.output)
            r.output.extend(toks[: a + 1][:room])
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
