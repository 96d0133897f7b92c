"""The capture file: save/load round-trips exactly, and triage can sniff it beside logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from stacks_synth import ALL_REDUCE, VERIFY, capture, still

from spectrace.errors import InputError
from spectrace.stacks.model import (
    FORMAT,
    SCHEMA_VERSION,
    StackFrame,
    from_json,
    is_capture_file,
    load_capture,
    save_capture,
    to_json,
)


def sample_capture():  # type: ignore[no-untyped-def]
    with_locals = (
        StackFrame(
            "verify",
            "/srv/eagle_worker.py",
            655,
            code="x = y",
            locals=(("bs", "10"), ("topk", "4")),
        ),
    )
    return capture(
        ("TP0", still(ALL_REDUCE)), ("TP1", still(with_locals + VERIFY, active=True, n=2))
    )


def test_round_trip_through_json_and_a_file(tmp_path: Path) -> None:
    original = sample_capture()
    assert from_json(json.loads(json.dumps(to_json(original)))) == original
    path = tmp_path / "capture.json"
    save_capture(original, path)
    assert load_capture(path) == original
    head = json.loads(path.read_text())
    assert (head["format"], head["schema_version"]) == (FORMAT, SCHEMA_VERSION)


def test_sniffing_tells_a_capture_from_logs(tmp_path: Path) -> None:
    capture_file, log, other_json, binary = (
        tmp_path / n for n in ("c.json", "s.log", "o.json", "b.bin")
    )
    save_capture(sample_capture(), capture_file)
    log.write_text("[2026-02-27 20:49:03 TP2] Load weight begin. avail mem=78.84 GB\n")
    other_json.write_text(
        '{"version": 1, "format": "spectrace-stacks"}'
    )  # not the first key: not ours
    binary.write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(256)))
    assert is_capture_file(capture_file)
    assert not any(is_capture_file(p) for p in (log, other_json, binary, tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "stacks capture is not valid JSON"),
        (
            '{"format": "spectrace-stacks", "schema_version": 1, "root_pid": "x"}',
            "malformed stacks capture",
        ),
        ("[1, 2]", "not a spectrace stacks capture"),
    ],
)
def test_bad_files_are_one_line_input_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        load_capture(path)
