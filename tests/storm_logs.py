"""Multi-rank SGLang logs with known crashes, for the property tests: each crash printed by
its ranks at once (interleaved line by line or in 4 KB pipe blocks, benchmarks/interleave.py),
between ordinary server lines; the truth is which crashes, of which type, on which ranks.

The lines are ours, in the real formats (sample_logs/logfmt.py, sglang_parts.py).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "sample_logs")]

from interleave import MERGES, model_frames  # noqa: E402
from logfmt import sgl, traceback_body  # noqa: E402
from sglang_parts import SIGQUIT_RUNNING, decode_line  # noqa: E402
from stories_more import chained_body, segfault_dump  # noqa: E402
from stories_sglang import CUDA_TAIL, SEED_SHAPE, seed_frames  # noqa: E402

HEADER = "Scheduler hit an exception: "
CUDA = "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"
# kind -> (exception type, traceback body); "segfault" is a faulthandler dump instead
BODIES = {
    "shape": ("RuntimeError", lambda: traceback_body(seed_frames(), f"RuntimeError: {SEED_SHAPE}")),
    "chained": ("RuntimeError", chained_body),
    "cuda": ("torch.AcceleratorError", lambda: traceback_body(model_frames(), CUDA) + CUDA_TAIL[:-1]),
    "unpack": ("ValueError", lambda: traceback_body(seed_frames(), "ValueError: too many values to unpack (expected 2)")),
}
KINDS = (*BODIES, "segfault")


@dataclass(frozen=True, slots=True)
class TrueCrash:
    exception_type: str
    ranks: tuple[str, ...]  # first writer first; () when the log names no writer


@dataclass(slots=True)
class StormLog:
    lines: list[str] = field(default_factory=list)
    crashes: list[TrueCrash] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)  # lines written when each crash was over


def decode(ts: datetime, rank: int) -> str:
    return sgl(ts, f"TP{rank}") + decode_line(8 + rank, 20000 + rank, 2.5, 16, 300.0, trailing=False)


def storm(rng: random.Random, log: StormLog, ts: datetime, kind: str, ranks: list[int],
          mode: str) -> None:  # fmt: skip
    """One crash on ``ranks`` (first writer first), then the launcher's SIGQUIT."""
    if kind == "segfault":
        cut = decode(ts, ranks[0])
        at = rng.randint(len(sgl(ts, f"TP{ranks[0]}")), len(cut) - 1)
        dump = segfault_dump()
        log.lines += [cut[:at] + dump[0], *dump[1:], cut[at:]]
        log.crashes.append(TrueCrash("SIGSEGV", ()))
        return
    etype, body = BODIES[kind]
    records = [[sgl(ts, f"TP{r}") + HEADER + body()[0], *body()[1:]] for r in ranks]
    merged, _ = MERGES[mode](rng, records)
    log.lines += merged
    log.lines.append(sgl(ts) + SIGQUIT_RUNNING)
    log.crashes.append(TrueCrash(etype, tuple(f"TP{r}" for r in ranks)))


def storm_log(rng: random.Random, world: int, kinds: list[str], mode: str) -> StormLog:
    """Decode lines of every rank, then each crash a minute after the last."""
    log, ts = StormLog(), datetime(2026, 2, 27, 21, 0, 0)
    for kind in kinds:
        for _ in range(rng.randint(1, 6)):
            log.lines += [decode(ts, r) for r in range(world)]
            ts += timedelta(seconds=1)
        count = 1 if kind == "unpack" else rng.randint(2, world)
        storm(rng, log, ts, kind, rng.sample(range(world), count), mode)
        if rng.random() < 0.3:
            log.lines.append("Killed")  # the launcher tore the tree down: no second crash
        log.ends.append(len(log.lines))
        ts += timedelta(seconds=60)
    log.lines += [decode(ts, r) for r in range(world)]
    return log
