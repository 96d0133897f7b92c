"""ForwardMode and ForwardBatch: what one model forward reads, built from a ModelWorkerBatch.

As in SGLang, the scheduler's ScheduleBatch is cut into a ModelWorkerBatch for the worker, and the
model runner turns that into a ForwardBatch with the positions and attention mask of its mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from spectrace_engine.mem_cache.memory_pool import causal_mask
from torch import Tensor

if TYPE_CHECKING:
    from spectrace_engine.managers.schedule_batch import ModelWorkerBatch


class ForwardMode(StrEnum):
    EXTEND = "extend"
    DECODE = "decode"
    TARGET_VERIFY = "verify"
    DRAFT = "draft"
    DRAFT_EXTEND = "draft_extend"

    def is_cuda_graph(self) -> bool:
        """Modes a captured graph can serve (prefill always runs eagerly)."""
        return self is not ForwardMode.EXTEND


@dataclass(slots=True)
class ForwardBatch:
    """Flat rows (one per token of one request) plus one slot per request."""

    forward_mode: ForwardMode
    batch_size: int
    input_ids: Tensor  # [rows]
    positions: Tensor  # [rows]
    out_cache_loc: Tensor  # [rows] KV columns the rows write
    req_pool_indices: Tensor  # [bs] KV row per request
    attn_mask: Tensor | None  # [rows, L]; None: causal from the positions (a decode)
    spec_info: object | None = None
    hidden: Tensor | None = None  # [rows, H] draft features (draft forwards only)
    max_len: int = 0  # L, for a mask built from the positions

    def mask(self) -> Tensor:
        """The rows' mask; a decode's is built here only when it runs eagerly (its graphs derive
        it from the positions they hold, so a replay launches nothing for it)."""
        if self.attn_mask is None:
            return causal_mask(self.positions, self.max_len)
        return self.attn_mask

    @classmethod
    def init_new(cls, mwb: ModelWorkerBatch, max_len: int) -> ForwardBatch:
        """Positions and mask from the mode: the verify tree's own, or causal for a decode
        (left to ``mask()``: a decode replay derives it inside the graph)."""
        si = mwb.spec_info
        if mwb.forward_mode is ForwardMode.TARGET_VERIFY:
            positions, mask = si.positions, si.custom_mask  # type: ignore[union-attr]
        else:
            positions, mask = mwb.seq_lens, None
        return cls(
            mwb.forward_mode,
            mwb.bs,
            mwb.input_ids,
            positions,
            mwb.out_cache_loc,
            mwb.req_pool_indices,
            mask,
            si,
            max_len=max_len,
        )

    @property
    def rows_per_req(self) -> int:
        """What the live tensors hold per request (an eager forward lays out exactly this)."""
        return self.input_ids.shape[0] // max(self.batch_size, 1)
