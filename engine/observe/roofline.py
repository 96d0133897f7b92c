"""The HBM floor of a decode step: the time to read every weight the step touches once.

A plain decode step reads the target's layers and its LM head (the input embedding is a row
lookup, so it counts only when it is the tied head). A speculative step reads the target once
(verify) plus the draft head once per draft forward: ``num_steps`` of them (``s - 1`` tree steps
and the draft extend), each with the head's own weights and the LM-head rows of its vocabulary.
KV-cache and activation traffic are left out, so the floor is a lower bound. No torch import:
the counting walks ``nn.Module.parameters()`` of models it is handed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

H200_HBM_BYTES_PER_S = 4.3e12  # H200 (HBM3e), the figure the issue uses; a parameter elsewhere


@dataclass(frozen=True, slots=True)
class WeightTraffic:
    """Bytes read from memory per plain step and per speculative step's extra draft work."""

    target_bytes: int
    draft_forward_bytes: int
    draft_forwards: int

    @property
    def spec_extra_bytes(self) -> int:
        return self.draft_forward_bytes * self.draft_forwards


def _nbytes(tensors: Any) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


def target_read_bytes(target: Any) -> int:
    """Unique target parameters, minus the input embedding when the LM head is a separate matrix."""
    total = _nbytes(target.parameters())  # parameters() yields a tied matrix once
    if target.lm_head.weight is not target.embed.weight:
        total -= _nbytes([target.embed.weight])
    return total


def draft_forward_bytes(draft: Any) -> int:
    """The head's own parameters plus the LM-head rows its (possibly reduced) vocabulary reads."""
    shared = {id(draft.embed.weight), id(draft.lm_head.weight)}
    own = _nbytes(p for p in draft.parameters() if id(p) not in shared)
    head = draft.lm_head.weight
    rows = head.shape[0] if draft.vocab_map is None else int(draft.vocab_map.numel())
    return own + rows * head.shape[1] * head.element_size()


def weight_traffic(target: Any, draft: Any | None, num_steps: int) -> WeightTraffic:
    """What one step reads; ``draft=None`` (plain decoding) reads the target only."""
    if draft is None:
        return WeightTraffic(target_read_bytes(target), 0, 0)
    return WeightTraffic(target_read_bytes(target), draft_forward_bytes(draft), num_steps)


def floor_step_s(
    steps: int, spec_steps: int, target_bytes: int, spec_extra_bytes: int, bandwidth: float
) -> float | None:
    """Mean HBM floor per decode step over a run that mixed plain and speculative steps."""
    if steps <= 0 or bandwidth <= 0:
        return None
    total = steps * target_bytes + spec_steps * spec_extra_bytes
    return total / steps / bandwidth
