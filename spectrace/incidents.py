"""Crashes -> incidents: one per signature, ranks listed, origin first, collateral linked."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from spectrace.assemblers.crash import Crash, Frame
from spectrace.incident_causes import (
    borrow_times,
    echoes,
    peer_joins,
    prefer_named_causes,
    self_kills,
)
from spectrace.incident_copies import drop_told_again, fold_cut_copies, settle_mentions
from spectrace.incident_model import Incident, Occurrence, rank_frames
from spectrace.incident_storms import (
    merge_repeats,
    settle_frames,
    storm_joins,
    storm_signatures,
)

# Bumped whenever the fingerprint inputs change: baselines then need re-writing.
SIGNATURE_VERSION = "1"
SIGNATURE_FRAMES = 3
RUN_GAP = timedelta(hours=1)  # inputs whose incidents are further apart are different runs

# Sentry-style parameterisation: one alternation, one pass. Every branch starts with a literal
# character or a word boundary (no optional prefix), which keeps it ~3x faster than otherwise.
_MASKS = re.compile(
    r"(?P<str>'[^'\n]*'|\"[^\"\n]*\")"
    r"|(?P<path>/[\w.@+\-]+(?:/[\w.@+\-]+)+/?)"
    r"|\b(?:(?P<uuid>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
    r"|(?P<ts>\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)"
    r"|(?P<ip>\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?)"
    r"|(?P<hex>0[xX][0-9a-fA-F]+|[0-9a-fA-F]{8,})\b)"
    r"|(?P<num>(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
)

# Frames that are not the server's own code: stdlib, frozen importlib, and third-party
# site-packages other than the serving frameworks themselves.
_APP_PACKAGES = ("sglang", "vllm", "tensorrt_llm", "spectrace_engine")
_NOT_APP = re.compile(
    r"^<|(?:^|/)lib/python\d[\d.]*/(?!site-packages/|dist-packages/)"
    r"|(?:^|/)(?:site|dist)-packages/(?!(?:" + "|".join(_APP_PACKAGES) + r")/)"
)


def _mask(match: re.Match[str]) -> str:
    kind, text = match.lastgroup, match.group()
    if kind == "hex" and text.isdigit():
        return "<num>"
    if kind == "hex" and text.isalpha():  # a word made of a-f letters only ("deadbeef" stays)
        return text
    return f"<{kind}>"


def mask_message(message: str) -> str:
    """The message with every run-specific value replaced by ``<kind>``, so reruns group."""
    masked = _MASKS.sub(_mask, message)
    return " ".join(masked.split())


def _posix(path: str) -> str:
    return path.replace("\\", "/")


def app_frames(frames: Sequence[Frame]) -> tuple[Frame, ...]:
    """The server's own frames (not torch, stdlib, other libraries); all frames if none."""
    own = tuple(f for f in frames if not _NOT_APP.search(_posix(f.file)))
    return own or tuple(frames)


def signature_frames(frames: Sequence[Frame]) -> tuple[str, ...]:
    """Innermost app frames as ``basename:function``: line numbers never count."""
    chosen = app_frames(frames)[-SIGNATURE_FRAMES:]
    return tuple(f"{_posix(f.file).rsplit('/', 1)[-1]}:{f.function}" for f in chosen)


def signature(exception_type: str, message: str, frames: Sequence[Frame] = ()) -> str:
    """Stable 16-hex fingerprint: type, masked message, innermost app frames."""
    parts = [SIGNATURE_VERSION, exception_type.strip(), mask_message(message)]
    parts.extend(signature_frames(frames))
    return hashlib.sha1("\x1f".join(parts).encode("utf-8", "replace")).hexdigest()[:16]


def crash_signature(crash: Crash) -> str:
    return signature(crash.exception_type, crash.message, crash.frames)


def rank_key(rank: str) -> tuple[tuple[int, int | str], ...]:
    """Natural order: TP2 < TP10, "DP0 TP3" < "DP1 TP0"."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", rank) if p)


def _naive_utc(ts: datetime) -> datetime:
    return ts.astimezone(UTC).replace(tzinfo=None) if ts.tzinfo else ts


def _time_order(crashes: Sequence[Crash]) -> list[tuple[tuple[datetime, int, int], Crash]]:
    """Sort key per crash: time (inherited from the previous stamped crash of its file when
    it has none), then file order, then byte offset; stable across inputs."""
    sources: dict[str, int] = {}
    last_ts: dict[str, datetime] = {}
    keyed = []
    for crash in sorted(crashes, key=lambda c: (c.source, c.offset)):
        src = sources.setdefault(crash.source, len(sources))
        ts = _naive_utc(crash.ts) if crash.ts else last_ts.get(crash.source, datetime.min)
        last_ts[crash.source] = ts
        keyed.append(((ts, src, crash.offset), crash))
    keyed.sort(key=lambda kc: kc[0])
    return keyed


def _occurrence(crash: Crash) -> Occurrence:
    return Occurrence(crash.source, crash.lineno, crash.offset, crash.rank, crash.stream,
                      crash.ts, crash.ts_text, crash.quoted)  # fmt: skip


_SEVERITY_ORDER = {"warning": 0, "error": 1, "fatal": 2}


def _incident(number: int, sig: str, group: list[Crash]) -> Incident:
    """One incident from its crashes, already in time order (the first is the origin)."""
    first = group[0]
    ranks = list(dict.fromkeys(c.rank for c in group if c.rank))
    origin = ranks[0] if ranks else None
    ranks = ranks[:1] + sorted(ranks[1:], key=rank_key)
    severity = max((c.severity for c in group), key=lambda s: _SEVERITY_ORDER.get(s, 1))
    hints = list(dict.fromkeys(h for c in group for h in c.hints))
    occurrences = [_occurrence(c) for c in group]
    return Incident(
        id=f"I{number}",
        signature=sig,
        kind=first.kind.value,
        exception_type=first.exception_type,
        message=first.message,
        crash_class=first.crash_class,
        severity=severity,
        root_cause=not all(c.collateral or c.mentioned for c in group),
        caused_by=None,
        ranks=ranks,
        origin_rank=origin,
        first_seen=_occurrence(first),
        occurrences=occurrences,
        frames=first.frames,
        chain=first.chain,
        lines=first.lines,
        header=first.header,
        rule_id=first.rule_id,
        hints=hints,
        native_frames=first.native_frames,
        rank_frames=rank_frames([c.frames for c in group], occurrences),
        mentioned=first.mentioned if all(c.mentioned for c in group) else None,
    )


def _link_collateral(incidents: list[Incident]) -> None:
    """Attach each collateral incident to the nearest earlier root cause (else the next one)
    of the same run: logs of runs hours apart given together are never linked to each other.

    With no root cause in a run, its earliest error or fatal incident is promoted so the run
    still fails; a run of warnings only (a refused request, a suspected hang) has none.
    """
    for run in _runs(incidents):
        settle_mentions(run)
        self_kills(run)
        if not any(i.root_cause for i in run):
            serious = next((i for i in run if i.severity != "warning"), None)
            if serious is not None:
                serious.root_cause = True
        prefer_named_causes(run)
        echoes(run)
        borrow_times(run)
        first_root = next((i for i in run if i.root_cause), None)
        last_root: Incident | None = None
        for incident in run:  # already in order of first occurrence
            if incident.mentioned:
                continue  # a report of an error in prose: no process's consequence of anything
            if incident.root_cause:
                last_root = incident
                continue
            root = last_root or first_root
            if root is not None:
                incident.caused_by = root.id
                root.collateral.append(incident.id)


def _runs(incidents: list[Incident]) -> list[list[Incident]]:
    """Incidents grouped by the run their first input belongs to: inputs whose incident times
    lie within RUN_GAP of each other, or that carry no time, are one run (one file per rank)."""
    spans: dict[str, tuple[datetime, datetime] | None] = {}
    for i in incidents:
        source = i.first_seen.source
        ts = i.first_seen.ts.replace(tzinfo=None) if i.first_seen.ts else None  # mixed zones
        old = spans.get(source, (ts, ts) if ts else None)
        spans[source] = None if ts is None or old is None else (min(old[0], ts), max(old[1], ts))
    group: dict[str, int] = {}
    runs: list[list[tuple[datetime, datetime] | None]] = []
    for source, span in spans.items():
        near = next(
            (n for n, run in enumerate(runs) if any(_near(span, other) for other in run)), None
        )
        if near is None:
            near = len(runs)
            runs.append([])
        runs[near].append(span)
        group[source] = near
    out: list[list[Incident]] = [[] for _ in runs]
    for i in incidents:
        out[group[i.first_seen.source]].append(i)
    return out


def _near(a: tuple[datetime, datetime] | None, b: tuple[datetime, datetime] | None) -> bool:
    return a is None or b is None or (a[0] - RUN_GAP <= b[1] and b[0] - RUN_GAP <= a[1])


def build_incidents(crashes: Sequence[Crash]) -> list[Incident]:
    """Group crashes by signature into incidents numbered by first occurrence in time."""
    groups: dict[str, list[Crash]] = {}
    ordered = [crash for _, crash in _time_order(drop_told_again(crashes))]
    joins = peer_joins(ordered)
    storms = storm_joins([c for c in ordered if id(c) not in joins], mask_message)
    keys = storm_signatures(ordered, storms, crash_signature)
    for crash in ordered:
        if id(crash) not in joins and id(crash) not in storms:
            groups.setdefault(keys.get(id(crash)) or crash_signature(crash), []).append(crash)
    for crash in ordered:  # after their peers: the named crash heads the incident
        if (peer := joins.get(id(crash)) or storms.get(id(crash))) is not None:
            head = storms.get(id(peer), peer)
            groups[keys.get(id(head)) or crash_signature(head)].append(crash)
    incidents = [_incident(n, sig, group) for n, (sig, group) in enumerate(groups.items(), 1)]
    stormy = {id(c) for c in ordered if id(c) in storms or c.interleaved}
    for incident, group in zip(incidents, groups.values(), strict=True):
        if any(id(c) in stormy for c in group):
            settle_frames(incident, group, crash_signature)
    incidents = fold_cut_copies(merge_repeats(incidents, mask_message))
    _link_collateral(incidents)
    return incidents
