"""Report document -> rich renderables for the terminal (plain text when not a terminal)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text

from spectrace.textsafe import inert, one_line

Document = dict[str, Any]
INNERMOST_FRAMES = 5


def clip(text: object, limit: int = 200) -> str:
    """One evidence line as people scan it: long dumps cut with an ellipsis."""
    value = str(text)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _t(text: object, style: str = "") -> Text:
    """Untrusted text as a rich Text: never parsed as markup, controls escaped."""
    return Text(inert(text), style=style)


def where(loc: Document | None) -> str:
    if not loc:
        return "?"
    return one_line(f"{loc.get('file')}:{loc.get('line')}")


def short_path(path: str) -> str:
    """A frame's file from its package down (``sglang/srt/...``), as people read it."""
    for marker in ("site-packages/", "dist-packages/"):
        if marker in path:
            return path.rsplit(marker, 1)[1]
    return path


def _line(label: str, *parts: Text | str, indent: int = 4) -> Text:
    out = Text(" " * indent)
    out.append(inert(f"{label}: "), style="bold")
    for part in parts:
        out.append(part if isinstance(part, Text) else _t(part))
    return out


def _ranks(incident: Document) -> Text:
    ranks = incident.get("ranks") or []
    origin = incident.get("origin_rank")
    text = _t(f"origin {origin}" if origin else "no rank", "bold magenta")
    others = [r for r in ranks if r != origin]
    if others:
        text.append(_t(f" (also {', '.join(others)})"))
    first = incident["first_seen"]
    when = first.get("time_text") or first.get("time") or "no timestamp"
    text.append(_t(f", first seen {when} at {where(first)}"))
    count = incident.get("occurrence_count") or len(incident.get("occurrences") or [])
    text.append(_t(f", {count} occurrence(s)"))  # occurrences lists the first 100
    return text


def _evidence(ev: Document, indent: int) -> Text:
    """``file:line: text  <- why it matters``, the text clipped."""
    text = _t(clip(ev.get("text", "")), "dim")
    return _line(where(ev), text, _t(f"  <- {ev.get('reason', '')}"), indent=indent)


def _basis(grouped_by: Document | None) -> str:
    """What grouped the crashes, in one line: type | masked message | innermost frames."""
    if not grouped_by:
        return ""
    frames = " < ".join(reversed(grouped_by["frames"]))
    return f"  ({grouped_by['exception_type']} | {clip(grouped_by['message'], 80)} | {frames})"


def _worker_path(path: Document | None) -> Iterable[Text]:
    if not path:
        return
    label = path["value"] + (f" ({path['worker_class']})" if path.get("worker_class") else "")
    yield _line("worker path", _t(label, "bold cyan"))
    for ev in path.get("evidence") or []:
        yield _evidence(ev, indent=6)
    if path.get("conflict"):
        yield _line("conflict", _t(path["conflict"], "yellow"), indent=6)


def _flags(flags: Document) -> Iterable[Text]:
    if flags:
        yield _line("flags", "")
    for name, f in flags.items():
        yield _t(f"      {name}={f['value']!r}  ").append(_t(where(f), "dim"))


def _shape(shape: Document | None) -> Iterable[Text]:
    if not shape:
        return
    numbers = ", ".join(f"{k}={v}" for k, v in shape.get("numbers", {}).items())
    yield _line("shape mismatch", numbers)
    ex = shape.get("explanation")
    if ex:
        yield _line(
            "explained" if ex.get("explained") else "unexplained", ex.get("summary", ""), indent=6
        )
        for number, term in (ex.get("terms") or {}).items():
            if term not in ex.get("summary", ""):
                yield _t(f"      {number} = {term}")
        yield from _unsettled(ex)


def _unsettled(ex: Document) -> Iterable[Text]:
    """What the facts leave open: numbers nothing gives, and readings offered as possibilities."""
    if ex.get("unexplained"):
        numbers = ", ".join(str(n) for n in ex["unexplained"])
        yield _line("unexplained numbers", _t(numbers, "yellow"), indent=6)
    for reading in ex.get("readings") or []:
        yield _line("possible reading", _t(reading, "italic"), indent=6)


def _load(load: Document | None) -> Iterable[Text]:
    if not load:
        return
    names = ("running_req", "queue_req", "accept_len", "gen_throughput", "cuda_graph")
    parts = ", ".join(f"{n}={load[n]}" for n in names if load.get(n) is not None)
    yield _line("load before", f"{parts} ({where(load)})")


def _frames(frames: list[Document]) -> Iterable[Text]:
    if frames:
        yield _line("innermost frames", "")
    for f in frames[-INNERMOST_FRAMES:][::-1]:
        yield _t(f"      {short_path(f['file'])}:{f.get('line') or '?'} in {f['function']}", "dim")


def _role(incident: Document) -> str:
    if incident["root_cause"]:
        return "root cause"
    return "collateral" if incident.get("caused_by") else "warning"


class IncidentView:
    """One incident with its evidence; collateral incidents are listed under their root."""

    def __init__(self, incident: Document, collateral: list[Document] | None = None) -> None:
        self.incident = incident
        self.collateral = collateral or []

    def _heading(self) -> Text:
        i = self.incident
        tags = ["known" if i.get("known") else _role(i)]
        tags = list(dict.fromkeys(tags + [t for t in (i.get("severity"), i.get("crash_class")) if t]))
        head = Text(f"{i['id']} ", style="bold")
        head.append(
            _t(f"{i['exception_type']}: {i['message']}", "bold red" if i.get("fails") else "bold")
        )
        head.append(_t(f"  [{', '.join(tags)}]", "dim"))
        return head

    def lines(self) -> Iterable[Text]:
        i = self.incident
        yield self._heading()
        yield Text("    ").append(_ranks(i))
        yield _line("signature", i["signature"], _t(_basis(i.get("grouped_by")), "dim"))
        yield from _worker_path(i.get("worker_path"))
        yield from _flags(i.get("flags") or {})
        yield from _shape(i.get("shape_mismatch"))
        yield from _load(i.get("load"))
        for hint in i.get("hints") or []:
            yield _line("hint", _t(hint, "green"))
        yield from _frames(i.get("frames") or [])
        for c in self.collateral:
            text = f"{c['id']} {c['exception_type']}: {c['message']} on {', '.join(c['ranks']) or 'no rank'}"
            yield _line("collateral", f"{text} (first at {where(c['first_seen'])})")

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Group(*self.lines())


def summary_line(document: Document) -> Text:
    """The last line of every run: what failed and the exit code."""
    s = document["summary"]
    text = Text("spectrace: ", style="bold")
    if s["reasons"]:
        text.append(_t("FAIL: " + "; ".join(s["reasons"]), "bold red"))
    else:
        text.append("OK: no new root-cause incident", style="bold green")
    text.append(
        f" ({s['incidents']} incident(s): {s['root_causes']} root cause, {s['collateral']} collateral, "
        f"{s['known']} known; {s['findings']} finding(s)) exit {s['exit_code']}"
    )
    return text


class TriageReport:
    """The whole terminal report: inputs, incidents (roots with their collateral), findings."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        doc = self.document
        for f in doc["files"]:
            dialects = ", ".join(f"{k} {v}" for k, v in f["dialects"].items()) or "no dialect"
            yield _t(
                f"{one_line(f['path'])}: {f['lines']} lines, {f['bytes']} bytes ({dialects})", "dim"
            )
        by_id = {i["id"]: i for i in doc["incidents"]}
        for incident in doc["incidents"]:
            if incident["caused_by"] is None or incident["caused_by"] not in by_id:
                yield Text()
                yield IncidentView(
                    incident, [by_id[c] for c in incident["collateral"] if c in by_id]
                )
        for finding in doc["findings"]:
            yield Text()
            style = "bold red" if finding.get("fails") else "bold yellow"
            yield _t(f"finding ({finding['kind']}): {finding['message']}", style)
            for line in (finding.get("detail") or "").splitlines():
                yield _t(f"    {line}")  # every line of a multi-line detail under its finding
            for ev in finding.get("evidence") or []:
                yield _evidence(ev, indent=4)
        yield Text()
        yield summary_line(doc)


def render_plain(document: Document, width: int = 120) -> str:
    """The text report as a plain string (for ``--output`` files): no colour codes."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, force_terminal=False).print(
        TriageReport(document)
    )
    return buffer.getvalue()
