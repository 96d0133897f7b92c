"""Analysis + verdict -> the report document (schema ``report.schema.json``) every format reads."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any, TextIO

from spectrace import __version__
from spectrace.assemblers.crash import ChainLink, Frame
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.native import NativeFrame
from spectrace.assemblers.run_config import Evidence, FlagValue
from spectrace.incidents import (
    SIGNATURE_VERSION,
    Incident,
    Occurrence,
    mask_message,
    signature_frames,
)
from spectrace.linker import WorkerPath
from spectrace.pipeline import Analysis, FileSummary, Finding
from spectrace.redact import redact_text, redact_value
from spectrace.reports.cap import cap_incidents
from spectrace.textsafe import json_escaped
from spectrace.triage import Verdict
from spectrace.worker_path import PathStep

SCHEMA_VERSION = "1.2"
WRITE_CHARS = 1 << 16
MAX_OCCURRENCES = 100  # the first copies; occurrence_count has them all (20,000 cost 1 GB)
Document = dict[str, Any]


def json_safe(value: object) -> Any:
    """Anything -> JSON-serialisable data; unknown objects become their repr string."""
    kind = type(value)  # the exact types a report is made of first: it walks every value
    if kind is dict:
        return {
            k if type(k) is str and k.isascii() else str(json_safe(k)): json_safe(v)
            for k, v in value.items()  # type: ignore[attr-defined]
        }
    if kind is list or kind is tuple:
        return [json_safe(v) for v in value]  # type: ignore[attr-defined]
    if isinstance(value, str):  # lone surrogates -> '?' (an ASCII string has none)
        return value if value.isascii() else value.encode("utf-8", "replace").decode("utf-8")
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(json_safe(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v) for v in value]
    return json_safe(repr(value))


def _frame(f: Frame) -> Document:
    return {"file": f.file, "line": f.line, "function": f.function, "code": f.code}


def _native(f: NativeFrame) -> Document:
    return {"index": f.index, "symbol": f.symbol, "module": f.module, "address": f.address,
            "offset": f.offset, "location": f.location}  # fmt: skip


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
        "framework": path.framework,
        "family": path.family,
        "conditional": path.conditional,
        "missing": list(path.missing),
        **({"trace": [_step(s) for s in path.trace]} if path.trace else {}),
    }


def _step(step: PathStep) -> Document:
    return {"reader": step.reader, "found": step.found, "kept": step.kept, "why": step.why,
            "file": step.source, "line": step.lineno}  # fmt: skip


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
        "native_frames": [_native(f) for f in i.native_frames],
        "frames_reconstructed": i.frames_reconstructed, "missing_ranks": list(i.missing_ranks),
        "mentioned": i.mentioned,
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


def _file(f: FileSummary) -> Document:
    return {"path": f.path, "lines": f.lines, "bytes": f.bytes, "dialects": f.dialects,
            "issues": list(f.issues)}  # fmt: skip


def _summary(analysis: Analysis, verdict: Verdict) -> Document:
    incidents = analysis.incidents
    return {
        "incidents": len(incidents),
        "root_causes": sum(i.root_cause for i in incidents),
        "new_root_causes": sum(i.root_cause and not i.known for i in incidents),
        "collateral": sum(not i.root_cause and i.mentioned is None for i in incidents),
        "mentioned": sum(i.mentioned is not None for i in incidents),
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


class IncidentStream:
    """The incidents of a streamed report: each document is built as it is read and then
    dropped, so 20,000 incidents never sit in memory as documents (``write`` writes it as
    a list; reading it twice builds the documents twice)."""

    def __init__(self, incidents: list[Incident], failing: set[str], redact: bool) -> None:
        self.incidents, self.failing, self.redact = incidents, failing, redact

    def __iter__(self) -> Iterator[Document]:
        for i in self.incidents:
            yield incident_document(i, i.id in self.failing, self.redact)

    def __len__(self) -> int:
        return len(self.incidents)


def _incidents(
    analysis: Analysis, failing: set[str], redact: bool, limit: int
) -> tuple[IncidentStream, Document | None]:
    """The shown incidents and the ``omitted_incidents`` count when ``limit`` left some out:
    the cap is chosen from small stubs, so left-out documents are never built."""
    shown = analysis.incidents
    omitted = None
    if limit > 0:
        stubs = {"incidents": [_stub(i, i.id in failing) for i in analysis.incidents]}
        capped = cap_incidents(stubs, limit)
        kept = {d["id"] for d in capped["incidents"]}
        shown = [i for i in analysis.incidents if i.id in kept]
        omitted = capped.get("omitted_incidents")
    return IncidentStream(shown, failing, redact), omitted


def build_document(
    analysis: Analysis, verdict: Verdict, redact: bool = True, limit: int = 0,
    stream: bool = False,
) -> Document:  # fmt: skip
    """The whole report as plain data: the single source for every output format (``limit``:
    only that many incident groups, most important first; 0: all). ``stream``: the incidents
    as an ``IncidentStream``, for a report that is only written as JSON."""
    failing, failing_findings = set(verdict.failing_incidents), set(verdict.failing_findings)
    incidents, omitted = _incidents(analysis, failing, redact, limit)
    files = [json_safe(_file(f)) for f in analysis.files]
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "spectrace", "version": __version__},
        "signature_version": SIGNATURE_VERSION,
        "redacted": redact,
        "files": files,
        "engine": analysis.config.engine,
        "flags": _scrub(json_safe(_flags(analysis.config.flags, redact)), redact),
        "incidents": incidents if stream else list(incidents),
        **({"omitted_incidents": omitted} if omitted is not None else {}),
        "findings": [
            _finding(f, n in failing_findings, redact) for n, f in enumerate(analysis.findings)
        ],
        "summary": _summary(analysis, verdict),
    }


def write_report(
    analysis: Analysis, verdict: Verdict, out: TextIO, redact: bool = True, limit: int = 0
) -> None:
    """``write(build_document(...))``, byte for byte, with the incidents streamed."""
    write(build_document(analysis, verdict, redact, limit, stream=True), out)


def render(document: Document) -> str:
    """The JSON text: strict (no NaN), UTF-8, stable key order as built."""
    buffer = io.StringIO()
    write(document, buffer)
    return buffer.getvalue()


def write(document: Mapping[str, Any], out: TextIO) -> None:
    """``render``'s text written in pieces as it is encoded (a 70 MB report is never one
    string); an ``IncidentStream`` is written item by item, each built only then."""
    encoder = json.JSONEncoder(indent=2, ensure_ascii=False, allow_nan=False)
    sink = _Sink(out)
    for n, (key, value) in enumerate(document.items()):
        sink.add(("," if n else "{") + "\n  " + encoder.encode(key) + ": ")
        if isinstance(value, IncidentStream):
            _write_items(value, encoder, sink)
        else:
            _write_value(value, encoder, sink, 1)
    sink.add("\n}\n" if document else "{}\n")
    sink.flush()


def _write_items(items: IncidentStream, encoder: json.JSONEncoder, sink: _Sink) -> None:
    """A list at the second level, as ``JSONEncoder(indent=2)`` writes it."""
    empty = True
    for item in items:
        sink.add(("[" if empty else ",") + "\n    ")
        _write_value(item, encoder, sink, 2)
        empty = False
    sink.add("[]" if empty else "\n  ]")


def _write_value(value: Any, encoder: json.JSONEncoder, sink: _Sink, level: int) -> None:
    """``value`` as it reads ``level`` deep: JSON strings hold no raw newline, so indenting
    each encoded newline nests the whole value (one incident, encoded whole, is a few KiB)."""
    sink.add(encoder.encode(value).replace("\n", "\n" + "  " * level))


class _Sink:
    """Encoded pieces gathered to WRITE_CHARS, made terminal-safe and written."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.batch: list[str] = []
        self.size = 0

    def add(self, chunk: str) -> None:
        self.batch.append(chunk)
        self.size += len(chunk)
        if self.size >= WRITE_CHARS:
            self.flush()

    def flush(self) -> None:
        self.out.write(json_escaped("".join(self.batch)))
        self.batch, self.size = [], 0
