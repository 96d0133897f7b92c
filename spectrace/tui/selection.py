"""The crash list, the detail and the log view's jumps: a mixin of the app.

Selecting a row shows its detail and load chart; selecting an evidence line or a crash jumps
the log view there (panning to the marked text); Enter on a log row opens the whole line.
It depends on spectrace.tui.host.Host, not on the app class.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.widgets import OptionList

from spectrace.tui.dialogs import LineScreen
from spectrace.tui.linestyle import one_row
from spectrace.tui.messages import JumpTo
from spectrace.tui.widgets.incident_list import Entry, jump_target, provisional
from spectrace.tui.widgets.log_view import OpenLine

if TYPE_CHECKING:
    from spectrace.tui.host import Host

    _Base = Host
else:
    _Base = object


class SelectionActions(_Base):
    """Crash list rows, the detail panel, the load chart and jumps into the log."""

    def _list(self, entries: list[Entry]) -> None:
        self.incident_list.show(entries)
        if entries and (self.incident_list.highlighted is None or not self.picked):
            self.incident_list.highlighted = 0  # the first root cause, not the first crash seen
        entry = self.incident_list.current()
        if entry is not None:  # now, not a bubbled OptionHighlighted later: settled means shown
            self._detail(entry)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A crash list row highlighted: its detail and load (by name: textual's ``@on`` is
        not read from a mixin; other lists, such as the evidence list, are not ours)."""
        if event.option_list is not self.incident_list:
            return
        if self.incident_list.has_focus:
            self.picked = True
        entry = self.incident_list.current()
        if entry is not None:
            self._detail(entry)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a crash list row: the log jumps to its first line."""
        if event.option_list is not self.incident_list:
            return
        entry = self.incident_list.current()
        target = jump_target(entry) if entry is not None else None
        if target is not None:
            self.post_message(JumpTo(*target))

    def _detail(self, entry: Entry) -> None:
        item = entry.item
        if provisional(item):  # the scan's crash: the core's incident classes may not be loaded
            self.detail.show(item)
            self.load_chart.show([], item.ts, item.ts_text, self._chart_ranks(item))
            return
        from spectrace.incidents import Incident  # loaded with the analysis that made ``item``

        collateral: list[Incident] = []
        if isinstance(item, Incident) and self.analysis is not None:
            collateral = [i for i in self.analysis.incidents if i.id in item.collateral]
        self.detail.show(item, collateral)
        load = self.analysis.load if self.analysis is not None else []
        first = item.first_seen if isinstance(item, Incident) else None
        ts, ts_text = (first.ts, first.ts_text) if first is not None else (None, None)
        self.load_chart.show(load, ts, ts_text, self._chart_ranks(item))

    def _chart_ranks(self, item: object) -> list[str]:
        """The ranks the load chart shows first: the crash's origin, then the rank the user
        picked (``r``), then the crash's other ranks (never merely the file's first two)."""
        origin, others = _ranks_of(item)
        picked = sorted(self._rank(self.rank).aliases) if self.rank is not None else []
        return list(dict.fromkeys(origin + picked + others))

    def on_jump_to(self, message: JumpTo) -> None:
        if message.lineno < 1:  # evidence from a flight-recorder dump: a file, not a log line
            self.say(f"{Path(message.source).name} is not a log: no line to jump to")
            return
        row = self.files.row(self.log_view.source, message.source, message.lineno)
        if row is None:
            self.say(f"{message.source}:{message.lineno} is not shown (filtered out?)", "warning")
            return
        self.log_view.follow = False
        mark = None
        if message.mark:
            import regex

            mark = regex.compile(regex.escape(message.mark))
        self.log_view.go_to(row, mark)

    def on_open_line(self, message: OpenLine) -> None:
        """Enter on a log row: the whole line, uncut, in a screen of its own."""
        file, line = self.log_view.source.locate(message.row)
        raw, left_out = self.files.indexes[file].whole(line)
        where = one_row(f"{self.files.paths[file].name}:{line + 1}")
        self.push_screen(LineScreen(where, raw, left_out, redact=self.log_view.redact))


def _ranks_of(item: object) -> tuple[list[str], list[str]]:
    """(origin, every rank) of a crash or an incident; none for a finding."""
    if provisional(item):
        return ([item.rank] if item.rank else []), []
    from spectrace.incidents import Incident

    if not isinstance(item, Incident):
        return [], []
    return ([item.origin_rank] if item.origin_rank else []), list(item.ranks)
