"""The app's key actions that move between crashes or open help (a mixin of SpectraceApp).

It depends on spectrace.tui.host.Host, a Protocol of what it needs, not on the app class."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel

from spectrace.tui.dialogs import HelpScreen
from spectrace.tui.linestyle import one_row
from spectrace.tui.widgets.log_view import LogView

if TYPE_CHECKING:
    from textual.screen import Screen

    from spectrace.tui.host import Host

    _Base = Host
else:
    _Base = object


PALETTE_HELP = {
    "search": "Find text or a regex in the log",
    "search_next(1)": "Go to the next search match",
    "search_next(-1)": "Go to the previous search match",
    "crash(1)": "Go to the next crash below the cursor",
    "crash(-1)": "Go to the previous crash above the cursor",
    "filter": "Keep or hide the lines that match",
    "clear_filter": "Show every line of every rank again",
    "rank": "Show one rank only",
    "follow": "Follow the end of a growing log, or stop",
    "colour": "Show or strip the log's own ANSI colours",
}


class KeyActions(_Base):
    """Next/previous crash, colour, help and the command palette."""

    def say(self, message: str, severity: SeverityLevel = "information", **kw: Any) -> None:
        """A notification holding untrusted text (a file name, an error about a log): never
        markup, and escapes shown as '?'."""
        self.notify(one_row(message), severity=severity, markup=False, **kw)

    def action_crash(self, direction: int) -> None:
        """Every occurrence is a stop, as every error line is in lnav: in a log of 5,000
        crashes of one kind, E from the end goes to the last one, not the kind's first."""
        placed = self._crash_stops()
        cursor = self.log_view.cursor
        ahead = [p for p in placed if (p[0] > cursor if direction > 0 else p[0] < cursor)]
        if not ahead:
            self.notify("no more crashes " + ("below" if direction > 0 else "above"))
            return
        row, n = ahead[0] if direction > 0 else ahead[-1]
        self.picked = True
        self.incident_list.highlighted = n
        self.log_view.follow = False
        self.log_view.go_to(row)

    def _crash_stops(self) -> list[tuple[int, int]]:
        """(view row, list entry) of every crash's first line shown, in row order."""
        from spectrace.incidents import Incident

        stops: set[tuple[int, int]] = set()
        for n, entry in enumerate(self.incident_list.entries):
            item = entry.item
            places = (
                [(o.source, o.lineno) for o in item.occurrences]
                if isinstance(item, Incident)
                else [(entry.source, entry.lineno)]
            )
            for source, lineno in places:
                row = self.files.row(self.log_view.source, source, lineno)
                if row is not None:
                    stops.add((row, n))
        return sorted(stops)

    def action_colour(self) -> None:
        self.log_view.colour = not self.log_view.colour
        self.log_view.set_crash_lines(self.log_view.crash_lines)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette (ctrl+p) offers every key's action too, found by name ("filter")."""
        yield from super().get_system_commands(screen)
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.action not in ("quit", "help"):
                yield SystemCommand(
                    binding.description,
                    f"{PALETTE_HELP.get(binding.action, '')} (key: {self.keys_display(binding)})",
                    partial(self.run_action, binding.action),
                )

    def action_help(self) -> None:
        keys = [
            (self.keys_display(b), b.description)
            for b in (*self.BINDINGS, *LogView.BINDINGS)
            if isinstance(b, Binding)
        ]
        self.push_screen(HelpScreen(keys))

    def keys_display(self, binding: Binding) -> str:
        """ "j,down" -> "j / ↓", as the footer would show each key."""
        return " / ".join(
            self.get_key_display(Binding(key, binding.action)) for key in binding.key.split(",")
        )
