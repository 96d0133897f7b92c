"""Report document -> SARIF 2.1.0: stable ruleId per crash class, fingerprint = signature."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from spectrace.reports import headline
from spectrace.reports.words import path_label, rank_list
from spectrace.textsafe import json_escaped
from spectrace.worker_path import missing_label

Document = dict[str, Any]
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "spectraceSignature/v1"
MAX_RELATED = 100  # GitHub shows at most 100 locations per result
_LEVEL = {"fatal": "error", "error": "error", "warning": "warning"}


def rule_id(incident: Document) -> str:
    """Stable across runs: the crash class from the rules, else the crash kind."""
    return f"crash/{incident.get('crash_class') or incident['kind']}"


def _uri(path: str) -> str:
    return quote(path.replace("\\", "/"), safe="/:@")


def _location(loc: Document, n: int | None = None) -> Document:
    out: Document = {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(str(loc["file"]))},
            "region": {"startLine": max(1, int(loc.get("line") or 1))},
        }
    }
    if n is not None:
        out["id"] = n
        out["message"] = {"text": f"also on {loc.get('rank') or 'no rank'}"}
    return out


def _message(incident: Document) -> str:
    ranks = rank_list(incident["ranks"]) or "no rank"
    parts = [headline(incident), f"Origin rank {incident['origin_rank'] or '-'}; ranks {ranks}."]
    path = incident.get("worker_path")
    if path:  # worded as the text report words it: a conditional verdict, what would settle it (or that no worker ran)
        parts.append(f"Worker path: {path_label(path)}.")
        parts += [f"{label.capitalize()}: {words}." for label, words in map(missing_label, path.get("missing") or ())]
    if not incident["root_cause"]:
        parts.append(f"Collateral of {incident['caused_by']}.")
    parts += incident.get("hints") or []
    return " ".join(parts)


def _result(incident: Document, rule_index: int) -> Document:
    related = [
        _location(o, n) for n, o in enumerate(incident["occurrences"][1 : MAX_RELATED + 1], 1)
    ]
    result: Document = {
        "ruleId": rule_id(incident),
        "ruleIndex": rule_index,
        "level": _LEVEL.get(incident["severity"], "error") if incident["root_cause"] else "note",
        "message": {"text": _message(incident)},
        "locations": [_location(incident["first_seen"])],
        "partialFingerprints": {FINGERPRINT_KEY: incident["signature"]},
        "baselineState": "unchanged" if incident.get("known") else "new",
        "properties": {"incidentId": incident["id"], "ranks": incident["ranks"],
                       "rootCause": incident["root_cause"], "fails": bool(incident.get("fails"))},
    }  # fmt: skip
    if related:
        result["relatedLocations"] = related
    return result


def _finding(finding: Document, rule_index: int) -> Document:
    result: Document = {
        "ruleId": f"finding/{finding['kind']}",
        "ruleIndex": rule_index,
        "level": "error" if finding.get("fails") else "warning",
        "message": {"text": " ".join(filter(None, [finding["message"], finding.get("detail")]))},
    }
    if finding["evidence"]:
        result["locations"] = [_location(finding["evidence"][0])]
    return result


def _rules(incidents: list[Document], findings: list[Document]) -> list[Document]:
    seen: dict[str, Document] = {}
    for finding in findings:
        rid = f"finding/{finding['kind']}"
        seen.setdefault(
            rid, {"id": rid, "shortDescription": {"text": f"Finding: {finding['kind']}"}}
        )
    for incident in incidents:
        rid = rule_id(incident)
        seen.setdefault(rid, {
            "id": rid,
            "name": rid.split("/", 1)[1].title().replace("_", ""),
            "shortDescription": {"text": f"Crash class {rid.split('/', 1)[1]}"},
            "defaultConfiguration": {"level": _LEVEL.get(incident["severity"], "error")},
        })  # fmt: skip
    return list(seen.values())


def render(document: Document) -> str:
    incidents = document["incidents"]
    rules = _rules(incidents, document["findings"])
    index = {r["id"]: n for n, r in enumerate(rules)}
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "spectrace", "version": document["tool"]["version"],
                "rules": rules,
            }},
            "results": [_result(i, index[rule_id(i)]) for i in incidents]
            + [_finding(f, index[f"finding/{f['kind']}"]) for f in document["findings"]],
            "invocations": [{"executionSuccessful": True,
                             "exitCode": document["summary"]["exit_code"]}],
        }],
    }  # fmt: skip
    return json_escaped(json.dumps(log, indent=2, ensure_ascii=False)) + "\n"
