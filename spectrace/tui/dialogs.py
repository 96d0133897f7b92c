"""Modal screens: search and filter prompts, the rank picker and the help listing every key."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option


@dataclass(frozen=True, slots=True)
class Query:
    """What the user typed, compiled: a literal is escaped, a regex checked."""

    pattern: re.Pattern[str]
    text: str
    exclude: bool = False


def compile_query(text: str, *, regex: bool) -> re.Pattern[str] | str:
    """The compiled pattern, or the reason it is not a valid regex."""
    try:
        return re.compile(text if regex else re.escape(text), 0 if regex else re.IGNORECASE)
    except re.error as exc:
        return f"bad regex: {exc}"


class QueryDialog(ModalScreen["Query | None"]):
    """Ask for a search or filter text; Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

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
                yield Checkbox("Regex", id="regex")
                if self.with_exclude:
                    yield Checkbox("Filter out (hide matches)", id="exclude")
            yield Label("", id="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not event.value:
            self.dismiss(None)
            return
        compiled = compile_query(event.value, regex=self.query_one("#regex", Checkbox).value)
        if isinstance(compiled, str):
            self.query_one("#error", Label).update(Text(compiled, style="red"))
            return
        exclude = self.with_exclude and self.query_one("#exclude", Checkbox).value
        self.dismiss(Query(compiled, event.value, exclude))

    def action_cancel(self) -> None:
        self.dismiss(None)


class RankDialog(ModalScreen["str | None"]):
    """Pick one rank to show alone, or all ranks ("" means all)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, ranks: Iterable[str]) -> None:
        super().__init__()
        self.ranks = list(ranks)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Show one rank only")
            options = [Option("all ranks", id="")] + [Option(r, id=r) for r in self.ranks]
            yield OptionList(*options)

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
