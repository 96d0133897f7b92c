"""What ``spectrace engine bench`` leaves for people: a rich table, CSV/parquet, verdicts, a PNG."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text
from spectrace_engine.bench.schema import LATENCY_COLUMNS
from spectrace_engine.bench.verdicts import compute_verdicts, verdict_lines
from spectrace_engine.observe.host_time import CATEGORIES

SCHEMA: dict[str, Any] = {
    "config": pl.String,
    "model": pl.String,
    "device": pl.String,
    "dtype": pl.String,
    "worker": pl.String,
    "verify_backend": pl.String,
    "verify_in_graph": pl.Boolean,
    "acceptance": pl.String,
    "concurrency": pl.Int64,
    "num_requests": pl.Int64,
    "max_new_tokens": pl.Int64,
    "threshold": pl.Int64,
    "status": pl.String,
    "gen_throughput": pl.Float64,
    "accept_len": pl.Float64,
    "spec_step_share": pl.Float64,
    "padding_waste": pl.Float64,
    "graph_misses": pl.Int64,
    **{c: pl.Float64 for c in LATENCY_COLUMNS},
    "steps": pl.Int64,
    "spec_steps": pl.Int64,
    "step_ms": pl.Float64,
    "floor_step_ms": pl.Float64,
    "flop_floor_ms": pl.Float64,
    "x_floor": pl.Float64,
    "bandwidth_tbps": pl.Float64,
    "peak_tflops": pl.Float64,
    "wall_s": pl.Float64,
    "host_ms": pl.Float64,
    "wait_ms": pl.Float64,
    **{f"host_{c}_ms": pl.Float64 for c in CATEGORIES},
    "events_share": pl.Float64,
}

# (column, header): what the table shows; the CSV has every column.
SHOWN = (
    ("config", "config"),
    ("concurrency", "c"),
    ("verify_backend", "verify"),
    ("status", "status"),
    ("gen_throughput", "tok/s"),
    ("accept_len", "accept"),
    ("ttft_ms_p50", "TTFT p50 ms"),
    ("latency_ms_mean", "e2e mean ms"),
    ("latency_ms_p99", "e2e p99 ms"),
    ("tpot_ms_p50", "TPOT p50 ms"),
    ("step_ms", "step ms"),
    ("host_ms", "host ms"),
    ("floor_step_us", "HBM floor us"),
    ("flop_floor_us", "FLOP floor us"),
    ("x_floor", "x floor"),
)


def to_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """Rows -> a typed frame (explicit schema: a crashed first run must not make a column null)."""
    return pl.DataFrame([{c: r.get(c) for c in SCHEMA} for r in rows], schema=SCHEMA)


def write_report(rows: list[dict[str, Any]], out: Path, console: Console) -> pl.DataFrame:
    """bench.csv/.parquet, verdicts.json/.md and bench.png under ``out``; table and verdicts printed."""
    df = to_frame(rows)
    df.write_csv(out / "bench.csv")
    df.write_parquet(out / "bench.parquet")
    console.print(table(df))
    console.print(host_table(df))
    verdicts = compute_verdicts(df)
    lines = verdict_lines(verdicts)
    for line in lines:
        console.print(Text(line))
    (out / "verdicts.json").write_text(json.dumps(verdicts.to_json(), indent=2) + "\n")
    (out / "verdicts.md").write_text(_markdown(df, lines))
    plot(df, out / "bench.png", console)
    return df


def _markdown(df: pl.DataFrame, lines: list[str]) -> str:
    first = df.row(0, named=True)
    head = (
        f"# engine bench: {first['model']} on {first['device']} ({first['dtype']})\n\n"
        f"HBM floor: weights read once per step at {bw_label(first['bandwidth_tbps'])}.\n\n"
    )
    return (
        head
        + "\n".join(f"- {ln}" if not ln.startswith("  ") else f"  - {ln.strip()}" for ln in lines)
        + "\n"
    )


def bw_label(tbps: float) -> str:
    """Say whose bandwidth the floor assumed: H200's figure (the default) or the user's."""
    whose = "H200's HBM3e figure" if abs(tbps - 4.3) < 1e-9 else "--bandwidth-tbps"
    return f"{tbps:.2f} TB/s ({whose})"


def table(df: pl.DataFrame) -> Table:
    bw = df["bandwidth_tbps"][0] if df.height else 0.0
    t = Table(
        title="engine bench (gen throughput, per-request latency, HBM floor)",
        caption=f"HBM floor: weights read once per step at {bw_label(bw)}",
    )
    for col, header in SHOWN:
        t.add_column(header, justify="left" if col in ("config", "status") else "right")
    for r in df.iter_rows(named=True):
        for ms in ("floor_step", "flop_floor"):
            key = "floor_step_ms" if ms == "floor_step" else "flop_floor_ms"
            r[f"{ms}_us"] = None if r[key] is None else 1000.0 * r[key]
        t.add_row(*(Text(_fmt(r[c])) for c, _ in SHOWN))
    return t


def host_table(df: pl.DataFrame) -> Table:
    """Issue 13 item 2: where each run's host time per decode step went (ms), blocking apart."""
    t = Table(title="host time per decode step, ms (wait = blocked on the device, not host work)")
    cols = ["config", "c", *CATEGORIES, "host", "wait", "step", "events %"]
    for c in cols:
        t.add_column(c, justify="left" if c == "config" else "right")
    for r in df.iter_rows(named=True):
        share = r["events_share"]
        cells = [r["config"], r["concurrency"], *(r[f"host_{c}_ms"] for c in CATEGORIES)]
        cells += [r["host_ms"], r["wait_ms"], r["step_ms"], None if share is None else 100 * share]
        t.add_row(*(Text(_fmt(v, 3)) for v in cells))
    return t


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.{digits}f}"
    return str(v)


def plot(df: pl.DataFrame, path: Path, console: Console) -> None:
    """Two panels against concurrency, one line per config: throughput and mean e2e latency."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        console.print(Text("bench: matplotlib missing, no PNG (pip install matplotlib)"))
        return
    fig, (ax_t, ax_l) = plt.subplots(1, 2, figsize=(12, 4.5))
    ok = df.filter(pl.col("status") == "ok")
    for name in df["config"].unique(maintain_order=True):
        part = ok.filter(pl.col("config") == name).sort("concurrency")
        x = part["concurrency"].to_list()
        ax_t.plot(x, part["gen_throughput"].to_list(), marker="o", label=name)
        ax_l.plot(x, part["latency_ms_mean"].to_list(), marker="o", label=name)
    model = df["model"][0] if df.height else ""
    levels = sorted(set(df["concurrency"].to_list()))
    for ax, ylabel in ((ax_t, "gen throughput (token/s)"), (ax_l, "mean end-to-end latency (ms)")):
        ax.set_xlabel("concurrency")
        ax.set_ylabel(ylabel)
        ax.set_xscale("log", base=2)
        ax.set_xticks(levels, [str(lv) for lv in levels])
        ax.grid(alpha=0.3)
    ax_l.set_yscale("log")
    ax_t.legend()
    fig.suptitle(f"engine bench: {model}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
