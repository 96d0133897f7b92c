"""Verdicts computed from a bench table: where speculation stops paying, and the issue's goal.

Config roles come from the columns: ``worker == "none"`` is plain decode, a speculative config
without a threshold is "spec", one with a threshold is dynamic disable. A dynamic-disable config
is compared with the spec config of its own worker (the speculation it runs while on) and:

* latency: its mean end-to-end latency at the lowest level is within ``tol`` of that spec's;
* throughput: its throughput at the highest level is within ``tol`` of plain decode's;
* sweep: its geometric-mean throughput over all levels beats both plain's and that spec's
  (a geometric mean weighs every level's ratio equally, whatever its absolute tok/s).

A check whose numbers are missing (a crashed run, a level not measured) is ``None``, never a pass.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import polars as pl

TOLERANCE = 0.05


@dataclass(frozen=True, slots=True)
class Check:
    """One yes/no with the two numbers it compared (``passed`` None: not measurable)."""

    passed: bool | None
    value: float | None
    reference: float | None

    @property
    def ratio(self) -> float | None:
        return self.value / self.reference if self.value and self.reference else None


@dataclass(frozen=True, slots=True)
class GoalVerdict:
    config: str
    threshold: int | None
    spec_reference: str | None
    latency_at_low: Check
    throughput_at_high: Check
    beats_both: Check
    geomean_plain: float | None
    geomean_spec: float | None
    # issue 13: throughput / max(plain, spec reference) per level; at_every_level: all >= 1 - tol
    vs_best_by_level: dict[int, float] = field(default_factory=dict)
    at_every_level: bool | None = None
    levels: tuple[int, ...] = ()  # the levels it was judged over (its own runs)

    @property
    def met(self) -> bool:
        return all(
            c.passed for c in (self.latency_at_low, self.throughput_at_high, self.beats_both)
        )


@dataclass(frozen=True, slots=True)
class Verdicts:
    levels: tuple[int, ...]
    spec_stops_paying_at: int | None  # lowest level where plain >= the best spec config
    best_spec_by_level: dict[int, str]
    goals: tuple[GoalVerdict, ...]
    noise_at_low: float | None = None  # latency spread of configs that ran the same steps at c lo
    # spec config -> (wins over plain at its lowest level, loses to plain at its highest)
    crossover: dict[str, tuple[bool | None, bool | None]] = field(default_factory=dict)
    crossover_levels: dict[str, tuple[int, int]] = field(default_factory=dict)

    def to_json(self) -> dict:
        out = asdict(self)
        out["best_spec_by_level"] = {str(k): v for k, v in self.best_spec_by_level.items()}
        out["goals"] = [
            {**asdict(g), "met": g.met, "vs_best_by_level": {str(k): v for k, v in
                                                           g.vs_best_by_level.items()}}
            for g in self.goals
        ]  # fmt: skip
        return out


def _value(df: pl.DataFrame, config: str, level: int, column: str) -> float | None:
    part = df.filter(
        (pl.col("config") == config) & (pl.col("concurrency") == level) & (pl.col("status") == "ok")
    )
    return None if part.is_empty() else part[column][0]


def _roles(df: pl.DataFrame) -> tuple[str | None, list[str], list[str]]:
    first = df.unique(subset="config", keep="first", maintain_order=True)
    plain = first.filter(pl.col("worker") == "none")["config"].to_list()
    spec = first.filter((pl.col("worker") != "none") & pl.col("threshold").is_null())
    dd = first.filter(pl.col("threshold").is_not_null())["config"].to_list()
    return (plain[0] if plain else None), spec["config"].to_list(), dd


def _geomean(df: pl.DataFrame, config: str | None, levels: tuple[int, ...]) -> float | None:
    vals = [_value(df, config, lv, "gen_throughput") if config else None for lv in levels]
    if any(v is None or v <= 0 for v in vals):
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))  # type: ignore[arg-type]


def spec_stops_paying(
    df: pl.DataFrame, plain: str | None, spec: list[str], levels: tuple[int, ...]
) -> tuple[int | None, dict[int, str]]:
    """Lowest level where plain's throughput >= the best spec config's, and the best per level."""
    best: dict[int, str] = {}
    stop = None
    for lv in levels:
        scored = [(v, name) for name in spec if (v := _value(df, name, lv, "gen_throughput"))]
        p = _value(df, plain, lv, "gen_throughput") if plain else None
        if not scored or p is None:
            continue
        top, best[lv] = max(scored)
        if stop is None and p >= top:
            stop = lv
    return stop, best


def compute_verdicts(df: pl.DataFrame, tol: float = TOLERANCE) -> Verdicts:
    """All verdicts for one model's sweep (one table per model)."""
    levels = tuple(sorted(set(df["concurrency"].to_list())))
    plain, spec, dd = _roles(df)
    stop, best = spec_stops_paying(df, plain, spec, levels)
    goals = tuple(_goal(df, name, plain, spec, levels, tol) for name in dd)
    cross = {name: _crossover(df, name, plain, levels) for name in spec}
    ranges = {name: crossover_range(df, name, plain, levels) for name in spec}
    return Verdicts(levels, stop, best, goals, _noise(df, goals, levels[0]), cross, ranges)


def _crossover(
    df: pl.DataFrame, name: str, plain: str | None, levels: tuple[int, ...]
) -> tuple[bool | None, bool | None]:
    """Does ``name`` beat plain at its lowest measured level, and lose to it at its highest?
    (A config swept over fewer levels, the tree stopped where its 16 rows a request no longer
    fit, is judged over its own range: ``crossover_range``.)"""

    def beats(level: int) -> bool | None:
        v, p = _value(df, name, level, "gen_throughput"), _ref(df, plain, level, "gen_throughput")
        return None if v is None or p is None else v > p

    lo, hi = crossover_range(df, name, plain, levels)
    low, high = beats(lo), beats(hi)
    return low, None if high is None else not high


def crossover_range(
    df: pl.DataFrame, name: str, plain: str | None, levels: tuple[int, ...]
) -> tuple[int, int]:
    """The lowest and highest levels where both ``name`` and plain have a finished run (the
    sweep's own ends where there are none)."""
    both = [lv for lv in levels if _value(df, name, lv, "gen_throughput") is not None
            and _ref(df, plain, lv, "gen_throughput") is not None]  # fmt: skip
    return (both[0], both[-1]) if both else (levels[0], levels[-1])


def _vs_best(
    df: pl.DataFrame, name: str, plain: str | None, ref: str | None, levels: tuple[int, ...]
) -> dict[int, float]:
    """Throughput over the better of plain and the spec reference, at each measured level."""
    out = {}
    for lv in levels:
        v = _value(df, name, lv, "gen_throughput")
        best = [x for c in (plain, ref) if (x := _ref(df, c, lv, "gen_throughput"))]
        if v is not None and best:
            out[lv] = v / max(best)
    return out


def _noise(df: pl.DataFrame, goals: tuple[GoalVerdict, ...], lo: int) -> float | None:
    """Latency spread at the lowest level of the runs that did the spec reference's very steps."""
    # a threshold at or above the level never fires: those dynamic-disable runs are pure spec
    refs = {g.spec_reference for g in goals} - {None}
    if len(refs) != 1:
        return None
    same = [g.config for g in goals if _value(df, g.config, lo, "spec_step_share") == 1.0]
    lats = [_value(df, c, lo, "latency_ms_mean") for c in [*refs, *same]]
    vals = [v for v in lats if v]
    return max(vals) / min(vals) - 1.0 if len(vals) >= 2 else None


def _goal(
    df: pl.DataFrame,
    name: str,
    plain: str | None,
    spec: list[str],
    levels: tuple[int, ...],
    tol: float,
) -> GoalVerdict:
    row = df.filter(pl.col("config") == name).row(0, named=True)
    same = [s for s in spec if df.filter(pl.col("config") == s)["worker"][0] == row["worker"]]
    ref = same[0] if same else (spec[0] if spec else None)
    levels = own_levels(df, name, levels)  # a config swept over fewer levels: judged over its own
    lo, hi = levels[0], levels[-1]
    lat, lat_ref = _value(df, name, lo, "latency_ms_mean"), _ref(df, ref, lo, "latency_ms_mean")
    thr, thr_ref = _value(df, name, hi, "gen_throughput"), _ref(df, plain, hi, "gen_throughput")
    g, g_plain, g_spec = (_geomean(df, c, levels) for c in (name, plain, ref))
    beats = None if None in (g, g_plain, g_spec) else g > max(g_plain, g_spec)  # type: ignore[type-var]
    vs_best = _vs_best(df, name, plain, ref, levels)
    every = min(vs_best.values()) >= 1 - tol if len(vs_best) == len(levels) else None
    return GoalVerdict(
        name,
        row["threshold"],
        ref,
        Check(None if None in (lat, lat_ref) else lat <= lat_ref * (1 + tol), lat, lat_ref),
        Check(None if None in (thr, thr_ref) else thr >= thr_ref * (1 - tol), thr, thr_ref),
        Check(beats, g, None if None in (g_plain, g_spec) else max(g_plain, g_spec)),
        g_plain,
        g_spec,
        vs_best,
        every,
        levels,
    )


def own_levels(df: pl.DataFrame, name: str, levels: tuple[int, ...]) -> tuple[int, ...]:
    """The levels ``name`` has a row at, finished or crashed (all of them if it has none)."""
    ran = set(df.filter(pl.col("config") == name)["concurrency"].to_list())
    return tuple(lv for lv in levels if lv in ran) or levels


def _ref(df: pl.DataFrame, config: str | None, level: int, column: str) -> float | None:
    return _value(df, config, level, column) if config else None


def _yes(passed: bool | None) -> str:
    return {True: "yes", False: "no", None: "n/a"}[passed]


def _num(v: float | None, unit: str) -> str:
    return "-" if v is None else f"{v:,.1f} {unit}"


def verdict_lines(v: Verdicts, tol: float = TOLERANCE) -> list[str]:
    """Plain sentences for the console and the markdown file (numbers included)."""
    lo, hi = v.levels[0], v.levels[-1]
    stop = (
        f"concurrency {v.spec_stops_paying_at}"
        if v.spec_stops_paying_at is not None
        else f"never in this sweep (c {lo}..{hi})"
    )
    lines = [f"speculation stops paying (plain >= best spec config) at: {stop}"]
    if v.noise_at_low is not None:
        lines.append(
            f"noise: at c {lo} the spec reference and the dynamic-disable configs ran the same "
            f"steps; their mean latencies spread by {v.noise_at_low:.1%} (one run each)"
        )
    for g in v.goals:
        lat, thr, sweep = g.latency_at_low, g.throughput_at_high, g.beats_both
        lo, hi = (g.levels[0], g.levels[-1]) if g.levels else (v.levels[0], v.levels[-1])
        lines += [
            f"{g.config} (threshold {g.threshold}, spec reference {g.spec_reference}): "
            f"goal {'met' if g.met else 'not met'}",
            f"  latency at c {lo} within {tol:.0%} of {g.spec_reference}: {_yes(lat.passed)} "
            f"({_num(lat.value, 'ms')} vs {_num(lat.reference, 'ms')})",
            f"  throughput at c {hi} within {tol:.0%} of plain: {_yes(thr.passed)} "
            f"({_num(thr.value, 'tok/s')} vs {_num(thr.reference, 'tok/s')})",
            f"  beats both over the sweep (geometric-mean tok/s): {_yes(sweep.passed)} "
            f"({_num(sweep.value, '')}vs plain {_num(g.geomean_plain, '')}"
            f"and spec {_num(g.geomean_spec, '').rstrip()})",
        ]
    return lines + issue13_lines(v, tol)


def issue13_lines(v: Verdicts, tol: float) -> list[str]:
    """The crossover of each spec config, and dynamic disable against the better side per level."""
    lo, hi = v.levels[0], v.levels[-1]
    lines = []
    for name, (wins, loses) in v.crossover.items():
        a, b = v.crossover_levels.get(name, (lo, hi))
        lines.append(
            f"{name}: beats plain at c {a}: {_yes(wins)}; loses to plain at c {b}: {_yes(loses)}"
        )
    for g in v.goals:
        worst = min(g.vs_best_by_level.items(), key=lambda kv: kv[1], default=None)
        lines.append(
            f"{g.config}: within {tol:.0%} of the better of plain and {g.spec_reference} at every "
            f"level: {_yes(g.at_every_level)}"
            + (f" (worst c {worst[0]}: {worst[1]:.1%} of the better)" if worst else "")
        )
    return lines
