"""The detail panel: traceback, decoded shape mismatch, worker path, flags, collateral.

Every evidence line, flag and frame-bearing record is an option; selecting it asks the app to
jump the log view there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spectrace.tui.linestyle import masked, one_row
from spectrace.tui.messages import JumpTo
from spectrace.tui.readout import path_lines
from spectrace.tui.widgets.incident_list import WrappedOptionList, clip, provisional

if TYPE_CHECKING:
    from spectrace.assemblers.crash import ChainLink, Crash, Frame
    from spectrace.assemblers.run_config import Evidence
    from spectrace.explain import Explanation
    from spectrace.incidents import Incident
    from spectrace.tui.widgets.incident_list import Item

# The core's records are imported where used: the first frame does not wait for the
# pipeline's import (~50 ms of CPU); the scan has loaded them by the time a crash shows.

ORIGINS = {  # where a flag was read, in a word a user knows
    "server_args": "dump",
    "vllm_config": "config",
    "vllm_args": "args",
    "trtllm_config": "config",
    "launch_command": "cmdline",
    "capture_log": "capture",
}
SERVER_PACKAGES = ("sglang", "vllm", "tensorrt_llm", "spectrace_engine", "engine/")
LIBRARY_MARKERS = ("site-packages/torch", "/torch/", "/lib/python", "<frozen")
EVIDENCE_MAX = 160
MARK_MAX = 60  # an evidence line's first words are what a jump highlights
# Install prefixes cut from frame paths: the package path a reader knows is what is left.
PACKAGE_ROOT = re.compile(
    r"^.*?[/\\](?:site|dist)-packages[/\\]"
    r"|^/sgl-workspace/sglang/python/|^/vllm-workspace/|^/app/"
)


def is_server_frame(frame: Frame) -> bool:
    """The server's own code (where a fix goes), as opposed to torch or the standard library."""
    path = frame.file.replace("\\", "/")
    return any(p in path for p in SERVER_PACKAGES) and not any(m in path for m in LIBRARY_MARKERS)


def short_path(path: str) -> str:
    """ "…/torch/nn/modules/module.py": the package path a reader knows, not the 40 cells of
    install prefix that made every frame of a narrow panel wrap (the log view has it whole)."""
    short = PACKAGE_ROOT.sub("…/", path, count=1)
    return short if len(short) < len(path) else path


def unescaped(message: str) -> str:
    """A message whose newlines arrived escaped (TensorRT-LLM prints ``\\n`` inside one line),
    with its line breaks back."""
    return message.replace("\\n", "\n").rstrip() if "\\n" in message else message


def _highlight(code: str) -> Text:
    from rich.syntax import Syntax  # pygments costs ~30 ms of start-up; only a traceback needs it

    return Syntax(code, "python", theme="monokai").highlight(code)


def frame_text(frame: Frame) -> Text:
    own = is_server_frame(frame)
    mark = ("▶ ", "bold green") if own else ("  ", "")
    where = Text.assemble(
        mark,
        (f'File "{short_path(frame.file)}", line {frame.line}, in ', "" if own else "dim"),
        (frame.function, "bold" if own else "dim"),
    )
    if frame.code:
        code = _highlight(frame.code.strip())
        code.rstrip()
        if not own:
            code.stylize("dim")
        where.append("\n      ")
        where.append_text(code)
    return where


def traceback_text(
    chain: Iterable[ChainLink], frames: tuple[Frame, ...], exc: str, msg: str
) -> Text:
    """The traceback as printed, server frames marked, each chained exception in order."""
    from spectrace.assemblers.crash import ChainLink

    links = list(chain) or [ChainLink(exc, msg, frames)]
    out = Text()
    for link in links:
        if link.frames:  # a C++ abort or an NCCL timeout has no Python frames to head
            out.append("Traceback (most recent call last):\n", "bold")
        for frame in link.frames:
            out.append_text(frame_text(frame))
            out.append("\n")
        out.append(f"{link.exception_type}: ", "bold red")
        out.append(f"{masked(unescaped(link.message))}\n")
        if link.relation == "cause":
            out.append(
                "\nThe above exception was the direct cause of the following exception:\n\n",
                "italic",
            )
        elif link.relation == "context":
            out.append(
                "\nDuring handling of the above exception, another exception occurred:\n\n",
                "italic",
            )
    return out


def summary(item: Incident | Crash) -> Text:
    """What a user reads first: the exception, where and when, the path, the decoded numbers."""
    out = Text.assemble(
        (item.exception_type, "bold red"), ": ", masked(unescaped(item.message)), "\n"
    )
    if provisional(item):
        where = [f"rank {item.rank}" if item.rank else "", item.ts_text or "", "still scanning…"]
        out.append(" · ".join(w for w in where if w) + "\n", "cyan")
        return out
    where = [
        f"origin {item.origin_rank}" if item.origin_rank else "origin rank unknown",
        f"ranks {', '.join(item.ranks)}" if item.ranks else "",
        f"{len(item.occurrences):,} times" if len(item.occurrences) > 1 else "",
        item.first_seen.ts_text or "",
    ]
    out.append(" · ".join(w for w in where if w) + "\n", "cyan")
    if not item.root_cause and item.caused_by:
        out.append(f"collateral of {item.caused_by}\n", "yellow")
    missing = getattr(item, "missing_ranks", ())
    if missing:  # the rank(s) the others waited for in the same collective
        out.append(f"never reached the collective: {', '.join(missing)}\n", "bold yellow")
    if getattr(item, "frames_reconstructed", False):
        out.append("frames reconstructed from interleaved lines\n", "dim")
    path = item.worker_path
    if path is not None:
        out.append_text(path_lines(path))
        if path.conflict:
            out.append(f"conflict: {path.conflict}\n", "bold red")
    if item.explanation is not None:
        for number, why in item.explanation.terms.items():
            out.append(f"{number} = {why}\n", "bold magenta")
    elif item.shape_mismatch is not None:
        out.append(f"shape mismatch: {item.shape_mismatch.text}\n", "bold")
    return out


def explanation_text(ex: Explanation) -> Text:
    """The explanation's summary, then what the facts leave open: numbers and readings."""
    out = Text(ex.summary + "\n", "magenta")
    if ex.unexplained:
        out.append(f"unexplained numbers: {', '.join(map(str, ex.unexplained))}\n", "yellow")
    for reading in ex.readings:
        out.append_text(Text.assemble(("possible reading: ", "bold"), (reading, "italic"), "\n"))
    return out


def details(item: Incident | Crash) -> Text:
    """The longer reading: the full explanation, hints, then the traceback."""
    out = Text()
    if not provisional(item):
        if item.explanation is not None:
            out.append_text(explanation_text(item.explanation))
        for hint in item.hints:
            out.append(f"hint: {hint}\n", "green")
        if out:
            out.append("\n")
    out.append_text(traceback_text(item.chain, item.frames, item.exception_type, item.message))
    return out


def _where(source: str, lineno: int) -> str:
    return one_row(f"{Path(source).name}:{lineno}")  # a file name may hold escapes


def _evidence_option(ev: Evidence, n: int) -> Option:
    arrow = (f"→ {ev.points_to} ", "bold green") if ev.points_to else ("· ", "dim")
    prompt = Text.assemble(
        arrow,
        (_where(ev.source, ev.lineno), "cyan"),
        "  ",
        (clip(masked(ev.reason), EVIDENCE_MAX), "yellow"),
        "\n    ",
        (clip(masked(ev.text), EVIDENCE_MAX), "dim"),
    )
    return Option(prompt, id=str(n))


def _frames_last(evidence: Iterable[Evidence]) -> list[Evidence]:
    """Dump and warning lines first: they say why the path was taken; frames only confirm it."""
    return sorted(evidence, key=lambda ev: ev.text.lstrip().startswith("File "))


class IncidentDetail(VerticalScroll):
    """Shows one item; its option list holds every line the user can jump to."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.jumps: list[tuple[str, int, str | None]] = []  # source, line, text to mark there
        # Held, not queried: a crash can be selected before this panel has mounted its children.
        self.summary = Static(Text("No crash selected. Press e for the next crash.", style="dim"),
                              id="summary")  # fmt: skip
        self.evidence = WrappedOptionList(id="evidence")
        self.evidence.display = False
        self.traceback = Static("", id="traceback")

    def compose(self) -> ComposeResult:
        yield self.summary
        yield self.evidence
        yield self.traceback

    def show(
        self,
        item: Item | None,
        collateral: list[Incident] | None = None,
        empty: str | Text = "No crash selected.",
    ) -> None:
        options: list[Option] = []
        self.jumps = []
        head, body = (Text(empty, style="dim") if isinstance(empty, str) else empty), Text()
        if item is not None:
            head, body, options = self._item(item, collateral or [])
        self.summary.update(head)
        self.traceback.update(body)
        self.evidence.clear_options()
        self.evidence.add_options(options)
        self.evidence.display = bool(options)

    def _item(self, item: Item, collateral: list[Incident]) -> tuple[Text, Text, list[Option]]:
        """Summary, body and jump options of a crash (asked first: see ``provisional``), a
        finding or an incident."""
        if provisional(item):
            return summary(item), details(item), self._locations(item, [])
        from spectrace.pipeline import Finding

        if isinstance(item, Finding):
            head = Text.assemble(
                ("⚠ " + item.kind.replace("_", " ") + "\n", "bold yellow"),
                masked(item.message),
                "\n",
                (masked(item.detail or ""), "dim"),
            )
            return head, Text(), self._evidence(item.evidence, [])
        options = self._linked(item, collateral, self._locations(item, []))
        return summary(item), details(item), options

    def _jump(self, source: str, lineno: int, mark: str | None = None) -> int:
        self.jumps.append((source, lineno, mark))
        return len(self.jumps) - 1

    def _evidence(self, evidence: Iterable[Evidence], options: list[Option]) -> list[Option]:
        for ev in evidence:
            mark = ev.text.strip()[:MARK_MAX] or None
            options.append(_evidence_option(ev, self._jump(ev.source, ev.lineno, mark)))
        return options

    def _locations(self, item: Incident | Crash, options: list[Option]) -> list[Option]:
        source, lineno = (
            (item.source, item.lineno)
            if provisional(item)
            else (item.first_seen.source, item.first_seen.lineno)
        )
        n = self._jump(source, lineno)
        options.append(
            Option(
                Text.assemble(("first line  ", "bold"), (_where(source, lineno), "cyan")), id=str(n)
            )
        )
        return options

    def _linked(
        self, inc: Incident, collateral: list[Incident], options: list[Option]
    ) -> list[Option]:
        for name, flag in inc.flags.items():
            n = self._jump(flag.source, flag.lineno, name)
            options.append(
                Option(
                    Text.assemble(
                        # the origin first: a narrow panel wraps the location whole, never
                        # "server.log:4" on one row and "dump" alone on the next
                        (f"{ORIGINS.get(flag.origin, flag.origin)} flag ", "dim"),
                        (masked(f"{name}={flag.value!r}"), "bold"),
                        (f"  {_where(flag.source, flag.lineno)}", "cyan"),
                    ),
                    id=str(n),
                )
            )
        if inc.worker_path is not None:
            options = self._evidence(_frames_last(inc.worker_path.evidence), options)
        for child in collateral:
            n = self._jump(child.first_seen.source, child.first_seen.lineno)
            options.append(
                Option(
                    Text.assemble(
                        ("collateral ", "yellow"),
                        (child.id, "bold"),
                        f" {child.exception_type} on {', '.join(child.ranks) or '?'}",
                    ),
                    id=str(n),
                )
            )
        return options

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(JumpTo(*self.jumps[int(event.option.id)]))
