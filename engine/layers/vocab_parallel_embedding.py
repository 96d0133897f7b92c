"""Vocab-parallel embedding and LM head (SGLang's layers/vocab_parallel_embedding.py).

Each rank keeps a contiguous block of the vocabulary (padded so the blocks are equal). The
embedding looks up the ids of its block, zeros the others and all-reduces: exactly one rank
contributes each row, so the sum is exact. The LM head (tied to the embedding when the model ties
them) computes the logits of its block and all-gathers the blocks: every rank holds the whole
vocabulary's logits, bit for bit what one rank would compute, and samples the same tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch.nn.functional as F
from spectrace_engine.layers.linear import copy_shard
from torch import Tensor, nn

if TYPE_CHECKING:
    from spectrace_engine.distributed.parallel_state import GroupCoordinator


class VocabParallelEmbedding(nn.Embedding):
    def __init__(
        self, num_embeddings: int, embedding_dim: int, tp: GroupCoordinator | None
    ) -> None:
        self.tp = tp
        self.tp_rank = tp.rank if tp is not None else 0
        self.tp_size = tp.size if tp is not None else 1
        self.org_vocab_size = num_embeddings
        per_partition = -(-num_embeddings // self.tp_size)  # padded: equal blocks
        self.vocab_start_index = self.tp_rank * per_partition
        self.vocab_end_index = min(self.vocab_start_index + per_partition, num_embeddings)
        super().__init__(per_partition, embedding_dim)
        self.weight.weight_loader = self.weight_loader  # type: ignore[attr-defined]

    def weight_loader(self, param: Tensor, loaded: Tensor) -> None:
        """This rank's rows of the full table; the padding rows past the vocabulary stay zero."""
        n = self.vocab_end_index - self.vocab_start_index
        param.data.zero_()
        copy_shard(param.data[:n], loaded[self.vocab_start_index : self.vocab_end_index], 0, 0)

    def forward(self, input_: Tensor) -> Tensor:
        if self.tp is None or self.tp_size == 1:
            return super().forward(input_)
        mask = (input_ >= self.vocab_start_index) & (input_ < self.vocab_end_index)
        local = F.embedding((input_ - self.vocab_start_index) * mask, self.weight)
        return self.tp.all_reduce(local.masked_fill(~mask.unsqueeze(-1), 0))


class ParallelLMHead(VocabParallelEmbedding):
    """The output projection over this rank's vocabulary block, gathered to the full vocabulary."""

    def forward(self, input_: Tensor) -> Tensor:
        logits = F.linear(input_, self.weight)
        if self.tp is None or self.tp_size == 1:
            return logits
        return self.tp.all_gather(logits)[..., : self.org_vocab_size]
