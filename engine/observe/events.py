"""Structured JSONL events: the engine's own truth, read by tests with ``json`` (schema ``v`` = 1).

Every line is one object with the common fields ``v``, ``seq`` (per rank, monotonic), ``ts_ns``
(wall clock, ns since the epoch), ``run_id``, ``rank``, ``step`` (decode steps so far), ``event``.
Event types and their extra fields (docs/engine.md has the full table):

* ``run_start``: ``config`` (resolved EngineConfig as a dict), ``worker``, ``worker_class``,
  ``disable_overlap_schedule``, ``versions``, ``device``, ``weights`` (name -> sha256), ``faults``,
  ``log_path``, ``warnings`` (the bare server-args warnings printed).
* ``capture``: ``runner``, ``mode``, ``bs``, ``rows``, ``t_us``, ``graph`` (capture|emulated).
* ``prefill``: ``rids``, ``bs``, ``tokens``, ``spec`` (draft extend ran), ``t_us``, ``host_syncs``.
* ``step``: ``launch_ns`` (wall clock at launch), ``mode`` (decode|verify), ``spec_enabled``, ``bs``, ``padded_bs``, ``rows``,
  ``rows_expected``, ``graph`` (replay|eager|emulated), ``graph_key``, ``phases`` {name: wall µs},
  ``phases_gpu`` {name: GPU µs} (CUDA only, read from CUDA events at flush),
  ``dirty_rows`` (padded rows left on a request slot: dirty_padding),
  ``spec_info`` {kind, tokens_per_req, shapes}, ``accepted`` / ``emitted`` (per request, verify
  only; emitted = accepted + 1), ``num_draft_tokens``, ``emitted_total``, ``host_syncs`` (device -> host reads
  inside the step, measured), ``resolve_syncs`` (reads when the scheduler processed it).
* ``spec_toggle``: ``from``, ``to``, ``reason``, ``bs``, ``threshold``, ``consecutive``,
  ``cleanup_ran``, ``draft_kv_policy`` (catch_up|none), ``caught_up_tokens``.
* ``decode_log``: the numbers of one ``Decode batch`` line (running_req, accept_len, ...).
* ``fault``: ``fault``, ``detail`` — a fault switch changed behaviour here.
* ``request_finish``: ``rid``, ``prompt_len``, ``output_ids``, ``finish_step``, ``ttft_ms``,
  ``latency_ms``, ``tpot_ms`` (wall time from the request's arrival; latency.py).
* ``error``: ``exc_type``, ``message``, ``traceback_tail``, ``collateral`` (bool), ``phase``,
  ``bs``, ``rows``, ``rows_expected``, ``spec_info``, ``running_req``, ``num_draft_tokens``,
  ``faults``, ``log_ts`` (the ``[...]`` stamp of the logged traceback header), ``log_ns`` and
  ``log_end`` (clock before, log offset after that write: log order across ranks).
* ``run_end``: ``status`` (ok|error), ``steps``, ``requests_finished``, ``tokens_out``,
  ``mean_accepted``, ``mean_emitted``, ``graph_replays``, ``graph_misses``, ``padding_waste``,
  ``wall_s``, ``gen_throughput``, ``ttft_ms|latency_ms|tpot_ms`` ``_mean|_p50|_p99``,
  ``weight_bytes_target`` / ``weight_bytes_spec_extra`` (per plain step / added per spec step).

Events are appended as dicts (sub-µs) and serialised only at flush; GPU spans are resolved then.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from spectrace_engine.observe.append import write_all

SCHEMA_VERSION = 1


class GpuSpan:
    """A pair of CUDA events whose elapsed time is read at flush, never inside a step."""

    __slots__ = ("start", "end")

    def __init__(self, start: Any, end: Any) -> None:
        self.start, self.end = start, end

    def resolve(self) -> float:
        self.end.synchronize()
        return round(self.start.elapsed_time(self.end) * 1000.0, 1)


def _plain(value: Any) -> Any:
    """json's hook for what it cannot encode: GPU spans are resolved (read) only here. The C
    encoder walks dicts and lists itself, half the cost of a Python walk before it."""
    if isinstance(value, GpuSpan):
        return value.resolve()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


class EventWriter:
    """Buffered JSONL writer for one rank; ``flush`` on a size bound, on exit and on a crash."""

    def __init__(self, path: Path, run_id: str, rank: int, flush_every: int = 2048) -> None:
        self.path = path
        self.run_id = run_id
        self.rank = rank
        self.step = 0
        self._seq = 0
        self._buf: list[dict[str, Any]] = []
        self._flush_every = flush_every
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def emit(self, event: str, **fields: Any) -> None:
        self._seq += 1
        rec = {
            "v": SCHEMA_VERSION,
            "seq": self._seq,
            "ts_ns": time.time_ns(),
            "run_id": self.run_id,
            "rank": self.rank,
            "step": self.step,
            "event": event,
        }
        rec.update(fields)
        self._buf.append(rec)
        if len(self._buf) >= self._flush_every:
            self.flush()

    def flush(self) -> None:
        if not self._buf or self._fd < 0:
            return
        enc = json.JSONEncoder(separators=(",", ":"), default=_plain).encode
        data = "".join(enc(r) + "\n" for r in self._buf)
        self._buf.clear()
        write_all(self._fd, data.encode())

    def close(self) -> None:
        self.flush()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def read_events(path: Path) -> list[dict[str, Any]]:
    """All events of one JSONL file (a helper for reports; tests use plain ``json``)."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
