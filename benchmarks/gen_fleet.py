"""Write the logs of a multi-node SGLang fleet: DIR/nodeNN/server.log, one directory per host.

Usage: python benchmarks/gen_fleet.py --out DIR [--nodes 20] [--size-mb 1] [--ranks 8] [--seed S]

Each node serves its share of one TP group (node k holds TP ranks 8k..8k+7), prints the
server_args dump and decode batches (the bulk of the bytes), and then: on the origin node
(every fifth node, and node 0) a scheduler traceback with a message of its own; on the others
NCCL watchdog timeouts, the collateral of a peer's crash. The lines are ours, in SGLang's and
c10's printed shapes (sample_logs/logfmt.py, sample_logs/sglang_parts.py).
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sample_logs"))

from logfmt import c10, nccl_timeout_text, sgl, traceback_body  # noqa: E402
from sglang_parts import SG, decode_line, sched_frames, server_args  # noqa: E402

START = datetime(2026, 3, 1, 4, 0, 0)


def noise(rng: random.Random, ranks: range, when: datetime) -> str:
    """One second of decode batches on every local rank."""
    lines = []
    for r in ranks:
        running = 8 + rng.randrange(40)
        line = decode_line(running, 2100 * running + rng.randrange(999), rng.uniform(1.8, 3.4),
                           16, 31.0 * running, trailing=False)  # fmt: skip
        lines.append(sgl(when, f"TP{r}") + line)
    return "\n".join(lines) + "\n"


def origin(node: int, rank: int, when: datetime) -> list[str]:
    """A scheduler traceback on one rank, its message naming the node (a distinct incident)."""
    frames = [*sched_frames("event_loop_normal"),
              (f"{SG}/layers/fused_moe_{node}.py", 100 + node, f"moe_node_{node}", None)]  # fmt: skip
    body = traceback_body(frames, f"RuntimeError: expert {node} weights out of range")
    return [sgl(when, f"TP{rank}") + "Scheduler hit an exception: " + body[0], *body[1:]]


def collateral(ranks: range, when: datetime) -> list[str]:
    """The watchdog timeouts of ranks whose peer died."""
    return [c10(r, "E", when, 475101234, "ProcessGroupNCCL.cpp:632",
                nccl_timeout_text(r, 4711, 1048576, 600321)) for r in ranks]  # fmt: skip


def write_node(path: Path, node: int, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed * 1000 + node)
    ranks = range(node * args.ranks, (node + 1) * args.ranks)
    when, size = START, 0
    with path.open("w", encoding="utf-8") as out:
        out.write(sgl(when) + server_args(tp_size=args.ranks * args.nodes) + "\n")
        while size < args.size_mb * 1024 * 1024:
            when += timedelta(seconds=1)
            size += out.write(noise(rng, ranks, when))
        crash = (
            origin(node, ranks[node % len(ranks)], when)
            if node % 5 == 0
            else collateral(ranks, when + timedelta(seconds=600))
        )
        size += out.write("\n".join(crash) + "\n")
    return size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--nodes", type=int, default=20)
    parser.add_argument("--size-mb", type=float, default=1.0)
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total = 0
    for node in range(args.nodes):
        (args.out / f"node{node:02d}").mkdir(parents=True, exist_ok=True)
        total += write_node(args.out / f"node{node:02d}" / "server.log", node, args)
    print(f"wrote {args.nodes} node logs, {total / 1e6:.1f} MB, under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
