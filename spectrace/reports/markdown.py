"""Report document -> Markdown for a GitHub job summary or a PR/MR comment (under 1 MiB)."""

from __future__ import annotations

import html
import re
from typing import Any

from spectrace.reports import by_importance, headline
from spectrace.textsafe import inert

Document = dict[str, Any]
MAX_BYTES = 1_000_000  # GitHub accepts about 1 MiB of job summary per step
_BACKTICKS = re.compile(r"`+")
_MENTION = re.compile(r"@(?=[\w-])")
_ISSUE_REF = re.compile(r"#(?=\d)")


def cell(text: object) -> str:
    """Table-cell safe: no HTML, no pipes, no newlines, no markdown emphasis surprises, and no
    ``@someone`` mention or ``#123`` issue link from log text in a posted PR comment."""
    escaped = html.escape(" ".join(inert(text).split()), quote=False)
    escaped = _MENTION.sub("&#64;", _ISSUE_REF.sub("&#35;", escaped))
    return re.sub(r"([|\\*_`\[\]])", r"\\\1", escaped)


def fenced(lines: list[str]) -> str:
    """A code block whose fence is longer than any backtick run inside it."""
    body = inert("\n".join(lines))
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{body}\n{fence}"


def _status(i: Document) -> str:
    if i.get("known"):
        return "known"
    if not i["root_cause"]:
        return f"collateral of {i['caused_by']}" if i.get("caused_by") else "warning"
    return "**new root cause**" if i.get("fails") else "root cause"


def _table(incidents: list[Document]) -> list[str]:
    rows = ["| id | status | exception | origin | ranks | first seen | worker path |",
            "|---|---|---|---|---|---|---|"]  # fmt: skip
    for i in incidents:
        path = i.get("worker_path") or {}
        first = i["first_seen"]
        rows.append("| " + " | ".join([
            i["id"], _status(i), cell(headline(i)[:200]), cell(i["origin_rank"] or "-"),
            cell(", ".join(i["ranks"]) or "-"), cell(f"{first['file']}:{first['line']}"),
            cell(f"{path.get('value', '-')} {path.get('worker_class') or ''}".strip()),
        ]) + " |")  # fmt: skip
    return rows


def _details(i: Document) -> list[str]:
    out = [f"<details><summary>{i['id']}: {cell(headline(i)[:200])}</summary>", ""]
    for hint in i.get("hints") or []:
        out.append(f"- hint: {cell(hint)}")
    shape = i.get("shape_mismatch") or {}
    explanation = shape.get("explanation") or {}
    if explanation.get("summary"):
        out.append(f"- shape mismatch: {cell(explanation['summary'])}")
    if explanation.get("unexplained"):
        numbers = ", ".join(str(n) for n in explanation["unexplained"])
        out.append(f"  - unexplained numbers: {cell(numbers)}")
    for reading in explanation.get("readings") or []:
        out.append(f"  - possible reading: {cell(reading)}")
    for name, flag in (i.get("flags") or {}).items():
        out.append(
            f"- flag {cell(name)} = {cell(repr(flag['value']))} ({cell(flag['file'])}:{flag['line']})"
        )
    out += ["", fenced(list(i.get("lines") or [headline(i)])[:80]), "", "</details>", ""]
    return out


def render(document: Document) -> str:
    s = document["summary"]
    verdict = (
        "FAIL: " + "; ".join(s["reasons"]) if s["reasons"] else "OK: no new root-cause incident"
    )
    out = [f"## spectrace triage: {cell(verdict)}", "",
           f"{s['incidents']} incident(s): {s['root_causes']} root cause, {s['collateral']} collateral, "
           f"{s['known']} known; {s['findings']} finding(s); exit code {s['exit_code']}.", ""]  # fmt: skip
    ranked = by_importance(document["incidents"])
    if ranked:
        out += _table(ranked) + [""]
    for finding in document["findings"]:
        mark = "**fails**" if finding.get("fails") else "info"
        out.append(f"- {mark} {cell(finding['kind'])}: {cell(finding['message'])}")
    out.append("")
    size = len("\n".join(out).encode())
    for n, incident in enumerate(i for i in ranked if i["root_cause"]):
        block = "\n".join(_details(incident))
        if size + len(block.encode()) > MAX_BYTES:
            out.append(f"_{len([i for i in ranked if i['root_cause']]) - n} more incident detail(s) left out "
                       "to stay under the job-summary limit; see the JSON report._")  # fmt: skip
            break
        out.append(block)
        size += len(block.encode()) + 1
    return "\n".join(out) + "\n"
