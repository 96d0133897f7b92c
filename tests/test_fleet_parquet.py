"""``--format parquet --output DIR``: runs append as hive partitions that polars can query."""

from __future__ import annotations

import subprocess
from pathlib import Path

import polars as pl
import pytest
from fleet_logs import make_fleet, spectrace_exe


def triage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([spectrace_exe(), "triage", *args], capture_output=True, text=True,
                          timeout=300)  # fmt: skip


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_fleet(tmp_path_factory.mktemp("pq"), nodes=6, size_mb=0.05, ranks=2)


def two_nodes(fleet: Path, data: Path) -> subprocess.CompletedProcess[str]:
    """A smaller run into the same dataset: node00 (the origin) and node01 (collateral)."""
    return triage(str(fleet / "node00"), str(fleet / "node01"), "-f", "parquet", "-o", str(data))


def scan(root: Path, table: str) -> pl.LazyFrame:
    """As docs/fleet.md reads it: no spectrace code, the run from the partition's name."""
    return pl.scan_parquet(root / table / "**/*.parquet", hive_partitioning=True)


def test_runs_append_and_group_by_signature(fleet: Path, tmp_path: Path) -> None:
    data = tmp_path / "incidents_db"
    first = triage(str(fleet), "--format", "parquet", "--output", str(data))
    assert first.returncode == 1 and "new root-cause" in first.stdout  # the summary line only
    # a second run: two of the nodes; a third: the first again (replaces its own partition)
    assert two_nodes(fleet, data).returncode == 1
    assert triage(str(fleet), "--format", "parquet", "--output", str(data)).returncode == 1
    runs = scan(data, "runs").collect()
    assert runs.height == 2 and runs["run"].n_unique() == 2
    counts = (scan(data, "incidents").group_by("signature").agg(pl.len().alias("runs"))
              .sort("runs", descending=True).collect())  # fmt: skip
    top = counts.row(0, named=True)
    assert top["runs"] == 2  # node00's crash and node01's collateral are in both runs
    incidents = scan(data, "incidents").collect()
    origin = incidents.filter(pl.col("root_cause") & (pl.col("origin_node") == "node00"))
    assert origin["origin_rank"].unique().to_list() == ["node00/TP0"]
    collateral = incidents.filter(~pl.col("root_cause"))
    assert set(collateral["caused_by"].to_list()) <= set(incidents["id"].to_list())


def test_occurrences_are_per_rank_and_node(fleet: Path, tmp_path: Path) -> None:
    data = tmp_path / "db"
    assert triage(str(fleet), "-f", "parquet", "-o", str(data)).returncode == 1
    occ = scan(data, "occurrences").collect()
    timeouts = occ.join(scan(data, "incidents").collect(), left_on=["run", "incident_id"],
                        right_on=["run", "id"]).filter(~pl.col("root_cause"))  # fmt: skip
    per_node = timeouts.group_by("node").agg(pl.col("rank").n_unique()).sort("node")
    assert per_node["node"].to_list() == ["node01", "node02", "node03", "node04"]
    assert per_node["rank"].to_list() == [2, 2, 2, 2]  # every collateral rank of each node
    load = scan(data, "load").collect()
    assert load.height > 0 and set(load["node"].unique()) == {f"node0{n}" for n in range(6)}


def test_parquet_needs_a_directory(fleet: Path, tmp_path: Path) -> None:
    missing = triage(str(fleet), "--format", "parquet")
    afile = tmp_path / "x.json"
    afile.write_text("{}")
    onfile = triage(str(fleet), "--format", "parquet", "--output", str(afile))
    for done in (missing, onfile):
        assert (
            done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        )


def test_diff_reads_runs_back_from_the_dataset(fleet: Path, tmp_path: Path) -> None:
    data = tmp_path / "db"
    assert two_nodes(fleet, data).returncode == 1
    assert triage(str(fleet), "-f", "parquet", "-o", str(data)).returncode == 1
    small, full = sorted((data / "incidents").iterdir(), key=lambda p: p.stat().st_mtime)
    exe = spectrace_exe()
    done = subprocess.run(
        [exe, "diff", str(small), str(full)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stderr
    assert "1 new, 0 gone, 2 still there" in done.stdout  # node05's crash is new
    same = subprocess.run(
        [exe, "diff", str(full), str(fleet)], capture_output=True, text=True, timeout=300
    )
    assert same.returncode == 0 and "0 new, 0 gone" in same.stdout


def test_tui_opens_a_run_of_the_dataset_by_its_logs(fleet: Path, tmp_path: Path) -> None:
    """``spectrace tui DIR/incidents/run=<id>`` browses the logs that run was triaged from,
    found from any directory; logs moved away give one line that says so."""
    from spectrace.commands.tui import expand
    from spectrace.errors import InputError

    data = tmp_path / "db"
    assert two_nodes(fleet, data).returncode == 1
    (run,) = (data / "incidents").iterdir()
    logs, captures, dumps = expand([str(run)])
    assert sorted(p.parent.name for p in logs) == ["node00", "node01"]
    assert all(p.is_absolute() and p.is_file() for p in logs) and not captures and not dumps
    moved = tmp_path / "copy"
    for name in ("node00", "node01"):
        (moved / name).mkdir(parents=True)
        (moved / name / "server.log").write_bytes((fleet / name / "server.log").read_bytes())
    assert triage(str(moved / "node00"), str(moved / "node01"), "-f", "parquet", "-o",
                  str(tmp_path / "db2")).returncode == 1  # fmt: skip
    (moved / "node01" / "server.log").unlink()
    (run2,) = (tmp_path / "db2" / "incidents").iterdir()
    with pytest.raises(InputError, match="node01/server.log is gone; spectrace diff reads"):
        expand([str(run2)])
