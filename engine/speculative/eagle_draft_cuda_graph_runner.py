"""The draft's graphs: one draft step (``topk`` rows per request) and the draft extend after a
verify (``steps + 1`` rows), each a CudaGraphRunner of its own mode (SGLang keeps them apart from
the target's runner, in EAGLEDraftCudaGraphRunner and EAGLEDraftExtendCudaGraphRunner)."""

from __future__ import annotations

import torch
from spectrace_engine.faults import Fault
from spectrace_engine.model_executor.cuda_graph_runner import (
    CudaGraphRunner,
    ForwardFn,
    new_runner,
)
from spectrace_engine.model_executor.forward_batch_info import ForwardMode
from spectrace_engine.server_args import EngineConfig


def draft_graph_runners(
    cfg: EngineConfig,
    forward: ForwardFn,
    hidden_dim: int,
    max_len: int,
    scratch_slot: int,
    device: torch.device,
    dtype: torch.dtype,
) -> tuple[CudaGraphRunner, CudaGraphRunner]:
    """(draft step runner, draft extend runner), captured after the target's."""
    s = cfg.spec
    common = dict(
        max_len=max_len,
        hidden=hidden_dim,
        device=device,
        dtype=dtype,
        scratch_slot=scratch_slot,
        enabled=not cfg.disable_cuda_graph,
        neutralise=not cfg.faults.on(Fault.DIRTY_PADDING),
    )
    draft = new_runner(
        "draft",
        forward,
        ForwardMode.DRAFT,
        s.eagle_topk,
        cfg.graph_bs,
        **common,  # type: ignore[arg-type]
    )
    extend = new_runner(
        "draft_extend",
        forward,
        ForwardMode.DRAFT_EXTEND,
        s.num_steps + 1,
        cfg.graph_bs,
        **common,  # type: ignore[arg-type]
    )
    return draft, extend
