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
LABEL_MAX = 28  # "EngineCore_DP0 running req" fits; a longer rank name is cut with "…"
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


def first(by_rank: dict[str, list[float]], ranks: Sequence[str]) -> list[tuple[str, list[float]]]:
    """Series of the wanted ranks in their order, then the rest in log order."""
    order = {rank: n for n, rank in enumerate(ranks)}
    return sorted(by_rank.items(), key=lambda kv: order.get(kv[0], len(order)))


class LoadRow(Horizontal):
    """One metric of one rank: its name, the sparkline, the last value before the crash."""

    def __init__(self, metric: str) -> None:
        self.label = Label(metric, classes="load-label")
        self.spark = Sparkline([])
        self.last = Label("", classes="load-last")
        super().__init__(self.label, self.spark, self.last, classes="load-row")
        self.display = False

    def show(self, name: str, values: list[float], width: int, *, crash: bool) -> None:
        self.label.styles.width = width
        self.label.update(name if len(name) < width else name[: width - 2] + "…")
        self.spark.data = values
        last = f"{values[-1]:g}"
        self.last.update(Text(f"{last} ✖", "bold red") if crash else Text(last, "bold"))


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
        self,
        samples: Sequence[LoadSample],
        when: datetime | None,
        when_text: str | None,
        ranks: Sequence[str] = (),
    ) -> None:
        """Sparklines up to ``when``; ``ranks`` first (the crash's origin, the picked rank)."""
        kept = before(samples, when)
        if not samples:
            # the scan keeps samples only as crash context: none in a healthy run either
            self.title.update(Text("load: no samples before any crash", style="dim"))
        elif not kept:
            self.title.update(Text("load: none kept before this crash", style="dim"))
        elif when_text:  # short enough for the narrowest side column (34 cells)
            self.title.update(
                Text.assemble(("load up to", "bold"), (f" ✖ {when_text}", "bold red"))
            )
        else:  # a finding (a hang, a missing marker) has no crash time to end at
            self.title.update(Text("load: the last samples of the log", style="bold"))
        shown = {
            (metric, slot): (f"{rank} {name}", values)
            for metric, name in METRICS
            for slot, (rank, values) in enumerate(first(series(kept, metric), ranks)[:MAX_RANKS])
        }
        width = min(max((len(n) + 1 for n, _ in shown.values()), default=0), LABEL_MAX)
        for key, row in self.rows.items():
            row.display = key in shown
            if key in shown:
                row.show(*shown[key], width=max(width, 12), crash=bool(when_text))
