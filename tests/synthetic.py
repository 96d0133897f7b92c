"""Synthetic crash records for incident/triage/report tests (shaped like the seed story).

The lines are written by us in SGLang's real format (LOG_FORMATS.md 1.2, 1.9).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from spectrace.assemblers.crash import Crash, CrashKind, Frame
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.shapes import ShapeMismatch
from spectrace.explain import Explanation
from spectrace.incidents import build_incidents
from spectrace.linker import WorkerPath
from spectrace.pipeline import Analysis, FileSummary, Finding

# GitHub workflow command: a property value may not contain raw , : % CR LF; a message may
# not contain raw % CR LF.
_PROP = r"(?:[^,:%\r\n]|%25|%0D|%0A|%3A|%2C)*"
_KEY = r"(?:file|line|title|col|endLine|endColumn)"
WORKFLOW_COMMAND = re.compile(
    rf"^::(error|warning|notice)(?: {_KEY}={_PROP}(?:,{_KEY}={_PROP})*)?::(?:[^%\r\n]|%25|%0D|%0A)*$"
)
SITE = "/usr/local/lib/python3.10/dist-packages"
SHAPE_MESSAGE = (
    "The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0"
)
FRAMES = (
    Frame("/usr/lib/python3.10/threading.py", 1016, "run"),
    Frame(f"{SITE}/sglang/srt/managers/scheduler.py", 2573, "run_scheduler_process"),
    Frame(f"{SITE}/sglang/srt/managers/scheduler.py", 1032, "event_loop_normal"),
    Frame(
        f"{SITE}/sglang/srt/speculative/eagle_worker.py",
        287,
        "forward_batch_speculative_generation",
    ),
    Frame(f"{SITE}/sglang/srt/model_executor/cuda_graph_runner.py", 731, "replay"),
    Frame(f"{SITE}/torch/nn/modules/module.py", 1773, "_wrapped_call_impl"),
    Frame(f"{SITE}/torch/nn/modules/module.py", 1784, "_call_impl"),
)


def ts(second: int, minute: int = 0) -> datetime:
    return datetime(2026, 2, 27, 21, minute, second)


def traceback_lines(rank: str, when: datetime, message: str = SHAPE_MESSAGE) -> tuple[str, ...]:
    head = f"[{when:%Y-%m-%d %H:%M:%S} {rank}] Scheduler hit an exception: Traceback (most recent call last):"
    body = [f'  File "{f.file}", line {f.line}, in {f.function}' for f in FRAMES]
    return (head, *body, f"RuntimeError: {message}")


def shape_crash(
    rank: str, second: int, lineno: int, source: str = "server.log", **kw: object
) -> Crash:
    when = ts(second)
    crash = Crash(
        kind=CrashKind.TRACEBACK,
        exception_type="RuntimeError",
        message=SHAPE_MESSAGE,
        source=source,
        lineno=lineno,
        end_lineno=lineno + len(FRAMES) + 1,
        offset=lineno * 100,
        stream=rank,
        rank=rank,
        ts=when,
        ts_text=f"{when:%Y-%m-%d %H:%M:%S}",
        frames=FRAMES,
        header="Scheduler hit an exception",
        lines=traceback_lines(rank, when),
        rule_id="shape_mismatch",
        crash_class="shape_mismatch",
        severity="fatal",
        hints=("spec_info survived into a non-speculative forward",),
    )
    return replace(crash, **kw) if kw else crash


def nccl_crash(
    rank: str, second: int, lineno: int, seq: int = 12345, source: str = "server.log"
) -> Crash:
    when = ts(second, minute=10)
    text = (f"[Rank {rank[2:]}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
            "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.")  # fmt: skip
    return Crash(
        kind=CrashKind.FATAL_LINE, exception_type="NCCLTimeout", message=text, source=source,
        lineno=lineno, end_lineno=lineno, offset=lineno * 100, stream=rank, rank=rank, ts=when,
        ts_text=f"{when:%Y-%m-%d %H:%M:%S}", lines=(f"[{when:%Y-%m-%d %H:%M:%S} {rank}] {text}",),
        rule_id="nccl_timeout", crash_class="nccl_timeout", severity="fatal", collateral=True,
    )  # fmt: skip


def seed_crashes() -> list[Crash]:
    """TP7 dies first with the shape mismatch, TP2 prints it too, the others time out in NCCL."""
    crashes = [shape_crash("TP2", 19, 900), shape_crash("TP7", 18, 800)]
    crashes += [nccl_crash(f"TP{r}", 1, 1000 + r) for r in (0, 1, 3, 10)]
    return crashes


SEED_READING = "as one row per request (plain decode) 2 would be a batch of 2 requests, not 10"


def seed_analysis(findings: tuple[Finding, ...] = ()) -> Analysis:
    """A full analysis with the linker's fields filled the way the seed story reads."""
    incidents = build_incidents(seed_crashes())
    evidence = Evidence("server.log", 12, "server_args=ServerArgs(..., disable_overlap_schedule=True, ...)",
                        "server_args dump has disable_overlap_schedule=True -> v1 (EAGLEWorker)", "v1")  # fmt: skip
    flags = {
        "disable_overlap_schedule": FlagValue(True, "server.log", 12, "server_args"),
        "speculative_eagle_topk": FlagValue(4, "server.log", 12, "server_args"),
        "api_key": FlagValue("sk-secretsecret123", "server.log", 12, "server_args"),
    }
    root = incidents[0]
    root.worker_path = WorkerPath("v1", "EAGLEWorker", (evidence,))
    root.flags = flags
    root.shape_mismatch = ShapeMismatch(
        "size_of_tensor", {"a": 160, "b": 2, "dim": 0}, SHAPE_MESSAGE
    )
    root.explanation = Explanation(True, "160 = 10 running requests x 16 draft tokens",
                                   {"160": "10 running requests x 16 draft tokens"}, "draft_token", {"running_req": 10},
                                   readings=(SEED_READING,), unexplained=(2,))  # fmt: skip
    root.load = LoadSample(
        "server.log", 790, "TP0", ts(10), running_req=10, accept_len=2.1, gen_throughput=354.0
    )
    files = [FileSummary("server.log", 1200, 150_000, {"sglang": 1190, "plain": 10})]
    return Analysis(files, incidents, list(findings), RunConfig(flags=dict(flags), engine="sglang"))


MISSING_MARKER = Finding(
    "missing_marker", "expected marker never appeared: 'Dynamic speculation disable enabled'"
)

HOSTILE = (
    "[bold red]boom[/] \x1b]52;c;ZWNobyBwd25lZA==\x07 \x00\x0c ]]> <x> & 100% a,b:c\r\nnext \udcff"
)


def hostile_analysis(count: int = 1) -> Analysis:
    """Crashes whose text tries markup, terminal escapes, XML breakers and command injection."""
    crashes = [
        shape_crash(f"TP{n}", n % 60, 10 + n, source="logs/a,b:c 100%.log",
                    exception_type=f"Error{n}", message=f"{HOSTILE} #{n}",
                    lines=(f"[2026-02-27 21:00:00 TP{n}] {HOSTILE}", "::error::injected"))
        for n in range(count)
    ]  # fmt: skip
    files = [FileSummary("logs/a,b:c 100%.log", 10, 100, {"sglang": 10}, ("bad UTF-8 at byte 7",))]
    return Analysis(files, build_incidents(crashes), [], RunConfig())
