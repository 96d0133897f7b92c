"""A run's events as a Chrome / Perfetto trace: one process per rank, one track per activity.

``spectrace engine trace RUN`` reads ``events*.jsonl`` with ``json`` (no torch) and writes the
Trace Event Format that ui.perfetto.dev and chrome://tracing open: each decode step's phases
(draft, verify, accept, ...) laid end to end from the step's launch on the worker's track, each
prefill on the scheduler's track, graph captures, the step's processing (resolve), and
instants for speculation toggles, faults and errors.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

TRACKS = {"scheduler": 1, "worker": 2, "process": 3, "capture": 4, "marks": 5}


def read_run(run_dir: Path) -> list[dict[str, Any]]:
    """Every event of every rank, in file order; a bad line raises ValueError naming it."""
    events: list[dict[str, Any]] = []
    for path in sorted(run_dir.glob("events*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    events.append(json.loads(line))
                except ValueError as exc:
                    raise ValueError(f"{path}:{n}: not a JSON event ({exc})") from None
    return events


def _span(name: str, rank: int, track: str, ts_us: float, dur_us: float, args: dict) -> dict:
    return {
        "name": name, "ph": "X", "pid": rank, "tid": TRACKS[track],
        "ts": round(ts_us, 1), "dur": round(max(dur_us, 0.0), 1), "args": args,
    }  # fmt: skip


def _instant(name: str, rank: int, ts_us: float, args: dict) -> dict:
    return {"name": name, "ph": "i", "s": "p", "pid": rank, "tid": TRACKS["marks"],
            "ts": round(ts_us, 1), "args": args}  # fmt: skip


def _step(e: dict[str, Any]) -> Iterator[dict]:
    """Phases from the launch, end to end; then the processing up to the event's own time."""
    rank, t = e["rank"], e.get("launch_ns", e["ts_ns"]) / 1000.0
    args = {k: e.get(k) for k in ("step", "mode", "bs", "rows", "graph", "accepted")}
    for name, dur in (e.get("phases") or {}).items():
        yield _span(name, rank, "worker", t, dur, args)
        t += dur
    end = e["ts_ns"] / 1000.0
    if "launch_ns" in e and end > t:
        yield _span("process", rank, "process", t, end - t, args)


def trace_events(events: Iterable[dict[str, Any]]) -> list[dict]:
    out: list[dict] = []
    ranks: set[int] = set()
    for e in events:
        rank, kind, end = e["rank"], e["event"], e["ts_ns"] / 1000.0
        ranks.add(rank)
        if kind == "step":
            out += _step(e)
        elif kind in ("prefill", "capture"):
            track = "scheduler" if kind == "prefill" else "capture"
            name = kind if kind == "prefill" else f"capture {e['runner']} bs {e['bs']}"
            out.append(_span(name, rank, track, end - e["t_us"], e["t_us"], {"bs": e["bs"]}))
        elif kind in ("spec_toggle", "fault", "error"):
            name = {"spec_toggle": "speculation {from} -> {to}", "fault": "fault {fault}",
                    "error": "{exc_type}"}[kind].format(**e)  # fmt: skip
            out.append(_instant(name, rank, end, {k: v for k, v in e.items() if k != "v"}))
    for rank in sorted(ranks):
        out.append({"name": "process_name", "ph": "M", "pid": rank, "args": {"name": f"TP{rank}"}})
        for track, tid in TRACKS.items():
            out.append({"name": "thread_name", "ph": "M", "pid": rank, "tid": tid,
                        "args": {"name": track}})  # fmt: skip
    return out


def write_trace(run_dir: Path, out: Path) -> int:
    """Write the trace; returns the number of trace events written."""
    events = trace_events(read_run(run_dir))
    out.write_text(json.dumps({"traceEvents": events, "displayTimeUnit": "ms"}))
    return len(events)
