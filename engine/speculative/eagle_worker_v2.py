"""EAGLEWorkerV2 (overlap-style): topk 1 chains in fixed ``bs x N`` layouts, accept on the device.

Nothing inside a step reads a device value on the host: the verify rows, KV columns and draft
extend rows are laid out from shapes alone (``N = steps + 1`` rows per request), the accepted
lengths select rows on the device, and the host sees the results only at the step boundary
(``resolve``). The scheduler launches step n before it resolves step n-1, so the host bookkeeping
of one step runs while the device computes the next, as with SGLang's future map.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from spectrace_engine.managers.schedule_batch import (
    EagleDraftInput,
    EagleVerifyInput,
    ForwardMode,
    ModelWorkerBatch,
    Req,
    ScheduleBatch,
)
from spectrace_engine.managers.tp_worker import NAN_MESSAGE, Phases, StepOutput
from spectrace_engine.model_executor.cuda_graph_runner import ReplayInfo
from spectrace_engine.speculative.build_eagle_tree import DraftTree, StepSelection, chain_tree
from spectrace_engine.speculative.eagle_worker_common import SpecOps
from torch import Tensor


@dataclass(frozen=True, slots=True)
class FutureTokens:
    """A v2 step's results, copied to the host asynchronously; ``ready`` marks the copy done."""

    host: Tensor  # [bs, 1 + N + 1]: accept length, emitted tokens (-1 padded), NaN seen
    ready: object | None  # a CUDA event recorded after the copy (None on CPU: already done)

    @classmethod
    def launch(cls, tokens: Tensor, accept_length: Tensor, nan_seen: Tensor) -> FutureTokens:
        packed = torch.cat(
            [accept_length[:, None], tokens, nan_seen.long().expand(tokens.shape[0], 1)], 1
        )
        if packed.device.type != "cuda":
            return cls(packed, None)
        host = torch.empty(packed.shape, dtype=packed.dtype, pin_memory=True)
        host.copy_(packed, non_blocking=True)
        ready = torch.cuda.Event()
        ready.record()
        return cls(host, ready)


class EAGLEWorkerV2(SpecOps):
    """draft chain -> verify -> device accept -> draft extend; results resolved after the step."""

    def forward_batch_generation(self, batch: ScheduleBatch, speculate: bool) -> StepOutput:
        if not speculate:
            return self.forward_decode(batch)
        ph = Phases(self.device)
        draft_input = batch.spec_info
        assert isinstance(draft_input, EagleDraftInput)
        tree = self.draft_tree(batch, draft_input)
        ph.mark("draft")
        verify_input = self.build_verify_input(tree, batch.seq_lens)
        ph.mark("build_tree")
        logits, aux, info = self.verify(batch, verify_input)
        ph.mark("verify_forward")
        logits = self.poison(logits)
        nan_seen = torch.isnan(logits).any()
        out = self.verify_kernel(tree, logits)
        ph.mark("verify_kernel")
        batch.spec_info = self.forward_draft_extend_after_decode(batch, out, aux)
        ph.mark("draft_extend")
        future = FutureTokens.launch(out.tokens, out.accept_length, nan_seen)
        return StepOutput(
            "verify", info, ph.out, ph.gpu, None, verify_input.shapes(), host_syncs=0, future=future
        )

    def organize_tree(self, verified_id: Tensor, sels: list[StepSelection]) -> DraftTree:
        """Fixed chain layout: depth d's single pick is draft token d + 1."""
        drafts = torch.stack([sel.input_ids for sel in sels], dim=1)
        return chain_tree(verified_id, drafts)

    def verify(
        self, batch: ScheduleBatch, vi: EagleVerifyInput
    ) -> tuple[Tensor, Tensor, ReplayInfo]:
        """Verify rows and KV columns from shapes only: n + 0..N-1 per request, no allocator sync."""
        bs = batch.batch_size()
        locs = batch.seq_lens[:, None] + torch.arange(self.n_draft, device=self.device)
        mwb = ModelWorkerBatch(
            ForwardMode.TARGET_VERIFY,
            bs,
            vi.draft_token,
            batch.req_pool_indices,
            batch.seq_lens,
            locs.flatten(),
            vi,
        )
        return self.run_target(mwb)

    def resolve(self, reqs: list[Req], future: FutureTokens) -> list[int]:
        """The step boundary: wait for this step's copy only, then the host bookkeeping."""
        if future.ready is not None:
            future.ready.synchronize()  # type: ignore[attr-defined]
        packed = future.host.tolist()
        if packed and packed[0][-1]:
            raise ValueError(NAN_MESSAGE)
        accepted = []
        for r, row in zip(reqs, packed, strict=True):
            a = row[0]
            room = r.max_new_tokens - len(r.output)
            r.output.extend(row[1 : a + 2][:room])
            accepted.append(a)
        return accepted
