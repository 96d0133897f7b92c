"""Draft tree: SGLang's selection rules, parent links, masks and verify/draft layouts."""

from __future__ import annotations

import pytest
import torch
from spectrace_engine.speculative import build_eagle_tree as T


def expand(bs: int, topk: int, steps: int, vocab: int = 40, seed: int = 0) -> list[T.StepSelection]:
    """Run the top-k x steps selection on random draft distributions."""
    g = torch.Generator().manual_seed(seed)
    p = torch.softmax(torch.randn(bs, vocab, generator=g) * 2, -1)
    tp, ti = p.topk(topk, -1)
    hidden = torch.randn(bs, 8, generator=g)
    sel = T.select_top_k(0, tp, ti, hidden, None, topk)
    sels = [sel]
    for d in range(1, steps):
        p = torch.softmax(torch.randn(bs * topk, vocab, generator=g) * 2, -1)
        tp, ti = p.topk(topk, -1)
        sel = T.select_top_k(d, tp, ti, sel.hidden, sel.scores, topk)
        sels.append(sel)
    return sels


def test_topk_one_forces_chain_length() -> None:
    assert T.resolve_num_draft_tokens(1, 5, 16) == 6
    assert T.resolve_num_draft_tokens(4, 3, 16) == 16
    assert T.max_candidates(4, 3) == 36


def test_too_many_draft_tokens_fails_like_sglang() -> None:
    sels = expand(2, topk=2, steps=2)  # 2 + 1*4 = 6 candidates
    T.organize(sels, 7)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        T.organize(sels, 8)


@pytest.mark.parametrize(("topk", "steps", "n"), [(4, 3, 16), (2, 4, 8), (3, 2, 10)])
def test_tree_links_are_consistent(topk: int, steps: int, n: int) -> None:
    bs = 3
    sels = expand(bs, topk, steps, seed=topk * 10 + steps)
    parent_list, top, draft = T.organize(sels, n)
    root = torch.tensor([5, 6, 7])
    tree = T.build_tree(root, parent_list, top, draft, topk)
    assert tree.draft_tokens.shape == (bs, n)
    assert tree.draft_tokens[:, 0].tolist() == [5, 6, 7]
    assert tree.draft_tokens[:, 1:].tolist() == draft.tolist()
    for b in range(bs):
        par = tree.parents[b].tolist()
        assert par[0] == -1 and all(0 <= par[i] < i for i in range(1, n))
        for i in range(n):
            anc = {i}
            j = i
            while par[j] >= 0:
                j = par[j]
                anc.add(j)
            assert set(tree.tree_mask[b, i].nonzero().flatten().tolist()) == anc
            assert tree.depth[b, i] == len(anc) - 1 <= steps
            kids = [c for c in range(n) if par[c] == i]
            first = tree.retrive_next_token[b, i].item()
            assert first == (kids[0] if kids else -1)
            chain = []
            while first != -1:
                chain.append(first)
                first = tree.retrive_next_sibling[b, first].item()
            assert chain == kids
        assert tree.retrive_index[b].tolist() == [b * n + i for i in range(n)]


def test_children_follow_draft_scores() -> None:
    """A node's first child is its most likely continuation (sibling order = falling score)."""
    sels = expand(1, 3, 2, seed=5)
    parent_list, top, draft = T.organize(sels, 7)
    tree = T.build_tree(torch.tensor([1]), parent_list, top, draft, 3)
    scores = torch.cat([s.tree_scores for s in sels], 1)[0, top[0]]
    node_score = torch.cat([torch.tensor([1.0]), scores])
    for i in range(7):
        kids = [c for c in range(7) if tree.parents[0, c] == i]
        assert node_score[kids].tolist() == sorted(node_score[kids].tolist(), reverse=True)


def test_chain_tree_verify_layout() -> None:
    tree = T.chain_tree(torch.tensor([3, 4]), torch.tensor([[10, 11, 12], [20, 21, 22]]))
    assert tree.retrive_next_token[0].tolist() == [1, 2, 3, -1]
    assert tree.retrive_next_sibling.eq(-1).all()
    pos, locs, mask = T.verify_inputs(tree, torch.tensor([5, 2]), 12)
    assert pos.tolist() == [[5, 6, 7, 8], [2, 3, 4, 5]]
    assert locs.tolist() == pos.tolist()
    # chain: plain causal attention over prefix + earlier chain nodes
    assert mask[0, 2].nonzero().flatten().tolist() == [0, 1, 2, 3, 4, 5, 6, 7]
    assert mask[1, 0].nonzero().flatten().tolist() == [0, 1, 2]


def test_verify_mask_hides_other_branches() -> None:
    sels = expand(1, 2, 2, seed=3)
    tree = T.build_tree(torch.tensor([9]), *T.organize(sels, 5), 2)
    _, locs, mask = T.verify_inputs(tree, torch.tensor([4]), 16)
    for i in range(5):
        seen = set(mask[0, i].nonzero().flatten().tolist())
        anc = {4 + j for j in tree.tree_mask[0, i].nonzero().flatten().tolist()}
        assert seen == set(range(4)) | anc
        assert locs[0, i].item() in seen


def test_draft_step_sees_only_its_ancestors() -> None:
    topk, steps = 2, 3
    n = torch.tensor([6])
    anc = torch.zeros(1, topk, 0, dtype=torch.long)
    pos, locs, mask = T.draft_step_inputs(n, 0, anc, topk, steps, 20)
    assert locs.tolist() == [[6, 8]] and pos.tolist() == [[6, 6]]
    anc = T.extend_ancestors(anc, torch.tensor([[1, 1]]))  # both branches extend old branch 1
    pos, locs, mask = T.draft_step_inputs(n, 1, anc, topk, steps, 20)
    assert pos.tolist() == [[7, 7]] and locs.tolist() == [[7, 9]]
    assert mask[0, 0].nonzero().flatten().tolist() == [0, 1, 2, 3, 4, 5, 7, 8]
    assert mask[0, 1].nonzero().flatten().tolist() == [0, 1, 2, 3, 4, 5, 8, 9]
