"""Analysis + verdict -> the report document (schema ``report.schema.json``) every format reads."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any, TextIO

from spectrace import __version__
from spectrace.assemblers.config import Evidence, FlagValue
from spectrace.assemblers.crash import ChainLink, Frame
from spectrace.assemblers.load import LoadSample
from spectrace.incidents import (
    SIGNATURE_VERSION,
    Incident,
    Occurrence,
    mask_message,
    signature_frames,
)
from spectrace.linker import WorkerPath
from spectrace.pipeline import Analysis, Finding
from spectrace.redact import redact_text, redact_value
from spectrace.reports.cap import cap_incidents
from spectrace.textsafe import json_escaped
from spectrace.triage import Verdict

SCHEMA_VERSION = "1.2"
WRITE_CHARS = 1 << 16
MAX_OCCURRENCES = 100  # the first copies; occurrence_count has them all (20,000 cost 1 GB)
Document = dict[str, Any]


def json_safe(value: object) -> Any:
    """Anything -> JSON-serialisable data; unknown objects become their repr string."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")  # lone surrogates -> '?'
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(json_safe(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v) for v in value]
    return json_safe(repr(value))


def _frame(f: Frame) -> Document:
    return {"file": f.file, "line": f.line, "function": f.function, "code": f.code}


def _link(link: ChainLink) -> Document:
    return {
        "exception_type": link.exception_type,
        "message": link.message,
        "relation": link.relation,
        "frames": [_frame(f) for f in link.frames],
    }


def _where(o: Occurrence) -> Document:
    time = o.ts.isoformat() if o.ts else None
    return {
        "file": o.source,
        "line": o.lineno,
        "time": time,
        "time_text": o.ts_text,
        "rank": o.rank,
    }


def _evidence(e: Evidence) -> Document:
    return {
        "file": e.source,
        "line": e.lineno,
        "text": e.text,
        "reason": e.reason,
        "points_to": e.points_to,
    }


def _worker_path(path: WorkerPath | None) -> Document | None:
    if path is None:
        return None
    return {
        "value": path.value,
        "worker_class": path.worker_class,
        "evidence": [_evidence(e) for e in path.evidence],
        "conflict": path.conflict,
    }


def _flags(flags: Mapping[str, FlagValue], redact: bool) -> Document:
    return {
        name: {
            "value": json_safe(redact_value(name, f.value) if redact else f.value),
            "file": f.source,
            "line": f.lineno,
            "origin": f.origin,
        }
        for name, f in flags.items()
    }


def _load(sample: LoadSample | None) -> Document | None:
    if sample is None:
        return None
    names = (
        "running_req",
        "accept_len",
        "accept_rate",
        "gen_throughput",
        "queue_req",
        "cuda_graph",
    )
    out: Document = {"file": sample.source, "line": sample.lineno, "rank": sample.rank}
    out["time"] = sample.ts.isoformat() if sample.ts else None
    out.update({n: getattr(sample, n) for n in names})
    return out


def _shape(incident: Incident) -> Document | None:
    shape = incident.shape_mismatch
    if shape is None:
        return None
    ex = incident.explanation
    explanation = None
    if ex is not None:
        explanation = {"explained": ex.explained, "summary": ex.summary, "terms": ex.terms,
                       "tensor": ex.tensor, "facts": ex.facts, "readings": list(ex.readings),
                       "unexplained": list(ex.unexplained)}  # fmt: skip
    return {"pattern": shape.pattern, "numbers": shape.numbers, "text": shape.text,
            "explanation": explanation}  # fmt: skip


def _grouped_by(i: Incident) -> Document:
    """Why these crashes are one incident: exactly what the signature was computed from."""
    return {
        "exception_type": i.exception_type,
        "message": mask_message(i.message),
        "frames": list(signature_frames(i.frames)),
    }


def incident_document(i: Incident, failing: bool, redact: bool = True) -> Document:
    """One incident as the schema describes it (values JSON-safe, secrets masked)."""
    doc: Document = {
        "id": i.id, "signature": i.signature, "kind": i.kind,
        "exception_type": i.exception_type, "message": i.message,
        "crash_class": i.crash_class, "severity": i.severity,
        "root_cause": i.root_cause, "caused_by": i.caused_by, "collateral": list(i.collateral),
        "ranks": list(i.ranks), "origin_rank": i.origin_rank,
        "first_seen": _where(i.first_seen),
        "occurrences": [_where(o) for o in i.occurrences[:MAX_OCCURRENCES]],
        "occurrence_count": len(i.occurrences),
        "frames": [_frame(f) for f in i.frames], "chain": [_link(c) for c in i.chain],
        "header": i.header, "rule_id": i.rule_id, "lines": list(i.lines),
        "shape_mismatch": _shape(i), "worker_path": _worker_path(i.worker_path),
        "flags": _flags(i.flags, redact), "load": _load(i.load), "hints": list(i.hints),
        "known": i.known, "fails": failing, "grouped_by": _grouped_by(i),
    }  # fmt: skip
    return _scrub(json_safe(doc), redact)


def _finding(f: Finding, failing: bool, redact: bool) -> Document:
    doc = {
        "kind": f.kind, "message": f.message, "detail": f.detail,
        "worker_path": _worker_path(f.worker_path),
        "evidence": [_evidence(e) for e in f.evidence], "fails": failing,
    }  # fmt: skip
    return _scrub(json_safe(doc), redact)


# Fields the tool itself fills (ids, places, times, enums): never secrets, never scrubbed.
_NOT_TEXT = frozenset({"signature", "id", "caused_by", "collateral", "kind", "file", "line", "time",
                       "time_text", "rank", "ranks", "origin_rank", "severity", "crash_class",
                       "rule_id", "function", "relation", "pattern", "points_to", "origin"})  # fmt: skip


def _scrub(value: Any, redact: bool, key: str = "") -> Any:
    """Redact every free-text string that came from the log (lines, messages, evidence)."""
    if not redact or key in _NOT_TEXT:
        return value
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [_scrub(v, redact, key) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, redact, k) for k, v in value.items()}
    return value


def _summary(analysis: Analysis, verdict: Verdict) -> Document:
    incidents = analysis.incidents
    return {
        "incidents": len(incidents),
        "root_causes": sum(i.root_cause for i in incidents),
        "new_root_causes": sum(i.root_cause and not i.known for i in incidents),
        "collateral": sum(not i.root_cause for i in incidents),
        "known": sum(i.known for i in incidents),
        "findings": len(analysis.findings),
        "missing_markers": sum(f.kind == "missing_marker" for f in analysis.findings),
        "exit_code": int(verdict.exit_code),
        "fail_on": [f.value for f in verdict.fail_on],
        "reasons": list(verdict.reasons),
        "failing_incidents": list(verdict.failing_incidents),
    }


def _stub(i: Incident, failing: bool) -> Document:
    """What choosing the incidents a capped report shows needs, without building the rest."""
    return {"id": i.id, "caused_by": i.caused_by, "collateral": list(i.collateral),
            "root_cause": i.root_cause, "severity": i.severity, "fails": failing,
            "exception_type": i.exception_type}  # fmt: skip


def _incidents(analysis: Analysis, failing: set[str], redact: bool, limit: int) -> Document:
    """``incidents`` (and ``omitted_incidents`` when ``limit`` left some out): the documents of
    left-out incidents are never built, so a capped report of 20,000 crashes stays small."""
    stubs = {"incidents": [_stub(i, i.id in failing) for i in analysis.incidents]}
    capped = cap_incidents(stubs, limit)
    kept = {d["id"] for d in capped["incidents"]}
    out: Document = {
        "incidents": [
            incident_document(i, i.id in failing, redact)
            for i in analysis.incidents
            if i.id in kept
        ]
    }
    if "omitted_incidents" in capped:
        out["omitted_incidents"] = capped["omitted_incidents"]
    return out


def build_document(
    analysis: Analysis, verdict: Verdict, redact: bool = True, limit: int = 0
) -> Document:
    """The whole report as plain data: the single source for every output format (``limit``:
    only that many incident groups, most important first; 0: all)."""
    failing, failing_findings = set(verdict.failing_incidents), set(verdict.failing_findings)
    incidents = _incidents(analysis, failing, redact, limit)
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "spectrace", "version": __version__},
        "signature_version": SIGNATURE_VERSION,
        "redacted": redact,
        "files": [
            json_safe(
                {
                    "path": f.path,
                    "lines": f.lines,
                    "bytes": f.bytes,
                    "dialects": f.dialects,
                    "issues": list(f.issues),
                }
            )  # fmt: skip
            for f in analysis.files
        ],
        "engine": analysis.config.engine,
        "flags": _scrub(json_safe(_flags(analysis.config.flags, redact)), redact),
        **incidents,  # "incidents", and "omitted_incidents" when capped
        "findings": [
            _finding(f, n in failing_findings, redact) for n, f in enumerate(analysis.findings)
        ],
        "summary": _summary(analysis, verdict),
    }


def render(document: Document) -> str:
    """The JSON text: strict (no NaN), UTF-8, stable key order as built."""
    buffer = io.StringIO()
    write(document, buffer)
    return buffer.getvalue()


def write(document: Document, out: TextIO) -> None:
    """``render``'s text written in pieces as it is encoded: 20,000 incidents never sit in
    memory as one 70 MB string plus the millions of fragments it is joined from."""
    encoder = json.JSONEncoder(indent=2, ensure_ascii=False, allow_nan=False)
    batch: list[str] = []
    size = 0
    for chunk in encoder.iterencode(document):
        batch.append(chunk)
        size += len(chunk)
        if size >= WRITE_CHARS:
            out.write(json_escaped("".join(batch)))
            batch, size = [], 0
    out.write(json_escaped("".join(batch)) + "\n")
