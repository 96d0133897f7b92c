"""Engine hot paths as ratios measured in one run: graphs vs eager, overlap vs normal loop,
v2 vs v1, host reads per step, event cost per step.

    python benchmarks/bench_engine.py [--device cuda] [--model tiny] [--out /tmp/bench_engine]

Absolute speeds depend on the machine; the ratios are what to compare across changes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from spectrace_engine.bench.load import LoadSpec
from spectrace_engine.entrypoints.cli import build_config
from spectrace_engine.entrypoints.launch import launch
from spectrace_engine.observe.events import EventWriter


def config(device: str, model: str, **kw: object):
    base: dict = dict(model=model, device=device, worker="v1")  # the rest: the CLI defaults
    base.update(kw)
    return build_config(**base)


def throughput(
    out: Path, name: str, load: LoadSpec, device: str, model: str, **kw: object
) -> float:
    cfg, warnings = config(device, model, **kw)
    res = launch(cfg, load, out / name, warnings)
    return float(res.summary["gen_throughput"])


def syncs(run: Path) -> str:
    """Median reads per step, measured by the engine (observe/host_sync.py)."""
    steps = [json.loads(x) for x in (run / "events.jsonl").read_text().splitlines()]
    steps = [e for e in steps if e["event"] == "step"]
    inside = statistics.median(e["host_syncs"] for e in steps)
    after = statistics.median(e["resolve_syncs"] for e in steps)
    return f"{inside:g} + {after:g}"


def event_cost_us(n: int = 20000) -> float:
    """Wall µs to append one step-sized event and serialise it at flush."""
    with tempfile.TemporaryDirectory() as tmp:
        w = EventWriter(Path(tmp) / "e.jsonl", "bench", 0, flush_every=4096)
        t = time.perf_counter()
        for _ in range(n):
            w.emit(
                "step",
                mode="verify",
                bs=8,
                padded_bs=8,
                rows=128,
                rows_expected=128,
                graph="replay",
                graph_key="target:verify:8",
                phases={"draft": 1.0, "verify": 2.0},
                accepted=[1, 2, 3, 0, 1, 2, 3, 0],
                emitted=[2, 3, 4, 1, 2, 3, 4, 1],
            )
        w.close()
        return (time.perf_counter() - t) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--model", default="tiny")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bench_engine")
    args = ap.parse_args()
    d, m, out = args.device, args.model, args.out
    one, eight = LoadSpec(4, 1, 48), LoadSpec(16, 8, 48)
    for name, load in (("bs1", one), ("bs8", eight)):
        graph = throughput(out, f"plain-graph-{name}", load, d, m, algorithm="NONE")
        eager = throughput(
            out, f"plain-eager-{name}", load, d, m, algorithm="NONE", disable_cuda_graph=True
        )
        print(
            f"plain decode {name}: graph/eager throughput = {graph / eager:.2f}x "
            f"({graph:.1f} vs {eager:.1f} tok/s)"
        )
    normal = throughput(out, "plain-normal-bs8", eight, d, m, algorithm="NONE",
                        disable_overlap_schedule=True)  # fmt: skip
    overlap = throughput(out, "plain-overlap-bs8", eight, d, m, algorithm="NONE")
    print(
        f"plain decode bs8: overlap/normal event loop = {overlap / normal:.2f}x "
        f"({overlap:.1f} vs {normal:.1f} tok/s)"
    )
    v1 = throughput(out, "v1-chain-bs1", one, d, m)
    v2 = throughput(out, "v2-chain-bs1", one, d, m, worker="v2")
    plain = throughput(out, "plain-bs1", one, d, m, algorithm="NONE")
    print(
        f"chain s3 bs1: v2/v1 = {v2 / v1:.2f}x, v2/plain = {v2 / plain:.2f}x "
        f"({v2:.1f}, {v1:.1f}, {plain:.1f} tok/s)"
    )
    for name in ("v1-chain-bs1", "v2-chain-bs1", "plain-bs1"):
        print(f"{name}: device->host reads per step (in step + when processed) = {syncs(out / name)}")
    costs = [event_cost_us() for _ in range(3)]
    step_us = 1e6 / max(plain, 1e-9)
    print(
        f"event cost: {statistics.median(costs):.2f} us/event = "
        f"{100 * statistics.median(costs) / step_us:.2f}% of a bs1 plain step ({step_us:.0f} us)"
    )


if __name__ == "__main__":
    main()
