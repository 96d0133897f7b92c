"""Incident + run config -> the worker path that really ran, the flags that decided it.

The one entry of the linking stage, wired from ``run_select`` (which run), ``path_gather`` (the
evidence), ``path_decide`` (the verdict) and ``path_hints`` (what a maintainer would add).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import DECISIVE_FLAGS, DP_FLAGS, FlagValue, RunConfig
from spectrace.assemblers.run_shown import apart_said, gate, text_shows_run
from spectrace.assemblers.shapes import find_shape_mismatch
from spectrace.engine_hints import engine_of, localize
from spectrace.explain import explain
from spectrace.incident_model import Incident
from spectrace.path_decide import decide
from spectrace.path_gather import path_evidence
from spectrace.path_hints import add_hints
from spectrace.path_mentions import Mention
from spectrace.path_missing import method_evidence
from spectrace.path_trace import RULE, PathTrace, account, note
from spectrace.run_select import crash_engine, run_for
from spectrace.stacks.pasted import PastedDump
from spectrace.worker_path import WorkerPath

__all__ = ["WorkerPath", "decide", "decisive_flags", "global_worker_path", "link"]


def global_worker_path(config: RunConfig) -> WorkerPath:
    """The run's worker path from config evidence alone (no crash frames to go by)."""
    evidence = config.path_evidence + method_evidence(config)
    return decide(sorted(evidence, key=lambda e: e.points_to is None), config)


def decisive_flags(config: RunConfig) -> dict[str, FlagValue]:
    """The flags that decide the path or the shapes; the DP ones only while DP is in use,
    since every SGLang dump prints their defaults."""
    flags = config.flags
    dp = flags.get("dp_size")
    attention = flags.get("enable_dp_attention")
    dp_on = (attention is not None and attention.value is True) or (
        dp is not None and isinstance(dp.value, int) and dp.value > 1
    )
    return {
        name: flags[name]
        for name in DECISIVE_FLAGS
        if name in flags and (name not in DP_FLAGS or (dp_on and flags[name].value is not None))
    }


def _messages(incident: Incident) -> tuple[str, ...]:
    messages = [incident.message, *(link.message for link in reversed(incident.chain))]
    return tuple(m for m in messages if m)


def link(
    incident: Incident,
    config: RunConfig,
    load: LoadSample | None,
    dumps: Sequence[PastedDump] = (),
    others: Sequence[Incident] = (),
    mentions: Sequence[Mention] = (),
    trace: PathTrace | None = None,
) -> None:
    """Fill the incident's worker path, decisive flags, shape explanation, load and hints.
    ``dumps``: py-spy / faulthandler dumps pasted in the logs; ``others``: every incident;
    ``mentions``: worker files the logs' sentences name with a line number; ``trace``: the
    readers' findings are noted there and the verdict carries them (``--explain-path``)."""
    config = crash_engine(incident, run_for(incident, config))
    evidence = path_evidence(incident, config, load, dumps, others, mentions, trace)
    path = decide(evidence, config, engine_of(incident, config))
    dumped = load is not None and load.kind == "crash_dump"  # vLLM's dump of the crashing step
    shown = text_shows_run(incident, config, mentions) or dumped  # the engine's own record: it ran
    incident.worker_path = gate(path, shown, apart_said(incident, mentions))
    if trace is not None:
        if not shown and (path.value != "unknown" or path.conditional):
            note(trace, RULE, "run-shown gate", False, "the text shows no run of its own: "
                 f"{path.conditional or path.value} was withheld")  # fmt: skip
        trace.steps[:] = account(trace, incident, config, mentions, incident.worker_path)
        incident.worker_path = replace(incident.worker_path, trace=tuple(trace.steps))
    incident.flags = decisive_flags(config)
    incident.load = load
    for message in _messages(incident):
        mismatch = find_shape_mismatch(message)
        if mismatch is not None:
            incident.shape_mismatch = mismatch
            incident.explanation = explain(mismatch, config, load)
            break
    add_hints(incident, incident.worker_path, config.era)
    incident.hints = localize(incident.hints, engine_of(incident, config))
