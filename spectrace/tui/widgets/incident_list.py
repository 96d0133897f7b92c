"""The crash list: provisional crashes while the scan runs, then incidents and findings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from spectrace.tui.linestyle import masked

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.incidents import Incident
    from spectrace.pipeline import Finding

    Item = Crash | Incident | Finding

# The core's records are imported where used: the first frame does not wait for the
# pipeline's import (~50 ms of CPU); the scan has loaded them by the time rows exist.

MESSAGE_MAX = 100  # about two rows at the usual width; the detail shows it all
FINDING_MAX = 240  # a finding's message is its verdict (a hang names the odd rank): keep more


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of the list and where its first line is (None for findings)."""

    item: Item
    source: str | None
    lineno: int | None
    depth: int = 0  # 1 for a collateral incident shown under its root cause
    finding: bool = False  # a missing marker, a hang: not counted as a crash
    times: int = 1  # a crash the scan met this many times so far (while it runs)


class Scanned:
    """The scan's crashes while it runs, one row per signature (the core's, computed by the
    analysis process) with how many so far: errors first, then collateral, then warnings, each
    in the order first met. A storm of one warning is one row, and the crash that matters is
    not pushed below thousands of it; the incidents replace these rows when the analysis ends."""

    def __init__(self) -> None:
        self.first: dict[str, Crash] = {}
        self.times: Counter[str] = Counter()

    def add(self, found: Sequence[tuple[str, Crash]]) -> None:
        for signature, crash in found:
            self.first.setdefault(signature, crash)
            self.times[signature] += 1

    def entries(self, limit: int) -> list[Entry]:
        kinds = sorted(self.first.items(), key=lambda kv: (kv[1].severity == "warning",
                                                            kv[1].collateral))  # fmt: skip
        return [Entry(c, c.source, c.lineno, times=self.times[s]) for s, c in kinds[:limit]]


def incident_entries(incidents: Sequence[Incident], findings: Sequence[Finding]) -> list[Entry]:
    """Root causes in order, each followed by its collateral, then the findings."""
    by_id = {i.id: i for i in incidents}
    entries: list[Entry] = []
    for inc in incidents:
        if inc.caused_by is not None and inc.caused_by in by_id:
            continue
        entries.append(Entry(inc, inc.first_seen.source, inc.first_seen.lineno))
        for child_id in inc.collateral:
            child = by_id.get(child_id)
            if child is not None and child is not inc:
                entries.append(Entry(child, child.first_seen.source, child.first_seen.lineno, 1))
    entries.extend(Entry(f, None, None, finding=True) for f in findings)
    return entries


def provisional(item: object) -> TypeGuard[Crash]:
    """A crash the scan reported, not yet an incident. Asked before any test for an incident or
    a finding: their classes bring the whole core along (~0.3 s of import on the app's thread),
    which the first crash, unpickled with only its own module, must not wait for."""
    from spectrace.assemblers.crash import Crash

    return isinstance(item, Crash)


def jump_target(entry: Entry) -> tuple[str, int] | None:
    """Where selecting a row jumps: its first line, or a finding's first log evidence (a hang:
    the odd rank's last line). Findings are no stops for next/previous crash."""
    from spectrace.pipeline import Finding

    if entry.source is not None and entry.lineno is not None:
        return entry.source, entry.lineno
    if isinstance(entry.item, Finding):
        first = next((ev for ev in entry.item.evidence if ev.lineno > 0), None)
        return (first.source, first.lineno) if first is not None else None
    return None


def _when(ts_text: str | None) -> str:
    return ts_text.split()[-1] if ts_text else ""


def clip(text: str, limit: int = MESSAGE_MAX) -> str:
    """At most ``limit`` characters, with "…" where text was left out."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _where(rank: str | None, more: str, times: int, when: str) -> str:
    """ "  TP7 +1 ranks  ×12  21:00:18", leaving out what is unknown (no "?" to puzzle over)."""
    parts = [f"{rank}{more}" if rank else "", f"×{times:,}" if times > 1 else "", when]
    return "".join(f"  {p}" for p in parts if p)


def label(entry: Entry) -> Text:
    """Two lines: what and where, then the message (log text stays plain Text)."""
    item, indent = entry.item, "  ↳ " * entry.depth
    if provisional(item):
        return Text.assemble(
            ("… ", "yellow"),
            (item.exception_type, "bold"),
            (_where(item.rank, "", entry.times, _when(item.ts_text)), "cyan"),
            "\n  ",
            (clip(masked(item.message)), "dim"),
        )
    from spectrace.pipeline import Finding

    if isinstance(item, Finding):
        return Text.assemble(
            ("⚠ ", "yellow bold"),
            (item.kind.replace("_", " "), "yellow"),
            "\n  ",
            (clip(masked(item.message), FINDING_MAX), "italic"),
        )
    rank = item.origin_rank or (item.ranks[0] if item.ranks else None)
    more = f" +{len(item.ranks) - 1} ranks" if len(item.ranks) > 1 else ""
    head = (f"{indent}{'✖' if item.root_cause else '•'} ", "red bold" if item.root_cause else "dim")
    where = _where(rank, more, len(item.occurrences), _when(item.first_seen.ts_text))
    return Text.assemble(
        head,
        (item.exception_type, "bold"),
        (where, "cyan"),
        "\n  ",
        " " * len(indent),
        (clip(masked(item.message)), "dim"),
    )


class WrappedOptionList(OptionList):
    """An option list whose wrapped options follow its width when its own scrollbar comes or goes.

    Textual wraps options at the width they are added with and re-wraps them only on a resize; a
    scrollbar appearing takes two columns without a resize. So the same options, shown with or
    without a scrollbar already there, had different line counts (and scrollbar thumbs) by the
    order in which the app's messages happened to arrive.
    """

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        self._clear_caches()


class IncidentList(WrappedOptionList):
    """Selecting a row tells the app to show its detail and jump the log to it."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.entries: list[Entry] = []
        self.findings = 0  # entries that are findings (a missing marker, a hang), not crashes

    def show(self, entries: list[Entry]) -> None:
        """Replace the rows, keeping the highlighted item when it is still listed."""
        old = self.current()
        self.entries = entries
        self.findings = sum(e.finding for e in entries)
        self.clear_options()
        self.add_options([Option(label(e), id=str(n)) for n, e in enumerate(entries)])
        keep = next((n for n, e in enumerate(entries) if old and _same(e, old)), None)
        if keep is not None:
            self.highlighted = keep

    def current(self) -> Entry | None:
        n = self.highlighted
        return self.entries[n] if n is not None and n < len(self.entries) else None


def _same(a: Entry, b: Entry) -> bool:
    return (a.source, a.lineno) == (b.source, b.lineno)
