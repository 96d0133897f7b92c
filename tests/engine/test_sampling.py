"""Tree/chain rejection sampling is lossless: emitted tokens follow the target's distribution."""

from __future__ import annotations

import torch
from spectrace_engine.kernels import verify as V
from spectrace_engine.speculative import build_eagle_tree as T

VOCAB = 8
DRAWS = 100_000


def total_variation(samples: torch.Tensor, p: torch.Tensor) -> float:
    freq = torch.bincount(samples, minlength=VOCAB).double() / samples.numel()
    return 0.5 * float((freq - p.double()).abs().sum())


def run(tokens: list[int], parents: list[int], steps: int, seed: int):  # type: ignore[no-untyped-def]
    """Sample DRAWS independent verify steps of one fixed tree; each node has its own target dist."""
    g = torch.Generator().manual_seed(seed)
    n = len(tokens)
    tree = T.from_parents(
        torch.tensor([tokens]).expand(DRAWS, n).contiguous(),
        torch.tensor([parents]).expand(DRAWS, n).contiguous(),
    )
    logits = torch.randn(n, VOCAB, generator=g)
    for child, parent in enumerate(parents):
        if parent >= 0:  # give drafted children real mass so that both branches get exercised
            logits[parent, tokens[child]] += 1.0
    node_probs = torch.softmax(logits, -1)
    probs = node_probs.expand(DRAWS, n, VOCAB).contiguous()
    coins, inv_exp = V.sampling_noise(DRAWS, n, VOCAB, generator=g)
    out = V.verify_tree_sampling(
        tree.draft_tokens,
        tree.retrive_index,
        tree.retrive_next_token,
        tree.retrive_next_sibling,
        probs,
        coins,
        inv_exp,
        steps,
        backend="torch",
    )
    return out, node_probs


def test_tree_sampler_first_token_follows_target() -> None:
    # root 0 -> children 1, 2, 3 (tokens 2, 5, 7); node 1 -> children 4, 5 (tokens 1, 2)
    out, p = run([0, 2, 5, 7, 1, 2], [-1, 0, 0, 0, 1, 1], steps=2, seed=1)
    assert total_variation(out.tokens[:, 0], p[0]) < 0.01


def test_tree_sampler_second_token_follows_target_after_accepted_child() -> None:
    out, p = run([0, 2, 5, 7, 1, 2], [-1, 0, 0, 0, 1, 1], steps=2, seed=2)
    for node, token, bound in ((1, 2, 0.03), (2, 5, 0.02), (3, 7, 0.02)):
        rows = out.tokens[:, 0] == token
        assert rows.sum() > 4_000
        assert (out.accept_length[rows] >= 1).all()
        assert total_variation(out.tokens[rows, 1], p[node]) < bound


def test_chain_sampler_follows_target_at_every_depth() -> None:
    out, p = run([0, 3, 4, 6], [-1, 0, 1, 2], steps=3, seed=3)
    assert total_variation(out.tokens[:, 0], p[0]) < 0.01
    deep = out.accept_length >= 2
    assert total_variation(out.tokens[deep, 2], p[2]) < 0.02
    # acceptance matches the target's own probability of each draft
    assert abs(float((out.accept_length >= 1).double().mean()) - float(p[0, 3])) < 0.01


def test_rejected_children_are_never_resampled() -> None:
    """After rejecting every child the correction comes from the residual, not the children."""
    out, _ = run([0, 2, 5, 7, 1, 2], [-1, 0, 0, 0, 1, 1], steps=2, seed=4)
    rejected = out.accept_length == 0
    assert rejected.any()
    assert not torch.isin(out.tokens[rejected, 0], torch.tensor([2, 5, 7])).any()
