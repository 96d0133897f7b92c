"""PyTorch flight-recorder dumps (NCCL/gloo, one per rank): which rank never issued a collective."""

from __future__ import annotations

import io
import json
import os
import pickle
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spectrace.errors import InputError
from spectrace.stacks.sniff import is_flight_dump as is_flight_dump  # its old home

_RANK_SUFFIX = re.compile(r"(\d+)(?:\.\w+)?$")
MAX_DUMP_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class FlightEntry:
    seq: int  # collective_seq_id within its process group
    pg: str
    op: str  # profiling_name, e.g. "nccl:all_reduce"
    state: str
    frames: tuple[str, ...]  # "all_reduce (distributed_c10d.py:3245)", innermost first


@dataclass(frozen=True, slots=True)
class RankFlight:
    rank: str  # "rank3", from the dump file's name (the dump itself does not say)
    path: str
    status: dict[str, tuple[int, int]]  # pg id -> (last enqueued, last completed) collective
    entries: tuple[FlightEntry, ...]


@dataclass(frozen=True, slots=True)
class FlightVerdict:
    text: str
    missing: tuple[str, ...]  # ranks that never issued the collective the others wait in


class _DataOnly(pickle.Unpickler):
    """Flight-recorder pickles hold only dicts, lists and scalars: refuse every class."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing {module}.{name} in a flight-recorder dump")


def load_flight(path: str | Path) -> RankFlight:
    try:
        with open(path, "rb") as fh:  # a huge file costs no more than the cap
            raw = fh.read(MAX_DUMP_BYTES)
    except OSError as exc:
        raise InputError(
            f"{path}: cannot read flight-recorder dump ({exc.strerror or exc})"
        ) from None
    try:
        data = json.loads(raw) if raw[:1] == b"{" else _DataOnly(io.BytesIO(raw)).load()
        return _parse(str(path), data)
    except (
        pickle.UnpicklingError,
        json.JSONDecodeError,
        EOFError,
        KeyError,
        TypeError,
        ValueError,
        AttributeError,  # a list where a table belongs
        IndexError,
        OverflowError,
        RecursionError,  # nested too deeply
    ) as exc:
        raise InputError(f"{path}: not a readable flight-recorder dump ({exc})") from None


def _parse(path: str, data: dict[str, Any]) -> RankFlight:
    m = _RANK_SUFFIX.search(os.path.basename(path))
    status = {
        str(pg): (
            int(s.get("last_enqueued_collective", -1)),
            int(s.get("last_completed_collective", -1)),
        )
        for pg, s in data["pg_status"].items()
    }
    entries = tuple(
        FlightEntry(
            seq=int(e["collective_seq_id"]),
            pg=str(e.get("pg_id", "0")),
            op=str(e.get("profiling_name", "?")),
            state=str(e.get("state", "?")),
            frames=tuple(
                f"{f.get('name', '?')} ({os.path.basename(str(f.get('filename', '?')))}:{f.get('line', 0)})"
                for f in e.get("frames") or ()
            ),
        )
        for e in data["entries"]
        if not e.get("is_p2p")
    )
    return RankFlight(
        rank=f"rank{m.group(1)}" if m else os.path.basename(path),
        path=path,
        status=status,
        entries=entries,
    )


def expand(paths: Iterable[str]) -> list[str]:
    """Files as given; directories contribute the files in them that sniff as dumps."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            out.extend(
                sorted(str(f) for f in Path(p).iterdir() if f.is_file() and is_flight_dump(f))
            )
        else:
            out.append(p)
    return out


def _entry(rank: RankFlight, pg: str, seq: int) -> FlightEntry | None:
    return next((e for e in rank.entries if e.pg == pg and e.seq == seq), None)


def flight_verdict(ranks: Sequence[RankFlight]) -> FlightVerdict:
    """Per process group, the collective the front-runners wait in and the ranks that never issued it."""
    texts, missing = [], []
    for pg in sorted({pg for r in ranks for pg in r.status}):
        present = [r for r in ranks if pg in r.status]
        front = max(r.status[pg][0] for r in present)
        behind = [r for r in present if r.status[pg][0] < front]
        ahead = [r for r in present if r.status[pg][0] == front]
        entry = next((e for r in ahead if (e := _entry(r, pg, front))), None)
        op = f"#{front} ({entry.op})" if entry else f"#{front}"
        if behind:
            lags = ", ".join(f"{r.rank} last issued #{r.status[pg][0]}" for r in behind)
            texts.append(
                f"pg {pg}: {', '.join(r.rank for r in ahead)} {'waits' if len(ahead) == 1 else 'wait'} in collective {op}; "
                f"{', '.join(r.rank for r in behind)} never issued it ({lags})"
            )
            missing.extend(r.rank for r in behind)
        elif all(r.status[pg][1] < front for r in present):
            texts.append(f"pg {pg}: every rank issued collective {op} and none completed it")
    if not texts:
        return FlightVerdict(
            "flight recorder: every collective issued was completed on every rank", ()
        )
    return FlightVerdict("flight recorder: " + "; ".join(texts), tuple(dict.fromkeys(missing)))
