"""Column- and row-parallel linear layers (SGLang's layers/linear.py, in nano-vllm's economy).

A column-parallel layer keeps this rank's slice of the output features (the attention heads, the
MLP's intermediate units), so its output needs no communication; the row-parallel layer after it
takes that slice as its input, multiplies by its slice of the input features and sums the partial
products over the ranks: one all-reduce of ``tokens x output`` per row-parallel layer (``o_proj``
and ``down_proj`` of each decoder layer). Each parameter carries a ``weight_loader`` that copies
this rank's shard out of the full checkpoint tensor, so the checkpoint is the same for any TP size.
With no group (``tp=None``, training) the layers are plain ``nn.Linear``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch import Tensor, nn

if TYPE_CHECKING:
    from spectrace_engine.distributed.parallel_state import GroupCoordinator


def divide(numerator: int, denominator: int) -> int:
    """SGLang's ``divide``: a size split over the ranks must split evenly."""
    if numerator % denominator:
        raise ValueError(f"{numerator} is not divisible by tp size {denominator}")
    return numerator // denominator


def copy_shard(param: Tensor, full: Tensor, dim: int, rank: int) -> None:
    """Copy rank ``rank``'s slice of ``full`` along ``dim`` into ``param`` (the same shape)."""
    size = param.shape[dim]
    shard = full.narrow(dim, rank * size, size) if full.shape[dim] != size else full
    if shard.shape != param.shape:
        raise ValueError(f"checkpoint tensor {tuple(full.shape)} does not fit {tuple(param.shape)}")
    param.data.copy_(shard)


class LinearBase(nn.Linear):
    """``nn.Linear`` over this rank's shard (its initialisation too: training builds with no TP)."""

    tp_dim = 0  # the weight dimension that is split: 0 = output features, 1 = input features

    def __init__(self, input_size: int, output_size: int, tp: GroupCoordinator | None) -> None:
        self.tp = tp
        self.tp_rank = tp.rank if tp is not None else 0
        self.tp_size = tp.size if tp is not None else 1
        if self.tp_dim == 0:
            output_size = divide(output_size, self.tp_size)
        else:
            input_size = divide(input_size, self.tp_size)
        super().__init__(input_size, output_size, bias=False)
        self.weight.weight_loader = self.weight_loader  # type: ignore[attr-defined]

    def weight_loader(self, param: Tensor, loaded: Tensor) -> None:
        copy_shard(param, loaded, self.tp_dim, self.tp_rank)


class ColumnParallelLinear(LinearBase):
    """Y = X A with A split by columns (output features); the output stays split."""

    tp_dim = 0


class RowParallelLinear(LinearBase):
    """Y = X A with A split by rows (input features); X arrives split, Y is all-reduced."""

    tp_dim = 1

    def forward(self, x: Tensor) -> Tensor:
        y = super().forward(x)
        if self.tp is not None and self.tp_size > 1:
            y = self.tp.all_reduce(y)
        return y
