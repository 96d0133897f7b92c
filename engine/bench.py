"""The concurrency sweep behind ``spectrace engine bench``: one engine run per (config, level)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .config import EngineConfig
from .launch import launch
from .load import LoadSpec


def run_bench(
    configs: list[tuple[str, EngineConfig, list[str]]],
    levels: tuple[int, ...],
    num_requests: int,
    max_new_tokens: int,
    out: Path,
    console: Console,
) -> pl.DataFrame:
    """Run every config at every concurrency level; write bench.csv/.parquet/.png under ``out``."""
    rows: list[dict[str, Any]] = []
    for name, cfg, warnings in configs:
        for level in levels:
            load = LoadSpec(num_requests, level, max_new_tokens)
            console.print(Text(f"bench: {name} at concurrency {level}"))
            res = launch(cfg, load, out / "runs" / f"{name}-c{level}", warnings)
            s = res.summary
            rows.append(
                {
                    "config": name,
                    "worker": cfg.worker,
                    "concurrency": level,
                    "threshold": cfg.spec.disable_batch_threshold,
                    "status": "ok" if res.exit_code == 0 else "crash",
                    "gen_throughput": s.get("gen_throughput"),
                    "accept_len": s.get("mean_emitted"),
                    "spec_step_share": (s.get("spec_steps", 0) / s["steps"])
                    if s.get("steps")
                    else None,
                    "padding_waste": s.get("padding_waste"),
                    "wall_s": s.get("wall_s"),
                }
            )
    df = pl.DataFrame(rows)
    df.write_csv(out / "bench.csv")
    df.write_parquet(out / "bench.parquet")
    console.print(_table(df))
    _plot(df, out / "bench.png", console)
    return df


def _table(df: pl.DataFrame) -> Table:
    table = Table(title="engine bench (gen throughput, tok/s)")
    for col in (
        "config",
        "worker",
        "concurrency",
        "status",
        "gen_throughput",
        "accept_len",
        "spec_step_share",
    ):
        table.add_column(col, justify="right" if col not in ("config", "worker") else "left")
    for r in df.iter_rows(named=True):
        table.add_row(
            *(
                Text(_fmt(r[c]))
                for c in (
                    "config",
                    "worker",
                    "concurrency",
                    "status",
                    "gen_throughput",
                    "accept_len",
                    "spec_step_share",
                )
            )
        )
    return table


def _fmt(v: Any) -> str:
    return f"{v:.2f}" if isinstance(v, float) else ("-" if v is None else str(v))


def _plot(df: pl.DataFrame, path: Path, console: Console) -> None:
    """Throughput vs concurrency, one line per config (matplotlib, Agg backend)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        console.print(Text("bench: matplotlib missing, no PNG (pip install matplotlib)"))
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in df["config"].unique(maintain_order=True):
        part = df.filter(pl.col("config") == name).sort("concurrency")
        ax.plot(
            part["concurrency"].to_list(), part["gen_throughput"].to_list(), marker="o", label=name
        )
    ax.set_xlabel("concurrency")
    ax.set_ylabel("gen throughput (token/s)")
    ax.set_xscale("log", base=2)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
