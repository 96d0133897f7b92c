"""What the key actions need from the app, as a Protocol: the actions, follow and search
mixins depend on this, never on SpectraceApp, so data flows one way (app -> mixins -> host)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterable

    from textual.app import SystemCommand
    from textual.binding import Binding
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.worker import Worker, WorkerManager

    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis
    from spectrace.tui.find import Query
    from spectrace.tui.ranks import Rank
    from spectrace.tui.timeline import LineSource
    from spectrace.tui.views import FileSet
    from spectrace.tui.widgets.incident_detail import IncidentDetail
    from spectrace.tui.widgets.incident_list import Entry, IncidentList, Scanned
    from spectrace.tui.widgets.load_chart import LoadChart
    from spectrace.tui.widgets.log_view import LogView


class Host(Protocol):
    """The app's state and services that key actions read and call."""

    BINDINGS: Any
    files: FileSet
    base: LineSource
    log_view: LogView
    incident_list: IncidentList
    detail: IncidentDetail
    load_chart: LoadChart
    analysis: Analysis | None
    crashes: list[Crash]
    scanned: Scanned
    line_filter: Query | None
    search_query: Query | None
    rank: str | None
    picked: bool
    rank_counts: dict[str, int]
    workers: WorkerManager

    def say(self, message: str, severity: SeverityLevel = "information", **kw: Any) -> None: ...

    def notify(self, message: str, **kw: Any) -> None: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...

    def call_from_thread(self, callback: Any, *args: Any, **kwargs: Any) -> Any: ...

    def run_action(self, action: str) -> Any: ...

    def get_key_display(self, binding: Binding) -> str: ...

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]: ...

    def set_timer(self, delay: float, callback: Any) -> Any: ...

    def _status(self) -> None: ...

    def _refilter(self) -> None: ...

    def _start_analysis(self) -> None: ...

    def _index(self) -> Worker[None]: ...

    def _filter(self) -> Worker[None]: ...

    def _detail(self, entry: Entry) -> None: ...

    def _rank(self, name: str) -> Rank: ...

    def post_message(self, message: Any) -> bool: ...
