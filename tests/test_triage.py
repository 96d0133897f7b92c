"""CI policy: what fails the run, baselines of accepted signatures, exit codes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from synthetic import MISSING_MARKER, seed_analysis, seed_crashes

from spectrace import inputs, triage
from spectrace.errors import InputError, UsageError
from spectrace.incidents import build_incidents
from spectrace.pipeline import Finding
from spectrace.reports import Format, render
from spectrace.reports.json import build_document
from spectrace.triage import ExitCode, FailOn


def test_new_root_cause_fails_collateral_alone_does_not_count_twice() -> None:
    verdict = triage.judge(seed_analysis())
    assert verdict.exit_code is ExitCode.FAILED
    assert verdict.failing_incidents == ("I1",)
    assert verdict.reasons == ("1 new root-cause incident",)


def test_missing_marker_fails_by_default_and_can_be_turned_off() -> None:
    analysis = seed_analysis((MISSING_MARKER,))
    analysis.incidents = []
    assert triage.judge(analysis).exit_code is ExitCode.FAILED
    only_roots = triage.parse_fail_on(["root-cause"])
    assert triage.judge(analysis, only_roots).exit_code is ExitCode.OK


def test_fail_on_any_counts_collateral_and_hangs() -> None:
    analysis = seed_analysis((Finding("hang", "no log line for 600 s on TP3"),))
    verdict = triage.judge(analysis, frozenset({FailOn.ANY}))
    assert verdict.failing_incidents == ("I1", "I2") and verdict.failing_findings == (0,)


def test_fail_on_severity() -> None:
    analysis = seed_analysis()
    for incident in analysis.incidents:
        incident.severity = "error"
    assert triage.judge(analysis, frozenset({FailOn.SEVERITY_FATAL})).exit_code is ExitCode.OK
    assert triage.judge(analysis, frozenset({FailOn.SEVERITY_ERROR})).failing_incidents == (
        "I1",
        "I2",
    )


def test_parse_fail_on_accepts_commas_and_rejects_unknown_values() -> None:
    assert triage.parse_fail_on(["root-cause,severity:fatal"]) == {
        FailOn.ROOT_CAUSE,
        FailOn.SEVERITY_FATAL,
    }
    assert triage.parse_fail_on([]) == triage.DEFAULT_FAIL_ON
    with pytest.raises(UsageError, match="unknown value 'sometimes'"):
        triage.parse_fail_on(["sometimes"])


def test_written_baseline_makes_the_rerun_pass(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    triage.write_baseline(path, seed_analysis().incidents)
    rerun = seed_analysis()
    assert triage.apply_baseline(rerun.incidents, triage.read_baseline(path)) == 2
    assert triage.judge(rerun).exit_code is ExitCode.OK


def test_baseline_survives_changed_numbers_pids_times_and_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    triage.write_baseline(path, build_incidents(seed_crashes()))
    shifted = [
        replace(c, lineno=c.lineno + 500, offset=c.offset + 9999, ts=None,
                message=c.message.replace("160", "96").replace("12345", "777").replace("600012", "600003"),
                frames=tuple(replace(f, line=(f.line or 0) + 11) for f in c.frames))
        for c in seed_crashes()
    ]  # fmt: skip
    incidents = build_incidents(shifted)
    assert triage.apply_baseline(incidents, triage.read_baseline(path)) == len(incidents) == 2


def test_a_previous_json_report_works_as_baseline(tmp_path: Path) -> None:
    analysis = seed_analysis()
    report = tmp_path / "old.json"
    report.write_text(render(build_document(analysis, triage.judge(analysis)), Format.JSON))
    assert triage.read_baseline(report) == {i.signature for i in analysis.incidents}


def test_plain_text_baseline_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "accepted.txt"
    path.write_text("# accepted\n0123456789abcdef  # known flake\n\n")
    assert triage.read_baseline(path) == {"0123456789abcdef"}


@pytest.mark.parametrize(
    ("content", "message"),
    [('{"signatures": [', "malformed baseline JSON"), ('{"rows": []}', "not a spectrace baseline"),
     ('{"signatures": ["xyz"]}', "malformed signature 'xyz'"), ("not a signature\n", "malformed baseline line")],
)  # fmt: skip
def test_malformed_baseline_is_a_one_line_input_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "b.json"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        triage.read_baseline(path)


def test_missing_baseline_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read baseline"):
        triage.read_baseline(tmp_path / "nope.json")


def test_baseline_file_names_what_each_signature_stands_for(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    triage.write_baseline(path, seed_analysis().incidents)
    data = json.loads(path.read_text())
    assert data["spectrace_baseline"] == 1
    assert data["signatures"][0].keys() == {"signature", "exception_type", "message", "first_seen"}


def test_expand_inputs_globs_and_errors(tmp_path: Path) -> None:
    for name in ("b.log", "a.log", "c.txt"):
        (tmp_path / name).write_text("x\n")
    assert inputs.expand([str(tmp_path / "*.log"), "-"]) == [
        str(tmp_path / "a.log"),
        str(tmp_path / "b.log"),
        "-",
    ]
    with pytest.raises(InputError, match="no file matches"):
        inputs.expand([str(tmp_path / "*.gz")])
    with pytest.raises(InputError, match="no such file"):
        inputs.expand([str(tmp_path / "missing.log")])


def test_directories_are_walked_for_logs_only(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in (
        "server.log",
        "sub/rank1.log.gz",
        "expected.json",
        "notes.md",
        ".hidden.log",
        "stdout",
    ):
        (tmp_path / name).write_text("x\n")
    found = inputs.expand([str(tmp_path)])
    assert [Path(p).relative_to(tmp_path).as_posix() for p in found] == [
        "server.log",
        "stdout",
        "sub/rank1.log.gz",
    ]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no log files"):
        inputs.expand([str(tmp_path / "empty")])
