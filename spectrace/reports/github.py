"""Report document -> GitHub workflow commands (annotations), never over GitHub's caps silently."""

from __future__ import annotations

from typing import Any

from spectrace.reports import by_importance, headline
from spectrace.reports.words import Names, display_names, origin_line, path_label, where
from spectrace.textsafe import inert

Document = dict[str, Any]
MAX_PER_TYPE = 10  # GitHub keeps 10 errors, 10 warnings, 10 notices per step; drops the rest
MAX_NAMED = 30  # ids named in one line; an annotation is read by a person, not parsed


def escape_data(text: str) -> str:
    """The runner's escapes for % CR LF; other control characters shown inertly as ``\\xNN``."""
    return inert(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, file: str | None = None, line: int | None = None,
            title: str | None = None) -> str:  # fmt: skip
    """One ``::kind file=..,line=..,title=..::message`` line, escaped as the runner expects."""
    props = [("file", file), ("line", str(line) if line else None), ("title", title)]
    rendered = ",".join(f"{k}={escape_property(v)}" for k, v in props if v)
    return f"::{kind}{' ' + rendered if rendered else ''}::{escape_data(message)}"


def _incident_message(incident: Document, names: Names) -> str:
    """The terminal report's answer in the same words and order, the signature last."""
    lines = [headline(incident), origin_line(incident, where(incident["first_seen"], names))]
    path = incident.get("worker_path")
    if path:
        lines.append(f"worker path: {path_label(path)}")
    summary = ((incident.get("shape_mismatch") or {}).get("explanation") or {}).get("summary")
    if summary:
        lines.append(f"shape mismatch: {summary}")
    lines += [f"hint: {h}" for h in incident.get("hints") or []]
    if incident.get("caused_by"):
        lines.append(f"collateral of {incident['caused_by']}")
    if incident.get("collateral"):
        lines.append(f"collateral: {named(incident['collateral'])}")
    lines.append(f"signature: {incident['signature']}")
    return "\n".join(lines)


def _annotation(kind: str, incident: Document, names: Names) -> str:
    first = incident["first_seen"]
    title = f"{incident['id']} {incident['exception_type']}"
    if not incident["root_cause"]:
        title += " (collateral)"
    elif incident.get("known"):
        title += " (known)"
    message = _incident_message(incident, names)
    return command(kind, message, first["file"], first["line"], title)


def named(ids: list[str]) -> str:
    """At most MAX_NAMED ids, then how many more: 20,000 collateral ids would make one
    annotation of hundreds of kilobytes, which the runner cuts."""
    shown = ", ".join(ids[:MAX_NAMED])
    return shown + (f" and {len(ids) - MAX_NAMED} more" if len(ids) > MAX_NAMED else "")


def _overflow(kind: str, rest: list[Document]) -> str:
    ids = named([i["id"] for i in rest])
    return command("notice", f"{len(rest)} more {kind} incident(s) not annotated (GitHub keeps "
                   f"{MAX_PER_TYPE} per step): {ids}; see the full report", title="spectrace: more")  # fmt: skip


def render(document: Document) -> str:
    """Failing incidents and findings as errors, the rest as warnings; overflow in a notice."""
    ranked = by_importance(document["incidents"])
    failing = [i for i in ranked if i.get("fails")]
    others = [i for i in ranked if not i.get("fails")]
    findings = [f for f in document["findings"] if f.get("fails")]
    error_room = max(0, MAX_PER_TYPE - len(findings))
    out = [command("error", f["message"] + (f"\n{f['detail']}" if f.get("detail") else ""),
                   title=f"spectrace: {f['kind'].replace('_', ' ')}") for f in findings[:MAX_PER_TYPE]]  # fmt: skip
    names = display_names(f["path"] for f in document["files"])
    out += [_annotation("error", i, names) for i in failing[:error_room]]
    out += [_annotation("warning", i, names) for i in others[:MAX_PER_TYPE]]
    for kind, rest in (("failing", failing[error_room:]), ("other", others[MAX_PER_TYPE:])):
        if rest:
            out.append(_overflow(kind, rest))
    skipped = [f["message"] for f in document["findings"] if f["kind"] == "skipped_input"]
    if skipped:  # binary or empty inputs: said once, whatever their number
        out.append(command("warning", f"{len(skipped)} input(s) not read: "
                           + "; ".join(skipped[:MAX_NAMED]) + (" ..." if len(skipped) > MAX_NAMED else ""),
                           title="spectrace: skipped input"))  # fmt: skip
    if len(findings) > MAX_PER_TYPE:
        extra = "; ".join(f["message"] for f in findings[MAX_PER_TYPE : MAX_PER_TYPE + MAX_NAMED])
        out.append(
            command("notice", f"{len(findings) - MAX_PER_TYPE} more failing finding(s): {extra}")
        )
    s = document["summary"]
    verdict = "; ".join(s["reasons"]) or "no new root-cause incident"
    out.append(f"spectrace: {verdict} ({s['incidents']} incident(s), exit {s['exit_code']})")
    return "\n".join(out) + "\n"
