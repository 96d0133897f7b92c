"""Follow mode: poll the files, show what was appended, reset on truncation or rotation.

A mixin of SpectraceApp: a growing file is indexed further and rescanned by the core; a file
that shrank or changed inode resets the index, the view and the crash list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from spectrace.line_index import Change
from spectrace.tui.timeline import SingleSource
from spectrace.tui.widgets.incident_list import Scanned

if TYPE_CHECKING:
    from spectrace.tui.host import Host

    _Base = Host
else:
    _Base = object


class FollowActions(_Base):
    """The ``t`` key and the poll that runs every POLL_S seconds."""

    def action_follow(self) -> None:
        if self.log_view.follow:
            self.log_view.follow = False
        elif self.files.indexes and all(ix.encoded for ix in self.files.indexes):
            self.log_view.action_last()  # the end, but no claim to follow what cannot grow
            self.log_view.follow = False
            self.say("a compressed log does not grow: shown to its end, not followed")
        else:
            self.log_view.action_last()
        self._status()

    @work(thread=True, exclusive=True, group="poll")
    def _poll_files(self) -> None:
        changes = [ix.refresh() for ix in self.files.indexes]
        if Change.RESET in changes:
            self.call_from_thread(self._file_reset)
        elif Change.GROWN in changes:
            self.call_from_thread(self._file_grown)

    def _poll(self) -> None:
        self._poll_files()

    def _file_reset(self) -> None:
        self.notify("file was truncated or replaced: view reset")
        self.crashes, self.analysis, self.picked = [], None, False
        self.scanned = Scanned()
        self.rank_counts = {}  # counted on the file that was replaced
        self.incident_list.show([])
        self.log_view.set_crash_lines(set())
        self.base = SingleSource(self.files.indexes[0])
        self._refilter()
        self._index()
        self._start_analysis()

    def _file_grown(self) -> None:
        if len(self.files.indexes) > 1:
            self._index()
        elif self.line_filter is not None or self.rank is not None:
            self._filter()
        else:
            self.log_view.grew()
        self._start_analysis()
        self._status()
