"""JSON report: validates against the documented schema, safe for any value, secrets masked."""

from __future__ import annotations

import io
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
from synthetic import MISSING_MARKER, SEED_READING, hostile_analysis, seed_analysis

from spectrace import triage
from spectrace.assemblers.run_config import FlagValue
from spectrace.reports import Format, render
from spectrace.reports.json import build_document, write_report


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(
        resources.files("spectrace").joinpath("schemas/report.schema.json").read_text()
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _parsed(analysis: Any, redact: bool = True) -> dict[str, Any]:
    return json.loads(render(build_document(analysis, triage.judge(analysis), redact), Format.JSON))


def test_seed_story_report_validates_and_carries_the_diagnosis(validator: Any) -> None:
    doc = _parsed(seed_analysis((MISSING_MARKER,)))
    validator.validate(doc)
    root, collateral = doc["incidents"]
    assert root["origin_rank"] == "TP7" and root["ranks"] == ["TP7", "TP2"]
    assert root["worker_path"]["value"] == "v1" and root["worker_path"]["evidence"][0]["line"] == 12
    assert root["shape_mismatch"]["numbers"] == {"a": 160, "b": 2, "dim": 0}
    assert root["flags"]["disable_overlap_schedule"] == {
        "value": True,
        "file": "server.log",
        "line": 12,
        "origin": "server_args",
    }
    assert collateral["caused_by"] == "I1" and not collateral["root_cause"]
    assert doc["findings"][0]["kind"] == "missing_marker" and doc["findings"][0]["fails"]
    assert doc["summary"]["exit_code"] == 1 and doc["summary"]["new_root_causes"] == 1


def test_explanation_carries_readings_and_unexplained_numbers(validator: Any) -> None:
    doc = _parsed(seed_analysis())
    validator.validate(doc)
    explanation = doc["incidents"][0]["shape_mismatch"]["explanation"]
    assert (explanation["readings"], explanation["unexplained"]) == ([SEED_READING], [2])
    assert doc["schema_version"] == "1.2"  # an added field is a minor bump


def test_a_1_0_report_without_the_added_fields_still_validates(validator: Any) -> None:
    doc = _parsed(seed_analysis())
    doc["schema_version"] = "1.0"
    for key in ("readings", "unexplained"):
        del doc["incidents"][0]["shape_mismatch"]["explanation"][key]
    validator.validate(doc)


def test_secrets_are_masked_unless_asked(validator: Any) -> None:
    redacted = _parsed(seed_analysis())
    assert redacted["incidents"][0]["flags"]["api_key"]["value"] == "***"
    assert "sk-secretsecret123" not in json.dumps(redacted)
    plain = _parsed(seed_analysis(), redact=False)
    assert plain["incidents"][0]["flags"]["api_key"]["value"] == "sk-secretsecret123"
    assert plain["redacted"] is False


def test_unserialisable_flag_values_become_strings(validator: Any) -> None:
    analysis = seed_analysis()
    odd = {"obj": FlagValue(object(), "s", 1, "server_args"), "nan": FlagValue(float("nan"), "s", 1, "env"),
           "set": FlagValue({1, 2}, "s", 1, "env"), "bytes": FlagValue(b"\xff", "s", 1, "env")}  # fmt: skip
    analysis.incidents[0].flags = odd
    doc = _parsed(analysis)
    validator.validate(doc)
    flags = doc["incidents"][0]["flags"]
    assert flags["obj"]["value"].startswith("<object object at") and flags["nan"]["value"] == "nan"
    assert sorted(flags["set"]["value"]) == [1, 2] and flags["bytes"]["value"] == "b'\\xff'"


def test_hostile_text_round_trips_as_valid_json(validator: Any) -> None:
    doc = _parsed(hostile_analysis(3))
    validator.validate(doc)
    assert doc["incidents"][0]["message"].startswith("[bold red]boom[/] \x1b]52;")
    assert doc["files"][0]["issues"] == ["bad UTF-8 at byte 7"]


def test_empty_analysis_is_a_passing_report(validator: Any) -> None:
    analysis = seed_analysis()
    analysis.incidents = []
    doc = _parsed(analysis)
    validator.validate(doc)
    assert doc["summary"]["exit_code"] == 0 and doc["incidents"] == []


@pytest.mark.parametrize("limit", [0, 1])
@pytest.mark.parametrize("redact", [True, False])
def test_the_streamed_report_has_the_same_bytes_as_the_built_one(limit: int, redact: bool) -> None:
    for analysis in (seed_analysis((MISSING_MARKER,)), hostile_analysis(3)):
        verdict = triage.judge(analysis)
        streamed = io.StringIO()
        write_report(analysis, verdict, streamed, redact=redact, limit=limit)
        built = render(build_document(analysis, verdict, redact, limit), Format.JSON)
        assert streamed.getvalue() == built
    assert ("omitted_incidents" in json.loads(built)) is (limit == 1)  # hostile: 3 groups


def test_a_streamed_report_of_no_incident_is_an_empty_list() -> None:
    analysis = seed_analysis()
    analysis.incidents.clear()
    streamed = io.StringIO()
    write_report(analysis, triage.judge(analysis), streamed)
    assert '\n  "incidents": [],\n' in streamed.getvalue()
    assert json.loads(streamed.getvalue())["incidents"] == []
