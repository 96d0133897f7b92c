"""The app's key actions that open dialogs or move between crashes (a mixin of SpectraceApp)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.binding import Binding
from textual.notifications import SeverityLevel

from spectrace.tui.dialogs import HelpScreen, Query, QueryDialog, RankDialog
from spectrace.tui.linestyle import one_row
from spectrace.tui.views import ranks_seen, search
from spectrace.tui.widgets.log_view import LogView

if TYPE_CHECKING:
    from spectrace.tui.app import SpectraceApp

    _Base = SpectraceApp
else:
    _Base = object


class KeyActions(_Base):
    """Search, filter, rank toggle, next/previous crash, colour and help."""

    def say(self, message: str, severity: SeverityLevel = "information", **kw: Any) -> None:
        """A notification holding untrusted text (a file name, an error about a log): never
        markup, and escapes shown as '?'."""
        self.notify(one_row(message), severity=severity, markup=False, **kw)

    def action_crash(self, direction: int) -> None:
        entries = self.incident_list.entries
        rows = [
            (self.files.row(self.log_view.source, e.source, e.lineno), n)
            for n, e in enumerate(entries)
            if e.source is not None and e.lineno is not None
        ]
        placed = sorted((row, n) for row, n in rows if row is not None)
        cursor = self.log_view.cursor
        ahead = [p for p in placed if (p[0] > cursor if direction > 0 else p[0] < cursor)]
        if not ahead:
            self.notify("no more crashes " + ("below" if direction > 0 else "above"))
            return
        row, n = ahead[0] if direction > 0 else ahead[-1]
        self.incident_list.highlighted = n
        self.log_view.follow = False
        self.log_view.go_to(row)

    def action_search(self) -> None:
        def done(query: Query | None) -> None:
            self.search_query = query
            self.log_view.set_pattern(query.pattern if query else None)
            if query is not None:
                self.action_search_next(1)

        self.push_screen(QueryDialog("Search (n/N for next/previous)", with_exclude=False), done)

    def action_search_next(self, direction: int) -> None:
        if self.search_query is None:
            self.notify("no search yet: press /")
            return
        self._search(self.search_query, direction)

    @work(thread=True, exclusive=True, group="search")
    def _search(self, query: Query, direction: int) -> None:
        row = search(self.log_view.source, query.pattern, self.log_view.cursor, direction)
        if row is None:
            self.call_from_thread(self.notify, f"not found: {query.text}")
        else:
            self.call_from_thread(self.log_view.go_to, row)

    def action_filter(self) -> None:
        def done(query: Query | None) -> None:
            self.line_filter = query
            self._refilter()

        self.push_screen(
            QueryDialog(
                "Filter lines",
                with_exclude=True,
                value=self.line_filter.text if self.line_filter else "",
            ),
            done,
        )

    def action_clear_filter(self) -> None:
        self.line_filter, self.rank = None, None
        self._refilter()

    def action_rank(self) -> None:
        def done(rank: str | None) -> None:
            if rank is not None:
                self.rank = rank or None
                self._refilter()

        self.push_screen(RankDialog(ranks_seen(self.files, self.analysis)), done)

    def action_colour(self) -> None:
        self.log_view.colour = not self.log_view.colour
        self.log_view.set_crash_lines(self.log_view.crash_lines)

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
