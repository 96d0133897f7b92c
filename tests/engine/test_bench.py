"""``spectrace engine bench``: one run per config and level, a table, CSV, parquet, verdicts, PNG."""

from __future__ import annotations

import json
import sys

import polars as pl
import pytest
from spectrace_engine.entrypoints.cli import engine_app
from spectrace_engine.models.loader import load_pair
from spectrace_engine.observe.roofline import H200_HBM_BYTES_PER_S, target_read_bytes
from typer.testing import CliRunner

from spectrace.errors import InputError, UsageError

FLAGS = (
    "--concurrency",
    "1,2",
    "--thresholds",
    "1",
    "--num-requests",
    "2",
    "--max-new-tokens",
    "8",
)


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    res = CliRunner().invoke(engine_app, ["bench", "--out", str(out), *FLAGS])
    assert res.exit_code == 0, res.output
    return out, res.output


def test_bench_writes_results_for_every_config_and_level(swept):
    out, output = swept
    df = pl.read_csv(out / "bench.csv")
    assert df.height == 10  # plain, v1-tree, v2-chain, v2-dd1, v1-tree-dd1 x concurrency 1, 2
    assert set(df["config"]) == {"plain", "v1-tree", "v2-chain", "v2-dd1", "v1-tree-dd1"}
    assert (df["status"] == "ok").all() and (df["gen_throughput"] > 0).all()
    assert set(df["verify_backend"]) == {"torch"}  # auto on the CPU: the torch reference
    assert pl.read_parquet(out / "bench.parquet").height == 10
    assert (out / "bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "engine bench" in output and "HBM floor" in output
    assert "bench: v2-dd1 c=2 n=4 ok: " in output  # one line per run, even without polars


def test_every_level_gets_two_requests_per_client(swept):
    df = pl.read_csv(swept[0] / "bench.csv")
    assert df.filter(pl.col("concurrency") == 2)["num_requests"].to_list() == [4] * 5
    assert df.filter(pl.col("concurrency") == 1)["num_requests"].to_list() == [2] * 5


def test_latency_columns_are_filled_and_ordered(swept):
    df = pl.read_csv(swept[0] / "bench.csv")
    for m in ("ttft_ms", "latency_ms", "tpot_ms"):
        assert df[f"{m}_mean"].null_count() == 0
        assert (df[f"{m}_p50"] <= df[f"{m}_p99"]).all()
    assert (df["ttft_ms_p99"] <= df["latency_ms_p99"]).all()
    assert (df["ttft_ms_mean"] < df["latency_ms_mean"]).all()


def test_hbm_floor_of_plain_decode_is_the_target_weights_over_bandwidth(swept):
    df = pl.read_csv(swept[0] / "bench.csv")
    plain = df.filter(pl.col("config") == "plain")
    expected_ms = 1000.0 * target_read_bytes(load_pair("tiny").target) / H200_HBM_BYTES_PER_S
    assert plain["floor_step_ms"].to_list() == pytest.approx([expected_ms] * 2)
    spec = df.filter(pl.col("config") == "v2-chain")
    assert (spec["floor_step_ms"] > expected_ms).all()  # the draft's three forwards add bytes
    ratio = (df["step_ms"] / df["floor_step_ms"]).to_list()
    assert df["x_floor"].to_list() == pytest.approx(ratio)
    assert (df["bandwidth_tbps"] == 4.3).all()


def test_verdicts_are_written_and_printed(swept):
    out, output = swept
    verdicts = json.loads((out / "verdicts.json").read_text())
    assert verdicts["levels"] == [1, 2]
    assert [g["config"] for g in verdicts["goals"]] == ["v2-dd1", "v1-tree-dd1"]
    refs = [g["spec_reference"] for g in verdicts["goals"]]
    assert refs == ["v2-chain", "v1-tree"]  # each against the speculation of its own worker
    md = (out / "verdicts.md").read_text()
    assert "speculation stops paying" in md and "v2-dd1" in md
    assert "speculation stops paying" in output


def test_report_only_renders_an_interrupted_sweep(swept, tmp_path):
    lines = (swept[0] / "rows.jsonl").read_text().splitlines()
    (tmp_path / "rows.jsonl").write_text("\n".join(lines[:5]) + '\n{"config": "v2-ch')  # torn
    res = CliRunner().invoke(engine_app, ["bench", "--out", str(tmp_path), "--report-only"])
    assert res.exit_code == 0, res.output
    assert pl.read_csv(tmp_path / "bench.csv").height == 5
    assert (tmp_path / "bench.png").exists() and (tmp_path / "verdicts.md").exists()


def test_report_only_without_a_sweep_is_one_line(tmp_path):
    res = CliRunner().invoke(engine_app, ["bench", "--out", str(tmp_path), "--report-only"])
    assert isinstance(res.exception, InputError) and "rows.jsonl" in str(res.exception)


@pytest.mark.parametrize(
    "flags", [("--concurrency", "0"), ("--bandwidth-tbps", "0"), ("--max-new-tokens", "400")]
)
def test_bad_bench_flags_are_usage_errors(tmp_path, flags):
    res = CliRunner().invoke(engine_app, ["bench", "--out", str(tmp_path), *flags])
    assert isinstance(res.exception, UsageError)


def test_runs_sharing_one_loaded_pair_still_give_identical_greedy_answers(swept):
    answers = {}
    for name in ("plain", "v1-tree", "v2-chain", "v2-dd1"):
        events = (swept[0] / "runs" / f"{name}-c2" / "events.jsonl").read_text().splitlines()
        finished = [json.loads(e) for e in events if '"request_finish"' in e]
        answers[name] = {e["rid"]: e["output_ids"] for e in finished}
    assert len(answers["plain"]) == 4
    assert answers["v1-tree"] == answers["v2-chain"] == answers["v2-dd1"] == answers["plain"]


def test_without_polars_the_sweep_keeps_its_rows_and_says_how_to_render(
    swept, tmp_path, monkeypatch
):
    from rich.console import Console
    from spectrace_engine.bench.sweep import render

    monkeypatch.setitem(sys.modules, "polars", None)  # import polars -> ImportError
    monkeypatch.delitem(sys.modules, "spectrace_engine.bench.report", raising=False)
    console = Console(record=True, width=200)
    render([{"config": "plain"}], tmp_path, console)
    assert "--report-only" in console.export_text() and not (tmp_path / "bench.csv").exists()
    with pytest.raises(InputError, match="needs polars"):
        render([{"config": "plain"}], tmp_path, console, required=True)


def test_levels_capture_a_ladder_up_to_themselves_and_configs_can_be_picked():
    from spectrace_engine.bench.sweep import bench_configs, graph_sizes

    sizes = graph_sizes(256)
    assert sizes[0] == 1 and sizes[-1] == 256 and len(sizes) <= 16  # not every 8th: 3 x 36 graphs
    assert all(b < 2 * a for a, b in zip(sizes[1:], sizes[2:], strict=False))  # padding < 2x
    assert graph_sizes(100)[-2:] == (96, 100)
    names = [n for n, _ in bench_configs((8, 32), only=("plain", "v2-dd"))]
    assert names == ["plain", "v2-dd8", "v2-dd32"]


def test_bench_refuses_an_unknown_config(tmp_path):
    res = CliRunner().invoke(engine_app, ["bench", "--out", str(tmp_path), "--configs", "v3"])
    assert res.exit_code != 0 and "unknown v3" in str(res.exception or res.output)
