"""The sweep's row columns shared by the runner (sweep.py) and the report (report.py).

Kept apart so the report reads the runner's columns without importing the runner, and the runner
never imports polars (a sweep must keep its rows where polars is missing).
"""

from __future__ import annotations

from spectrace_engine.observe.latency import METRICS

ROWS_FILE = "rows.jsonl"
LATENCY_COLUMNS = tuple(f"{m}_{s}" for m in METRICS for s in ("mean", "p50", "p99"))
