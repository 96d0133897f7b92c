"""Huge incident counts: the text report shows the most important N in full and counts the rest;
the JSON report keeps every incident but lists at most 100 occurrences of each."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from spectrace.reports.cap import cap_incidents, omitted_line

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "spectrace/schemas/report.schema.json").read_text())
SITE = "/usr/local/lib/python3.12/dist-packages"
START = datetime(2026, 2, 27, 21, 0, 0)


def crash(n: int, rank: int) -> list[str]:
    """An SGLang scheduler traceback whose innermost frame (and so signature) is ``n``'s own."""
    stamp = (START + timedelta(seconds=n)).strftime("%Y-%m-%d %H:%M:%S")
    return [
        f"[{stamp} TP{rank}] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/sglang/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        f'  File "{SITE}/sglang/srt/layers/op_{n}.py", line {100 + n}, in forward_op_{n}',
        f"    return kernel_{n}(x)",
        f"{('RuntimeError', 'ValueError', 'KeyError')[n % 3]}: op {n} failed",
        "",
    ]


def write_log(path: Path, crashes: int, repeat: int = 1) -> Path:
    lines = [f"[{START:%Y-%m-%d %H:%M:%S}] server_args=ServerArgs(model_path='m', tp_size=8)"]
    for n in range(crashes):
        for r in range(repeat):
            lines += crash(n, (n + r) % 8)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("spectrace") or str(Path(sys.executable).with_name("spectrace"))
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_log(tmp_path_factory.mktemp("cap") / "server.log", 300)


def headings(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines() if line[:1] == "I" and ": op " in line]


def test_text_report_shows_the_first_n_and_counts_the_rest(many: Path) -> None:
    result = run("triage", str(many), "--max-incidents", "20")
    assert result.returncode == 1, result.stderr
    assert headings(result.stdout) == [f"I{n}" for n in range(1, 21)]
    omitted = [line for line in result.stdout.splitlines() if "not shown" in line]
    assert omitted == [
        "… 280 more incident(s) not shown (280 root cause, 280 failing; KeyError 94, "
        "RuntimeError 93, ValueError 93): the 20 most important are above; see all with "
        "--max-incidents 0 or --format json"
    ]
    last = result.stdout.splitlines()[-1]
    assert last.startswith("spectrace: FAIL: 300 new root-cause incidents (300 incident(s)")


def test_text_report_defaults_to_50_and_0_shows_all(many: Path) -> None:
    assert len(headings(run("triage", str(many)).stdout)) == 50
    every = run("triage", str(many), "--max-incidents", "0").stdout
    assert len(headings(every)) == 300 and "not shown" not in every


def test_json_keeps_every_incident_unless_capped_and_validates(many: Path) -> None:
    full = json.loads(run("triage", str(many), "-f", "json").stdout)
    jsonschema.validate(full, SCHEMA)
    assert len(full["incidents"]) == 300 and "omitted_incidents" not in full
    capped = json.loads(run("triage", str(many), "-f", "json", "--max-incidents", "20").stdout)
    jsonschema.validate(capped, SCHEMA)
    assert [i["id"] for i in capped["incidents"]] == [f"I{n}" for n in range(1, 21)]
    assert capped["omitted_incidents"]["count"] == 280
    assert capped["summary"]["incidents"] == 300  # the verdict counts every incident


def test_an_explicit_cap_holds_for_the_text_file_and_the_json_beside_it(
    many: Path, tmp_path: Path
) -> None:
    text, js = tmp_path / "r.txt", tmp_path / "r.json"
    result = run(
        "triage", str(many), "--max-incidents", "5", "-o", str(text), "--report", f"json={js}"
    )
    assert result.returncode == 1
    assert len(headings(text.read_text())) == 5 and "295 more incident(s)" in text.read_text()
    assert len(json.loads(js.read_text())["incidents"]) == 5  # an explicit cap is for every format


def test_occurrences_list_is_capped_and_counted(tmp_path: Path) -> None:
    log = write_log(tmp_path / "repeat.log", crashes=1, repeat=150)
    doc = json.loads(run("triage", str(log), "-f", "json").stdout)
    jsonschema.validate(doc, SCHEMA)
    (incident,) = doc["incidents"]
    assert (len(incident["occurrences"]), incident["occurrence_count"]) == (100, 150)
    text = run("triage", str(log)).stdout
    assert "150 occurrence(s)" in text, "the text report must count occurrence_count, not the list"


def test_a_negative_cap_is_a_one_line_usage_error(many: Path) -> None:
    result = run("triage", str(many), "--max-incidents", "-3")
    assert result.returncode == 2
    assert (
        result.stderr.strip() == "spectrace: error: --max-incidents must be 0 (all) or more, got -3"
    )


def _incident(id_: str, **fields: Any) -> dict[str, Any]:
    base = {"id": id_, "caused_by": None, "collateral": [], "root_cause": True,
            "severity": "error", "fails": False, "exception_type": "RuntimeError"}  # fmt: skip
    return {**base, **fields}


def test_root_causes_are_kept_before_warnings_with_their_collateral() -> None:
    doc = {"incidents": [
        _incident("I1", root_cause=False, severity="warning", exception_type="UserWarning"),
        _incident("I2", fails=True, collateral=["I3"]),
        _incident("I3", root_cause=False, caused_by="I2", exception_type="NCCLTimeout"),
    ]}  # fmt: skip
    capped = cap_incidents(doc, 1)
    assert [i["id"] for i in capped["incidents"]] == ["I2", "I3"]
    assert capped["omitted_incidents"] == {
        "count": 1, "limit": 1, "root_causes": 0, "failing": 0, "by_type": {"UserWarning": 1},
    }  # fmt: skip
    assert cap_incidents(doc, 2) is doc and omitted_line(doc) is None


def test_json_reports_streamed_side_by_side_are_identical_and_capped(
    many: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    args = ("-f", "json", "-o", str(first), "--report", f"json={second}")
    result = run("triage", str(many), *args, "--max-incidents", "3")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[-1].startswith("spectrace: FAIL: 300 new root-cause")
    assert first.read_bytes() == second.read_bytes()
    capped = json.loads(first.read_text())
    jsonschema.validate(capped, SCHEMA)
    assert [i["id"] for i in capped["incidents"]] == ["I1", "I2", "I3"]
    assert capped["omitted_incidents"]["count"] == 297
