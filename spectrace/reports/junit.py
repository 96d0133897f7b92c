"""Report document -> JUnit XML: one testcase per incident and per finding (GitLab, Jenkins)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from spectrace.reports import headline
from spectrace.reports.words import path_label, rank_list
from spectrace.textsafe import inert
from spectrace.worker_path import missing_label

Document = dict[str, Any]

# Characters XML 1.0 forbids even when escaped (NUL, most C0 controls, lone surrogates, FFFE/FFFF).
_XML_ILLEGAL = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: object) -> str:
    return _XML_ILLEGAL.sub("\ufffd", inert(value))


def _element(parent: ET.Element, tag: str, text: object = None, **attrs: object) -> ET.Element:
    child = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items() if v is not None})
    if text is not None:
        child.text = xml_text(text)
    return child


def _body(incident: Document) -> str:
    """The traceback as printed, then where it happened and what decided the path."""
    lines = list(incident.get("lines") or [])
    if not lines:
        lines = [
            f'  File "{f["file"]}", line {f.get("line")}, in {f["function"]}'
            for f in incident["frames"]
        ]
        lines.append(headline(incident))
    first = incident["first_seen"]
    lines += ["", f"first seen: {first['file']}:{first['line']} ({first.get('time_text') or '-'})"]
    lines.append(
        f"ranks: {rank_list(incident['ranks']) or '-'} (origin {incident['origin_rank'] or '-'})"
    )
    path = incident.get("worker_path")
    if path:  # worded as the text report words it: a conditional verdict, what would settle it (or that no worker ran)
        lines.append(f"worker path: {path_label(path)}")
        lines += ["{}: {}".format(*missing_label(need)) for need in path.get("missing") or ()]
    lines += [f"hint: {h}" for h in incident.get("hints") or []]
    return "\n".join(lines)


def _incident_case(suite: ET.Element, incident: Document) -> None:
    name = f"{incident['id']} {headline(incident)}"[:200]
    case = _element(suite, "testcase", classname=f"spectrace.{incident['crash_class'] or incident['kind']}",
                    name=name, file=incident["first_seen"]["file"], line=incident["first_seen"]["line"],
                    time="0")  # fmt: skip
    properties = _element(case, "properties")
    for key in ("signature", "origin_rank", "severity", "caused_by"):
        if incident.get(key) is not None:
            _element(properties, "property", name=key, value=incident[key])
    if incident.get("fails"):
        _element(case, "failure", _body(incident), message=headline(incident)[:500],
                 type=incident["exception_type"])  # fmt: skip
    elif incident.get("known"):
        _element(case, "skipped", message="known: signature is in the baseline")
    _element(case, "system-out", _body(incident))


def _finding_case(suite: ET.Element, finding: Document) -> None:
    case = _element(suite, "testcase", classname=f"spectrace.finding.{finding['kind']}",
                    name=finding["message"][:200], time="0")  # fmt: skip
    if finding.get("fails"):
        detail = "\n".join([finding.get("detail") or ""] + [e["text"] for e in finding["evidence"]])
        _element(
            case, "failure", detail.strip(), message=finding["message"][:500], type=finding["kind"]
        )


def render(document: Document) -> str:
    """Valid XML for any input bytes: illegal characters replaced, everything escaped."""
    incidents, findings = document["incidents"], document["findings"]
    failures = sum(bool(x.get("fails")) for x in incidents + findings)
    skipped = sum(bool(i.get("known")) for i in incidents)
    tests = max(1, len(incidents) + len(findings))
    root = ET.Element(
        "testsuites", name="spectrace", tests=str(tests), failures=str(failures), errors="0"
    )
    suite = _element(root, "testsuite", name="spectrace triage", tests=tests, failures=failures,
                     errors=0, skipped=skipped, time="0")  # fmt: skip
    files = _element(suite, "properties")
    for f in document["files"]:
        _element(files, "property", name="input", value=f["path"])
    for incident in incidents:
        _incident_case(suite, incident)
    for finding in findings:
        _finding_case(suite, finding)
    if not incidents and not findings:
        _element(suite, "testcase", classname="spectrace", name="no crash found", time="0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
