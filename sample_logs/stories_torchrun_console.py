"""torchrun console sample: four ranks' tracebacks, each line '[rankN]: '-prefixed, interleaved."""

from __future__ import annotations

import random

from logfmt import SITE, Log, caret, traceback_body

TD = f"{SITE}/torch/distributed"
UNPACK = "ValueError: too many values to unpack (expected 2)"
# fmt: off
RANK_FRAMES = [
    ("/workspace/spec_bench.py", 211, "<module>", "main()"),
    ("/workspace/spec_bench.py", 198, "main", caret("tokens = speculative_decode(model, draft, batch, k=args.k)", "speculative_decode(model, draft, batch, k=args.k)")),
    ("/workspace/spec_bench.py", 140, "speculative_decode", "accepted, bonus = verify(target_logits, draft_tokens, tree)"),
]
AGENT_FRAMES = [
    ("/usr/local/bin/torchrun", 8, "<module>", "sys.exit(main())"),
    (f"{TD}/elastic/multiprocessing/errors/__init__.py", 355, "wrapper", "return f(*args, **kwargs)"),
    (f"{TD}/run.py", 918, "main", "run(args)"),
    (f"{TD}/run.py", 909, "run", "elastic_launch("),
    (f"{TD}/launcher/api.py", 138, "__call__", "return launch_agent(self._config, self._entrypoint, list(args))"),
    (f"{TD}/launcher/api.py", 269, "launch_agent", "raise ChildFailedError("),
]
# fmt: on


def failure_entry(index: int, rank: int, pid: int) -> list[str]:
    """One entry of torchrun's failure table."""
    return [
        f"[{index}]:",
        "  time      : 2026-05-19_05:48:21",
        "  host      : gpu-node-5",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : 1 (pid: {pid})",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def agent_report() -> list[str]:
    """The elastic agent's error line, its own traceback and the ChildFailedError table."""
    rule, thin = "=" * 60, "-" * 60
    lines = [
        f"E0519 05:48:24.018000 3301 {TD.split('dist-packages/')[1]}/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 3313) of binary: /usr/bin/python3"
    ]
    lines += traceback_body(
        AGENT_FRAMES, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "
    )
    lines += [rule, "spec_bench.py FAILED", thin, "Failures:"]
    for i, rank in enumerate((0, 2, 3), 1):
        lines += failure_entry(i, rank, 3312 + rank)
    lines += [thin, "Root Cause (first observed failure):"] + failure_entry(0, 1, 3313) + [rule]
    return lines


def torchrun_console() -> tuple[dict[str, bytes], dict]:
    """All four ranks hit the same ValueError within a millisecond; rank 1 prints first."""
    rng = random.Random(20260519)
    log = Log()
    log.add("W0519 05:30:55.104000 3301 torch/distributed/run.py:792] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed.")  # fmt: skip
    for step in range(100, 2500, 400):
        for rank in range(4):
            log.add(f"[rank{rank}]: step {step} mean accepted 2.{rng.randint(10, 60)} tok/verify")
    body = traceback_body(RANK_FRAMES, UNPACK)
    streams = {r: [f"[rank{r}]: {line}" for line in body] for r in (1, 0, 2, 3)}
    first = log.next_lineno
    while any(streams.values()):  # line-buffered stderr of four processes on one console
        rank = (
            rng.choice([r for r, rest in streams.items() if rest]) if log.next_lineno > first else 1
        )
        log.add(streams[rank].pop(0))
    agent = log.next_lineno + 1
    log.extend(agent_report())
    expected = {
        "inputs": ["torchrun.log"],
        "expect": [],
        "incidents": [
            {"exception_type": "ValueError", "message_contains": "too many values to unpack", "root_cause": True,
             "origin_rank": "rank1", "ranks": ["rank1", "rank0", "rank2", "rank3"], "first_line": first},
            {"root_cause": False, "caused_by": 0, "message_contains": "ChildFailedError", "first_line_any": [agent - 1, agent]},
            {"optional": True, "root_cause": False, "caused_by": 0, "message_contains": "failed (exitcode: 1)"},
        ],
        "missing_markers": [],
    }  # fmt: skip
    return {"torchrun.log": log.text().encode()}, expected
