"""Report document -> Markdown for a GitHub job summary or a PR/MR comment (under 1 MiB)."""

from __future__ import annotations

import html
import re
from typing import Any

from spectrace.reports import by_importance, headline
from spectrace.reports.cap import omitted_summary
from spectrace.reports.words import (
    MAX_EVIDENCE,
    Names,
    clip,
    display_names,
    flags_by_line,
    load_text,
    origin_line,
    path_label,
    rank_list,
    where,
)
from spectrace.textsafe import inert

Document = dict[str, Any]
MAX_BYTES = 1_000_000  # GitHub accepts 1 MiB (1,048,576 bytes) of job summary per step
TABLE_ROWS = 300  # past this a table is not read; the rest is counted below it
TABLE_BYTES = 400_000  # the table's share, so the details of the first root causes still fit
FINDING_LINES = 100
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
        if i.get("mentioned"):
            return f"named in a {i['mentioned']} only"
        return f"collateral of {i['caused_by']}" if i.get("caused_by") else "warning"
    return "**new root cause**" if i.get("fails") else "root cause"


def _table(incidents: list[Document], names: Names) -> list[str]:
    """The most important incidents as rows, within TABLE_ROWS and TABLE_BYTES; the rest
    counted in one line under the table (as the text report caps its groups)."""
    rows = ["| id | status | exception | origin | ranks | first seen | worker path |",
            "|---|---|---|---|---|---|---|"]  # fmt: skip
    size = 0
    for n, i in enumerate(incidents):
        path = i.get("worker_path") or {}
        row = "| " + " | ".join([
            i["id"], _status(i), cell(headline(i)[:200]), cell(i["origin_rank"] or "-"),
            cell(clip(rank_list(i["ranks"]), 200) or "-"), _at(i["first_seen"], names),
            cell(path_label(path) if path else "-"),
        ]) + " |"  # fmt: skip
        size += len(row.encode()) + 1
        if n >= TABLE_ROWS or size > TABLE_BYTES:
            return [*rows, "", _left_out(incidents[n:], n)]
        rows.append(row)
    return rows


def _left_out(left: list[Document], shown: int) -> str:
    counts = omitted_summary(left, shown)
    types = ", ".join(f"{cell(name)} {n}" for name, n in counts["by_type"].items())
    failing = f", {counts['failing']} failing" if counts["failing"] else ""
    return (
        f"_{counts['count']} more incident(s) not in this table ({counts['root_causes']} root "
        f"cause{failing}; {types}): the {shown} most important are above; see the JSON report._"
    )


def _at(loc: Document, names: Names) -> str:
    return cell(where(loc, names))


def _path_lines(i: Document, names: Names) -> list[str]:
    """The worker path and the evidence that decided it (deciding pieces first, as in text)."""
    path = i.get("worker_path")
    if not path:
        return []
    out = [f"- worker path: **{cell(path_label(path))}**"]
    deciding = sorted(path.get("evidence") or [], key=lambda e: e.get("points_to") is None)
    reasons = list(dict.fromkeys((e["reason"], _at(e, names)) for e in deciding))
    out += [f"  - {at}: {cell(reason)}" for reason, at in reasons[:MAX_EVIDENCE]]
    if path.get("conflict"):
        out.append(f"  - conflict: {cell(path['conflict'])}")
    return out


def _shape_lines(i: Document) -> list[str]:
    explanation = (i.get("shape_mismatch") or {}).get("explanation") or {}
    if not explanation.get("summary"):
        return []
    out = [f"- shape mismatch: {cell(explanation['summary'])}"]
    if explanation.get("unexplained"):
        numbers = ", ".join(str(n) for n in explanation["unexplained"])
        out.append(f"  - unexplained numbers: {cell(numbers)}")
    out += [f"  - possible reading: {cell(r)}" for r in explanation.get("readings") or []]
    return out


def _details(i: Document, names: Names, by_id: dict[str, Document], first: bool) -> list[str]:
    """One root cause in the order of the terminal report; the first one is open."""
    out = [
        f"<details{' open' if first else ''}><summary>{i['id']}: {cell(headline(i)[:200])}</summary>",
        "",
    ]
    out.append(f"- {cell(origin_line(i, where(i['first_seen'], names)))}")
    out += _path_lines(i, names)
    for at, values in flags_by_line(i.get("flags") or {}, names):
        out.append(f"- flags ({cell(at)}): {cell(values)}")
    out += _shape_lines(i)
    if i.get("load"):
        out.append(f"- load before: {cell(load_text(i['load']))} ({_at(i['load'], names)})")
    out += [f"- hint: {cell(hint)}" for hint in i.get("hints") or []]
    for c in (by_id[c] for c in i.get("collateral") or [] if c in by_id):
        out.append(
            f"- collateral: {c['id']} {cell(clip(headline(c), 160))} ({_at(c['first_seen'], names)})"
        )
    out += ["", fenced(list(i.get("lines") or [headline(i)])[:80]), "", "</details>", ""]
    return out


def render(document: Document) -> str:
    s = document["summary"]
    verdict = (
        "FAIL: " + "; ".join(s["reasons"]) if s["reasons"] else "OK: no new root-cause incident"
    )
    out = [f"## spectrace triage: {cell(clip(verdict, 2000))}", "",
           f"{s['incidents']} incident(s): {s['root_causes']} root cause, {s['collateral']} collateral, "
           f"{s['known']} known; {s['findings']} finding(s); exit code {s['exit_code']}.", ""]  # fmt: skip
    ranked = by_importance(document["incidents"])
    names = display_names(f["path"] for f in document["files"])
    by_id = {i["id"]: i for i in ranked}
    if ranked:
        out += _table(ranked, names) + [""]
    findings = sorted(document["findings"], key=lambda f: not f.get("fails"))
    for finding in findings[:FINDING_LINES]:
        mark = "**fails**" if finding.get("fails") else "info"
        out.append(f"- {mark} {cell(finding['kind'])}: {cell(clip(finding['message'], 1000))}")
    if len(findings) > FINDING_LINES:
        out.append(f"- _{len(findings) - FINDING_LINES} more finding(s); see the JSON report._")
    out.append("")
    size = len("\n".join(out).encode())
    for n, incident in enumerate(i for i in ranked if i["root_cause"]):
        block = "\n".join(_details(incident, names, by_id, n == 0))
        if size + len(block.encode()) > MAX_BYTES:
            out.append(f"_{len([i for i in ranked if i['root_cause']]) - n} more incident detail(s) left out "
                       "to stay under the job-summary limit; see the JSON report._")  # fmt: skip
            break
        out.append(block)
        size += len(block.encode()) + 1
    return "\n".join(out) + "\n"
