"""The draft side both EAGLE workers share: the draft tree, the verify input, the draft extend
after a verify, and the draft-KV catch-up when speculation resumes. Device work only; how results
reach the host is each worker's own business (v1 reads them in the step, v2 after it)."""

from __future__ import annotations

import torch
from spectrace_engine.kernels.verify_simulated import draft_score_shape, shaped_scores
from spectrace_engine.managers.overlap_utils import to_device
from spectrace_engine.managers.schedule_batch import Req, ScheduleBatch
from spectrace_engine.managers.tp_worker import TpModelWorker
from spectrace_engine.mem_cache.memory_pool import causal_mask
from spectrace_engine.model_executor.cuda_graph_runner import CudaGraphRunner, eager_forward
from spectrace_engine.model_executor.forward_batch_info import ForwardBatch, ForwardMode
from spectrace_engine.model_executor.prefill_graph import PrefillGraphs
from spectrace_engine.models.weights import ModelPair
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.build_eagle_tree import (
    DraftTree,
    StepSelection,
    build_tree,
    chain_tree,
    draft_step_inputs,
    extend_ancestors,
    organize,
    select_top_k,
    verify_inputs,
)
from spectrace_engine.speculative.eagle_draft_cuda_graph_runner import (
    EAGLEDraftCudaGraphRunner,
    draft_extend_graph_runner,
)
from spectrace_engine.speculative.eagle_info import EagleDraftInput, EagleVerifyInput
from spectrace_engine.speculative.spec_info import SpeculativeAlgorithm
from torch import Tensor


class EagleDraftBase:
    """The draft head, its graphs, and the target worker it drafts for."""

    def __init__(self, cfg: EngineConfig, pair: ModelPair, target_worker: TpModelWorker) -> None:
        self.cfg, self.target_worker, self.draft_model = cfg, target_worker, pair.draft
        self.pool, self.syncs = target_worker.pool, target_worker.syncs
        self.model_runner = target_worker.model_runner  # the step number lives there
        self.device, self.max_len = target_worker.device, target_worker.max_len
        self.sampler = target_worker.sampler
        self.algorithm = SpeculativeAlgorithm.from_string(cfg.spec.algorithm)
        self.n_draft = cfg.spec.num_draft_tokens
        s = cfg.spec  # simulated acceptance ranks the candidates by stated scores (depth for trees)
        self.score_shape = draft_score_shape(
            s.simulate_accept_len, s.num_steps, s.eagle_topk, self.device
        )
        dim, dtype = pair.target.cfg.dim, target_worker.model_runner.dtype
        self.cuda_graph_runner = EAGLEDraftCudaGraphRunner(
            self.draft_forward,
            cfg.graph_bs,
            cfg.spec.eagle_topk,
            dim,
            self.pool.scratch_slot,
            self.device,
            dtype,
            enabled=not cfg.disable_cuda_graph,
        )
        self.cuda_graph_runner_for_draft_extend = draft_extend_graph_runner(
            cfg, self._draft_fn, dim, self.max_len, self.pool.scratch_slot, self.device, dtype
        )
        graphs = not cfg.disable_cuda_graph and cfg.tp_size == 1
        self.draft_prefill = PrefillGraphs(
            self._draft_fn, self.device, self.max_len, self.pool.scratch_slot, (dim, dtype), graphs
        )
        self.model_runner.prefill_sets.append(self.draft_prefill)

    @property
    def graph_runners(self) -> list[CudaGraphRunner]:
        """Target graphs first, then the draft's: the order they are captured in."""
        draft = [self.cuda_graph_runner, self.cuda_graph_runner_for_draft_extend]
        return [*self.target_worker.graph_runners, *draft]

    def _draft_fn(self, tok, pos, slots, locs, mask, hidden) -> tuple[Tensor, Tensor]:  # type: ignore[no-untyped-def]
        return self.draft_model(tok, hidden, pos, slots, locs, mask, self.pool.draft)

    def run_draft(self, runner: CudaGraphRunner, fb: ForwardBatch) -> tuple[Tensor, Tensor]:
        if runner.can_run(fb):
            return runner.replay(fb)[0]
        runner.stats.eager += 1
        return eager_forward(self._draft_fn, fb)[0]

    # --- prefill ---------------------------------------------------------------------------
    def forward_extend(self, reqs: list[Req], spec: bool) -> ScheduleBatch:
        """Target prefill, then (speculating) the draft extends over the prompts."""
        aux = self.target_worker.forward_target_extend(reqs)
        batch = ScheduleBatch(reqs, self.device, self.pool)
        for b, r in enumerate(reqs):
            self.pool.features.write_span(r.slot, 0, aux[b, : r.kv_len])  # type: ignore[union-attr]
            r.draft_len = 0
        if spec:
            batch.spec_algorithm = self.algorithm
            batch.spec_info = self.catch_up_draft(batch, last_only=False)
        return batch

    # --- draft ------------------------------------------------------------------------------
    def draft(self, seq_lens: Tensor, slots: Tensor, di: EagleDraftInput) -> EagleVerifyInput:
        """The whole multi-step draft, replayed as one graph when the batch fits."""
        inputs = (di.topk_p, di.topk_index, di.hidden_states, di.verified_id, seq_lens, slots)
        runner = self.cuda_graph_runner
        if runner.can_run(seq_lens.shape[0]):
            out, _ = runner.replay(inputs)
        else:
            runner.stats.eager += 1
            out = self.draft_forward(*inputs)
        s = self.cfg.spec
        return EagleVerifyInput(*out, self.n_draft, s.num_steps, s.eagle_topk)

    def draft_forward(
        self,
        topk_p: Tensor,
        topk_index: Tensor,
        hidden_states: Tensor,
        verified_id: Tensor,
        seq_lens: Tensor,
        slots: Tensor,
    ) -> tuple[Tensor, ...]:
        """s selection steps, s-1 draft forwards (step 0's top-k comes from the draft extend),
        then the tree's verify rows: everything the draft graph captures, no host read."""
        s = self.cfg.spec
        k, bs = s.eagle_topk, seq_lens.shape[0]
        shape = self.score_shape
        sel = select_top_k(0, shaped_scores(topk_p, shape), topk_index, hidden_states, None, k)
        sels = [sel]
        ancestors = torch.zeros(bs, k, 0, dtype=torch.long, device=self.device)
        for f in range(s.num_steps - 1):
            if f > 0:
                ancestors = extend_ancestors(ancestors, sel.branch_parent)
            logits, hidden = self.draft_step(seq_lens, slots, sel, f, ancestors)
            probs = torch.softmax(logits.flatten(0, 1), -1)
            step_p, step_index = probs.topk(k, dim=-1)
            step_p = shaped_scores(step_p, shape)
            sel = select_top_k(f + 1, step_p, step_index, hidden.flatten(0, 1), sel.scores, k)
            sels.append(sel)
        tree = self.organize_tree(verified_id, sels)
        positions, _, mask = verify_inputs(tree, seq_lens, self.max_len)
        return (
            tree.draft_tokens.flatten(),
            positions.flatten(),
            mask.reshape(-1, self.max_len),
            tree.retrive_index,
            tree.retrive_next_token,
            tree.retrive_next_sibling,
        )

    def organize_tree(self, verified_id: Tensor, sels: list[StepSelection]) -> DraftTree:
        k = self.cfg.spec.eagle_topk
        parent_list, top, draft_tokens = organize(sels, self.n_draft)
        if k == 1:
            return chain_tree(verified_id, draft_tokens)
        return build_tree(verified_id, parent_list, top, draft_tokens, k)

    def draft_step(
        self, seq_lens: Tensor, slots: Tensor, sel: StepSelection, f: int, ancestors: Tensor
    ) -> tuple[Tensor, Tensor]:
        """One draft forward of ``topk`` rows per request (inside the draft graph)."""
        s = self.cfg.spec
        bs, k = seq_lens.shape[0], s.eagle_topk
        pos, locs, mask = draft_step_inputs(seq_lens, f, ancestors, k, s.num_steps, self.max_len)
        hidden = sel.hidden.view(bs, k, -1)
        return self._draft_fn(sel.input_ids.view(bs, k), pos, slots, locs, mask, hidden)

    # --- draft extend -------------------------------------------------------------------------
    def forward_draft_extend_after_decode(
        self,
        seq_lens: Tensor,
        slots: Tensor,
        out,
        aux: Tensor,  # type: ignore[no-untyped-def]
    ) -> tuple[EagleDraftInput, Tensor]:
        """Draft re-reads the emitted tokens with the target's features: s+1 rows, masked.
        Returns the next draft input and the KV lengths after the step; mutates nothing."""
        s = self.cfg.spec
        bs, width = out.tokens.shape
        rows = torch.arange(bs, device=self.device)
        node = (out.accept_index - rows[:, None] * self.n_draft).clamp(min=0)
        feats = torch.gather(aux, 1, node[:, :, None].expand(-1, -1, aux.shape[-1]))
        locs = seq_lens[:, None] + torch.arange(width, device=self.device)
        fb = ForwardBatch(
            ForwardMode.DRAFT_EXTEND,
            bs,
            out.tokens.clamp(min=0).flatten(),
            locs.flatten(),
            locs.flatten(),
            slots,
            causal_mask(locs, self.max_len),
            hidden=self.draft_model.fuse(feats).flatten(0, 1),
        )
        logits, hout = self.run_draft(self.cuda_graph_runner_for_draft_extend, fb)
        acc = out.accept_length
        topk_p, topk_index = torch.softmax(logits[rows, acc], -1).topk(s.eagle_topk)
        verified = out.tokens[rows, acc]
        draft_input = EagleDraftInput(
            topk_p,
            topk_index,
            hout[rows, acc].clone(),
            verified,
            feats[rows, acc],
            self.n_draft,
            acc,
        )
        return draft_input, seq_lens + acc + 1

    # --- draft KV across spec on/off ------------------------------------------------------------
    def remember_for_catch_up(self, batch: ScheduleBatch) -> None:
        """Spec -> plain: keep the last target feature so the catch-up re-runs the last row."""
        si = batch.spec_info
        if not isinstance(si, EagleDraftInput) or len(si.target_hidden) != batch.batch_size():
            return
        last = to_device([r.kv_len - 1 for r in batch.reqs], self.device)
        self.pool.features.write(batch.req_pool_indices, last, si.target_hidden)  # type: ignore[union-attr]
        for r in batch.reqs:
            r.draft_len = r.kv_len - 1

    def catch_up_draft(self, batch: ScheduleBatch, last_only: bool) -> EagleDraftInput:
        """Draft extend over every position the draft has not seen (the prefill graphs when a
        bucket fits: after a prefill; a resume's longer catch-up runs eagerly)."""
        reqs = batch.reqs
        starts, feats, toks = [], [], []
        store = self.pool.features
        for r in reqs:
            d = r.kv_len - 1 if last_only else r.draft_len
            starts.append(d)
            feats.append(store.read(r.slot, d, r.kv_len))  # type: ignore[union-attr]
            toks.append(r.tokens[d + 1 : r.kv_len + 1])
        lengths = [len(t) for t in toks]
        fpad = feats[0].new_zeros(len(reqs), max(lengths), feats[0].shape[-1])
        for b in range(len(reqs)):
            fpad[b, : lengths[b]] = feats[b]
        hidden = self.draft_model.fuse(fpad)
        logits, hout = self.draft_prefill.run(toks, starts, batch.req_pool_indices, hidden)
        rows = torch.arange(len(reqs), device=self.device)
        last = torch.tensor(lengths, device=self.device) - 1
        topk_p, topk_index = torch.softmax(logits[rows, last], -1).topk(self.cfg.spec.eagle_topk)
        for r in reqs:
            r.draft_len = r.kv_len
        return EagleDraftInput(
            topk_p,
            topk_index,
            hout[rows, last],
            batch.output_ids.clone(),
            fpad[rows, last],
            self.n_draft,
        )
