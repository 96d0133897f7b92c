"""Flight-recorder dumps: parsed without running code, laggard ranks named per process group."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest

from spectrace.errors import InputError
from spectrace.stacks.findings import flight_findings
from spectrace.stacks.flight import flight_verdict, is_flight_dump, load_flight

C10D = "/usr/local/lib/python3.11/dist-packages/torch/distributed/distributed_c10d.py"


def dump(enqueued: int, completed: int, ops: list[str]) -> dict[str, object]:
    """The shape torch 2.13's _dump_fr_trace writes (keys as observed on a real gloo run)."""
    return {
        "version": "2.10",
        "pg_config": {"": {"name": "", "desc": "", "ranks": "[0, 1, 2, 3]"}},
        "comm_lib_version": "2.21.5",
        "pg_status": {
            "0": {
                "last_enqueued_collective": enqueued,
                "last_started_collective": -1,
                "last_completed_collective": completed,
            }
        },
        "entries": [
            {
                "record_id": i,
                "pg_id": 0,
                "process_group": ("0", "default_pg"),
                "collective_seq_id": i + 1,
                "p2p_seq_id": 0,
                "profiling_name": op,
                "state": "scheduled",
                "is_p2p": False,
                "frames": [
                    {"name": op.split(":")[1], "filename": C10D, "line": 3245},
                    {"name": "forward", "filename": "/sgl/srt/layers/linear.py", "line": 1301},
                ],
            }
            for i, op in enumerate(ops)
        ],
    }


def write(tmp: Path, rank: int, data: dict[str, object], as_json: bool = False) -> str:
    path = tmp / f"nccl_trace_rank_{rank}"
    path.write_bytes(json.dumps(data).encode() if as_json else pickle.dumps(data))
    return str(path)


def test_the_rank_that_never_issued_the_collective(tmp_path: Path) -> None:
    ops = ["nccl:all_reduce"] * 11 + ["nccl:_all_gather_base"]
    paths = [write(tmp_path, r, dump(12, 11, ops)) for r in (0, 1, 2)]
    paths.append(write(tmp_path, 3, dump(11, 11, ops[:11]), as_json=True))
    assert all(is_flight_dump(p) for p in paths)
    result = flight_verdict([load_flight(p) for p in paths])
    assert result.text == (
        "flight recorder: pg 0: rank0, rank1, rank2 wait in collective #12 "
        "(nccl:_all_gather_base); rank3 never issued it (rank3 last issued #11)"
    )
    assert result.missing == ("rank3",)
    (finding,) = flight_findings(paths)
    assert finding.kind == "hang" and finding.evidence[0].text == (
        "#12 nccl:_all_gather_base (scheduled) at _all_gather_base (distributed_c10d.py:3245) "
        "<- forward (linear.py:1301)"
    )


def test_a_pickle_that_would_run_code_is_refused(tmp_path: Path) -> None:
    class Exploit:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return (os.system, ("touch " + str(tmp_path / "pwned"),))

    path = tmp_path / "nccl_trace_rank_0"
    path.write_bytes(pickle.dumps({"pg_status": {}, "entries": [Exploit()]}))
    with pytest.raises(InputError, match="refusing"):
        load_flight(path)
    assert not (tmp_path / "pwned").exists()
    log = tmp_path / "server.log"
    log.write_text("[2026-02-27 20:49:03 TP2] Load weight begin. avail mem=78.84 GB\n")
    assert not is_flight_dump(log)
