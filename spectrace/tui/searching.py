"""Search (``/``, ``n``, ``N``), filter (``f``, ``F``) and the rank view (``r``): a mixin of the app.

Each runs in a worker over raw chunks (spectrace.tui.find, spectrace.tui.ranks) and streams: a
search jumps to its first match as soon as that is found and keeps counting; a filter shows its
lines as they are found. The status line shows lines searched and matches, Esc stops either,
and a pattern that times out says so in one line. The keyboard is never held.
"""

from __future__ import annotations

import array
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from spectrace.tui.dialogs import QueryDialog, RankDialog
from spectrace.tui.find import Matcher, PatternTimeout, Query, scan_lines
from spectrace.tui.ranks import (
    Rank,
    RankLines,
    count_lines,
    crash_owners,
    ranks_seen,
    server_name,
)
from spectrace.tui.search_state import Hits, Near, Running
from spectrace.tui.timeline import FilteredSource, LineSource, SingleSource
from spectrace.tui.views import counted

if TYPE_CHECKING:
    from spectrace.tui.host import Host

    _Base = Host
else:
    _Base = object

TIMED_OUT = (
    "pattern {!r} timed out on one line (nested repeats such as (a+)+ backtrack): simplify it"
)
STREAM_S = 0.25  # how often a streaming filter shows its new lines and the status its counts
NEAR_LINES = 4096  # lines after the cursor searched at once, before the dialog's close is drawn


class SearchActions(_Base):
    """``/``, ``n``, ``N``, ``f``, ``F``, ``r`` and Esc."""

    running: Running | None = None
    search_said: str | None = None  # the last search's count, kept in the status line
    hits: Hits | None = None
    ranks: list[Rank] = []
    rank_counts: dict[str, int] = {}

    # -- search ---------------------------------------------------------------------------------

    def action_search(self) -> None:
        def done(query: Query | None) -> None:
            self.search_query = query
            if query is None:
                self.log_view.set_pattern(None)
                return
            # highlighted with the first match: one redraw, not two before it shows
            near = self._near(query)
            if near is not None and near.rows:
                found = near.stop - near.start, len(near.rows)
                self.running = Running("search", query.text, near.view.count, *found)
                self._show_match(near.rows[0], True)
            self._search(query, 1, near)

        self.push_screen(QueryDialog("Search (n/N for next/previous)", with_exclude=False), done)

    def action_search_next(self, direction: int) -> None:
        query, hits = self.search_query, self.hits
        if query is None:
            self.notify("no search yet: press /")
            return
        view = self.log_view.source
        if (
            hits is None
            or hits.query is not query
            or hits.view is not view
            or (hits.count_at_start != view.count)
        ):
            self._search(query, direction)  # the view changed (a filter, more lines): search it
            return
        cursor = self.log_view.cursor
        row = hits.after(cursor) if direction > 0 else hits.before(cursor)
        if row is None and not hits.complete:
            self.notify("still searching…")
            return
        if row is None and hits.count:  # wrap round, as lnav and vim do, and say so
            row = hits.after(-1) if direction > 0 else hits.before(view.count)
            self.say(f"search wrapped to the {'top' if direction > 0 else 'bottom'}")
        if row is None:
            self.say(f"not found: {query.text}")
        else:
            self._show_match(row)

    def _near(self, query: Query) -> Near | None:
        """The first NEAR_LINES lines after the cursor searched now (one file's view only)."""
        view, cursor = self.log_view.source, self.log_view.cursor
        if not view.count or not _file_order(view):
            return None
        file, line = view.locate(cursor)
        index = self.files.indexes[file]
        start = line + 1
        stop = min(start + NEAR_LINES, index.line_count)
        rows: list[int] = []
        try:
            for step in scan_lines(index, query, start, stop):
                rows += [r for n in step.hits if (r := _row(view, file, n)) is not None]
        except (PatternTimeout, OSError):
            return None  # the worker says so
        return Near(view, cursor, file, start, max(stop, start), rows)

    @work(thread=True, exclusive=True, group="search")
    def _search(self, query: Query, direction: int, near: Near | None = None) -> None:
        view, cursor = (
            (near.view, near.cursor) if near else (self.log_view.source, self.log_view.cursor)
        )
        hits = Hits(query, view, view.count)
        hits.add(near.rows if near else [])
        self.hits, jumped, self.search_said = hits, bool(hits.count), None
        ordered = _file_order(view)
        done = near.stop - near.start if near else 0
        self.running = running = Running("search", query.text, view.count, done, hits.count)
        worker = get_current_worker()
        cancelled = lambda: worker.is_cancelled  # noqa: E731
        resume = near.stop if near else None
        try:
            for file, lo, hi, lines in self._scan(
                query, view, cursor, direction, cancelled, resume
            ):
                hits.add([r for line in lines if (r := _row(view, file, line)) is not None])
                running.done, running.matches = running.done + hi - lo, hits.count
                if ordered and not jumped and direction > 0:
                    jumped = self._jump_to_hit(hits.after(cursor))
        except PatternTimeout:
            self.call_from_thread(self.say, TIMED_OUT.format(query.text), "error")
            self.call_from_thread(self._scan_ended, None)
            return
        except OSError as exc:  # the file went away or was cut under the search
            self.call_from_thread(self.say, f"search stopped: {exc}", "error")
            self.call_from_thread(self._scan_ended, None)
            return
        if cancelled():
            return
        hits.complete = True
        self.call_from_thread(self._scan_ended, hits)
        if not jumped:
            self.call_from_thread(self.action_search_next, direction)

    def _jump_to_hit(self, row: int | None) -> bool:
        if row is None:
            return False
        self.call_from_thread(self._show_match, row, True)
        return True

    def _show_match(self, row: int, counted: bool = False) -> None:
        """The cursor on a match, the search's pattern highlighted, in one redraw; ``counted``:
        the status shows the first match now, not at the next tick."""
        pattern = self.search_query.pattern if self.search_query else None
        if self.log_view.pattern is not pattern:
            self.log_view.set_pattern(pattern)
        self.log_view.go_to(row, pattern)
        if counted:
            self._status()

    def _scan(
        self,
        query: Query,
        view: LineSource,
        cursor: int,
        direction: int,
        cancelled: Callable[[], bool],
        resume: int | None = None,
    ) -> Iterator[tuple[int, int, int, list[int]]]:
        """(file, lo, hi, matching lines) chunk by chunk: from the cursor's line on first (so
        the next match shows at once; ``resume``: from there, the lines before it were searched
        already), then the rest, then the other files."""
        indexes = self.files.indexes
        here = view.locate(cursor) if view.count else (0, 0)
        start = here[1] + 1 if direction > 0 and view.count else 0
        for file in sorted(range(len(indexes)), key=lambda f: f != here[0]):
            index = indexes[file]
            spans = (
                [(resume if resume is not None else start, index.line_count), (0, start)]
                if file == here[0]
                else [(0, index.line_count)]
            )
            for lo, hi in spans:
                for step in scan_lines(index, query, lo, hi, cancelled):
                    yield file, step.lo, step.hi, step.hits

    # -- filter and rank ---------------------------------------------------------------------------

    def action_filter(self) -> None:
        def done(query: Query | None) -> None:
            self.line_filter = query
            self._refilter()

        value = self.line_filter.text if self.line_filter else ""
        self.push_screen(QueryDialog("Filter lines", with_exclude=True, value=value), done)

    def action_clear_filter(self) -> None:
        self.line_filter, self.rank = None, None
        self._refilter()

    def action_rank(self) -> None:
        """The crash selected offers its ranks first (origin first), then every other rank."""
        if not self.rank_counts:  # the count pass lists them too, once the scan is done
            self.ranks = ranks_seen(self.files.indexes, self.analysis)
        first = self._crash_ranks()
        names = first + [r.name for r in self.ranks if r.name not in first]
        crashes = self._crash_counts()
        rows = [(n, self.rank_counts.get(n), crashes.get(n, 0)) for n in names]

        def done(rank: str | None) -> None:
            if rank is not None:
                self.rank = rank or None
                self._refilter()
                if (entry := self.incident_list.current()) is not None:
                    self._detail(entry)  # the load chart follows the picked rank

        self.push_screen(RankDialog(rows, first=len(first), current=self.rank), done)

    def _crash_ranks(self) -> list[str]:
        from spectrace.incidents import Incident

        entry = self.incident_list.current()
        item = entry.item if entry is not None else None
        if not isinstance(item, Incident):
            return []
        raw = [item.origin_rank] if item.origin_rank else []
        raw += [r for r in item.ranks if r != item.origin_rank]
        return list(dict.fromkeys(server_name(r, self.analysis) for r in raw))

    def _crash_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for inc in self.analysis.incidents if self.analysis is not None else ():
            for occ in inc.occurrences:
                if occ.rank:
                    name = server_name(occ.rank, self.analysis)
                    counts[name] = counts.get(name, 0) + 1
        return counts

    @work(thread=True, exclusive=True, group="filter")
    def _filter(self) -> None:
        query, rank_name, base = self.line_filter, self.rank, self.base
        if query is None and rank_name is None:
            self.call_from_thread(self._show, base)
            return
        rank = self._rank(rank_name) if rank_name is not None else None
        what = "filter" if query is not None else "rank"
        self.running = running = Running(what, query.text if query else rank_name or "", base.count)
        worker = get_current_worker()
        cancelled = lambda: worker.is_cancelled  # noqa: E731
        rows: array.array[int] = array.array("Q")
        single = isinstance(base, SingleSource)
        shown = FilteredSource(base, rows) if single else None
        if shown is not None:
            self.call_from_thread(self._show, shown, True)
        try:
            for file, lo, hi, lines in self._keep(query, rank, base, cancelled):
                kept = (
                    lines
                    if single
                    else [r for n in lines if (r := base.row_of(file, n)) is not None]
                )
                first = kept and not rows
                rows.extend(kept)
                running.done, running.matches = running.done + hi - lo, len(rows)
                if first and shown is not None:
                    self.call_from_thread(self._tick)  # the first kept lines now, not in 0.25 s
        except PatternTimeout:
            self.call_from_thread(self.say, TIMED_OUT.format(query.text if query else ""), "error")
            self.call_from_thread(self._filter_stopped)
            return
        except OSError as exc:  # the file went away or was cut under the filter
            self.call_from_thread(self.say, f"filter stopped: {exc}", "error")
            self.call_from_thread(self._filter_stopped)
            return
        if cancelled():
            return
        if shown is None:
            shown = FilteredSource(base, array.array("Q", sorted(rows)))
        self.call_from_thread(self._filter_done, shown)

    def _rank(self, name: str) -> Rank:
        ranks = self.ranks or ranks_seen(self.files.indexes, self.analysis)
        return next((r for r in ranks if r.name == name), Rank(name, frozenset({name}), ()))

    def _keep(
        self,
        query: Query | None,
        rank: Rank | None,
        base: LineSource,
        cancelled: Callable[[], bool],
    ) -> Iterator[tuple[int, int, int, list[int]]]:
        """(file, lo, hi, kept lines) chunk by chunk for the text filter and the rank."""
        for file, index in enumerate(self.files.indexes):
            owners = crash_owners(
                index, [c for c in self.crashes if self.files.file_of(c.source) == file]
            )
            finder = RankLines(index, rank, owners) if rank is not None else None
            matcher = Matcher(query) if query is not None else None
            for chunk in index.raw_chunks(0, index.line_count):
                if cancelled():
                    return
                lo, hi = chunk[0], chunk[1]
                keep: list[int] | range = (
                    finder.chunk(*chunk) if finder is not None else range(lo, hi)
                )
                if matcher is not None and query is not None:
                    hits = matcher.lines(index, chunk)
                    if finder is None and not query.exclude:
                        keep = hits
                    else:
                        hit = set(hits)
                        keep = [n for n in keep if (n in hit) != query.exclude]
                yield file, lo, hi, list(keep)

    def _filter_done(self, source: LineSource) -> None:
        self.running = None
        self._show(source)

    def _filter_stopped(self) -> None:
        """A filter that failed (timeout, file gone) leaves every line shown."""
        self.running = None
        self.line_filter, self.rank = None, None
        self._refilter()

    def action_cancel(self) -> None:
        """Esc: stop a search or a filter in flight (a stopped filter shows every line again)."""
        if self.running is None:
            return
        what = self.running.what
        self.workers.cancel_group(self, "search" if what == "search" else "filter")  # type: ignore[arg-type]
        self.say(f"{what} stopped")
        if what == "search":
            self._scan_ended(None)
        else:
            self.line_filter, self.rank = None, None
            self.running = None
            self._refilter()

    def _count_when_ready(self) -> None:
        """The picker's line counts: one pass once the index and the scan are done (so that
        neither waits for it)."""
        if (
            self.analysis is not None
            and self.files.indexes
            and all(ix.done for ix in self.files.indexes)
        ):
            self._count_ranks()

    @work(thread=True, exclusive=True, group="count")
    def _count_ranks(self) -> None:
        worker = get_current_worker()
        try:
            ranks = ranks_seen(self.files.indexes, self.analysis)
            counts = count_lines(self.files.indexes, ranks, lambda: worker.is_cancelled)
        except (OSError, ValueError) as exc:  # a file cut or replaced under us: no counts
            self.call_from_thread(self.say, f"rank counts: {exc}", "warning")
            return
        if counts is not None:
            self.ranks, self.rank_counts = ranks, counts

    def _scan_ended(self, hits: Hits | None) -> None:
        """A search ended: its count stays in the status line (as lnav's "N hits for")."""
        self.running = None
        if hits is not None:
            if self.log_view.pattern is not hits.query.pattern:
                self.log_view.set_pattern(hits.query.pattern)  # no match to jump to: still shown
            found = counted(hits.count, "match", "matches") if hits.count else "not found"
            self.search_said = f"search {hits.query.text!r}: {found}"
        self._status()

    def _tick(self) -> None:
        """Every STREAM_S while a scan runs: new filtered lines on screen, counts in the status."""
        if self.running is not None:
            self.log_view.grew()
            self._status()


def _file_order(view: LineSource) -> bool:
    """Rows of this view follow each file's line order (one file): the first hit after the
    cursor found is the nearest one."""
    while isinstance(view, FilteredSource):
        view = view.base
    return isinstance(view, SingleSource)


def _row(view: LineSource, file: int, line: int) -> int | None:
    """The view row showing exactly this line (a filtered view hides most)."""
    row = view.row_of(file, line)
    return row if row is not None and view.locate(row) == (file, line) else None
