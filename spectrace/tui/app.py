"""The spectrace TUI: wires the line index, the core's analysis and the widgets together.

Heavy work runs in thread workers (indexing, merging, filtering, follow polling) and the analysis
in a child process (tui/analysis.py); results come back as messages, so the first screen shows
while a multi-GB file is still being read.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from spectrace.line_index import LineIndex
from spectrace.tui.actions import KeyActions
from spectrace.tui.find import Query
from spectrace.tui.follow import FollowActions
from spectrace.tui.linestyle import LineStyler
from spectrace.tui.messages import (
    AnalysisDone,
    AnalysisFailed,
    CrashesFound,
    IndexProgress,
    RulesLoaded,
)
from spectrace.tui.searching import STREAM_S, SearchActions
from spectrace.tui.selection import SelectionActions
from spectrace.tui.timeline import LineSource, MergedSource, SingleSource, merge_order
from spectrace.tui.views import FileSet, crash_rows
from spectrace.tui.widgets.incident_detail import IncidentDetail
from spectrace.tui.widgets.incident_list import (
    IncidentList,
    Scanned,
    incident_entries,
)
from spectrace.tui.widgets.load_chart import LoadChart
from spectrace.tui.widgets.log_view import EmptySource, LogView

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis
    from spectrace.ruleset import RuleSet
    from spectrace.tui.analysis import Apart

# The core (pipeline, incidents, rules) is imported by the analysis process, and here only when
# its reports are unpickled or a crash is shown, never before the first frame.

POLL_S = 0.5
NARROW = 100  # columns under which the log goes above the crash list and detail
PROGRESS_S = 0.5  # each progress resizes the view: a full layout pass (~0.1 s on 2 cores)
CRASH_BATCH_S = 0.5
# Kinds of crash listed while the scan runs (a storm of distinct ones: rebuilding a list of
# 5,000 held the UI for 0.8 s every batch); the incidents that replace them at the end are few.
PROVISIONAL_MAX = 200
FIRST_FRAME_WAIT_S = 2.0  # the index waits for the first frame at most this long
INDEX_NICE = 19  # the index thread's niceness: it yields to the analysis child and the screen
MAX_RESCAN_PAUSE_S = 5.0  # a growing multi-GB log is rescanned at most half of the time
NO_LOG = (
    "No log file given: the hang findings of the stacks capture or flight dumps are on the "
    "right. Open them beside the server's log to jump to each rank's last line."
)


def _yield_cpu() -> None:
    """Lower this thread's scheduling priority (Linux: niceness is per thread)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), INDEX_NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: the index runs as before
        pass


class SpectraceApp(KeyActions, SearchActions, SelectionActions, FollowActions, App[None]):
    """Log view on the left; crash list, crash detail and load chart on the right."""

    CSS_PATH = "app.tcss"
    TITLE = "spectrace"
    BINDINGS = [
        Binding("slash", "search", "Search"),
        Binding("n", "search_next(1)", "Next match", show=False),
        Binding("N", "search_next(-1)", "Prev match", show=False),
        Binding("e", "crash(1)", "Next crash"),
        Binding("E", "crash(-1)", "Prev crash"),
        Binding("f", "filter", "Filter"),
        Binding("F", "clear_filter", "Clear filter", show=False),
        Binding("r", "rank", "Rank"),
        Binding("t", "follow", "Tail"),
        Binding("c", "colour", "ANSI colour on/off", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "cancel", "Stop search/filter", show=False),
        Binding("z", "zoom", "Zoom log/detail"),
    ]

    def __init__(
        self,
        paths: Sequence[Path],
        *,
        expect: Sequence[str] = (),
        follow: bool = False,
        stacks: tuple[Sequence[Path], Sequence[Path]] = ((), ()),
        redact: bool = True,
    ) -> None:
        """``stacks``: py-spy captures and flight-recorder dumps, shown as hang findings;
        ``redact``: mask secrets in the log view (the crash detail masks them always)."""
        super().__init__()
        self.stacks = stacks
        self.styler = LineStyler()
        self.rules: RuleSet | None = None  # the built-in rules, loaded by the first scan
        self.files = FileSet([LineIndex(p) for p in paths])
        self.expect = list(expect)
        self.start_follow = follow
        self.base: LineSource = (
            SingleSource(self.files.indexes[0]) if self.files.indexes else EmptySource()
        )
        self.line_filter: Query | None = None
        self.search_query: Query | None = None
        self.rank: str | None = None
        self.crashes: list[Crash] = []
        self.scanned = Scanned()  # the crashes so far, by kind, as the list shows them
        self.analysis: Analysis | None = None
        self.scanning = True
        self._reanalyse = False
        self.indexing = True
        self.filtering = False
        self._crash_flush_pending = False
        self.picked = False  # the user chose a list row (key, click, e/E): keep it on rebuilds
        self._status_text = ""
        self._analysis_started_at = 0.0
        self._painted = threading.Event()
        self._apart: Apart | None = None  # the analysis running in a child process
        self._anchor: tuple[int, int] | None = None  # where the cursor was when a filter began

        self.status_bar = Static("", id="status")
        self.log_view = LogView(self.files.labels, self.styler, id="log")
        self.log_view.placeholder = self._placeholder(self.base)
        self.log_view.redact = redact
        self.incident_list = IncidentList(id="incidents")
        self.detail = IncidentDetail(id="detail")
        self.load_chart = LoadChart(id="load")

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield self.status_bar
                yield self.log_view
            with Vertical(id="side"):
                yield self.incident_list
                yield self.detail
                yield self.load_chart
        yield Footer()

    def on_mount(self) -> None:
        self._start()

    def on_unmount(self) -> None:
        """Quitting mid-scan ends the analysis process, so the app exits at once."""
        if self._apart is not None:
            self._apart.stop()

    def on_resize(self) -> None:
        """Under NARROW columns the log goes above the crash list and detail (80x24 works)."""
        self.set_class(self.size.width < NARROW, "-narrow")

    def action_zoom(self) -> None:
        """``z``: the crash list and detail full screen, then the log full screen, then both."""
        if self.has_class("-zoom-side"):
            self.set_class(False, "-zoom-side").set_class(True, "-zoom-log")
            self.log_view.focus()
        elif self.has_class("-zoom-log"):
            self.set_class(False, "-zoom-log")
        else:
            self.set_class(True, "-zoom-side")
            self.incident_list.focus()

    def _start(self) -> None:
        if self.files.indexes:  # the first frame already shows the top of the log
            self.files.indexes[0].head()
        self.log_view.set_source(self.base)
        self.call_after_refresh(self._first_frame_out)
        self.log_view.focus()
        self._index()
        self.set_interval(POLL_S, self._poll)
        self.set_interval(STREAM_S, self._tick)
        if self.start_follow:
            self.action_follow()
        self._status()

    @property
    def settled(self) -> bool:
        """Nothing in flight (index, analysis, filter, crash-list flush): the screen only changes
        on input from here on; tests and scripted screenshots wait for this."""
        return not (
            self.indexing
            or self.scanning
            or self.filtering
            or self._crash_flush_pending
            or self.running is not None
            or any(w.group in ("count", "readout") and not w.is_finished for w in self.workers)
        )

    # -- background work -----------------------------------------------------------------------

    def _first_frame_out(self) -> None:
        """Only now the analysis process starts, and the index and the relay of the scan's
        reports may compete for the GIL (the import of numpy or of the core's records alone
        holds it for ~0.1 s). Started earlier (before textual's import, or at mount), the
        child's import slowed the first frame by 0.1-0.3 s on 2 cores and the first crash with
        it (bench_tui, 2026-12-03 10:39, load 0.8: first screen 0.70 -> 0.60 s, first crash
        1.55 -> 1.41 s, list complete 2.88 -> 2.21 s)."""
        self._painted.set()
        self._analyse()

    @work(thread=True, group="index")
    def _index(self) -> None:
        last = 0.0
        self._painted.wait(FIRST_FRAME_WAIT_S)
        _yield_cpu()  # on few cores the analysis child and the screen go first
        for index in self.files.indexes:

            def progress(_added: int) -> None:
                nonlocal last
                if time.monotonic() - last > PROGRESS_S:
                    last = time.monotonic()
                    self.post_message(IndexProgress(False))

            try:
                index.build(on_progress=progress)
            except OSError as exc:
                self.call_from_thread(self.say, f"{index.name}: {exc.strerror or exc}", "error")
        if len(self.files.indexes) > 1:
            order = merge_order(self.files.indexes)
            if order is not None:
                self.call_from_thread(self._set_base, MergedSource(self.files.indexes, order))
        self.post_message(IndexProgress(True))

    def _analyse(self) -> None:
        """The core runs in a child process (see tui/analysis.py); a thread relays it."""
        from spectrace.tui.analysis import Apart

        self._analysis_started_at = time.monotonic()
        try:
            self._apart = Apart(self.files.paths, self.expect, self.stacks)
        except OSError as exc:  # no process to be had (ulimit -u, no memory): say so
            self.post_message(AnalysisFailed(f"cannot start the analysis: {exc}"))
            return
        self._relay(self._apart)

    @work(thread=True, exclusive=True, group="analysis")
    def _relay(self, apart: Apart) -> None:
        """Posts the child's reports as they come. Once the first crash is on its way, the core's modules are imported here, while the
        child scans, so that the analysis at the end is only unpickled (the import alone is
        ~0.3 CPU s, several times that on a loaded box)."""

        def found(crashes: list[tuple[str, Crash]]) -> None:
            self.post_message(CrashesFound(crashes))
            import spectrace.pipeline  # noqa: F401 - a no-op after the first batch

        result = apart.wait(found, lambda rules: self.post_message(RulesLoaded(rules)))
        self.post_message(
            AnalysisFailed(result) if isinstance(result, str) else AnalysisDone(result)
        )

    @work(thread=True, exclusive=True, group="readout")
    def _clean_readout(self, analysis: Analysis) -> None:
        """A run with no crash says what was read (the ranks need a look at the file)."""
        from spectrace.tui.ranks import ranks_seen
        from spectrace.tui.readout import clean_readout

        ranks = [r.name for r in ranks_seen(self.files.indexes, analysis)]
        text = clean_readout(analysis, self.expect, ranks)
        self.call_from_thread(self.detail.show, None, None, text)

    # -- reactions -----------------------------------------------------------------------------

    def _set_base(self, base: LineSource) -> None:
        self.base = base
        self._refilter()

    def _refilter(self) -> None:
        if self.line_filter is None and self.rank is None:
            self.workers.cancel_group(self, "filter")
            self.running = None
            self._show(self.base)
        else:
            self.filtering = True
            self._anchor = self._anchor or self.log_view.position()
            self._status()
            self._filter()

    def _show(self, source: LineSource, streaming: bool = False) -> None:
        """Show a view; a filter's view shows while it fills (``streaming``), and the line the
        cursor was on is found again when it is complete."""
        self.filtering = streaming
        self.log_view.placeholder = self._placeholder(source)
        keep = self.log_view.position() if not streaming else None
        if not streaming and self._anchor is not None:
            keep, self._anchor = self._anchor, None
        self.log_view.set_source(source, keep=keep)
        self._status()

    def _placeholder(self, source: LineSource) -> Text | None:
        """What an empty view says: no log given, or nothing left by the filter and rank."""
        if not self.files.paths:
            return Text(NO_LOG, style="dim italic")
        if source.count == 0 and (self.line_filter is not None or self.rank is not None):
            return Text("No line is left by the filter and rank: F clears them.", "dim italic")
        return None

    def _start_analysis(self) -> None:
        if self.scanning:
            self._reanalyse = True
            return
        self.scanning = True
        self._analyse()

    def on_index_progress(self, message: IndexProgress) -> None:
        if isinstance(self.log_view.source, (SingleSource, MergedSource)):
            self.log_view.grew()
        self.indexing = not message.done
        self._status()
        if message.done:
            self._count_when_ready()

    def on_rules_loaded(self, message: RulesLoaded) -> None:
        """Loaded by the first scan, after the first frame: known noise is dimmed from now on."""
        self.rules = message.rules
        self.styler.use(message.rules.benign)
        self.log_view.set_crash_lines(self.log_view.crash_lines)  # restyles the rows shown

    def on_crashes_found(self, message: CrashesFound) -> None:
        """The first crash shows at once; later ones in batches (a rebuild per crash costs ~70 ms)."""
        first = not self.crashes
        self.crashes.extend(crash for _, crash in message.crashes)
        self.scanned.add(message.crashes)
        if first:
            self._show_crashes()
        elif not self._crash_flush_pending:
            self._crash_flush_pending = True
            self.set_timer(CRASH_BATCH_S, self._show_crashes)

    def _show_crashes(self) -> None:
        self._crash_flush_pending = False
        if self.analysis is None:
            self._list(self.scanned.entries(PROVISIONAL_MAX))
        self.log_view.set_crash_lines(crash_rows(self.files, self.crashes, self.analysis))
        self._status()  # the count beside the list, not at the next index progress

    def on_analysis_done(self, message: AnalysisDone) -> None:
        self.analysis = message.analysis
        entries = incident_entries(self.analysis.incidents, self.analysis.findings)
        self._list(entries)
        if not entries:  # a healthy run: say so and what was read, and show its load
            self.detail.show(None, empty="No crash found in this log.")
            self.load_chart.show(self.analysis.load, None, None)
            self._clean_readout(self.analysis)
        self.log_view.set_crash_lines(crash_rows(self.files, self.crashes, self.analysis))
        self._analysis_finished()
        self._count_when_ready()

    def on_analysis_failed(self, message: AnalysisFailed) -> None:
        self.say(message.reason, "error", title="analysis failed", timeout=10)
        self._analysis_finished()

    def _analysis_finished(self) -> None:
        self.scanning = False
        if self._reanalyse:  # the file grew meanwhile; rest as long as the scan took, then rescan
            self._reanalyse = False
            self.crashes, self.scanned = [], Scanned()
            took = time.monotonic() - self._analysis_started_at
            self.set_timer(min(max(took, 0.05), MAX_RESCAN_PAUSE_S), self._start_analysis)
        self._status()

    # -- actions -------------------------------------------------------------------------------

    def _status(self) -> None:
        busy = [w for w, on in (("indexing", self.indexing), ("filtering", self.filtering)) if on]
        entries = self.incident_list.entries
        text = self.files.status(
            shown=self.log_view.source.count,
            busy=busy,
            query=None if self.running and self.running.what != "search" else self.line_filter,
            rank=self.rank,
            follow=self.log_view.follow,
            analysing=self.scanning,
            incidents=len(entries) - self.incident_list.findings,
            findings=self.incident_list.findings,
            running=self.running.status() if self.running is not None else self.search_said,
        )
        if text != self._status_text:  # one line of fixed height: no layout pass needed
            self._status_text = text
            self.status_bar.update(Text(text), layout=False)
