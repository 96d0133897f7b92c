"""Huge incident counts: the most important incident groups in full, the rest as one count line."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from spectrace.reports import Format, by_importance, render
from spectrace.reports.text import TriageReport
from spectrace.textsafe import inert

Document = dict[str, Any]
TEXT_MAX_INCIDENTS = 50  # a terminal reader stops long before; the JSON report keeps them all
TOP_TYPES = 5


def limit_for(fmt: Format, given: int | None) -> int:
    """The cap a report gets: what --max-incidents says, else 50 for text and none (0) for the
    machine formats, whose readers filter for themselves."""
    if given is not None:
        return given
    return TEXT_MAX_INCIDENTS if fmt is Format.TEXT else 0


def _groups(incidents: list[Document]) -> list[Document]:
    """The top-level incidents (roots and orphans), most important first."""
    ids = {i["id"] for i in incidents}
    return [
        i for i in by_importance(incidents) if i["caused_by"] is None or i["caused_by"] not in ids
    ]


def cap_incidents(document: Document, limit: int) -> Document:
    """The document keeping the ``limit`` most important incident groups (each root with its
    collateral), in their usual order; what was left out is counted in ``omitted_incidents``.
    ``limit`` 0 or more groups than there are: the document unchanged."""
    if limit <= 0:  # a streamed report's incidents are not read (nor built) here
        return document
    groups = _groups(document["incidents"])
    if len(groups) <= limit:
        return document
    kept: set[str] = set()
    for top in groups[:limit]:
        kept.add(top["id"])
        kept.update(top["collateral"])
    shown = [i for i in document["incidents"] if i["id"] in kept]
    left = [i for i in document["incidents"] if i["id"] not in kept]
    return {**document, "incidents": shown, "omitted_incidents": omitted_summary(left, limit)}


def omitted_summary(left: list[Document], limit: int) -> Document:
    """Counts of the incidents a capped report leaves out, by role and by exception type."""
    types = Counter(str(i["exception_type"]) for i in left)
    return {
        "count": len(left),
        "limit": limit,
        "root_causes": sum(bool(i["root_cause"]) for i in left),
        "failing": sum(bool(i.get("fails")) for i in left),
        "by_type": dict(types.most_common(TOP_TYPES)),
    }


def omitted_line(document: Document) -> Text | None:
    """``… N more incident(s) not shown (...)`` and how to see them, or None when none was left out."""
    left = document.get("omitted_incidents")
    if not left:
        return None
    types = ", ".join(f"{name} {n}" for name, n in left["by_type"].items())
    others = left["count"] - sum(left["by_type"].values())
    types += f", other {others}" if others else ""
    failing = f", {left['failing']} failing" if left["failing"] else ""
    text = (
        f"… {left['count']} more incident(s) not shown ({left['root_causes']} root cause"
        f"{failing}; {types}): the {left['limit']} most important are above; "
        "see all with --max-incidents 0 or --format json"
    )
    return Text(inert(text), style="bold yellow" if left["failing"] else "dim")


class CappedReport:
    """The terminal report of a capped document: the line counting what was left out goes
    just above the summary line, so the last line stays the verdict."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        items = list(TriageReport(self.document).__rich_console__(console, options))
        line = omitted_line(self.document)
        if line is None:
            yield from items
            return
        yield from items[:-1]  # the last is the summary line, after a blank one
        yield line
        yield Text()
        yield items[-1]


def render_plain(document: Document, width: int = 120) -> str:
    """A capped text report as a plain string (``--output``, ``--report text=FILE``)."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, force_terminal=False).print(
        CappedReport(document)
    )
    return buffer.getvalue()


def render_any(document: Document, fmt: Format) -> str:
    """``reports.render``, but a capped text report says what it left out."""
    return render_plain(document) if fmt is Format.TEXT else render(document, fmt)
