"""The concurrency sweep behind ``spectrace engine bench``: one engine run per (config, level).

Each level gets at least two requests per client (``max(num_requests, 2 x concurrency)``), so
every client comes back at least once and the batch stays near the level instead of draining
after the first wave. Every finished run is appended to ``rows.jsonl`` at once, so a sweep cut
short by a timeout still leaves its rows, and ``--report-only`` renders them later.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text
from spectrace_engine.bench.load import LoadSpec
from spectrace_engine.bench.schema import LATENCY_COLUMNS, ROWS_FILE
from spectrace_engine.entrypoints.launch import RunResult, launch
from spectrace_engine.observe.host_time import CATEGORIES
from spectrace_engine.observe.roofline import H200_HBM_BYTES_PER_S, floor_step_s
from spectrace_engine.server_args import EngineConfig

from spectrace.errors import InputError

H200_BF16_FLOPS = 989e12  # H200 SXM dense BF16 tensor-core peak (NVIDIA's datasheet)
DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}


def bench_algorithm(model: str) -> str:
    """The speculative rows run EAGLE; smollm2 ships an EAGLE-3 head only."""
    return "EAGLE3" if model == "smollm2" else "EAGLE"


def bench_configs(
    thresholds: tuple[int, ...], algorithm: str = "EAGLE", only: tuple[str, ...] = ()
) -> list[tuple[str, dict[str, Any]]]:
    """(name, build_config keywords) per config, in the order the sweep runs them; ``only``
    keeps the named ones (``v2-dd`` / ``v1-tree-dd`` name every threshold's). Dynamic disable
    runs on both workers: the v2 chain's plain steps overlap, v1's (no overlap schedule) not."""
    base: dict[str, Any] = dict(model="tiny", steps=3)
    chain = {**base, "algorithm": algorithm, "topk": 1, "worker": "v2"}
    out = [("plain", {**base, "algorithm": "NONE", "topk": 1, "worker": "v1"}), ("v2-chain", chain)]
    out += [(f"v2-dd{t}", {**chain, "threshold": t}) for t in thresholds]
    tree = {**base, "algorithm": algorithm, "topk": 4, "draft_tokens": 16, "worker": "v1"}
    out.append(("v1-tree", tree))  # the slowest: a sweep cut short keeps the chain's dd rows
    out += [(f"v1-tree-dd{t}", {**tree, "threshold": t}) for t in thresholds]
    if not only:
        return out
    return [(n, kw) for n, kw in out if n in only or n.rstrip("0123456789") in only]


@dataclass(frozen=True, slots=True)
class BenchSpec:
    """What every run of the sweep shares."""

    levels: tuple[int, ...]
    num_requests: int = 32
    max_new_tokens: int = 64
    bandwidth: float = H200_HBM_BYTES_PER_S  # bytes/s for the HBM floor (H200's by default)
    min_steps: int = 0  # size each run for at least this many decode steps (0: off)
    peak_flops: float = H200_BF16_FLOPS  # FLOP/s for the compute floor

    def requests_at(self, level: int, emitted: float = 1.0) -> int:
        """Two requests per client at least, so the level is loaded for more than one wave; with
        ``min_steps``, enough requests for that many steps at ``emitted`` tokens per request-step
        (outputs average 3/4 of max_new_tokens: LoadSpec.length_spread)."""
        per_req = self.max_new_tokens * 0.75 / emitted
        by_steps = math.ceil(self.min_steps * level / per_req) if self.min_steps else 0
        return max(self.num_requests, 2 * level, by_steps)


def level_config(cfg: EngineConfig, level: int) -> EngineConfig:
    """Request slots and graph sizes up to the level (c clients never run more than c requests):
    a 1-3B model's capture of every size up to the sweep's top would cost more than the run, and
    so would every 8th size up to 256 (three runners x 36 graphs); a closed loop keeps the batch
    at the level or just under it, so the level itself and a geometric ladder below it serve."""
    return dataclasses.replace(cfg, max_running_requests=level, cuda_graph_bs=graph_sizes(level))


def graph_sizes(level: int) -> tuple[int, ...]:
    """1, 2, 3, 4, 6, 8, 12, 16, ... (powers of two and their halfway points) below the level,
    and the level."""
    ladder = {1} | {2**e for e in range(1, 12)} | {3 * 2**e for e in range(11)}
    return tuple(sorted({b for b in ladder if b < level} | {level}))


def expected_emitted(cfg: EngineConfig, level: int) -> float:
    """Tokens per request-step a run should see: the simulated mean where speculation runs at
    this level, else 1 (a real acceptance is not known before the run)."""
    s = cfg.spec
    speculating = s.enabled and (
        s.disable_batch_threshold is None or level <= s.disable_batch_threshold
    )
    return s.simulate_accept_len or 1.0 if speculating else 1.0


def run_bench(
    configs: list[tuple[str, EngineConfig, list[str]]],
    spec: BenchSpec,
    out: Path,
    console: Console,
) -> list[dict[str, Any]]:
    """Run every config at every level; rows are appended to ``out/rows.jsonl`` as they finish."""
    out.mkdir(parents=True, exist_ok=True)
    rows_path = out / ROWS_FILE
    rows_path.unlink(missing_ok=True)
    pair = _load_once(configs[0][1])
    warm = next((c for c in configs if c[1].spec.enabled), configs[0])
    console.print(Text(f"bench: warm-up run ({warm[0]}, not recorded)"))
    launch(level_config(warm[1], 4), LoadSpec(2, 1, 4), out / "runs" / "warmup", warm[2], pair=pair)
    rows: list[dict[str, Any]] = []
    for name, cfg, warnings in configs:
        for level in spec.levels:
            run_cfg = level_config(cfg, level)
            n = spec.requests_at(level, expected_emitted(cfg, level))
            load = LoadSpec(n, level, spec.max_new_tokens)
            res = launch(run_cfg, load, out / "runs" / f"{name}-c{level}", warnings, pair=pair)
            row = bench_row(name, run_cfg, load, res, spec)
            rows.append(row)
            with rows_path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            console.print(Text(f"bench: {summary_line(row)}"))
    return rows


def summary_line(row: dict[str, Any]) -> str:
    """One finished run in a line: readable in a device log even where polars is missing."""

    def num(key: str, fmt: str) -> str:
        return "-" if row.get(key) is None else format(row[key], fmt)

    return (
        f"{row['config']} c={row['concurrency']} n={row['num_requests']} {row['status']}: "
        f"{num('gen_throughput', '.1f')} tok/s, accept {num('accept_len', '.2f')}, "
        f"ttft p50 {num('ttft_ms_p50', '.2f')} ms, e2e mean {num('latency_ms_mean', '.2f')} ms, "
        f"step {num('step_ms', '.3f')} ms = {num('x_floor', ',.1f')}x floor, "
        f"host {num('host_ms', '.3f')} ms (events {num('host_events_ms', '.3f')}), "
        f"steps {row['steps']}"
    )


def _load_once(cfg: EngineConfig) -> Any:
    """The pair every run serves (same model, device and dtype): SmolLM2's GGUF is read once.

    SmolLM2's head memorised the answers to its training questions, so the sweep serves only the
    held-out ones (repeated): the acceptance it reports is the acceptance of unseen prompts.
    """
    from spectrace_engine.managers.engine import DTYPES
    from spectrace_engine.models.loader import load_pair

    pair = load_pair(cfg.model, cfg.device, DTYPES[cfg.dtype], algorithm=bench_algorithm(cfg.model))
    if cfg.model == "smollm2":
        from spectrace_engine.train.smollm_train import HELD_OUT

        pair = dataclasses.replace(pair, prompts=pair.prompts[-HELD_OUT:])
    return pair


def bench_row(
    name: str, cfg: EngineConfig, load: LoadSpec, res: RunResult, spec: BenchSpec
) -> dict[str, Any]:
    """One CSV row: the run's summary, the HBM and FLOP floors of its mix of plain and spec
    steps, and where its host time went per step (observe/host_time.py)."""
    s = res.summary
    steps, spec_steps = int(s.get("steps") or 0), int(s.get("spec_steps") or 0)
    step_ms = 1000.0 * s["serve_s"] / steps if steps and s.get("serve_s") else None
    floor = floor_step_s(
        steps,
        spec_steps,
        int(s.get("weight_bytes_target") or 0),
        int(s.get("weight_bytes_spec_extra") or 0),
        spec.bandwidth,
    )
    floor_ms = 1000.0 * floor if floor else None
    flop_ms = flop_floor_ms(s, cfg, steps, spec.peak_flops)
    bound = max(floor_ms or 0.0, flop_ms or 0.0) or None
    host = s.get("host_ms_per_step") or {}
    return {
        "config": name,
        "model": cfg.model,
        "device": cfg.device,
        "dtype": cfg.dtype,
        "worker": cfg.worker,
        "verify_backend": cfg.verify_backend,
        "verify_in_graph": cfg.verify_in_graph and not cfg.disable_cuda_graph and cfg.spec.enabled,
        "acceptance": "real"
        if cfg.spec.simulate_accept_len is None
        else f"simulated mean {cfg.spec.simulate_accept_len}",
        "concurrency": load.concurrency,
        "num_requests": load.num_requests,
        "max_new_tokens": load.max_new_tokens,
        "threshold": cfg.spec.disable_batch_threshold,
        "status": "ok" if res.exit_code == 0 else "crash",
        "gen_throughput": s.get("gen_throughput"),
        "accept_len": s.get("mean_emitted"),
        "spec_step_share": spec_steps / steps if steps else None,
        "padding_waste": s.get("padding_waste"),
        "graph_misses": s.get("graph_misses"),
        **{c: s.get(c) for c in LATENCY_COLUMNS},
        "steps": steps,
        "spec_steps": spec_steps,
        "step_ms": step_ms,
        "floor_step_ms": floor_ms,
        "flop_floor_ms": flop_ms,
        "x_floor": step_ms / bound if step_ms and bound else None,
        "bandwidth_tbps": spec.bandwidth / 1e12,
        "peak_tflops": spec.peak_flops / 1e12,
        "wall_s": s.get("wall_s"),
        "host_ms": host.get("host"),
        "wait_ms": host.get("wait"),
        **{f"host_{c}_ms": host.get(c) for c in CATEGORIES},
        "events_share": host["events"] / step_ms if step_ms and "events" in host else None,
    }


def flop_floor_ms(
    summary: dict[str, Any], cfg: EngineConfig, steps: int, peak: float
) -> float | None:
    """Matmul FLOPs of the target's live rows (2 per weight per row) at ``peak``, per step; the
    draft's and attention's FLOPs are left out, so it is a lower bound like the HBM floor."""
    rows, wbytes = summary.get("target_rows"), summary.get("weight_bytes_target")
    if not rows or not wbytes or not steps:
        return None
    params = wbytes / DTYPE_BYTES[cfg.dtype]
    return 1000.0 * 2.0 * params * rows / steps / peak


def load_rows(out: Path) -> list[dict[str, Any]]:
    """The rows a (possibly interrupted) sweep left in ``out/rows.jsonl``; a torn last line is skipped."""
    path = out / ROWS_FILE
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue  # the line a killed sweep was writing
    return rows


def render(rows: list[dict[str, Any]], out: Path, console: Console, required: bool = False) -> None:
    """Table, CSV/parquet, verdicts, PNG; without polars (a bare device image) rows.jsonl stays."""
    try:
        from spectrace_engine.bench.report import write_report
    except ImportError as exc:
        msg = f"bench report needs polars ({exc}); the rows are in {out / ROWS_FILE}"
        if required:
            raise InputError(msg) from None
        console.print(Text(msg + ": render them with --report-only where polars is installed"))
        return
    try:
        write_report(rows, out, console)
    except OSError as exc:
        raise InputError(f"cannot write bench results under {out}: {exc}") from None
