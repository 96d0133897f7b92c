"""Crash storms for gen_log.py --interleave: ranks writing one failure to one stream at once.

Python's traceback printer writes line by line, so concurrent ranks interleave whole lines
(``line``); a logger writes a record in one write() and a pipe splits writes over its 4 KB
pages, so records interleave in blocks that cut lines anywhere (``block``). A faulthandler
dump is written straight to fd 2 and lands in the middle of another writer's line. Each
storm is one true crash: one incident holding every rank that printed it, the first writer
its origin.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sample_logs"))

from logfmt import SITE, c10, nccl_timeout_text, sgl, traceback_body  # noqa: E402
from sglang_parts import SG, SIGQUIT_RUNNING, decode_line  # noqa: E402
from stories_more import chained_body, segfault_dump  # noqa: E402
from stories_sglang import CUDA_TAIL, SEED_SHAPE, seed_frames  # noqa: E402

if TYPE_CHECKING:
    from gen_log import Defer, Out, Truth

PIPE_PAGE = 4096  # a pipe write larger than this may be split and interleaved
START_CHANCE = 0.3  # per written line, the chance that the next rank starts writing
BLOCK_START_CHANCE = 0.8  # writers of whole records start nearly together
KILL_PROCESS_TREE = "Killed"  # the shell's word for its job's SIGKILL


def merge_lines(
    rng: random.Random, records: list[list[str]], start_chance: float = START_CHANCE
) -> tuple[list[str], list[int]]:
    """Records written line by line at once, the first one starting first; returns the lines
    and the index of each record's first line."""
    queues = [list(r) for r in records]
    first: list[int] = [0] + [-1] * (len(records) - 1)
    out: list[str] = [queues[0].pop(0)]
    started = 1
    while any(queues):
        live = [i for i in range(started) if queues[i]]
        if started < len(queues) and (not live or rng.random() < start_chance):
            live, started = [started], started + 1
        i = rng.choice(live)
        if first[i] < 0:
            first[i] = len(out)
        out.append(queues[i].pop(0))
    return out, first


def merge_blocks(rng: random.Random, records: list[list[str]]) -> tuple[list[str], list[int]]:
    """Each record one write(), split over pipe pages (the first page part-full) and
    interleaved page by page; lines are cut wherever a page ends."""
    chunked = []
    for lines in records:
        blob = "\n".join(lines) + "\n"
        cut = rng.randint(PIPE_PAGE // 4, PIPE_PAGE)
        pieces = [blob[:cut]] + [blob[p : p + PIPE_PAGE] for p in range(cut, len(blob), PIPE_PAGE)]
        chunked.append([p for p in pieces if p])
    order, first_piece = merge_lines(rng, chunked, BLOCK_START_CHANCE)
    text, starts = "", []
    for n, piece in enumerate(order):
        if n in first_piece:
            starts.append((first_piece.index(n), text.count("\n")))
        text += piece
    first = [line for _, line in sorted(starts)]
    return text.rstrip("\n").split("\n"), first


Merge = Callable[[random.Random, list[list[str]]], tuple[list[str], list[int]]]
MERGES: dict[str, Merge] = {"line": merge_lines, "block": merge_blocks}


def model_frames() -> list[tuple[str, int, str, str | None]]:
    """The decode forward through the model's layers: a traceback long enough (> 4 KB with
    its header) that a logger's single write is split by the pipe."""
    mm = f"{SITE}/torch/nn/modules/module.py"
    frames = seed_frames()[:-1]
    for layer in ("model", "layers", "decoder", "self_attn", "attn", "rotary", "qkv", "attn"):
        frames += [(mm, 1773, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"),
                   (mm, 1784, "_call_impl", "return forward_call(*args, **kwargs)"),
                   (f"{SG}/models/qwen3_moe.py", 600 + len(layer), "forward",
                    f"hidden_states = self.{layer}(positions, hidden_states, forward_batch)")]  # fmt: skip
    return frames + [(f"{SG}/layers/radix_attention.py", 108, "forward", "return forward_batch.attn_backend.forward(")]


class Storms:
    """The five storm scenarios, sharing one random source and one interleaving mode."""

    def __init__(self, rng: random.Random, mode: str) -> None:
        self.rng, self.merge = rng, MERGES[mode]

    def scenarios(self) -> list[Callable[[Out, datetime, int, Truth, Defer], None]]:
        return [self.shape, self.chained, self.cuda, self.segfault_mid_line, self.hang_then_kill]

    def _storm(self, out: Out, truth: Truth, inc: int, ranks: list[int],
               record: Callable[[int], list[str]]) -> None:  # fmt: skip
        lines, first = self.merge(self.rng, [record(r) for r in ranks])
        base = out.text(lines)
        for r, at in zip(ranks, first, strict=True):
            truth.hit(inc, f"TP{r}", base + at)

    def _order(self, ranks: int, count: int) -> list[int]:
        """``count`` ranks in the order they start writing: the first is the origin."""
        return self.rng.sample(range(ranks), min(count, ranks))

    def shape(self, out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
        """Every rank raises the seed's shape mismatch at once; the shell then reports the
        launcher's SIGKILL of the tree (``Killed``): collateral, no OOM."""
        body = traceback_body(seed_frames(), f"RuntimeError: {SEED_SHAPE}")
        inc = truth.incident("storm_shape", "RuntimeError", True)
        self._storm(out, truth, inc, self._order(ranks, ranks), lambda r: _scheduler(ts, r, body))
        out.text([sgl(ts) + SIGQUIT_RUNNING, KILL_PROCESS_TREE])

    def chained(self, out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
        """ValueError -> UnboundLocalError -> RuntimeError on two ranks, interleaved."""
        inc = truth.incident("storm_chained", "RuntimeError", True)
        self._storm(out, truth, inc, self._order(ranks, 2), lambda r: _scheduler(ts, r, chained_body()))
        out.text([sgl(ts) + SIGQUIT_RUNNING])

    def cuda(self, out: Out, ts: datetime, ranks: int, truth: Truth, defer: Defer) -> None:
        """An illegal memory access on every rank through the model's layers (records > 4 KB)."""
        final = "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"
        body = traceback_body(model_frames(), final) + CUDA_TAIL[:-1]
        inc = truth.incident("storm_cuda", "torch.AcceleratorError", True)
        self._storm(out, truth, inc, self._order(ranks, ranks), lambda r: _scheduler(ts, r, body))
        out.text([sgl(ts) + SIGQUIT_RUNNING])

    def segfault_mid_line(self, out: Out, ts: datetime, ranks: int, truth: Truth,
                          defer: Defer) -> None:  # fmt: skip
        """A faulthandler dump lands inside another rank's decode line, which ends after it."""
        sched = self.rng.randrange(ranks)
        other = (sched + 1) % ranks
        line = sgl(ts, f"TP{other}") + decode_line(12, 26000, 2.4, 16, 372.0, trailing=False)
        cut = self.rng.randint(len(sgl(ts, f"TP{other}")), len(line) - 1)
        dump = segfault_dump()
        inc = truth.incident("storm_segfault", "SIGSEGV", True)
        truth.incidents[inc]["named_rank"] = f"TP{sched}"
        truth.hit(inc, None, out.text([line[:cut] + dump[0], *dump[1:], line[cut:]]))
        died = f"Subprocess scheduler_{sched} (pid={41200 + sched}) crashed with exit code -11. Triggering SIGQUIT for cleanup..."
        out.text([sgl(ts + timedelta(seconds=2)) + died])

    def hang_then_kill(self, out: Out, ts: datetime, ranks: int, truth: Truth,
                       defer: Defer) -> None:  # fmt: skip
        """One rank's ValueError; ten minutes later every other rank's NCCL watchdog times out
        in the collective it never joined, then the launcher's SIGQUIT and the shell's Killed."""
        bad = self.rng.randrange(ranks)
        body = traceback_body(seed_frames(), "ValueError: too many values to unpack (expected 2)")
        root = truth.incident("storm_lone", "ValueError", True)
        truth.hit(root, f"TP{bad}", out.text(_scheduler(ts, bad, body)))
        later = ts + timedelta(seconds=600)

        def watchdogs() -> None:
            inc = truth.incident("storm_watchdog", "NCCLTimeout", False, caused_by=root, path=None)
            truth.incidents[inc]["missing_rank"] = f"TP{bad}"
            for r in (r for r in range(ranks) if r != bad):
                text = nccl_timeout_text(r, 88231, 8388608, 600011 + r)
                line = c10(r, "E", later, 475101234 + r, "ProcessGroupNCCL.cpp:1595", text)
                truth.hit(inc, f"rank{r}", out.text([line.split(":", 1)[1]]))  # no torchrun
            out.text([sgl(later + timedelta(seconds=1)) + SIGQUIT_RUNNING, KILL_PROCESS_TREE])

        if ranks > 1:
            defer(later, watchdogs)


def _scheduler(ts: datetime, rank: int, body: list[str]) -> list[str]:
    return [sgl(ts, f"TP{rank}") + "Scheduler hit an exception: " + body[0]] + body[1:]
