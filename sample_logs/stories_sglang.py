"""SGLang sample stories: the seed crash, spec v2, a chained traceback, a segfault, k8s, paste."""

from __future__ import annotations

import gzip
import random
from datetime import datetime

from logfmt import Clock, Log, cri, sgl, traceback_body, uvicorn
from sglang_parts import (
    MAX_RUNNING_48,
    SG,
    SIGQUIT_COLLATERAL,
    SIGQUIT_RUNNING,
    V2_OFF,
    Launch,
    decode_line,
    prefill_line,
    sched_frames,
    server_args,
    server_ready,
    startup_ranks,
)

MARKER = "Dynamic speculation disable enabled"
CRI_MAX = 16 * 1024  # containerd/CRI-O split longer lines into partial records
SEED_SHAPE = (
    "The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0"
)
QWEN = "/models/Qwen3-235B-A22B-Instruct-2507"
QWEN_DRAFT = "/models/Qwen3-235B-A22B-EAGLE3"
CUDA_TAIL = [
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    "",
]


def seed_launch_command() -> str:
    return (
        f"python3 -m sglang.launch_server --model-path {QWEN} --tp-size 8 "
        f"--speculative-algorithm EAGLE3 --speculative-draft-model-path {QWEN_DRAFT} "
        "--speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 16 "
        "--speculative-disable-batch-threshold 8 --cuda-graph-max-bs 48 --mem-fraction-static 0.82 "
        "--trust-remote-code --host 0.0.0.0 --port 30000"
    )


def v1_dump(tp: int, model: str, draft: str, bs: list[int], **extra: object) -> str:
    """The final server args of a v1 run: topk 4, 16 draft tokens, overlap forced off."""
    return server_args(
        **extra,
        model_path=model,
        tokenizer_path=model,
        served_model_name=model,
        tp_size=tp,
        max_running_requests=48,
        speculative_algorithm="EAGLE3",
        speculative_draft_model_path=draft,
        speculative_draft_model_revision="main",
        speculative_num_steps=3,
        speculative_eagle_topk=4,
        speculative_num_draft_tokens=16,
        speculative_disable_batch_threshold=8,
        cuda_graph_max_bs=48,
        cuda_graph_bs=bs,
        disable_overlap_schedule=True,
    )


def seed_frames() -> list[tuple[str, int, str, str | None]]:
    """event_loop_normal -> run_batch -> EAGLEWorker -> target forward -> graph replay."""
    me = f"{SG}/model_executor"
    return sched_frames("event_loop_normal") + [
        (
            f"{SG}/managers/scheduler.py",
            1846,
            "run_batch",
            "batch_result = self.draft_worker.forward_batch_generation(batch)",
        ),
        (
            f"{SG}/speculative/eagle_worker.py",
            301,
            "forward_batch_generation",
            "return self._forward_without_spec(batch)",
        ),
        (
            f"{SG}/speculative/eagle_worker.py",
            342,
            "_forward_without_spec",
            "batch_result = self.target_worker.forward_batch_generation(model_worker_batch)",
        ),
        (
            f"{SG}/managers/tp_worker.py",
            258,
            "forward_batch_generation",
            "logits_output, can_run_cuda_graph = self.model_runner.forward(",
        ),
        (f"{me}/model_runner.py", 2141, "forward", "output = self._forward_raw("),
        (f"{me}/model_runner.py", 2189, "_forward_raw", "ret = self.graph_runner.replay("),
        (
            f"{me}/cuda_graph_runner.py",
            904,
            "replay",
            "self.replay_prepare(forward_batch, pp_proxy_tensors)",
        ),
        (
            f"{me}/cuda_graph_runner.py",
            871,
            "replay_prepare",
            "self.input_ids[:raw_num_token].copy_(forward_batch.input_ids)",
        ),
    ]


def bench_phase(
    log: Log,
    clock: Clock,
    rng: random.Random,
    conc: int,
    seconds: float,
    accept: float,
    gen: float,
    req_port: list[int],
) -> None:
    """One concurrency level of the throughput benchmark: requests, prefill, decode lines."""
    end = clock.now.timestamp() + seconds
    running = max(conc - 2, 1)
    while clock.now.timestamp() < end:
        if running < conc:
            new = conc - running
            log.add(
                sgl(clock.tick(0.2), "TP0")
                + prefill_line(new, 180 * new + rng.randint(0, 90), 0.01, running, trailing=False)
            )
            running = conc
        for _ in range(rng.randint(2, 4)):
            acc = accept + rng.uniform(-0.25, 0.25)
            thr = gen * rng.uniform(0.93, 1.07)
            log.add(
                sgl(clock.tick(rng.uniform(1.2, 2.2)), "TP0")
                + decode_line(
                    running, 2400 * running + rng.randint(0, 999), acc, 16, thr, trailing=False
                )
            )
        if rng.random() < 0.5:
            req_port[0] += 1
            log.add(
                uvicorn(
                    clock.tick(0.05),
                    f'127.0.0.1:{req_port[0]} - "POST /v1/chat/completions HTTP/1.1" 200 OK',
                )
            )
            running -= 1


class LoRARef:
    """Prints like sglang's LoRARef dataclass inside the server-args dump (an object repr)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        name = f"tenant-{self.n:03d}"
        return (
            f"LoRARef(lora_id='{(self.n * 2654435761) % 2**64:016x}', lora_name='{name}', "
            f"lora_path='/models/loras/qwen3-235b-a22b/{name}/checkpoint-final', pinned=False)"
        )


def lora_refs(count: int) -> list[LoRARef]:
    return [LoRARef(n) for n in range(count)]


def seed_log(minutes_per_level: float = 2.0, loras: int = 0) -> tuple[Log, dict[str, int]]:
    """The seed story's merged server log; returns it with the line numbers that matter."""
    extra = {"enable_lora": True, "lora_paths": lora_refs(loras)} if loras else {}
    rng = random.Random(20260227)
    log, marks = Log(), {}
    clock = Clock(datetime(2026, 2, 27, 20, 48, 41))
    log.add(seed_launch_command())
    marks["warning"] = log.add(V2_OFF)
    log.add(MAX_RUNNING_48)
    bs = [1, 2, 4, 8, 12, 16, 24, 32, 40, 48]
    marks["dump"] = log.add(sgl(clock.tick(6)) + v1_dump(8, QWEN, QWEN_DRAFT, bs, **extra))
    clock.at(datetime(2026, 2, 27, 20, 49, 3))
    startup_ranks(log, clock, Launch(8, "Qwen3MoeForCausalLM", "LlamaForCausalLMEagle3", bs), rng)
    log.add(
        sgl(clock.tick(2.1))
        + "Using default HuggingFace chat template with detected content format: string"
    )
    server_ready(log, clock, pid=41177)
    port = [51200]
    for conc, accept, gen in [
        (1, 3.05, 96.4),
        (2, 2.96, 171.2),
        (4, 2.88, 262.7),
        (8, 2.74, 331.5),
    ]:
        bench_phase(log, clock, rng, conc, 60 * minutes_per_level, accept, gen, port)
    clock.at(datetime(2026, 2, 27, 20, 59, 52))
    bench_phase(log, clock, rng, 10, 17.0, 2.61, 354.1, port)
    clock.at(datetime(2026, 2, 27, 21, 0, 16))
    marks["last_load"] = log.add(
        sgl(clock.now, "TP0") + decode_line(10, 25311, 2.58, 16, 352.9, trailing=False)
    )
    crash_at = datetime(2026, 2, 27, 21, 0, 18)
    body = traceback_body(seed_frames(), f"RuntimeError: {SEED_SHAPE}")
    for rank in ("TP7", "TP3"):
        marks[rank] = log.add(sgl(crash_at, rank) + "Scheduler hit an exception: " + body[0])
        log.extend(body[1:])
    marks["sigquit"] = log.add(sgl(crash_at) + SIGQUIT_RUNNING)
    return log, marks


def seed_incident(marks: dict[str, int]) -> dict:
    return {
        "exception_type": "RuntimeError",
        "message_contains": SEED_SHAPE,
        "root_cause": True,
        "origin_rank": "TP7",
        "ranks": ["TP7", "TP3"],
        "first_line": marks["TP7"],
        "worker_path": "v1",
        "worker_class": "EAGLEWorker",
        "shape": {"a": 160, "b": 2, "dim": 0},
        "explanation": {
            "explained": True,
            "facts": {"running_req": 10, "num_draft_tokens": 16, "topk": 4},
            "terms": ["160"],
        },
        "load_running_req": 10,
        "evidence_lines": [marks["dump"], marks["warning"]],
    }


SEED_CONFIG = {
    "speculative_algorithm": "EAGLE3",
    "speculative_eagle_topk": 4,
    "speculative_num_steps": 3,
    "speculative_num_draft_tokens": 16,
    "disable_overlap_schedule": True,
    "tp_size": 8,
}


def seed_expected(name: str, incident: dict) -> dict:
    """expected.json of the seed story in any wrapping: its crash, then the SIGQUIT collateral."""
    return {
        "inputs": [name],
        "expect": [MARKER],
        "incidents": [incident, SIGQUIT_COLLATERAL],
        "missing_markers": [MARKER],
        "config": SEED_CONFIG,
    }


def seed_story() -> tuple[dict[str, bytes], dict]:
    log, marks = seed_log()
    return {"server.log": log.text().encode()}, seed_expected("server.log", seed_incident(marks))


def k8s_wrapped() -> tuple[dict[str, bytes], dict]:
    """The seed log as kubelet stores it: CRI prefix per line, gzip-compressed.

    With 96 LoRA adapters the server-args dump passes 16 KiB, so the container runtime splits
    it into partial (``P``) records and a final (``F``) one, as containerd and CRI-O do.
    """
    log, marks = seed_log(minutes_per_level=0.5, loras=96)
    clock = Clock(datetime(2026, 2, 27, 20, 48, 41))
    wrapped, physical = Log(), {}
    for number, line in enumerate(log.lines, 1):
        stream = "stdout" if " NCCL INFO " in line or "INFO:     " in line else "stderr"
        physical[number] = wrapped.next_lineno
        pieces = [line[i : i + CRI_MAX] for i in range(0, len(line), CRI_MAX)] or [""]
        for k, piece in enumerate(pieces):
            wrapped.add(cri(clock.tick(0.004), stream, piece, partial=k < len(pieces) - 1))
    assert wrapped.next_lineno > len(log.lines) + 1, "the dump must be split into CRI partials"
    marks = {key: physical[value] for key, value in marks.items()}
    data = gzip.compress(wrapped.text().encode(), compresslevel=6, mtime=0)
    # the rejoined dump may be cited at its first (P) or last (F) physical line
    dump = [[marks["dump"], marks["dump"] + 1], marks["warning"]]
    incident = seed_incident(marks) | {"evidence_lines": dump}
    return {"sglang-eagle3-0.log.gz": data}, seed_expected("sglang-eagle3-0.log.gz", incident)


def pasted_midway() -> tuple[dict[str, bytes], dict]:
    """A user pasted from a terminal, starting in the middle of the TP7 traceback."""
    body = traceback_body(seed_frames(), f"RuntimeError: {SEED_SHAPE}")
    start = next(i for i, line in enumerate(body) if "event_loop_normal" in line and "File" in line)
    log = Log()
    first = log.extend(body[start:])
    log.add(sgl(datetime(2026, 2, 27, 21, 0, 18)) + SIGQUIT_RUNNING)
    expected = {
        "inputs": ["pasted.txt"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "RuntimeError",
                "message_contains": SEED_SHAPE,
                "root_cause": True,
                "origin_rank": None,
                "first_line": first,
                "worker_path": "v1",
                "worker_class": "EAGLEWorker",
                "shape": {"a": 160, "b": 2, "dim": 0},
            },
            SIGQUIT_COLLATERAL,
        ],
        "missing_markers": [],
    }
    return {"pasted.txt": log.text().encode()}, expected
