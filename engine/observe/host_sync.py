"""Device -> host reads, counted where they happen: the engine's only way to read a tensor's values.

Every ``.tolist()``/``.item()``/``bool()`` of a device tensor the runtime needs goes through one
``HostSync``, so a step's event carries the reads it really made (v1 reads accept lengths inside
the step, v2 only at the step boundary) instead of a figure written down per worker.
"""

from __future__ import annotations

from typing import Any

from torch import Tensor


class HostSync:
    """A per-rank counter of device -> host reads; ``n`` only grows."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def tolist(self, t: Tensor) -> Any:
        self.n += 1
        return t.tolist()

    def item(self, t: Tensor) -> Any:
        self.n += 1
        return t.item()

    def any(self, t: Tensor) -> bool:
        """``bool(t.any())``: one read, e.g. the sampler's NaN check."""
        self.n += 1
        return bool(t.any())
