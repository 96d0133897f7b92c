"""The load leading up to a crash: running requests, accept length, throughput per rank."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Sparkline

if TYPE_CHECKING:
    from spectrace.assemblers.load import LoadSample

METRICS = (
    ("running_req", "running req"),
    ("accept_len", "accept len"),
    ("gen_throughput", "tok/s"),
)
MAX_RANKS = 2
WINDOW = 60  # samples shown before the crash


def before(samples: Sequence[LoadSample], when: datetime | None) -> list[LoadSample]:
    """Samples up to the crash time (all of them when the time is unknown)."""
    if when is None:
        return list(samples)
    return [s for s in samples if s.ts is None or s.ts <= when]


def series(samples: Sequence[LoadSample], metric: str) -> dict[str, list[float]]:
    """Per rank, the last WINDOW values of one metric."""
    out: dict[str, list[float]] = {}
    for s in samples:
        value = getattr(s, metric)
        if value is not None:
            out.setdefault(s.rank or "main", []).append(float(value))
    return {rank: values[-WINDOW:] for rank, values in out.items()}


class LoadRow(Horizontal):
    """One metric of one rank: its name, the sparkline, the last value before the crash."""

    def __init__(self, metric: str) -> None:
        self.label = Label(metric, classes="load-label")
        self.spark = Sparkline([])
        self.last = Label("", classes="load-last")
        super().__init__(self.label, self.spark, self.last, classes="load-row")
        self.display = False

    def show(self, name: str, values: list[float]) -> None:
        self.label.update(name)
        self.spark.data = values
        self.last.update(Text(f"{values[-1]:g} ✖", style="bold red"))


class LoadChart(Vertical):
    """Sparklines that end at the crash; the caption marks the crash time."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Held, not queried: a crash can be selected before this chart has mounted its rows.
        self.title = Label(Text("load: no throughput lines yet", style="dim"), id="load-title")
        self.rows = {(metric, slot): LoadRow(name) for metric, name in METRICS
                     for slot in range(MAX_RANKS)}  # fmt: skip

    def compose(self) -> ComposeResult:
        yield self.title
        yield from self.rows.values()

    def show(
        self, samples: Sequence[LoadSample], when: datetime | None, when_text: str | None
    ) -> None:
        kept = before(samples, when)
        if not kept:
            self.title.update(Text("load: no throughput lines before this point", style="dim"))
        else:
            mark = f" → ✖ crash {when_text}" if when_text else ""
            self.title.update(Text.assemble(("load before the crash", "bold"), (mark, "bold red")))
        for metric, name in METRICS:
            per_rank = list(series(kept, metric).items())[:MAX_RANKS]
            for slot in range(MAX_RANKS):
                row = self.rows[(metric, slot)]
                row.display = slot < len(per_rank)
                if slot < len(per_rank):
                    rank, values = per_rank[slot]
                    row.show(f"{rank} {name}", values)
