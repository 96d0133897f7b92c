"""Write a large noisy multi-rank SGLang-style log with known crashes, plus FILE.truth.json.

Usage: python benchmarks/gen_log.py --size-mb N --out FILE [--ranks 8] [--seed S] [--gzip]
       [--interleave line|block]

--interleave replaces the scenarios by crash storms (benchmarks/interleave.py): every rank
printing one failure to the stream at once, interleaved line by line or in 4 KB pipe blocks.

Speed: a noise block (64 one-second groups) is built once with a timestamp placeholder and
written again and again by joining its pieces with the stamp, so Python never touches single
noise lines in the loop. Crash scenarios are inserted about every 32 MB (evenly, each at least
once, in smaller files) and recorded in the truth file with their 1-based line numbers in the
(decompressed) output; after each crash the server is relaunched (warnings, dump, ready line).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import BinaryIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sample_logs"))

from interleave import Storms  # noqa: E402
from logfmt import SITE, c10, nccl_info, nccl_timeout_text, sgl, traceback_body  # noqa: E402
from sglang_parts import (  # noqa: E402
    FIRED_UP,
    GLM_OCR,
    MAX_RUNNING_48,
    SG,
    SIGQUIT_RUNNING,
    V2_OFF,
    decode_line,
    prefill_line,
    rank_prefixes,
    sched_frames,
)
from stories_more import chained_body, segfault_dump  # noqa: E402
from stories_sglang import (  # noqa: E402
    CUDA_TAIL,
    QWEN,
    QWEN_DRAFT,
    SEED_SHAPE,
    seed_frames,
    v1_dump,
)

PH = "\x00\x01STAMP\x01\x00"  # placeholder for "YYYY-MM-DD HH:MM:SS" in the noise block
PHB = PH.encode()
GROUPS = 64  # seconds per noise block
CRASH_EVERY = 32 * 1024 * 1024
ANSI_INFO = "\x1b[32mINFO\x1b[0m"


def head(prefix: str) -> str:
    return f"[{PH}{' ' + prefix if prefix else ''}] "


def decode_lines(rng: random.Random, ranks: int, g: int) -> list[str]:
    """A second of decode-batch lines: twelve log intervals on every rank."""
    lines = []
    for _ in range(12):
        for r in range(ranks):
            running = 8 + (g + r) % 40
            tokens = 2100 * running + rng.randint(0, 999)
            line = decode_line(
                running, tokens, rng.uniform(1.8, 3.4), 16, 31.0 * running, trailing=False
            )
            lines.append(head(f"TP{r}") + line)
    return lines


def extra_line(g: int, ranks: int) -> str | None:
    """Six seconds in eight carry one benign line that looks alarming or has no header."""
    r = g % ranks
    bar = "\r".join(
        f"Processing requests: {p:3d}%|{'█' * (p // 10)}{' ' * (10 - p // 10)}| {p}/100"
        for p in range(0, 101, 20)
    )
    choices = [
        head(f"TP{r}") + GLM_OCR,
        nccl_info("gpu-node-3", 41200 + r, r, "Channel 02/24 :    0   1   2   3   4   5   6   7"),
        bar,
        head("TP0") + "KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.5312 -> 0.8000",
        f"{SITE}/torch/cuda/__init__.py:63: FutureWarning: The pynvml package is deprecated. Please install nvidia-ml-py instead.",
        f"[{PH}] \x1b[33mHealth check\x1b[0m: error_msg=None, status=ok",
    ]  # fmt: skip
    return choices[g % 8] if g % 8 < len(choices) else None


def noise_group(rng: random.Random, ranks: int, g: int) -> tuple[bytes, int]:
    """One second of a busy server: decode lines on every rank plus assorted benign lines."""
    lines = decode_lines(rng, ranks, g)
    lines.append(head("TP0") + prefill_line(2, 400 + g, 0.05, 12, trailing=False))
    lines.append(
        f'[{PH}] {ANSI_INFO}:     127.0.0.1:{40000 + g} - "POST /v1/chat/completions HTTP/1.1" 200 OK'
    )
    lines.append(f'[{PH}] INFO:     127.0.0.1:{41000 + g} - "POST /generate HTTP/1.1" 200 OK')
    extra = extra_line(g, ranks)
    lines += [extra] if extra is not None else []
    return ("\n".join(lines) + "\n").encode(), len(lines)


def noise_block(rng: random.Random, ranks: int) -> list[tuple[list[bytes], int]]:
    """The groups pre-split at the stamp placeholder, so a stamp is put in with one join."""
    groups = (noise_group(rng, ranks, g) for g in range(GROUPS))
    return [(data.split(PHB), nlines) for data, nlines in groups]


class Out:
    """Counts lines and bytes of what is written (before compression)."""

    def __init__(self, fh: BinaryIO) -> None:
        self.fh, self.lines, self.bytes = fh, 0, 0

    def raw(self, data: bytes, nlines: int) -> None:
        self.fh.write(data)
        self.lines += nlines
        self.bytes += len(data)

    def text(self, lines: list[str]) -> int:
        """Write lines; return the 1-based number of the first."""
        first = self.lines + 1
        self.raw(("\n".join(lines) + "\n").encode(), len(lines))
        return first


class Truth:
    """The expected crashes: one record per rank occurrence, grouped into incidents."""

    def __init__(self) -> None:
        self.crashes: list[dict] = []
        self.incidents: list[dict] = []

    def incident(
        self, scenario: str, etype: str, root: bool, caused_by: int | None = None,
        path: str | None = "v1",
    ) -> int:  # fmt: skip
        """A new expected incident; ``path`` is the worker path its frames prove (None: none)."""
        self.incidents.append(
            {
                "id": len(self.incidents),
                "scenario": scenario,
                "type": etype,
                "root_cause": root,
                "caused_by": caused_by,
                "worker_path": path,
                "ranks": [],
                "lines": [],
            }
        )
        return len(self.incidents) - 1

    def hit(self, incident: int, rank: str | None, line: int) -> None:
        inc = self.incidents[incident]
        inc["ranks"].append(rank)
        inc["lines"].append(line)
        self.crashes.append(
            {
                "type": inc["type"],
                "rank": rank,
                "line": line,
                "incident": incident,
                "root_cause": inc["root_cause"],
            }
        )


Defer = Callable[[datetime, Callable[[], None]], None]


def distinct_ranks(ranks: int, wanted: tuple[int, ...]) -> list[int]:
    """Up to len(wanted) different ranks, preferring the wanted ones (mod the rank count)."""
    picked: list[int] = []
    for r in list(wanted) + list(range(ranks)):
        if r % ranks not in picked and len(picked) < min(len(wanted), ranks):
            picked.append(r % ranks)
    return picked


def scheduler_tb(ts: datetime, rank: int, body: list[str]) -> list[str]:
    return [sgl(ts, f"TP{rank}") + "Scheduler hit an exception: " + body[0]] + body[1:]


def crash_shape(out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
    """The seed crash on the last rank and one more, then the SIGQUIT line."""
    body = traceback_body(seed_frames(), f"RuntimeError: {SEED_SHAPE}")
    inc = truth.incident("shape_mismatch", "RuntimeError", True)
    for r in distinct_ranks(ranks, (ranks - 1, ranks // 2)):
        truth.hit(inc, f"TP{r}", out.text(scheduler_tb(ts, r, body)))
    out.text([sgl(ts) + SIGQUIT_RUNNING])


def crash_chained(out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
    """ValueError -> UnboundLocalError -> RuntimeError on one rank."""
    inc = truth.incident("chained", "RuntimeError", True)
    r = distinct_ranks(ranks, (1,))[0]
    truth.hit(inc, f"TP{r}", out.text(scheduler_tb(ts, r, chained_body())))
    out.text([sgl(ts) + SIGQUIT_RUNNING])


def draft_frames() -> list[tuple[str, int, str, str | None]]:
    """v1 draft decode: EAGLEWorker.draft -> the draft CUDA-graph runner (the launch is v1)."""
    sp = f"{SG}/speculative"
    return sched_frames("event_loop_normal") + [
        (f"{SG}/managers/scheduler.py", 1846, "run_batch", "batch_result = self.draft_worker.forward_batch_generation(batch)"),
        (f"{sp}/eagle_worker.py", 296, "forward_batch_generation", "spec_info = self.draft(batch)"),
        (f"{sp}/eagle_worker.py", 478, "draft", "score_list, token_list, parents_list = self.cuda_graph_runner.replay(forward_batch)"),
        (f"{sp}/eagle_draft_cuda_graph_runner.py", 298, "replay", "self.graphs[bs].replay()"),
        (f"{SITE}/torch/cuda/graphs.py", 88, "replay", "super().replay()"),
    ]  # fmt: skip


def crash_interleaved(out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
    """Ranks fail at once; line-buffered stderr interleaves their tracebacks line by line."""
    final = "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"
    body = traceback_body(draft_frames(), final) + CUDA_TAIL[:-1]
    picked = distinct_ranks(ranks, (2, 5, 6))
    inc = truth.incident("interleaved", "torch.AcceleratorError", True)
    first = out.lines + 1
    out.text(
        [
            line
            for group in zip(*(scheduler_tb(ts, r, body) for r in picked), strict=True)
            for line in group
        ]
    )
    for i, r in enumerate(picked):
        truth.hit(inc, f"TP{r}", first + i)
    out.text([sgl(ts) + SIGQUIT_RUNNING])


def crash_segfault(out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
    """A faulthandler dump (no header, no rank), then the watchdog line that names the rank."""
    inc = truth.incident("faulthandler", "SIGSEGV", True)
    truth.hit(inc, None, out.text(segfault_dump()))
    sched = 3 % ranks
    truth.incidents[inc]["named_rank"] = f"TP{sched}" if ranks > 1 else None
    died = f"Subprocess scheduler_{sched} (pid={41200 + sched}) crashed with exit code -11. Triggering SIGQUIT for cleanup..."
    out.text([sgl(ts + timedelta(seconds=2)) + died])


def crash_cuda_watchdog(out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
    """A CUDA fatal line on one rank; NCCL watchdog timeouts on all the others 10 minutes later."""
    bad = 3 % ranks
    pg = f"[PG ID 2 PG GUID 3 Rank {bad}]"
    what = f"{pg} Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered"
    root = truth.incident("cuda_fatal", "CUDAError", True, path=None)
    terminate = "terminate called after throwing an instance of 'c10::DistBackendError'"
    truth.hit(
        root,
        f"rank{bad}",
        out.text(
            [
                c10(bad, "E", ts, 118204551, "ProcessGroupNCCL.cpp:1904", what),
                terminate,
                f"  what():  {what}",
            ]
        ),
    )
    later = ts + timedelta(seconds=600)

    def watchdogs() -> None:
        inc = truth.incident("nccl_watchdog", "NCCLTimeout", False, caused_by=root, path=None)
        for r in range(ranks):
            if r != bad:
                text = nccl_timeout_text(r, 88231, 8388608, 600011 + r)
                truth.hit(
                    inc,
                    f"rank{r}",
                    out.text(
                        [c10(r, "E", later, 475101234 + r, "ProcessGroupNCCL.cpp:1595", text)]
                    ),
                )

    if ranks > 1:
        defer(later, watchdogs)


SCENARIOS: list[Callable[[Out, datetime, int, Truth, Defer], None]] = [
    crash_shape,
    crash_chained,
    crash_interleaved,
    crash_segfault,
    crash_cuda_watchdog,
]


def generate(
    fh: BinaryIO, size: int, ranks: int, seed: int, interleave: str | None = None
) -> tuple[Out, Truth]:
    """Write about ``size`` bytes; return the counters and the truth list."""
    rng = random.Random(seed)
    block = noise_block(rng, ranks)
    scenarios = Storms(rng, interleave).scenarios() if interleave else SCENARIOS
    out, truth = Out(fh), Truth()
    pending: list[tuple[datetime, Callable[[], None]]] = []
    defer: Defer = lambda due, fn: pending.append((due, fn))  # noqa: E731
    ts = datetime(2026, 2, 27, 8, 0, 0) + timedelta(seconds=rng.randint(0, 3600))
    every = min(CRASH_EVERY, max(size // (len(scenarios) + 1), 1))  # small files get each once
    next_crash, k = every, 0
    while out.bytes < size or pending:
        for pieces, nlines in block:
            out.raw(ts.strftime("%Y-%m-%d %H:%M:%S").encode().join(pieces), nlines)
            ts += timedelta(seconds=1)
            while pending and pending[0][0] <= ts:
                pending.pop(0)[1]()
                ts = restart(out, ts, ranks)
            if next_crash <= out.bytes < size:
                scenarios[k % len(scenarios)](out, ts, ranks, truth, defer)
                k, next_crash = k + 1, next_crash + every
                ts = ts if pending else restart(out, ts, ranks)
    return out, truth


def restart(out: Out, ts: datetime, ranks: int) -> datetime:
    """The supervisor relaunches the server after a crash: warnings, dump, ready line."""
    ts += timedelta(seconds=45)
    bs = [1, 2, 4, 8, 12, 16, 24, 32, 40, 48]
    lines = [V2_OFF, MAX_RUNNING_48, sgl(ts) + v1_dump(ranks, QWEN, QWEN_DRAFT, bs)]
    lines += [sgl(ts + timedelta(seconds=9), p) + GLM_OCR for p in rank_prefixes(ranks)]
    out.text(lines + [sgl(ts + timedelta(seconds=70)) + FIRED_UP])
    return ts + timedelta(seconds=71)


def open_out(path: Path, compress: bool) -> BinaryIO:
    if not compress:
        return open(path, "wb")
    try:
        from isal import igzip

        return igzip.open(path, "wb", compresslevel=1)
    except ImportError:
        return gzip.open(path, "wb", compresslevel=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gzip", action="store_true")
    parser.add_argument("--interleave", choices=["line", "block"], default=None)
    args = parser.parse_args()
    if args.ranks < 2 or args.size_mb <= 0:
        parser.error(
            "--ranks must be at least 2 (rank prefixes need TP > 1) and --size-mb positive"
        )
    start = time.perf_counter()
    with open_out(args.out, args.gzip) as fh:
        out, truth = generate(
            fh, int(args.size_mb * 1_000_000), args.ranks, args.seed, args.interleave
        )
    secs = time.perf_counter() - start
    doc = {
        "file": args.out.name,
        "bytes": out.bytes,
        "lines": out.lines,
        "ranks": args.ranks,
        "seed": args.seed,
        "gzip": args.gzip,
        "interleave": args.interleave,
        "crashes": truth.crashes,
        "incidents": truth.incidents,
    }
    Path(f"{args.out}.truth.json").write_text(json.dumps(doc, indent=1) + "\n")
    sys.stderr.write(
        f"wrote {out.bytes / 1e6:.1f} MB, {out.lines} lines, {len(truth.crashes)} crash records, {len(truth.incidents)} incidents in {secs:.2f} s ({out.bytes / 1e6 / secs:.0f} MB/s)\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
