"""The speculative operations both EAGLE workers share: draft tree, verify input/kernel, draft extend."""

from __future__ import annotations

import torch
from spectrace_engine.kernels.verify import (
    VerifyOutput,
    verify_greedy_chain,
    verify_greedy_tree,
    verify_tree_sampling,
)
from spectrace_engine.managers.schedule_batch import (
    EagleDraftInput,
    EagleVerifyInput,
    ForwardMode,
    ScheduleBatch,
)
from spectrace_engine.managers.tp_worker import BaseWorker
from spectrace_engine.mem_cache.memory_pool import causal_mask
from spectrace_engine.model_executor.cuda_graph_runner import RunnerInput
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
from torch import Tensor


class SpecOps(BaseWorker):
    """Device-side pieces of a speculative step; the workers decide how results reach the host."""

    # --- draft ---------------------------------------------------------------------------------
    def draft_tree(self, batch: ScheduleBatch, di: EagleDraftInput) -> DraftTree:
        """s selection steps, s-1 draft forwards (step 0's top-k comes from the draft extend)."""
        s = self.cfg.spec
        k, bs = s.eagle_topk, batch.batch_size()
        sel = select_top_k(0, di.topk_p, di.topk_index, di.hidden_states, None, k)
        sels = [sel]
        ancestors = torch.zeros(bs, k, 0, dtype=torch.long, device=self.device)
        for f in range(s.num_steps - 1):
            if f > 0:
                ancestors = extend_ancestors(ancestors, sel.branch_parent)
            logits, hidden = self.draft_forward(batch, sel.input_ids, sel.hidden, f, ancestors)
            probs = torch.softmax(logits.flatten(0, 1), -1)
            topk_p, topk_index = probs.topk(k, dim=-1)
            sel = select_top_k(f + 1, topk_p, topk_index, hidden.flatten(0, 1), sel.scores, k)
            sels.append(sel)
        return self.organize_tree(di.verified_id, sels)

    def organize_tree(self, verified_id: Tensor, sels: list[StepSelection]) -> DraftTree:
        k = self.cfg.spec.eagle_topk
        parent_list, top, draft_tokens = organize(sels, self.n_draft)
        if k == 1:
            return chain_tree(verified_id, draft_tokens)
        return build_tree(verified_id, parent_list, top, draft_tokens, k)

    def draft_forward(
        self, batch: ScheduleBatch, input_ids: Tensor, hidden: Tensor, f: int, ancestors: Tensor
    ) -> tuple[Tensor, Tensor]:
        s = self.cfg.spec
        bs, k = batch.batch_size(), s.eagle_topk
        pos, locs, mask = draft_step_inputs(
            batch.seq_lens, f, ancestors, k, s.num_steps, self.max_len
        )
        inp_rows = input_ids.shape[0] // bs
        inp = RunnerInput(
            bs,
            inp_rows,
            input_ids,
            pos.flatten(),
            locs.flatten(),
            batch.req_pool_indices,
            mask.reshape(-1, self.max_len),
            hidden,
        )
        (logits, hout), _ = self.draft_runner.run("draft", inp)
        return logits, hout

    # --- verify --------------------------------------------------------------------------------
    def build_verify_input(self, tree: DraftTree, seq_lens: Tensor) -> EagleVerifyInput:
        positions, _, mask = verify_inputs(tree, seq_lens, self.max_len)
        s = self.cfg.spec
        return EagleVerifyInput(
            tree.draft_tokens.flatten(),
            positions.flatten(),
            mask.reshape(-1, self.max_len),
            tree.retrive_index,
            tree.retrive_next_token,
            tree.retrive_next_sibling,
            self.n_draft,
            s.num_steps,
            s.eagle_topk,
        )

    def verify_kernel(self, tree: DraftTree, logits: Tensor) -> VerifyOutput:
        """Greedy: match drafts against the target's argmax. Else SGLang's target-only rejection
        sampling (``tree_speculative_sampling_target_only``), lossless at any temperature."""
        if not self.sampler.greedy:
            return self.verify_sampling(tree, logits)
        backend, predict = self.cfg.verify_backend, logits.argmax(-1)
        if self.cfg.spec.eagle_topk == 1:
            return verify_greedy_chain(tree.draft_tokens, predict, backend=backend)
        return verify_greedy_tree(
            tree.draft_tokens,
            tree.retrive_index,
            tree.retrive_next_token,
            tree.retrive_next_sibling,
            predict,
            self.cfg.spec.num_steps,
            backend=backend,
        )

    def verify_sampling(self, tree: DraftTree, logits: Tensor) -> VerifyOutput:
        """Walk the tree with one coin per node: a child is accepted with exactly its target
        probability (given its elder siblings were rejected); on rejection or at a leaf the
        correction is drawn from the target minus the rejected children. Whatever the draft
        proposed, each emitted token follows the target at T, so the draft keeps SGLang's
        deterministic top-k and its probabilities only rank the candidates (chains included).
        Accept thresholds below 1 trade that exactness for acceptance, as in SGLang."""
        probs = self.sampler.probs(logits).contiguous()  # [bs, N, V]
        bs, n, vocab = probs.shape
        coins, inv_exp = self.sampler.noise(bs, n, vocab)
        return verify_tree_sampling(
            tree.draft_tokens,
            tree.retrive_index,
            tree.retrive_next_token,
            tree.retrive_next_sibling,
            probs,
            coins,
            inv_exp,
            self.cfg.spec.num_steps,
            self.cfg.spec.accept_threshold_single,
            self.cfg.spec.accept_threshold_acc,
            backend=self.cfg.verify_backend,
        )

    # --- draft extend ---------------------------------------------------------------------------
    def forward_draft_extend_after_decode(
        self, batch: ScheduleBatch, out: VerifyOutput, aux: Tensor
    ) -> EagleDraftInput:
        """Draft re-reads the emitted tokens with the target's features: s+1 rows, masked."""
        s = self.cfg.spec
        bs, width = out.tokens.shape
        rows = torch.arange(bs, device=self.device)
        node = (out.accept_index - rows[:, None] * self.n_draft).clamp(min=0)
        feats = torch.gather(aux, 1, node[:, :, None].expand(-1, -1, aux.shape[-1]))
        n = batch.seq_lens
        locs = n[:, None] + torch.arange(width, device=self.device)
        inp = RunnerInput(
            bs,
            s.num_steps + 1,
            out.tokens.clamp(min=0).flatten(),
            locs.flatten(),
            locs.flatten(),
            batch.req_pool_indices,
            causal_mask(locs, self.max_len),
            self.draft.fuse(feats).flatten(0, 1),
        )
        (logits, hout), _ = self.draft_extend_runner.run("draft_extend", inp)
        acc = out.accept_length
        topk_p, topk_index = torch.softmax(logits[rows, acc], -1).topk(s.eagle_topk)
        verified = out.tokens[rows, acc]
        batch.seq_lens = n + acc + 1
        batch.output_ids = verified
        batch.forward_mode = ForwardMode.DECODE
        return EagleDraftInput(
            topk_p,
            topk_index,
            hout[rows, acc].clone(),
            verified,
            feats[rows, acc],
            self.n_draft,
            acc,
        )
