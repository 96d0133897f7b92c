"""Modal screens: search and filter prompts, the rank picker and the help listing every key."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from spectrace.tui.find import Query, compile_query
from spectrace.tui.linestyle import masked, to_text


class Tick(Checkbox, inherit_bindings=False):
    """A checkbox whose state reads without colour ([X] / [ ]), toggled by space or a click;
    Enter is left to the dialog, which submits."""

    BINDINGS = [Binding("space", "toggle_button", "Toggle", show=False)]

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802 - textual's name
        return "X" if self.value else " "


class QueryDialog(ModalScreen[Query | None]):
    """Ask for a search or filter text; Enter submits from any field, Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("enter", "submit", "Apply")]

    def __init__(self, title: str, *, with_exclude: bool, value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.with_exclude = with_exclude
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text)
            yield Input(value=self.value, placeholder="text (Enter to apply, Esc to cancel)")
            with Horizontal(classes="dialog-options"):
                yield Tick("Regex", id="regex")
                if self.with_exclude:
                    yield Tick("Filter out (hide matches)", id="exclude")
            yield Label("", id="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        text = self.query_one(Input).value
        if not text:
            self.dismiss(None)
            return
        exclude = self.with_exclude and self.query_one("#exclude", Checkbox).value
        compiled = compile_query(
            text, use_regex=self.query_one("#regex", Checkbox).value, exclude=exclude
        )
        if isinstance(compiled, str):
            self.query_one("#error", Label).update(Text(compiled, style="red"))
            return
        self.dismiss(compiled)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RankDialog(ModalScreen["str | None"]):
    """Pick one rank to show alone, or all ranks ("" means all). Each rank is listed once with
    its tagged line count (None: still counting) and its crash count; the selected crash's
    ranks come first."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        rows: Sequence[tuple[str, int | None, int]],
        *,
        first: int = 0,
        current: str | None = None,
    ) -> None:
        super().__init__()
        self.rows = list(rows)
        self.first = first
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                "Show one rank only" + (" (the selected crash's ranks first)" if self.first else "")
            )
            width = max((len(name) for name, _, _ in self.rows), default=4)
            options = [Option("all ranks", id="")]
            for n, (name, lines, crashes) in enumerate(self.rows):
                counted = "counting…" if lines is None else f"{lines:,} lines"
                crash = f"  {crashes:,} crash{'es' if crashes != 1 else ''}" if crashes else ""
                mark = "✖ " if n < self.first else "  "
                options.append(
                    Option(Text(f"{mark}{name:<{width}}  {counted:>14}{crash}"), id=name)
                )
            yield OptionList(*options)

    def on_mount(self) -> None:
        names = [""] + [name for name, _, _ in self.rows]
        pick = self.current if self.current in names else (names[1] if self.first else "")
        self.query_one(OptionList).highlighted = names.index(pick or "")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id or "")

    def action_cancel(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """Every key of the app and the log view, taken from the bindings themselves."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, bindings: Iterable[tuple[str, str]]) -> None:
        super().__init__()
        self.bindings = list(bindings)

    def compose(self) -> ComposeResult:
        table = Table(title="spectrace tui: keys", show_header=False, expand=True)
        table.add_column("key", style="bold cyan", no_wrap=True)
        table.add_column("action")
        for keys, what in self.bindings:
            table.add_row(keys, what)
        with VerticalScroll(classes="dialog help"):
            yield Static(table)
            yield Label(
                "Tab moves between the log, the crash list and the detail list; Enter jumps.\n"
                "Mouse: click a line, a crash or an evidence line; the wheel scrolls. Esc closes."
            )

    def action_close(self) -> None:
        self.dismiss(None)


FIELDS_CALL = re.compile(r"\b([A-Z]\w*|Namespace)\(")  # ServerArgs(, Namespace(, VllmConfig(


def line_parts(raw: bytes) -> tuple[str, list[str]]:
    """How the whole-line view lays a line out: a heading and its rows. A line that lost its
    newlines shows the lines triage splits back; a ``ServerArgs(...)`` dump one field a row."""
    from spectrace.assemblers.pyrepr import split_top_level
    from spectrace.dialects.flattened import split_flattened

    pieces = split_flattened(raw)
    if len(pieces) > 1:
        return f"{len(pieces)} lines pasted as one, split back as triage reads them", [
            p.decode("utf-8", "replace") for p in pieces
        ]
    text = raw.decode("utf-8", "replace")
    call = FIELDS_CALL.search(text)
    if call is not None and text.rstrip().endswith(")"):
        fields, _complete = split_top_level(text[call.end() : text.rstrip().rfind(")")])
        if len(fields) > 2:
            head = text[: call.end()].rstrip("(")
            return f"{head}: {len(fields)} fields", fields
    return "the whole line", [text]


class LineScreen(ModalScreen[None]):
    """Enter on a log row: the whole line, wrapped, its fields or lost lines one a row."""

    BINDINGS = [Binding("escape,q,enter", "close", "Close")]

    def __init__(self, where: str, raw: bytes, left_out: int, *, redact: bool = True) -> None:
        super().__init__()
        self.where = where
        self.heading, self.rows = line_parts(raw)
        if redact:
            self.rows = [masked(row) for row in self.rows]
        self.left_out = left_out

    def compose(self) -> ComposeResult:
        body = Text()
        for row in self.rows:
            body.append_text(to_text(row))
            body.append("\n")
        if self.left_out:
            body.append(f"… [+{self.left_out:,} bytes not shown]\n", "dim")
        with VerticalScroll(classes="dialog whole-line"):
            yield Label(Text.assemble((self.where, "bold cyan"), "  ", (self.heading, "bold")))
            yield Static(body)
            yield Label(Text("Esc, q or Enter closes", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
