"""Triton verify kernels equal their PyTorch references exactly (interpreter on CPU, compiled on GPU).

Budget: about 60 interpreted programs in this file (one per request), so CI stays cheap.
"""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from spectrace_engine.kernels import verify as V  # noqa: E402
from spectrace_engine.speculative import build_eagle_tree as T  # noqa: E402

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def random_tree(bs: int, topk: int, steps: int, n: int, vocab: int, seed: int) -> T.DraftTree:
    g = torch.Generator().manual_seed(seed)
    tp, ti = torch.softmax(torch.randn(bs, vocab, generator=g), -1).topk(topk, -1)
    sel = T.select_top_k(0, tp, ti, torch.zeros(bs, 4), None, topk)
    sels = [sel]
    for d in range(1, steps):
        tp, ti = torch.softmax(torch.randn(bs * topk, vocab, generator=g), -1).topk(topk, -1)
        sel = T.select_top_k(d, tp, ti, sel.hidden, sel.scores, topk)
        sels.append(sel)
    root = torch.randint(0, vocab, (bs,), generator=g)
    tree = T.build_tree(root, *T.organize(sels, n), topk)
    return T.DraftTree(
        *(
            t.to(DEVICE).contiguous()
            for t in (
                tree.draft_tokens,
                tree.parents,
                tree.depth,
                tree.tree_mask,
                tree.retrive_index,
                tree.retrive_next_token,
                tree.retrive_next_sibling,
            )
        )
    )


def links(tree: T.DraftTree) -> tuple[torch.Tensor, ...]:
    return (
        tree.draft_tokens,
        tree.retrive_index,
        tree.retrive_next_token,
        tree.retrive_next_sibling,
    )


def predictions_that_follow(tree: T.DraftTree, vocab: int, seed: int) -> torch.Tensor:
    """Target argmax that agrees with the first/second child often enough to accept deep paths."""
    g = torch.Generator().manual_seed(seed)
    pred = torch.randint(0, vocab, tree.draft_tokens.shape, generator=g).to(DEVICE)
    first = tree.retrive_next_token.clamp(min=0)
    sib = tree.retrive_next_sibling.gather(1, first).clamp(min=0)
    pick = torch.randint(0, 3, pred.shape, generator=g).to(DEVICE)
    follow = torch.where(
        pick == 0, tree.draft_tokens.gather(1, first), tree.draft_tokens.gather(1, sib)
    )
    return torch.where(pick < 2, follow, pred).contiguous()


def assert_same(a: V.VerifyOutput, b: V.VerifyOutput) -> None:
    assert torch.equal(a.accept_index, b.accept_index)
    assert torch.equal(a.accept_length, b.accept_length)
    assert torch.equal(a.tokens, b.tokens)


def test_greedy_chain_matches_reference() -> None:
    g = torch.Generator().manual_seed(7)
    bs, n = 16, 5
    cand = torch.randint(0, 3, (bs, n), generator=g)
    pred = torch.randint(0, 3, (bs, n), generator=g)
    cand[:4, 1:] = pred[:4, :-1]  # some fully accepted rows
    cand, pred = cand.to(DEVICE), pred.to(DEVICE)
    ref = V.verify_greedy_chain(cand, pred, backend="torch")
    assert_same(V.verify_greedy_chain(cand, pred, backend="triton"), ref)
    assert ref.accept_length[:4].tolist() == [4] * 4
    assert (ref.accept_length < 4).any()


@pytest.mark.parametrize(
    ("topk", "steps", "n", "seed"), [(4, 3, 16, 0), (2, 4, 8, 1), (1, 3, 4, 2)]
)
def test_greedy_tree_matches_reference(topk: int, steps: int, n: int, seed: int) -> None:
    tree = random_tree(6, topk, steps, n, vocab=30, seed=seed)
    pred = predictions_that_follow(tree, 30, seed)
    ref = V.verify_greedy_tree(*links(tree), pred, steps, backend="torch")
    assert_same(V.verify_greedy_tree(*links(tree), pred, steps, backend="triton"), ref)
    assert ref.accept_length.max() >= 1


@pytest.mark.parametrize(("topk", "steps", "n", "vocab"), [(4, 3, 16, 40), (1, 3, 4, 1500)])
def test_tree_sampling_matches_reference(topk: int, steps: int, n: int, vocab: int) -> None:
    bs = 6
    tree = random_tree(bs, topk, steps, n, vocab=vocab, seed=vocab)
    g = torch.Generator().manual_seed(11)
    logits = torch.randn(bs, n, vocab, generator=g) * 3
    # put much of each node's mass on its first child so that paths get accepted
    first = tree.retrive_next_token.cpu().clamp(min=0)
    child_tok = tree.draft_tokens.cpu().gather(1, first)
    boost = torch.zeros(bs, n, vocab).scatter_(2, child_tok[:, :, None], 12.0)
    probs = torch.softmax(logits + boost, -1).to(DEVICE)
    coins, inv_exp = V.sampling_noise(bs, n, vocab, generator=g)
    coins, inv_exp = coins.to(DEVICE), inv_exp.to(DEVICE)
    ref = V.verify_tree_sampling(*links(tree), probs, coins, inv_exp, steps, backend="torch")
    out = V.verify_tree_sampling(*links(tree), probs, coins, inv_exp, steps, backend="triton")
    assert_same(out, ref)
    assert ref.accept_length.max() >= 1
    emitted = ref.tokens.gather(1, ref.accept_length[:, None])
    assert (emitted >= 0).all()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("dtype", "candidates: expected dtype torch.int64"),
        ("shape", "target_predict: expected shape"),
        ("stride", "must be contiguous"),
        ("backend", "backend: expected"),
    ],
)
def test_wrapper_rejects_bad_inputs_before_launch(bad: str, message: str) -> None:
    cand = torch.zeros(4, 5, dtype=torch.long)
    pred = torch.zeros(4, 5, dtype=torch.long)
    backend = "triton"
    if bad == "dtype":
        cand = cand.int()
    elif bad == "shape":
        pred = pred[:, :4]
    elif bad == "stride":
        cand = torch.zeros(5, 4, dtype=torch.long).t()
    else:
        backend = "cuda"
    with pytest.raises(ValueError, match=message):
        V.verify_greedy_chain(cand, pred, backend=backend)
