"""Draft tree: top-k x steps expansion with cumulative scores, SGLang-style selection and links.

Public API (shapes: bs requests, k = topk, s = steps, N = num_draft_tokens incl. the root)::

    resolve_num_draft_tokens(topk, steps, num_draft_tokens=None) -> int
        topk == 1 forces N = steps + 1 (SGLang); None picks the largest valid N capped at 16.
    max_candidates(topk, steps) -> int               # k + (s-1)*k^2 scored nodes per request
    select_top_k(depth, topk_p, topk_index, hidden, scores, topk) -> StepSelection
        depth 0: topk_p/topk_index [bs,k] from the draft extend, hidden [bs,dim];
        depth>0: topk_p/topk_index [bs*k,k] from the last draft step, hidden [bs*k,dim],
        scores [bs,k] from the previous selection. Mirrors SGLang's select_top_k_tokens.
    organize(selections, num_draft_tokens) -> (parent_list, top_scores_index, draft_tokens)
        torch.topk over all k+(s-1)k^2 scores: N-1 too large raises SGLang's
        "selected index k out of range" RuntimeError.
    build_tree(verified_id [bs], parent_list, top_scores_index, draft_tokens [bs,N-1], topk) -> DraftTree
    chain_tree(verified_id [bs], drafts [bs,s]) -> DraftTree          # topk == 1
    from_parents(tokens [bs,N], parents [bs,N]) -> DraftTree          # any hand-made tree
    extend_ancestors(ancestors [bs,k,f], branch_parent [bs,k]) -> [bs,k,f+1]  (start: [bs,k,0])
    draft_step_inputs(seq_lens, forward, ancestors, topk, steps, max_len)
        -> (positions, cache_locs, attn_mask)  [bs,k], [bs,k], [bs,k,L] for draft forward f
        (f = 0..s-2 runs the tokens chosen at depth f). Branch j of forward f sits at position
        n+f, column n + j*(s-1) + f, and sees columns < n plus its ancestors' columns.
    verify_inputs(tree, seq_lens, max_len) -> (positions, cache_locs, attn_mask)  [bs,N], [bs,N,L]
        node i at position n + depth, column n + i; sees columns < n and its ancestors.
    Here n = seq_lens[b] = tokens already in that cache, the root (last verified token) excluded.

DraftTree (all int64 / bool, [bs,N]): draft_tokens (column 0 = the last verified token), parents
(-1 for the root), depth, tree_mask [bs,N,N] (ancestor-or-self), retrive_index (b*N + i, the flat
verify row), retrive_next_token (first child, -1), retrive_next_sibling (next sibling, -1).
Siblings are ordered by index, i.e. by falling draft score. Everything is graph-capturable.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor


@dataclass(frozen=True, slots=True)
class DraftTree:
    draft_tokens: Tensor
    parents: Tensor
    depth: Tensor
    tree_mask: Tensor
    retrive_index: Tensor
    retrive_next_token: Tensor
    retrive_next_sibling: Tensor

    @property
    def num_nodes(self) -> int:
        return self.draft_tokens.shape[1]


@dataclass(frozen=True, slots=True)
class StepSelection:
    """One depth: inputs for the next draft forward plus this depth's scored candidates."""

    input_ids: Tensor  # [bs*k] tokens to feed the next draft step
    hidden: Tensor  # [bs*k, dim] features to feed with them
    scores: Tensor  # [bs, k] cumulative scores of the chosen branches
    branch_parent: Tensor  # [bs, k] branch slot (0..k-1) of the previous depth each branch extends
    tree_scores: Tensor  # [bs, k] (depth 0) or [bs, k*k] candidate cumulative scores
    tree_tokens: Tensor  # same shape: candidate tokens
    tree_parents: Tensor  # [bs, k+1] (depth 0) or [bs, k]: flat candidate index of chosen nodes


def max_candidates(topk: int, steps: int) -> int:
    return topk + (steps - 1) * topk * topk


def resolve_num_draft_tokens(topk: int, steps: int, num_draft_tokens: int | None = None) -> int:
    if topk == 1:
        return steps + 1
    if num_draft_tokens is None:
        return min(16, max_candidates(topk, steps) + 1)
    return num_draft_tokens


def select_top_k(
    depth: int, topk_p: Tensor, topk_index: Tensor, hidden: Tensor, scores: Tensor | None, topk: int
) -> StepSelection:
    if depth == 0:
        bs = topk_p.shape[0]
        parents = torch.arange(-1, topk, device=topk_p.device).expand(bs, topk + 1)
        slot0 = torch.zeros(bs, topk, dtype=torch.long, device=topk_p.device)
        return StepSelection(
            topk_index.flatten(),
            hidden.repeat_interleave(topk, dim=0),
            topk_p,
            slot0,
            topk_p,
            topk_index,
            parents,
        )
    assert scores is not None
    bs = scores.shape[0]
    expand = scores[:, :, None] * topk_p.view(bs, topk, topk)
    cs_p, cs_index = torch.topk(expand.flatten(1), topk, dim=-1)
    tokens = topk_index.view(bs, topk * topk)
    branch = torch.div(cs_index, topk, rounding_mode="floor")
    rows = branch + torch.arange(bs, device=scores.device)[:, None] * topk
    return StepSelection(
        torch.gather(tokens, 1, cs_index).flatten(),
        hidden[rows.flatten()],
        cs_p,
        branch,
        expand.flatten(1),
        tokens,
        cs_index + (topk * topk * (depth - 1) + topk),
    )


def organize(
    selections: list[StepSelection], num_draft_tokens: int
) -> tuple[Tensor, Tensor, Tensor]:
    scores = torch.cat([s.tree_scores for s in selections], dim=1)
    tokens = torch.cat([s.tree_tokens for s in selections], dim=1)
    top = torch.topk(scores, num_draft_tokens - 1, dim=-1).indices
    top = torch.sort(top, dim=-1).values
    draft_tokens = torch.gather(tokens, 1, top)
    bs = scores.shape[0]
    if len(selections) > 1:
        parent_list = torch.cat([s.tree_parents for s in selections[:-1]], dim=1)
    else:
        parent_list = torch.empty(bs, 0, dtype=torch.long, device=scores.device)
    return parent_list, top, draft_tokens


def _parents_of(parent_list: Tensor, top: Tensor, topk: int) -> Tensor:
    """Tree-node parent of each selected candidate; an unselected parent (score tie) -> root."""
    bs, m = top.shape
    pos = torch.div(top - topk, topk, rounding_mode="floor") + 1
    pos = torch.where(top < topk, torch.zeros_like(pos), pos)
    padded = torch.cat(
        [torch.full((bs, 1), -1, dtype=torch.long, device=top.device), parent_list], dim=1
    )
    flat_parent = torch.gather(padded, 1, (pos + 1).clamp(max=padded.shape[1] - 1))
    flat_parent = torch.where(top < topk, torch.full_like(top, -1), flat_parent)
    hit = flat_parent[:, :, None] == top[:, None, :]  # [bs, m, m]
    found = hit.any(-1)
    node = hit.long().argmax(-1) + 1
    return torch.where(found, node, torch.zeros_like(node))


def build_tree(
    verified_id: Tensor,
    parent_list: Tensor,
    top_scores_index: Tensor,
    draft_tokens: Tensor,
    topk: int,
) -> DraftTree:
    parents = _parents_of(parent_list, top_scores_index, topk)
    bs = verified_id.shape[0]
    root = torch.full((bs, 1), -1, dtype=torch.long, device=verified_id.device)
    return from_parents(
        torch.cat([verified_id[:, None], draft_tokens], 1), torch.cat([root, parents], 1)
    )


def chain_tree(verified_id: Tensor, drafts: Tensor) -> DraftTree:
    bs, s = drafts.shape
    parents = torch.arange(-1, s, device=drafts.device).expand(bs, s + 1)
    return from_parents(torch.cat([verified_id[:, None], drafts], 1), parents.contiguous())


def from_parents(tokens: Tensor, parents: Tensor) -> DraftTree:
    """Any tree given as tokens [bs,N] and parents [bs,N] (-1 root, parents precede children)."""
    bs, n = tokens.shape
    dev = tokens.device
    eye = torch.eye(n, dtype=torch.bool, device=dev).expand(bs, n, n)
    mask = eye.clone()
    depth = torch.zeros(bs, n, dtype=torch.long, device=dev)
    par = parents.clamp(min=0)
    for i in range(1, n):
        p = par[:, i]
        mask[:, i] |= mask[torch.arange(bs, device=dev), p]
        depth[:, i] = depth[torch.arange(bs, device=dev), p] + 1
    idx = torch.arange(n, device=dev)
    is_child = parents[:, None, :] == idx[None, :, None]  # [bs, parent j, child i]
    none = torch.full((bs, n), n, dtype=torch.long, device=dev)
    first = torch.where(is_child, idx.expand(bs, n, n), n).min(-1).values
    same_parent = parents[:, :, None] == parents[:, None, :]
    nxt = (
        torch.where(
            same_parent & (idx[None, None, :] > idx[None, :, None]), idx.expand(bs, n, n), n
        )
        .min(-1)
        .values
    )
    nxt = torch.where(parents < 0, none, nxt)
    return DraftTree(
        tokens,
        parents,
        depth,
        mask,
        torch.arange(bs, device=dev)[:, None] * n + idx,
        torch.where(first == n, -1, first),
        torch.where(nxt == n, -1, nxt),
    )


def extend_ancestors(ancestors: Tensor, branch_parent: Tensor) -> Tensor:
    """Ancestor branch slots per earlier forward: a branch inherits its parent's, then the parent."""
    inherited = torch.gather(
        ancestors, 1, branch_parent[:, :, None].expand(-1, -1, ancestors.shape[2])
    )
    return torch.cat([inherited, branch_parent[:, :, None]], dim=2)


def draft_step_inputs(
    seq_lens: Tensor, forward: int, ancestors: Tensor, topk: int, steps: int, max_len: int
) -> tuple[Tensor, Tensor, Tensor]:
    bs = seq_lens.shape[0]
    dev = seq_lens.device
    stride = max(steps - 1, 1)
    branch = torch.arange(topk, device=dev)
    n = seq_lens[:, None]
    positions = (n + forward).expand(bs, topk)
    cache_locs = n + branch * stride + forward
    cols = torch.arange(max_len, device=dev)
    mask = (cols[None, None, :] < n[:, :, None]).expand(bs, topk, max_len).clone()
    own = cols[None, None, :] == cache_locs[:, :, None]
    mask |= own
    for f in range(forward):
        loc = n + ancestors[:, :, f] * stride + f
        mask |= cols[None, None, :] == loc[:, :, None]
    return positions.contiguous(), cache_locs, mask


def verify_inputs(tree: DraftTree, seq_lens: Tensor, max_len: int) -> tuple[Tensor, Tensor, Tensor]:
    n_nodes = tree.num_nodes
    dev = seq_lens.device
    n = seq_lens[:, None]
    positions = n + tree.depth
    cache_locs = n + torch.arange(n_nodes, device=dev)
    cols = torch.arange(max_len, device=dev)
    rel = cols[None, :] - n  # [bs, L]
    inside = (rel >= 0) & (rel < n_nodes)
    idx = rel.clamp(0, n_nodes - 1)[:, None, :].expand(-1, n_nodes, -1)
    tree_part = torch.gather(tree.tree_mask, 2, idx) & inside[:, None, :]
    mask = tree_part | (rel < 0)[:, None, :]
    return positions, cache_locs, mask
