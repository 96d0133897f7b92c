"""Seeded order-2 Markov source over a small vocabulary: the offline text the tiny pairs learn.

Each token b has `fanout` possible successors (an order-1 skeleton); which of them is likely
depends on the class of the token before it (a % classes), which makes the chain order 2 while
keeping it small enough for a 4-layer model to learn. `temperature` is the entropy knob: low
values make one successor dominate, high values spread the mass evenly.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

SPECIALS = ("<pad>", "<bos>", "<eos>", "<unk>")
BOS = 1
_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


@dataclass(frozen=True, slots=True)
class MarkovSource:
    vocab_size: int = 512
    fanout: int = 4
    classes: int = 4
    temperature: float = 0.5
    seed: int = 0

    def tables(self) -> tuple[Tensor, Tensor]:
        """successors [V, fanout] and transition probabilities [classes, V, fanout]."""
        g = torch.Generator().manual_seed(self.seed)
        n_special = len(SPECIALS)
        words = self.vocab_size - n_special
        succ = (
            torch.stack(
                [torch.randperm(words, generator=g)[: self.fanout] for _ in range(self.vocab_size)]
            )
            + n_special
        )
        logits = torch.randn(self.classes, self.vocab_size, self.fanout, generator=g)
        return succ, torch.softmax(logits / self.temperature, dim=-1)

    def sample(self, n_seqs: int, length: int, seed: int) -> Tensor:
        """[n_seqs, length] int64 sequences starting with <bos>, then a random word pair."""
        g = torch.Generator().manual_seed(seed)
        succ, probs = self.tables()
        n_special = len(SPECIALS)
        out = torch.empty(n_seqs, length, dtype=torch.long)
        out[:, 0] = BOS
        out[:, 1:3] = torch.randint(n_special, self.vocab_size, (n_seqs, 2), generator=g)
        for t in range(3, length):
            a, b = out[:, t - 2], out[:, t - 1]
            p = probs[a % self.classes, b]
            pick = torch.multinomial(p, 1, generator=g)[:, 0]
            out[:, t] = succ[b, pick]
        return out

    def entropy_bits(self) -> float:
        """Mean per-token entropy over contexts (bits): the knob's effect in one number."""
        _, probs = self.tables()
        h = -(probs * probs.clamp_min(1e-12).log2()).sum(-1)
        return float(h.mean())

    def prompts(self, n: int, length: int, seed: int) -> list[list[int]]:
        return [row.tolist() for row in self.sample(n, length, seed)]


class MarkovTokenizer:
    """Pseudo-words (two consonant-vowel syllables) so decoded text reads like text."""

    def __init__(self, vocab_size: int = 512) -> None:
        syllables = [c + v for c in _CONSONANTS for v in _VOWELS]
        n = len(syllables)
        if vocab_size - len(SPECIALS) > n * n:
            raise ValueError(f"vocab_size {vocab_size} exceeds {n * n + len(SPECIALS)}")
        self.vocab = list(SPECIALS) + [
            syllables[i % n] + syllables[(i // n) % n] for i in range(vocab_size - len(SPECIALS))
        ]
        self.ids = {w: i for i, w in enumerate(self.vocab)}
        self.eos_token_id = 2

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def encode(self, text: str) -> list[int]:
        return [self.ids.get(w, 3) for w in text.split()]

    def decode(self, ids: list[int]) -> str:
        return " ".join(self.vocab[i] if 0 <= i < len(self.vocab) else "<unk>" for i in ids)
