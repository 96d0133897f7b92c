"""The load leading up to a crash: running requests, accept length, throughput per rank."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Sparkline

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


class LoadChart(Vertical):
    """Sparklines that end at the crash; the caption marks the crash time."""

    def compose(self) -> ComposeResult:
        yield Label(Text("load: no throughput lines yet", style="dim"), id="load-title")
        for metric, name in METRICS:
            for slot in range(MAX_RANKS):
                with Horizontal(classes="load-row", id=f"row-{metric}-{slot}"):
                    yield Label(name, classes="load-label", id=f"label-{metric}-{slot}")
                    yield Sparkline([], id=f"spark-{metric}-{slot}")
                    yield Label("", classes="load-last", id=f"last-{metric}-{slot}")

    def on_mount(self) -> None:
        for row in self.query(".load-row"):
            row.display = False

    def show(
        self, samples: Sequence[LoadSample], when: datetime | None, when_text: str | None
    ) -> None:
        kept = before(samples, when)
        title = self.query_one("#load-title", Label)
        if not kept:
            title.update(Text("load: no throughput lines before this point", style="dim"))
        else:
            mark = f" → ✖ crash {when_text}" if when_text else ""
            title.update(Text.assemble(("load before the crash", "bold"), (mark, "bold red")))
        for metric, name in METRICS:
            per_rank = list(series(kept, metric).items())[:MAX_RANKS]
            for slot in range(MAX_RANKS):
                row = self.query_one(f"#row-{metric}-{slot}")
                row.display = slot < len(per_rank)
                if slot < len(per_rank):
                    rank, values = per_rank[slot]
                    self.query_one(f"#label-{metric}-{slot}", Label).update(f"{rank} {name}")
                    self.query_one(f"#spark-{metric}-{slot}", Sparkline).data = values
                    self.query_one(f"#last-{metric}-{slot}", Label).update(
                        Text(f"{values[-1]:g} ✖", style="bold red")
                    )
