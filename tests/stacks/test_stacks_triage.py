"""`spectrace triage LOG capture.json`: the capture becomes a hang finding on the rank's last lines."""

from __future__ import annotations

import json
from pathlib import Path

from stacks_helpers import HungServer, spectrace


def test_triage_shows_a_saved_capture_as_a_hang_finding(
    hung_sglang: HungServer, tmp_path: Path
) -> None:
    saved = tmp_path / "hang.json"
    taken = spectrace(
        "stacks", str(hung_sglang.pid), "--samples", "2", "--interval", "0.1", "--save", str(saved)
    )
    assert taken.returncode == 0, taken.stderr
    result = spectrace("triage", str(hung_sglang.log), str(saved), "--format", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    (finding,) = [f for f in doc["findings"] if f["kind"] == "hang"]
    assert finding["message"].endswith(
        "TP2 is in `verify` while TP0-1 and TP3 wait in all_reduce: the collective cannot finish until TP2 joins"
    )
    lines = hung_sglang.log.read_text().splitlines()
    first = finding["evidence"][0]
    assert (first["line"], " TP2] " in lines[first["line"] - 1]) == (
        max(n for n, t in enumerate(lines, 1) if " TP2] " in t), True)  # fmt: skip
    assert [f["path"] for f in doc["files"]] == [
        str(hung_sglang.log)
    ]  # the capture is not scanned as a log
    fails = spectrace("triage", str(hung_sglang.log), str(saved), "--fail-on", "any")
    assert fails.returncode == 1 and "finding (hang)" in fails.stdout
