"""Rich renderable for a capture: verdict, per-rank table, per-thread frames, skipped processes."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from spectrace.stacks.classify import ThreadView, is_own_code
from spectrace.stacks.model import Capture, StackFrame
from spectrace.stacks.verdict import RankView, StackAnalysis, compress
from spectrace.textsafe import scrub

_STATE_STYLE = {"running": "green", "waiting": "yellow", "idle": "dim"}
OWN_FRAMES = 3


def safe(text: str, limit: int = 200) -> str:
    """Process text (titles, code lines, locals) may carry escapes: show them inert."""
    cleaned = scrub(text, mark="?").replace("\n", "?")  # one line per frame
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def frame_text(frame: StackFrame) -> Text:
    where = (
        f"{os.path.basename(frame.filename)}:{frame.line}"
        if frame.line
        else os.path.basename(frame.filename)
    )
    text = Text(safe(frame.name), style="bold")
    text.append(f" ({safe(where)})", style="cyan")
    if frame.code:
        text.append("  " + safe(frame.code), style="dim")
    return text


def own_frames(view: ThreadView, limit: int = OWN_FRAMES) -> list[StackFrame]:
    """Innermost frames of the server's own code; the innermost Python frame when there is none."""
    own = [f for f in view.thread.frames if is_own_code(f)][:limit]
    return own or [f for f in view.thread.frames if not f.native][:1]


class StacksReport:
    """One capture as the CLI prints it; the TUI and triage can render the same object."""

    def __init__(self, capture: Capture, analysis: StackAnalysis, threads: bool = True) -> None:
        self.capture = capture
        self.analysis = analysis
        self.threads = threads

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        c = self.capture
        samples = max((len(p.samples) for p in c.processes), default=0)
        spacing = f" {c.interval:g}s apart" if samples > 1 else ""
        yield Text(
            f"Stacks of PID {c.root_pid} on {safe(c.host) or '?'} at {c.started}: "
            f"{_count(len(c.processes), 'process', 'es')}, {_count(samples, 'sample')}{spacing} "
            f"(py-spy {safe(c.pyspy_version)})",
            style="dim",
        )
        yield Text.assemble(
            ("Verdict: ", "bold"),
            (safe(self.analysis.verdict, 400), "bold red" if self.analysis.odd else "bold"),
        )
        yield self._table()
        yield from self._groups()
        if self.threads:
            yield from self._threads()
        yield from self._skipped()

    def _table(self) -> Table:
        table = Table(show_edge=False, pad_edge=False, expand=False)
        for name in ("rank", "pid", "state", "doing", "innermost own frame", "between samples"):
            table.add_column(name, overflow="fold")
        odd = set(self.analysis.odd)
        for r in self._shown():
            state = r.state.value
            frames = own_frames(r.view, 1)
            table.add_row(
                Text(safe(r.label), style="bold red" if r.label in odd else ""),
                Text(str(r.process.pid)),
                Text(state, style=_STATE_STYLE[state]),
                Text(f"{r.view.activity.value}: {safe(r.view.detail)}"),
                frame_text(frames[0]) if frames else Text("-"),
                _movement(r),
            )
        return table

    def _shown(self) -> tuple[RankView, ...]:
        """Ranks, then coordinators (labelled by role), then processes with neither."""
        a = self.analysis
        return a.ranks + a.coordinators + a.others

    def _groups(self) -> Iterator[Text]:
        groups = [
            g for g in self.analysis.groups if len(self.analysis.groups) > 1 or len(g.labels) > 1
        ]
        if not groups:
            return
        yield Text("Same stacks:", style="bold")
        for g in groups:
            chain = " <- ".join(g.chain[:6]) + (" <- …" if len(g.chain) > 6 else "")
            yield Text(
                f"  {safe(compress(g.labels))}: {g.activity.value} ({safe(g.detail)}): "
                f"{safe(chain, 300)}"
            )

    def _threads(self) -> Iterator[Group]:
        for r in self._shown():
            who = r.label if r.label.startswith("pid ") else f"{r.label} (pid {r.process.pid})"
            if r.process.role is not None:
                who = f"{r.label} (pid {r.process.pid}, coordinator)"
            lines: list[Text] = [Text(f"{safe(who)}: {safe(r.process.cmdline, 120)}", style="bold")]
            lines.extend(_thread_lines(r.view, True))
            for (activity, detail, where), views in _similar(
                v for v in r.threads if v is not r.view
            ):
                if len(views) == 1:
                    lines.extend(_thread_lines(views[0], False))
                else:  # a server's many pool/feeder threads: one line per kind
                    names = ", ".join(safe(v.thread.name or "?", 30) for v in views[:4])
                    more = f" +{len(views) - 4}" if len(views) > 4 else ""
                    lines.append(Text(f"    {len(views)} threads ({names}{more}): {activity} "
                                      f"({safe(detail)}) at {safe(where)}", style="dim"))  # fmt: skip
            yield Group(*lines)

    def _skipped(self) -> Iterator[Text]:
        skipped = [p for p in self.capture.processes if not p.samples]
        if skipped:
            yield Text("Not sampled:", style="bold")
        for p in skipped:
            yield Text(
                f"  pid {p.pid} ({safe(p.cmdline, 80)}): {safe(p.error or 'no samples')}",
                style="dim",
            )


def _similar(views: Iterable[ThreadView]) -> list[tuple[tuple[str, str, str], list[ThreadView]]]:
    """Non-telling threads grouped by what they do and where, in first-seen order."""
    groups: dict[tuple[str, str, str], list[ThreadView]] = {}
    for view in views:
        first = own_frames(view, 1)
        where = (
            f"{first[0].name} ({os.path.basename(first[0].filename)}:{first[0].line})"
            if first
            else "?"
        )
        groups.setdefault((view.activity.value, view.detail, where), []).append(view)
    return list(groups.items())


def _movement(rank: RankView) -> Text:
    """Whether the stack moved; a process that vanished mid-capture says so."""
    text = Text(
        "changed" if rank.view.changed else "same stack",
        style="green" if rank.view.changed else "dim",
    )
    if rank.process.error:
        text.append(f"; then {safe(rank.process.error, 80)}", style="yellow")
    return text


def _count(n: int, word: str, plural: str = "s") -> str:
    return f"{n} {word}{'' if n == 1 else plural}"


def _thread_lines(view: ThreadView, telling: bool) -> list[Text]:
    t = view.thread
    head = Text(
        f"  {'*' if telling else ' '} thread {safe(t.name or str(t.os_thread_id or t.thread_id))}: "
    )
    head.append(f"{view.activity.value} ({safe(view.detail)})")
    head.append(", on CPU" if t.active else "", style="green")
    head.append(", holds the GIL" if t.owns_gil else "")
    lines = [head]
    for frame in own_frames(view) if telling else own_frames(view, 1):
        lines.append(Text("      ").append_text(frame_text(frame)))
        for name, value in frame.locals[:8]:
            lines.append(Text(f"        {safe(name, 40)} = {safe(value, 100)}", style="dim"))
    if view.changes:
        lines.append(
            Text(
                f"      moved between samples: {safe('; '.join(view.changes), 300)}", style="green"
            )
        )
    return lines
