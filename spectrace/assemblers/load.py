"""Throughput lines (SGLang ``Decode batch``, vLLM ``SpecDecoding metrics``) -> load samples."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class LoadSample:
    source: str
    lineno: int
    rank: str | None
    ts: datetime | None
    running_req: int | None = None
    accept_len: float | None = None
    accept_rate: float | None = None
    gen_throughput: float | None = None
    queue_req: int | None = None
    cuda_graph: bool | None = None
    fields: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
