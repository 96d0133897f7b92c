"""The detail panel: traceback, decoded shape mismatch, worker path, flags, collateral.

Every evidence line, flag and frame-bearing record is an option; selecting it asks the app to
jump the log view there.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spectrace.assemblers.config import Evidence
from spectrace.assemblers.crash import ChainLink, Crash, Frame
from spectrace.incidents import Incident
from spectrace.pipeline import Finding
from spectrace.tui.messages import JumpTo
from spectrace.tui.widgets.incident_list import Item

SERVER_PACKAGES = ("sglang", "vllm", "tensorrt_llm", "spectrace_engine", "engine/")
LIBRARY_MARKERS = ("site-packages/torch", "/torch/", "/lib/python", "<frozen")
_CODE = Syntax("", "python", theme="monokai")


def is_server_frame(frame: Frame) -> bool:
    """The server's own code (where a fix goes), as opposed to torch or the standard library."""
    path = frame.file.replace("\\", "/")
    return any(p in path for p in SERVER_PACKAGES) and not any(m in path for m in LIBRARY_MARKERS)


def frame_text(frame: Frame) -> Text:
    own = is_server_frame(frame)
    mark = ("▶ ", "bold green") if own else ("  ", "")
    where = Text.assemble(mark, (f'File "{frame.file}", line {frame.line}, in ', "" if own else "dim"),
                          (frame.function, "bold" if own else "dim"))
    if frame.code:
        code = _CODE.highlight(frame.code.strip())
        code.rstrip()
        if not own:
            code.stylize("dim")
        where.append("\n      ")
        where.append_text(code)
    return where


def traceback_text(chain: Iterable[ChainLink], frames: tuple[Frame, ...], exc: str, msg: str) -> Text:
    """The traceback as printed, server frames marked, each chained exception in order."""
    links = list(chain) or [ChainLink(exc, msg, frames)]
    out = Text()
    for link in links:
        out.append("Traceback (most recent call last):\n", "bold")
        for frame in link.frames:
            out.append_text(frame_text(frame))
            out.append("\n")
        out.append(f"{link.exception_type}: ", "bold red")
        out.append(f"{link.message}\n")
        if link.relation == "cause":
            out.append("\nThe above exception was the direct cause of the following exception:\n\n", "italic")
        elif link.relation == "context":
            out.append("\nDuring handling of the above exception, another exception occurred:\n\n", "italic")
    return out


def summary(item: Incident | Crash) -> Text:
    """Header: exception, ranks, time, and the decoded shape arithmetic when there is one."""
    out = Text.assemble((item.exception_type, "bold red"), ": ", item.message, "\n")
    if isinstance(item, Incident):
        ranks = ", ".join(item.ranks) or "?"
        out.append(f"origin {item.origin_rank or '?'} · ranks {ranks} · {item.first_seen.ts_text or ''}\n", "cyan")
        if not item.root_cause and item.caused_by:
            out.append(f"collateral of {item.caused_by}\n", "yellow")
        if item.explanation is not None:
            out.append("\nShape mismatch: ", "bold")
            out.append(item.explanation.summary + "\n")
            for number, why in item.explanation.terms.items():
                out.append(f"  {number} = {why}\n", "bold magenta")
        elif item.shape_mismatch is not None:
            out.append(f"\nShape mismatch: {item.shape_mismatch.text}\n", "bold")
        for hint in item.hints:
            out.append(f"hint: {hint}\n", "green")
    else:
        out.append(f"rank {item.rank or '?'} · {item.ts_text or ''} · still scanning…\n", "cyan")
    return out


def _evidence_option(ev: Evidence, n: int) -> Option:
    arrow = f" → {ev.points_to}" if ev.points_to else ""
    prompt = Text.assemble((f"{ev.reason}{arrow}\n", "yellow"), (f"  {ev.source}:{ev.lineno}  ", "dim"),
                           Text(ev.text[:300]))
    return Option(prompt, id=str(n))


class IncidentDetail(VerticalScroll):
    """Shows one item; its option list holds every line the user can jump to."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.jumps: list[tuple[str, int]] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("No crash selected. Press e for the next crash.", style="dim"), id="summary")
        evidence = OptionList(id="evidence")
        evidence.display = False
        yield evidence
        yield Static("", id="traceback")

    def show(self, item: Item | None, collateral: list[Incident] | None = None) -> None:
        options: list[Option] = []
        self.jumps = []
        head, body = Text("No crash selected.", style="dim"), Text()
        if isinstance(item, Finding):
            head = Text.assemble(("⚠ " + item.kind.replace("_", " ") + "\n", "bold yellow"), item.message,
                                 "\n", (item.detail or "", "dim"))
            options = self._evidence(item.evidence, options)
        elif item is not None:
            head = summary(item)
            body = traceback_text(item.chain, item.frames, item.exception_type, item.message)
            options = self._locations(item, options)
            if isinstance(item, Incident):
                options = self._linked(item, collateral or [], options)
        self.query_one("#summary", Static).update(head)
        self.query_one("#traceback", Static).update(Group(body))
        evidence = self.query_one("#evidence", OptionList)
        evidence.clear_options()
        evidence.add_options(options)
        evidence.display = bool(options)

    def _jump(self, source: str, lineno: int) -> int:
        self.jumps.append((source, lineno))
        return len(self.jumps) - 1

    def _evidence(self, evidence: Iterable[Evidence], options: list[Option]) -> list[Option]:
        for ev in evidence:
            options.append(_evidence_option(ev, self._jump(ev.source, ev.lineno)))
        return options

    def _locations(self, item: Incident | Crash, options: list[Option]) -> list[Option]:
        source, lineno = (item.first_seen.source, item.first_seen.lineno) if isinstance(item, Incident) \
            else (item.source, item.lineno)
        n = self._jump(source, lineno)
        options.append(Option(Text.assemble(("first line  ", "bold"), (f"{source}:{lineno}", "dim")), id=str(n)))
        return options

    def _linked(self, inc: Incident, collateral: list[Incident], options: list[Option]) -> list[Option]:
        path = inc.worker_path
        if path is not None:
            options.append(Option(Text.assemble(("worker path: ", "bold"), (path.value, "bold green"),
                                                f"  {path.worker_class or ''}",
                                                (f"\n  {path.conflict}" if path.conflict else "", "red")),
                                  disabled=True))
            options = self._evidence(path.evidence, options)
        for name, flag in inc.flags.items():
            n = self._jump(flag.source, flag.lineno)
            options.append(Option(Text.assemble(("flag ", "dim"), (f"{name}={flag.value!r}", "bold"),
                                                (f"  ({flag.origin}, {flag.source}:{flag.lineno})", "dim")),
                                  id=str(n)))
        for child in collateral:
            n = self._jump(child.first_seen.source, child.first_seen.lineno)
            options.append(Option(Text.assemble(("collateral ", "yellow"), (child.id, "bold"),
                                                f" {child.exception_type} on {', '.join(child.ranks)}"),
                                  id=str(n)))
        return options

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            source, lineno = self.jumps[int(event.option.id)]
            self.post_message(JumpTo(source, lineno))
