"""The main process: server-args lines, one process per TP rank (or in-process at tp 1), the end.

Like SGLang's launcher it prints the bare ServerArgs warnings and the ``server_args=`` dump with no
rank tag, waits for every rank to be ready before ``The server is fired up and ready to roll!``,
and reports a failed child with ``Received sigquit from a child process...``. Every wait is
bounded, so a hung rank cannot keep the run alive forever.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import queue
import signal
import socket
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spectrace_engine.bench.load import LoadSpec
from spectrace_engine.observe.logs import EngineLog, server_args_line
from spectrace_engine.server_args import EngineConfig

# Before the first request the launcher's handler prints the first line, afterwards the
# TokenizerManager's (LOG_FORMATS.md 1.9).
SIGQUIT_LAUNCH = "Received sigquit from a child process. It usually means the child failed."
SIGQUIT_RUNNING = "SIGQUIT received. signum=None, frame=None. It usually means one child failed."
READY_LINE = "The server is fired up and ready to roll!"


@dataclass(frozen=True, slots=True)
class RankError:
    rank: int
    exc_type: str
    message: str
    collateral: bool


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a run left behind: exit code, files, the errors its events recorded, rank 0's end."""

    exit_code: int
    log_path: Path
    event_paths: tuple[Path, ...]
    errors: tuple[RankError, ...] = ()
    summary: dict[str, Any] = field(default_factory=dict)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _rank_main(
    cfg: EngineConfig,
    load: LoadSpec,
    paths: Any,
    rank: int,
    warnings: tuple,
    port: int,
    ready: Any,
    go: Any,
) -> None:
    """Child entry point: run one rank, exit with its code."""
    import sys

    from spectrace_engine.managers.engine import Engine

    signal.signal(signal.SIGTERM, _exit_on_sigterm)

    def on_ready(r: int = rank) -> None:  # a default, not a closure cell: `spectrace stacks`
        ready.put(r)  # reads the rank from this frame's locals (py-spy cannot read cells)
        go.wait(timeout=cfg.dist_timeout_s * 3)

    code = Engine(cfg, load, paths, rank, warnings).run(port, on_ready)
    if code:
        ready.put(-1 - rank)  # unblocks a launcher still waiting for readiness
    sys.exit(code)


def launch(
    cfg: EngineConfig,
    load: LoadSpec,
    out_dir: Path,
    warnings: list[str],
    progress: Any = None,
    timeout_s: float = 900.0,
    pair: Any = None,
) -> RunResult:
    """Run the engine with ``cfg`` (already resolved and validated) and collect the outcome.

    ``pair`` (tp 1 only): a loaded ModelPair to serve instead of loading the weights again, so a
    sweep loads SmolLM2's GGUF once rather than once per run.
    """
    from spectrace_engine.managers.engine import Engine, RunPaths

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = RunPaths(out_dir, out_dir / "engine.log", uuid.uuid4().hex[:12])
    for p in [paths.log, *(paths.events(r, cfg.tp_size) for r in range(cfg.tp_size))]:
        p.unlink(missing_ok=True)
    main = EngineLog(paths.log, 0, 1)
    for w in warnings:
        main.bare(w)
    main.info(
        server_args_line(
            cfg,
            f"spectrace-engine/{cfg.model}",
            f"spectrace-engine/{cfg.model}-eagle3" if cfg.spec.enabled else None,
        )
    )
    ready: list[bool] = []
    if cfg.tp_size == 1:

        def on_ready() -> None:
            main.info(READY_LINE)
            ready.append(True)

        engine = Engine(cfg, load, paths, 0, tuple(warnings), progress, pair)
        codes = [engine.run(0, on_ready)]
    else:
        codes = _run_ranks(cfg, load, paths, tuple(warnings), main, timeout_s, ready)
    if any(codes):
        main.info(SIGQUIT_RUNNING if ready else SIGQUIT_LAUNCH)
    main.close()
    return collect(paths, cfg.tp_size, 1 if any(codes) else 0)


def _run_ranks(
    cfg: EngineConfig,
    load: LoadSpec,
    paths: Any,
    warnings: tuple,
    main: EngineLog,
    timeout_s: float,
    ready_flag: list[bool],
) -> list[int]:
    ctx = mp.get_context("spawn")
    ready, go = ctx.Queue(), ctx.Event()
    port = _free_port()
    procs = [
        ctx.Process(target=_rank_main, args=(cfg, load, paths, r, warnings, port, ready, go))
        for r in range(cfg.tp_size)
    ]
    for p in procs:
        p.start()
    deadline = time.monotonic() + timeout_s
    seen = 0
    while seen < cfg.tp_size and time.monotonic() < deadline:
        try:
            msg = ready.get(timeout=1.0)
        except queue.Empty:
            if not any(p.is_alive() for p in procs):
                break
            continue
        seen += 1
        if msg < 0:
            break
    if seen == cfg.tp_size:
        main.info(READY_LINE)
        ready_flag.append(True)
    go.set()
    for p in procs:
        p.join(max(deadline - time.monotonic(), 1.0))
    for p in procs:
        if p.is_alive():
            p.terminate()  # SIGTERM: the rank records an interrupted run end
            p.join(5.0)
        if p.is_alive():
            p.kill()
            p.join(5.0)
    return [p.exitcode if p.exitcode is not None else 1 for p in procs]


def collect(paths: Any, tp_size: int, code: int) -> RunResult:
    """Errors and the rank-0 run_end, read back from the event files with ``json``."""
    events = [paths.events(r, tp_size) for r in range(tp_size)]
    errors, summary = [], {}
    for path in events:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["event"] == "error":
                errors.append(
                    RankError(
                        rec["rank"], rec["exc_type"], rec["message"], bool(rec.get("collateral"))
                    )
                )
            elif rec["event"] == "run_end" and rec["rank"] == 0:
                summary = rec
    return RunResult(
        code, paths.log, tuple(p for p in events if p.exists()), tuple(errors), summary
    )
