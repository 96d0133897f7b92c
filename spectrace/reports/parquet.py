"""``--format parquet --output DIR``: the run as a hive-partitioned Parquet dataset.

One directory per table under DIR (runs, incidents, occurrences, findings, load), one
partition per run (``incidents/run=<id>/part-0.parquet``), so runs append side by side and
DuckDB (``read_parquet('DIR/incidents/*/*.parquet', hive_partitioning = true)``), polars
(``pl.scan_parquet('DIR/incidents/**/*.parquet', hive_partitioning=True)``) or Spark read
them without spectrace. The run id is a digest of the inputs (paths, sizes, lines): triaging
the same logs again replaces that run's partition instead of counting it twice. Columns are
listed in docs/fleet.md; ``signature`` is the same 16-hex fingerprint as the JSON report's.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from spectrace import __version__
from spectrace.errors import InputError
from spectrace.incidents import SIGNATURE_VERSION
from spectrace.node_label import split_node
from spectrace.read import STDIN
from spectrace.redact import redact_text

if TYPE_CHECKING:
    import polars as pl

    from spectrace.incident_model import Incident
    from spectrace.pipeline import Analysis
    from spectrace.triage import Verdict

TABLES = ("runs", "incidents", "occurrences", "findings", "load")


def run_id(analysis: Analysis) -> str:
    """16 hex of the inputs' paths, sizes and line counts: one id per set of logs."""
    digest = hashlib.sha256()
    for f in sorted(analysis.files, key=lambda f: f.path):
        digest.update(f"{os.path.abspath(f.path)}\0{f.bytes}\0{f.lines}\n".encode())
    return digest.hexdigest()[:16]


def _innermost(incident: Incident) -> str | None:
    frame = incident.frames[-1] if incident.frames else None
    return f"{os.path.basename(frame.file)}:{frame.function}" if frame else None


def incidents_table(analysis: Analysis, verdict: Verdict, redact: bool) -> pl.DataFrame:
    import polars as pl

    failing, rows = set(verdict.failing_incidents), []
    for i in analysis.incidents:
        path, first = i.worker_path, i.first_seen
        rows.append({
            "id": i.id, "signature": i.signature, "kind": i.kind,
            "exception_type": i.exception_type,
            "message": redact_text(i.message) if redact else i.message,
            "crash_class": i.crash_class, "severity": i.severity, "root_cause": i.root_cause,
            "caused_by": i.caused_by, "origin_rank": i.origin_rank,
            "origin_node": split_node(i.origin_rank)[0] if i.origin_rank else None,
            "ranks": list(i.ranks), "nodes": sorted({n for r in i.ranks if (n := split_node(r)[0])}),
            "first_file": first.source, "first_line": first.lineno, "first_time": first.ts,
            "occurrence_count": len(i.occurrences), "innermost_frame": _innermost(i),
            "rule_id": i.rule_id, "worker_path": path.value if path else None,
            "worker_class": path.worker_class if path else None,
            "framework": path.framework if path else None, "family": path.family if path else None,
            "known": i.known, "fails": i.id in failing,
        })  # fmt: skip
    return pl.DataFrame(rows, schema=_incident_schema())


def _incident_schema() -> dict[str, object]:
    """The incidents table's columns (a function: polars is imported only when writing)."""
    import polars as pl

    s, b, n = pl.Utf8, pl.Boolean, pl.Int64
    return {"id": s, "signature": s, "kind": s, "exception_type": s, "message": s,
            "crash_class": s, "severity": s, "root_cause": b, "caused_by": s, "origin_rank": s,
            "origin_node": s, "ranks": pl.List(s), "nodes": pl.List(s), "first_file": s,
            "first_line": n, "first_time": pl.Datetime("us"), "occurrence_count": n,
            "innermost_frame": s, "rule_id": s, "worker_path": s, "worker_class": s,
            "framework": s, "family": s, "known": b, "fails": b}  # fmt: skip


def occurrences_table(analysis: Analysis) -> pl.DataFrame:
    """Every occurrence (not the JSON report's capped list): one row per rank and line."""
    import polars as pl

    rows = [(i.id, i.signature, split_node(o.rank)[0] if o.rank else None,
             split_node(o.rank)[1] if o.rank else None, o.rank, o.source, o.lineno, o.ts)
            for i in analysis.incidents for o in i.occurrences]  # fmt: skip
    schema = {"incident_id": pl.Utf8, "signature": pl.Utf8, "node": pl.Utf8, "rank": pl.Utf8,
              "rank_label": pl.Utf8, "file": pl.Utf8, "line": pl.Int64, "time": pl.Datetime("us")}  # fmt: skip
    return pl.DataFrame(rows, schema=schema, orient="row")


def findings_table(analysis: Analysis, verdict: Verdict, redact: bool) -> pl.DataFrame:
    import polars as pl

    failing = set(verdict.failing_findings)
    clean = redact_text if redact else str
    rows = [(n, f.kind, clean(f.message), clean(f.detail) if f.detail else None, n in failing)
            for n, f in enumerate(analysis.findings)]  # fmt: skip
    schema = {"index": pl.Int64, "kind": pl.Utf8, "message": pl.Utf8, "detail": pl.Utf8,
              "fails": pl.Boolean}  # fmt: skip
    return pl.DataFrame(rows, schema=schema, orient="row")


def load_frame(analysis: Analysis) -> pl.DataFrame:
    """The load samples kept for charts (assemblers.load.load_table) plus the node."""
    import polars as pl

    from spectrace.assemblers.load import load_table

    table = load_table(analysis.load)
    nodes = [split_node(s.rank)[0] if s.rank else None for s in analysis.load]
    return table.with_columns(pl.Series("node", nodes, dtype=pl.Utf8))


def runs_table(analysis: Analysis, verdict: Verdict) -> pl.DataFrame:
    import polars as pl

    return pl.DataFrame({
        "created": [datetime.now(UTC).replace(tzinfo=None)], "tool_version": [__version__],
        "signature_version": [str(SIGNATURE_VERSION)], "engine": [analysis.config.engine],
        "files": [[_absolute(f.path) for f in analysis.files]],
        "bytes": [sum(f.bytes for f in analysis.files)],
        "incidents": [len(analysis.incidents)], "exit_code": [int(verdict.exit_code)],
    }, schema={"created": pl.Datetime("us"), "tool_version": pl.Utf8, "signature_version": pl.Utf8,
               "engine": pl.Utf8, "files": pl.List(pl.Utf8), "bytes": pl.Int64,
               "incidents": pl.Int64, "exit_code": pl.Int64})  # fmt: skip


def _absolute(path: str) -> str:
    """Where the run's log lies, so ``spectrace tui DIR/runs/run=<id>`` finds it from anywhere."""
    return path if path == STDIN else os.path.abspath(path)


def write_dataset(root: Path, analysis: Analysis, verdict: Verdict, redact: bool = True) -> str:
    """Write (or replace) this run's partition of every table; returns the run id."""
    run = run_id(analysis)
    frames = {
        "runs": runs_table(analysis, verdict),
        "incidents": incidents_table(analysis, verdict, redact),
        "occurrences": occurrences_table(analysis),
        "findings": findings_table(analysis, verdict, redact),
        "load": load_frame(analysis),
    }
    try:
        for table, frame in frames.items():
            _write_partition(root / table / f"run={run}", frame)
    except OSError as exc:
        raise InputError(f"cannot write the dataset under {root}: {exc.strerror or exc}") from None
    return run


def _write_partition(folder: Path, frame: pl.DataFrame) -> None:
    """Written beside, then renamed over the old part: a reader never sees half a file."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / ".part-0.parquet.tmp"
    frame.write_parquet(tmp)
    os.replace(tmp, folder / "part-0.parquet")


def read_table(root: Path, table: str, runs: Sequence[str] = ()) -> pl.DataFrame:
    """One table over every run (or the runs named), ``run`` as a column."""
    import polars as pl

    frame = pl.scan_parquet(root / table / "**/*.parquet", hive_partitioning=True)
    if runs:
        frame = frame.filter(pl.col("run").is_in(list(runs)))
    return frame.collect()


def is_run_partition(path: str) -> bool:
    """``DIR/incidents/run=<id>``: one run of a dataset, as ``spectrace diff`` takes it."""
    folder = Path(path)
    return folder.name.startswith("run=") and (folder / "part-0.parquet").is_file()


def run_files(path: str) -> list[str]:
    """The logs a run was triaged from, as its ``runs`` row lists them (any table's partition
    of the run names it): the TUI reopens them."""
    import polars as pl

    folder = Path(path)
    runs = folder.parent.parent / "runs" / folder.name / "part-0.parquet"
    try:
        files = pl.read_parquet(runs, columns=["files"])["files"].to_list()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read the run {path}: {exc}") from None
    return [f for row in files for f in row or ()]


def run_document(path: str) -> dict[str, object]:
    """A run's incidents read back in the JSON report's shape (the keys diff and the TUI's
    lists use); any table's partition of the run names it."""
    import polars as pl

    folder = Path(path)
    incidents = folder.parent.parent / "incidents" / folder.name / "part-0.parquet"
    try:
        rows = pl.read_parquet(incidents).to_dicts()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read the run {path}: {exc}") from None
    return {"incidents": [{
        **row, "ranks": list(row["ranks"] or []),
        "first_seen": {"file": row["first_file"], "line": row["first_line"],
                       "time": row["first_time"].isoformat() if row["first_time"] else None,
                       "rank": row["origin_rank"]},
    } for row in rows]}  # fmt: skip
