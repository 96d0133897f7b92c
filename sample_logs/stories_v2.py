"""SGLang spec-v2 sample: overlap scheduler on, the patch's marker prints, a CUDA fault."""

from __future__ import annotations

import random
from datetime import datetime

from logfmt import SITE, Clock, Log, c10, sgl, traceback_body
from sglang_parts import (
    MAX_RUNNING_48,
    SG,
    SIGQUIT_COLLATERAL,
    SIGQUIT_RUNNING,
    V2_ON,
    Launch,
    decode_line,
    prefill_line,
    rank_prefixes,
    sched_frames,
    server_args,
    server_ready,
    startup_ranks,
)
from stories_sglang import CUDA_TAIL, MARKER


def v2_frames() -> list[tuple[str, int, str, str | None]]:
    sp = f"{SG}/speculative"
    return sched_frames("event_loop_overlap") + [
        (
            f"{SG}/managers/scheduler.py",
            1902,
            "run_batch",
            "batch_result = self.model_worker.forward_batch_generation(model_worker_batch)",
        ),
        (
            f"{sp}/eagle_worker_v2.py",
            612,
            "forward_batch_generation",
            "self.draft_worker._draft_extend_for_decode(model_worker_batch, batch_output)",
        ),
        (
            f"{sp}/eagle_worker_v2.py",
            488,
            "_draft_extend_for_decode",
            "ret = self.cuda_graph_runner_for_draft_extend.replay(forward_batch)",
        ),
        (
            f"{sp}/eagle_draft_extend_cuda_graph_runner.py",
            356,
            "replay",
            "self.graphs[bs].replay()",
        ),
        (f"{SITE}/torch/cuda/graphs.py", 88, "replay", "super().replay()"),
    ]


MODEL, DRAFT = "/models/Llama-3.1-70B-Instruct", "/models/EAGLE3-LLaMA3.3-Instruct-70B"
BS = [1, 2, 4, 8, 16, 24, 32, 48]
ILLEGAL = "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"


def v2_launch(log: Log, clock: Clock, rng: random.Random) -> dict[str, int]:
    """Command line, bare v2-on warning, dump, start-up (ms stamps) and the patch's marker."""
    log.add(
        f"SGLANG_ENABLE_SPEC_V2=True SGLANG_LOG_MS=1 python3 -m sglang.launch_server --model-path {MODEL} --tp-size 4 "
        f"--speculative-algorithm EAGLE3 --speculative-draft-model-path {DRAFT} --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --speculative-disable-batch-threshold 8"
    )  # fmt: skip
    marks = {"warning": log.add(V2_ON)}
    log.add(MAX_RUNNING_48)
    dump = server_args(
        model_path=MODEL, tokenizer_path=MODEL, served_model_name=MODEL, tp_size=4,
        max_running_requests=48, speculative_algorithm="EAGLE3", speculative_draft_model_path=DRAFT,
        speculative_draft_model_revision="main", speculative_num_steps=3, speculative_eagle_topk=1,
        speculative_num_draft_tokens=4, speculative_disable_batch_threshold=8, cuda_graph_bs=BS,
        disable_overlap_schedule=False,
    )  # fmt: skip
    marks["dump"] = log.add(sgl(clock.tick(5.3), ms=True) + dump)
    start = Log()
    launch = Launch(
        4, "LlamaForCausalLM", "LlamaForCausalLMEagle3", BS, host="gpu-node-9", first_pid=7702
    )
    startup_ranks(start, clock, launch, rng)
    for line in start.lines:  # SGLANG_LOG_MS=1: every header carries milliseconds
        stamped = line.startswith("[2026")
        ms = f".{rng.randint(0, 999):03d}" if stamped else ""
        log.add(line[:20] + ms + line[20:] if stamped else line)  # after HH:MM:SS, before tags
    marker = f"{MARKER}: speculative_disable_batch_threshold=8"
    marks["marker"] = [
        log.add(sgl(clock.tick(0.01), p, ms=True) + marker) for p in rank_prefixes(4)
    ][0]
    return marks


def v2_load(log: Log, clock: Clock, rng: random.Random) -> None:
    """Load rises past the threshold (speculation off: no accept len), then falls back to 8."""
    for running in [1, 2, 4, 6, 8, 10, 12, 12, 11, 9, 8]:
        log.add(
            sgl(clock.tick(0.3), "TP0", ms=True)
            + prefill_line(1, 211, 0.01, running - 1, trailing=True)
        )
        for _ in range(3):
            spec = running <= 8
            head = sgl(clock.tick(rng.uniform(1.0, 2.0)), "TP0", ms=True)  # draw order matters
            accept = rng.uniform(2.9, 3.4) if spec else None
            gen = 41.0 * running * (3.1 if spec else 1.0)
            log.add(head + decode_line(running, 2100 * running, accept, 4, gen, trailing=True))


def v2_log() -> tuple[Log, dict[str, int]]:
    """Spec v2 on (topk 1, overlap on): the patch's marker prints; a CUDA fault in draft extend."""
    rng = random.Random(20260302)
    log, clock = Log(), Clock(datetime(2026, 3, 2, 14, 2, 10, 118000))
    marks = v2_launch(log, clock, rng)
    server_ready(log, clock, pid=7650)
    v2_load(log, clock, rng)
    crash_at = clock.tick(0.731)
    body = traceback_body(v2_frames(), ILLEGAL)
    marks["crash"] = log.add(
        sgl(crash_at, "TP1", ms=True) + "Scheduler hit an exception: " + body[0]
    )
    log.extend(body[1:] + CUDA_TAIL)
    nanos = crash_at.microsecond * 1000 + 4113554  # a few ms after the traceback
    what = "[PG ID 2 PG GUID 3 Rank 1] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered"
    log.add(c10(1, "E", crash_at, nanos, "ProcessGroupNCCL.cpp:1904", what))
    marks["sigquit"] = log.add(sgl(clock.tick(0.02), ms=True) + SIGQUIT_RUNNING)
    return log, marks


def v2_incident(marks: dict[str, int]) -> dict:
    return {
        "exception_type": "torch.AcceleratorError",
        "message_contains": "CUDA error: an illegal memory access was encountered",
        "root_cause": True,
        "origin_rank": "TP1",
        "ranks": ["TP1"],
        "first_line": marks["crash"],
        "worker_path": "v2",
        "worker_class": "EAGLEWorkerV2",
        "load_running_req": 8,
        "evidence_lines": [marks["dump"], marks["warning"]],
    }


def v2_run() -> tuple[dict[str, bytes], dict]:
    log, marks = v2_log()
    expected = {
        "inputs": ["server.log"],
        "expect": [MARKER],
        "incidents": [
            v2_incident(marks),
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "Process group watchdog thread terminated",
            },
            SIGQUIT_COLLATERAL,
        ],
        "missing_markers": [],
        "present_markers": {MARKER: marks["marker"]},
        "config": {
            "speculative_algorithm": "EAGLE3",
            "speculative_eagle_topk": 1,
            "speculative_num_steps": 3,
            "speculative_num_draft_tokens": 4,
            "disable_overlap_schedule": False,
            "tp_size": 4,
        },
    }
    return {"server.log": log.text().encode()}, expected
