"""SGLang DP-attention sample: rank prefixes with DP, TP and EP tags, per-DP-group load lines."""

from __future__ import annotations

import random
from datetime import datetime

from logfmt import Clock, Log, sgl, traceback_body
from sglang_parts import (
    V2_OFF,
    Launch,
    decode_line,
    prefill_line,
    server_args,
    server_ready,
    startup_ranks,
)
from stories_sglang import seed_frames

MODEL = "/models/Qwen3-30B-A3B-Instruct-2507"
DRAFT = "/models/Qwen3-30B-A3B-EAGLE3"
PREFIXES = ("DP0 TP0 EP0", "DP0 TP1 EP1", "DP1 TP2 EP2", "DP1 TP3 EP3")
SHAPE = (
    "The size of tensor a (24) must match the size of tensor b (32) at non-singleton dimension 0"
)


def dp_dump() -> str:
    return server_args(
        model_path=MODEL, tokenizer_path=MODEL, served_model_name=MODEL, tp_size=4, dp_size=2,
        ep_size=4, enable_dp_attention=True, max_running_requests=48,
        speculative_algorithm="EAGLE3", speculative_draft_model_path=DRAFT,
        speculative_draft_model_revision="main", speculative_num_steps=3, speculative_eagle_topk=1,
        speculative_num_draft_tokens=4, cuda_graph_bs=[1, 2, 4, 8, 16, 32], disable_overlap_schedule=True,
    )  # fmt: skip


def dp_attention() -> tuple[dict[str, bytes], dict]:
    """TP4 DP2 EP4: DP group 1 (TP2, TP3) fails on a padded graph batch; DP0 was busier."""
    rng = random.Random(20260306)
    log, clock = Log(), Clock(datetime(2026, 3, 6, 11, 0, 2))
    warning = log.add(V2_OFF)
    dump = log.add(sgl(clock.tick(4)) + dp_dump())
    launch = Launch(
        4, "Qwen3MoeForCausalLM", "LlamaForCausalLMEagle3", [1, 2, 4, 8, 16, 32], prefixes=PREFIXES
    )
    startup_ranks(log, clock, launch, rng)
    server_ready(log, clock, pid=22810)
    for dp0, dp1 in [(2, 1), (4, 2), (6, 3), (8, 4), (9, 5), (9, 6)]:
        log.add(
            sgl(clock.tick(0.5), PREFIXES[0]) + prefill_line(2, 402, 0.01, dp0 - 2, trailing=False)
        )
        for _ in range(3):
            log.add(
                sgl(clock.tick(1.1), PREFIXES[0])
                + decode_line(dp0, 1900 * dp0, rng.uniform(2.6, 3.2), 4, 52.0 * dp0, trailing=False)
            )
            log.add(
                sgl(clock.tick(0.2), PREFIXES[2])
                + decode_line(dp1, 1900 * dp1, rng.uniform(2.6, 3.2), 4, 52.0 * dp1, trailing=False)
            )
    at = clock.tick(0.9)
    body = traceback_body(seed_frames(), f"RuntimeError: {SHAPE}")
    first = {}
    for prefix in (PREFIXES[3], PREFIXES[2]):
        first[prefix] = log.add(sgl(at, prefix) + "Scheduler hit an exception: " + body[0])
        log.extend(body[1:])
    expected = {
        "inputs": ["server.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "RuntimeError", "message_contains": SHAPE, "root_cause": True,
                "origin_rank": "DP1 TP3 EP3", "ranks": ["DP1 TP3 EP3", "DP1 TP2 EP2"],
                "first_line": first[PREFIXES[3]], "worker_path": "v1", "worker_class": "EAGLEWorker",
                "shape": {"a": 24, "b": 32, "dim": 0}, "load_running_req": 6,
                "explanation": {"explained": True, "facts": {"running_req": 6, "num_draft_tokens": 4}, "terms": ["24"]},
                "evidence_lines": [dump, warning],
                "flags": {"tp_size": 4, "enable_dp_attention": True, "dp_size": 2, "ep_size": 4},
            },
        ],
        "missing_markers": [],
        "config": {"tp_size": 4, "speculative_eagle_topk": 1, "disable_overlap_schedule": True,
                   "enable_dp_attention": True, "dp_size": 2, "ep_size": 4},
    }  # fmt: skip
    return {"server.log": log.text().encode()}, expected
