"""The rank that never arrived: N-1 ranks time out in one collective, the Nth is the suspect.

NCCL's watchdog prints, on each rank that waited, the collective it waited in:
``WorkNCCL(SeqNum=88231, OpType=ALLREDUCE, ...)``. The ranks that print the same SeqNum and
OpType all reached that call; the rank of the world that did not print it is the one they
waited for. The run's layout (rank_layout.py) names it as the server does (``rank3`` =
``TP3``), so the timeouts point at its crash by arithmetic, not only by time; with no crash
of that rank in the log, it is the hang's suspect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spectrace.assemblers.crash import Crash
from spectrace.incident_model import Incident
from spectrace.rank_layout import RankLayout

_WORK = re.compile(r"WorkNCCL\(SeqNum=(\d+), OpType=(\w+)")
_RANK = re.compile(r"\[(?:PG [^\]]*?)?Rank (\d+)\]")
TIMEOUT_CLASS = "nccl_timeout"


@dataclass(frozen=True, slots=True)
class Missing:
    """One collective that all ranks but ``missing`` timed out in."""

    source: str
    seq: int
    op: str
    waited: tuple[int, ...]  # torch ranks that printed the timeout
    missing: tuple[int, ...]
    names: tuple[str, ...]  # the missing ranks as the server names them


def waiting_rank(crash: Crash) -> int | None:
    """The torch rank a watchdog line speaks for: ``[PG ID 0 ... Rank 3]`` or its writer."""
    m = _RANK.search(" ".join((crash.message, *crash.lines[:1])))
    if m is not None:
        return int(m.group(1))
    return RankLayout().torch_rank(crash.rank) if crash.rank else None


def find_missing(crashes: Sequence[Crash], layout: RankLayout) -> list[Missing]:
    """Collectives in which every rank of the world but one or two timed out."""
    waited: dict[tuple[str, int, str], set[int]] = {}
    for crash in crashes:
        if crash.crash_class != TIMEOUT_CLASS:
            continue
        work = _WORK.search(" ".join((crash.message, *crash.lines[:1])))
        rank = waiting_rank(crash)
        if work is not None and rank is not None:
            waited.setdefault((crash.source, int(work[1]), work[2]), set()).add(rank)
    found, logged = [], _ranks_logged(crashes, layout)
    for (source, seq, op), ranks in waited.items():
        world = layout.world_size if layout.world_size > 1 else max(ranks) + 1
        missing = tuple(sorted(set(range(world)) - ranks))
        # one waiting rank (TP 2) is evidence only when the world is known and the missing rank
        # writes to this same log: per-rank log files would otherwise each name the other
        alone = layout.world_size > 1 and set(missing) <= logged.get(source, set())
        if missing and len(missing) <= max(1, world // 4) and (len(ranks) > 1 or alone):
            names = tuple(layout.server_name(r) or f"rank{r}" for r in missing)
            found.append(Missing(source, seq, op, tuple(sorted(ranks)), missing, names))
    return found


def _ranks_logged(crashes: Sequence[Crash], layout: RankLayout) -> dict[str, set[int]]:
    """Torch ranks that wrote a crash record, per log."""
    out: dict[str, set[int]] = {}
    for crash in crashes:
        rank = layout.torch_rank(crash.rank) if crash.rank else None
        if rank is not None:
            out.setdefault(crash.source, set()).add(rank)
    return out


def name_missing(incidents: list[Incident], crashes: Sequence[Crash],
                 layout: RankLayout) -> list[str]:  # fmt: skip
    """Say on each timeout incident which rank never arrived and link it to that rank's
    crash; return the hang findings for collectives whose missing rank logged no crash."""
    hangs = []
    for gap in find_missing(crashes, layout):
        timeout = next((i for i in incidents if i.crash_class == TIMEOUT_CLASS
                        and i.first_seen.source == gap.source), None)  # fmt: skip
        said = _say(gap)
        origin = _last_crash_of(incidents, gap, layout, timeout)
        if timeout is not None:
            timeout.missing_ranks = list(dict.fromkeys([*timeout.missing_ranks, *gap.names]))
            timeout.hints.insert(0, said + (f"; its crash is {origin.id}" if origin else ""))
            if origin is not None and not timeout.root_cause:
                _relink(incidents, timeout, origin)
        if origin is None:
            hangs.append(f"{said}, and logged no crash: it is the hang's suspect")
    return hangs


def _say(gap: Missing) -> str:
    who = ", ".join(f"{n} (rank{r})" if n != f"rank{r}" else n
                    for n, r in zip(gap.names, gap.missing, strict=True))  # fmt: skip
    return (f"{who} never reached collective SeqNum={gap.seq} {gap.op}: "
            f"the other {_ranks(len(gap.waited))} timed out waiting for it")  # fmt: skip


def _ranks(n: int) -> str:
    return "rank" if n == 1 else f"{n} ranks"


def _last_crash_of(incidents: list[Incident], gap: Missing, layout: RankLayout,
                   timeout: Incident | None) -> Incident | None:  # fmt: skip
    """The missing rank's root-cause crash: the last one before the timeouts were printed."""
    before = timeout.first_seen.lineno if timeout is not None else None
    named = [i for i in incidents
             if i.root_cause and i is not timeout and i.first_seen.source == gap.source
             and any(layout.torch_rank(r) in gap.missing for r in i.ranks if r)]  # fmt: skip
    earlier = [i for i in named if before is None or i.first_seen.lineno < before]
    return max(earlier or named, key=lambda i: i.first_seen.lineno, default=None)


def _relink(incidents: list[Incident], timeout: Incident, origin: Incident) -> None:
    """The timeouts are the collateral of the missing rank's crash, whenever it was."""
    for incident in incidents:
        if timeout.id in incident.collateral:
            incident.collateral.remove(timeout.id)
    timeout.caused_by = origin.id
    origin.collateral.append(timeout.id)
