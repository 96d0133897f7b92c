"""Report document -> rich renderables for the terminal (plain text when not a terminal)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.padding import Padding
from rich.text import Text

from spectrace.reports import by_importance, headline
from spectrace.reports.words import (
    MAX_EVIDENCE,
    Document,
    Names,
    clip,
    display_names,
    flags_by_line,
    load_text,
    path_label,
    rank_head,
    rank_list,
    seen_text,
    short_path,
    where,
)
from spectrace.textsafe import inert, one_line
from spectrace.worker_path import missing_label

INNERMOST_FRAMES = 5


def _t(text: object, style: str = "") -> Text:
    """Untrusted text as a rich Text: never parsed as markup, controls escaped."""
    return Text(inert(text), style=style)


def _line(label: str, *parts: Text | str, indent: int = 4) -> Text:
    out = Text(" " * indent)
    out.append(inert(f"{label}: "), style="bold")
    for part in parts:
        out.append(part if isinstance(part, Text) else _t(part))
    return out


def _title(label: str) -> Text:
    """A section label whose items follow on their own lines (no trailing space)."""
    return Text(f"    {label}:", style="bold")


def _ranks(incident: Document, names: Names) -> Text:
    text = _t(rank_head(incident), "bold magenta")
    return text.append(_t(f", {seen_text(incident, where(incident['first_seen'], names))}"))


_FRAME_FILE = re.compile(r'File "([^"]+)"')


def _quote(text: object) -> str:
    """A quoted log line on one line, a traceback frame's file from its package down."""
    return _FRAME_FILE.sub(lambda m: f'File "{short_path(m.group(1))}"', one_line(text)).strip()


def evidence_lines(
    evidence: list[Document], names: Names, indent: int, fit: bool = True
) -> Iterable[Text]:
    """What each piece of evidence proves, deciding ones first, one entry per distinct reason:
    the reason (our words) wraps, the quoted log line is cut to the terminal width when ``fit``."""
    ranked = sorted(evidence, key=lambda e: e.get("points_to") is None)
    groups: dict[str, list[Document]] = {}
    for ev in ranked:
        groups.setdefault(str(ev.get("reason", "")), []).append(ev)
    pad = " " * indent
    for reason, same in list(groups.items())[:MAX_EVIDENCE]:
        more = f" (+{len(same) - 1} more)" if len(same) > 1 else ""
        yield _t(f"{pad}{where(same[0], names)}{more}: ", "bold").append(_t(reason))
        quote = _t(f"{pad}  | {clip(_quote(same[0].get('text', '')))}", "dim")
        if fit:
            quote.no_wrap, quote.overflow = True, "ellipsis"
        yield quote
    if len(groups) > MAX_EVIDENCE:
        yield _t(
            f"{pad}… {len(groups) - MAX_EVIDENCE} more piece(s) of evidence in the JSON report",
            "dim",
        )


def _basis(grouped_by: Document | None) -> str:
    """What grouped the crashes, in one line: type | masked message | innermost frames."""
    if not grouped_by:
        return ""
    frames = " < ".join(reversed(grouped_by["frames"]))
    return f"  ({grouped_by['exception_type']} | {clip(grouped_by['message'], 80)} | {frames})"


def _worker_path(path: Document | None, names: Names, fit: bool) -> Iterable[Text]:
    if not path:
        return
    yield _line("worker path", _t(path_label(path), "bold cyan"))
    yield from evidence_lines(path.get("evidence") or [], names, 6, fit)
    if path.get("conflict"):
        yield _line("conflict", _t(path["conflict"], "yellow"), indent=6)
    for need in path.get("missing") or ():
        yield _line(*missing_label(need), indent=6)
    if path.get("trace"):
        yield _line("why", _t("what each path reader found (--explain-path)", "dim"), indent=6)
    for step in path.get("trace") or ():
        yield _trace_line(step, names)


def _trace_line(step: Document, names: Names) -> Text:
    """``family word NEXTN (17.txt:14) set apart: a question or a suggestion``."""
    at = f" ({where(step, names)})" if step.get("line") else ""
    mark = ("" if step["kept"] else "set apart: ") if step["reader"] == "family word" else ""
    head = _t(f"        {step['reader']}: ", "bold").append(_t(f"{step['found']}{at} "))
    return head.append(_t(f"{mark}{step['why']}", "" if step["kept"] else "yellow"))


def _flags(flags: Document, names: Names) -> Iterable[Text]:
    if flags:
        yield _title("flags")
    for at, values in flags_by_line(flags, names):
        yield _t(f"      {at}: ", "dim").append(_t(values))


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


def _load(load: Document | None, names: Names) -> Iterable[Text]:
    if not load:
        return
    yield _line("load before", f"{load_text(load)} ({where(load, names)})")


def _frames(frames: list[Document]) -> Iterable[Text]:
    if frames:
        yield _title("innermost frames")
    for f in frames[-INNERMOST_FRAMES:][::-1]:
        yield _t(f"      {short_path(f['file'])}:{f.get('line') or '?'} in {f['function']}", "dim")


def _role(incident: Document) -> str:
    said = f"named in a {incident['mentioned']} only" if incident.get("mentioned") else ""
    if incident["root_cause"]:
        return f"root cause, {said}" if said else "root cause"
    if said:
        return said
    return "collateral" if incident.get("caused_by") else "warning"


def _collateral(c: Document, names: Names) -> Text:
    ranks = rank_list(c["ranks"]) or "no rank"
    text = f"{c['id']} {clip(headline(c), 160)} ({ranks}; first at {where(c['first_seen'], names)})"
    return _line("collateral", text)


class IncidentView:
    """One incident, the answer first (ranks, worker path, flags, shape, hints), then the
    details (collateral, frames, signature); collateral incidents are listed under their root."""

    def __init__(
        self,
        incident: Document,
        collateral: list[Document] | None = None,
        names: Names | None = None,
        fit: bool = True,
    ) -> None:
        self.incident = incident
        self.collateral = collateral or []
        self.names = names or {}
        self.fit = fit

    def _heading(self) -> Text:
        i = self.incident
        tags = ["known" if i.get("known") else _role(i)]
        tags = list(
            dict.fromkeys(tags + [t for t in (i.get("severity"), i.get("crash_class")) if t])
        )
        head = Text(f"{i['id']} ", style="bold")
        head.append(_t(clip(headline(i), 300), "bold red" if i.get("fails") else "bold"))
        head.append(_t(f"  [{', '.join(tags)}]", "dim"))
        return head

    def lines(self) -> Iterable[Text]:
        i, names = self.incident, self.names
        yield self._heading()
        yield Text("    ").append(_ranks(i, names))
        yield from _worker_path(i.get("worker_path"), names, self.fit)
        yield from _flags(i.get("flags") or {}, names)
        yield from _shape(i.get("shape_mismatch"))
        yield from _load(i.get("load"), names)
        for hint in i.get("hints") or []:
            yield _line("hint", _t(hint, "green"))
        for c in self.collateral:
            yield _collateral(c, names)
        yield from _frames(i.get("frames") or [])
        if i.get("frames_reconstructed"):
            yield _t("      (frames reconstructed: ranks printed this at once, interleaved)", "dim")
        yield _line("signature", i["signature"], _t(_basis(i.get("grouped_by")), "dim"))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self.lines()
        yield Group(*(hanging(line) for line in lines) if self.fit else lines)


def hanging(line: Text) -> Padding | Text:
    """An indented line whose wrapped rest keeps the indent, so the outline stays readable."""
    indent = len(line.plain) - len(line.plain.lstrip(" "))
    if not indent:
        return line
    rest = line[indent:]
    rest.no_wrap, rest.overflow = line.no_wrap, line.overflow
    return Padding(rest, (0, 0, 0, indent), expand=False)


def _mentioned(summary: Document) -> str:
    n = summary.get("mentioned") or 0
    return f"{n} named in prose only, " if n else ""


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
        f"{_mentioned(s)}{s['known']} known; {s['findings']} finding(s)) exit {s['exit_code']}"
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
        names = display_names(f["path"] for f in doc["files"])
        fit = not options.no_wrap  # a pipe (soft wrap) keeps whole lines for grep
        by_id = {i["id"]: i for i in doc["incidents"]}
        for incident in by_importance(doc["incidents"]):
            if incident["caused_by"] is None or incident["caused_by"] not in by_id:
                yield Text()
                collateral = [by_id[c] for c in incident["collateral"] if c in by_id]
                yield IncidentView(incident, collateral, names, fit)
        for finding in doc["findings"]:
            yield Text()
            style = "bold red" if finding.get("fails") else "bold yellow"
            yield _t(f"finding ({finding['kind']}): {finding['message']}", style)
            for line in (finding.get("detail") or "").splitlines():
                yield _t(f"    {line}")  # every line of a multi-line detail under its finding
            yield from evidence_lines(finding.get("evidence") or [], names, 4, fit)
        yield Text()
        yield summary_line(doc)


def render_plain(document: Document, width: int = 120) -> str:
    """The text report as a plain string (for ``--output`` files): no colour codes."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, force_terminal=False).print(
        TriageReport(document)
    )
    return "".join(line.rstrip(" ") + "\n" for line in buffer.getvalue().splitlines())
