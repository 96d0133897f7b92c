"""``spectrace engine bench``: one run per config and level, a table, CSV, parquet and a PNG."""

from __future__ import annotations

import polars as pl
from spectrace_engine.cli import engine_app
from typer.testing import CliRunner


def test_bench_writes_results_for_every_config_and_level(tmp_path):
    res = CliRunner().invoke(
        engine_app,
        [
            "bench",
            "--out",
            str(tmp_path),
            "--concurrency",
            "1,2",
            "--thresholds",
            "1",
            "--num-requests",
            "2",
            "--max-new-tokens",
            "8",
        ],
    )
    assert res.exit_code == 0, res.output
    df = pl.read_csv(tmp_path / "bench.csv")
    assert df.height == 8  # plain, v1-tree, v2-chain, v2-dd1 x concurrency 1, 2
    assert set(df["config"]) == {"plain", "v1-tree", "v2-chain", "v2-dd1"}
    assert (df["status"] == "ok").all() and (df["gen_throughput"] > 0).all()
    assert pl.read_parquet(tmp_path / "bench.parquet").height == 8
    assert (tmp_path / "bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "engine bench" in res.output
