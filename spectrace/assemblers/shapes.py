"""Tensor shape-mismatch messages -> numbers (``ShapeMismatch``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ShapeMismatch:
    pattern: str  # "size_of_tensor", "cat_sizes", "view_invalid", "expand", "matmul", "index_oob", "topk_range"
    numbers: dict[str, int]  # e.g. {"a": 160, "b": 2, "dim": 0}
    text: str  # the matched message
