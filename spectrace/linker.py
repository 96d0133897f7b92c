"""Incident + run config -> the worker path that really ran, the flags that decided it."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from spectrace.assemblers.config_path import PLAIN_REASON
from spectrace.assemblers.dump_path import EAGLE_FAMILY, V2_ONLY_ERAS
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import (
    DECISIVE_FLAGS,
    DP_FLAGS,
    Evidence,
    FlagValue,
    RunConfig,
    trim,
)
from spectrace.assemblers.sglang_eras import Version, newest_at, parse_release
from spectrace.assemblers.shapes import find_shape_mismatch
from spectrace.assemblers.spec_prose import PROSE_REASON, eagle_family
from spectrace.engine_hints import engine_of, frame_engines, localize
from spectrace.explain import explain
from spectrace.incident_model import Incident
from spectrace.path_base import base_evidence, frame_sites
from spectrace.path_evidence import (
    StackFrame,
    dump_frames,
    frame_votes,
    frames_era,
    incident_frames,
    message_votes,
    native_votes,
    peer_frames,
    peer_message_votes,
    rank_frames,
    speculates,
)
from spectrace.path_family import family_evidence, sglang_family_evidence
from spectrace.path_frames import family_of, frameworks_of_class
from spectrace.path_mentions import KIND as MENTION
from spectrace.path_mentions import (
    MESSAGE_KIND,
    Mention,
    base_inputs,
    mention_votes,
    message_names,
    named_families,
)
from spectrace.path_missing import (
    describe,
    frames_engine,
    method_evidence,
    missing_evidence,
    proposer_condition,
    switch_condition,
)
from spectrace.path_named import named_family_evidence
from spectrace.path_unnamed import other_workers
from spectrace.stacks.pasted import PastedDump
from spectrace.worker_path import WorkerPath

_HINT_V1 = (
    "{subject} on the v1 worker (EAGLEWorker, eagle_worker.py): code changed only in "
    "eagle_worker_v2.py / eagle_info_v2.py never ran here. SGLang 0.5.5-0.5.12 picks v2 "
    "(EAGLEWorkerV2) only with the overlap scheduler on, which needs SGLANG_ENABLE_SPEC_V2=True "
    "(default from 0.5.11) and speculative_eagle_topk=1."
)
_HINT_V2_TOPK = (
    "This run is on the v2 worker (EAGLEWorkerV2) with speculative_eagle_topk={topk}, but spec "
    "v2 supports topk=1 only; an auto-chosen topk > 1 is not refused at start-up and crashes "
    "later (e.g. in _draft_extend_for_decode)."
)
_HINT_COUPLING = (
    "v1 couples speculation into batch preparation, CUDA-graph shapes and token allocation: a "
    "step that runs without speculation must also drop the batch's spec_info (on the "
    "ScheduleBatch, before prepare_for_decode), or shapes sized bs×N meet plain-decode ones. "
    "Per-step switching fits the v2 overlap path better (topk=1)."
)


def _loops_decide(
    config: RunConfig, frames: Sequence[StackFrame], load: LoadSample | None, era: str | None
) -> bool:
    """Event loops tell v1 from v2 only on EAGLE runs before 0.5.13.

    With no dump to say so, the run must show speculation itself (an algorithm flag from
    the command line, a spec warning, a speculative worker's frame, an ``accept len`` in the
    load lines): every sglang server, speculative or not, runs one of the two loops.
    """
    if era in V2_ONLY_ERAS or config.engine == "vllm":
        return False  # 0.5.13+: the normal loop drives the v2 worker synchronously
    flag = config.flags.get("speculative_algorithm")
    if flag is not None and (flag.origin == "server_args" or flag.value is not None):
        return str(flag.value).upper() in EAGLE_FAMILY
    if any(e.points_to in ("v1", "v2") for e in config.path_evidence):
        return True
    named = config.flags.get("named_algorithm")  # stated as the run's: its era's condition
    if named is not None and eagle_family(str(named.value)) and any(
        e.condition and e.reason.startswith(PROSE_REASON) for e in config.path_evidence
    ):
        return True
    if "eagle_draft_graph" in config.flags:  # only the EAGLE-type workers capture a draft graph
        return True
    if load is not None and load.accept_len is not None:  # NGRAM logs accept len too
        named = config.flags.get("named_algorithm")
        return named is None or eagle_family(str(named.value))
    return speculates(frames)


def _unnamed(
    config: RunConfig, load: LoadSample | None, era: str | None, newest: Version | None
) -> dict[str, str] | None:
    """The other algorithms' workers by loop path when only a decode line's ``accept len``
    shows the run speculates (every algorithm prints it): no flag, name, warning or EAGLE
    draft-graph line says which algorithm ran (``path_unnamed``)."""
    if load is None or load.accept_len is None or config.engine == "vllm":
        return None
    if {"speculative_algorithm", "named_algorithm", "eagle_draft_graph"} & config.flags.keys():
        return None
    if any(e.points_to in ("v1", "v2") for e in config.path_evidence):
        return None
    release = parse_release(config.version) if config.version else None
    return other_workers(era, release, newest)


def _config_votes(config: RunConfig, load: LoadSample | None) -> list[Evidence]:
    """The config's evidence; a plain command's "none" yields to a decode line's accept len
    (the log's run speculated: the command shown was another one)."""
    if load is None or load.accept_len is None:
        return list(config.path_evidence)
    return [e for e in config.path_evidence if not e.reason.startswith(PLAIN_REASON)]


def _counters(config: RunConfig, load: LoadSample | None) -> list[Evidence]:
    """The decode line whose acceptance counters prove the run speculates, shown when no
    flag says which algorithm ran (the loop's vote rests on it)."""
    if load is None or load.accept_len is None or "speculative_algorithm" in config.flags:
        return []
    text = ", ".join(f"{key}: {value}" for key, value in load.fields.items())
    named = config.flags.get("named_algorithm")
    algo = (f"the text names {named.value} (line {named.lineno})" if named is not None
            else "no algorithm in the log: a loop's vote holds for the EAGLE family only")  # fmt: skip
    reason = f"decode line reports accept len {load.accept_len}: the run speculates; {algo}"
    return [Evidence(load.source, load.lineno, trim(text), reason)]


def path_evidence(
    incident: Incident,
    config: RunConfig,
    load: LoadSample | None = None,
    dumps: Sequence[PastedDump] = (),
    others: Sequence[Incident] = (),
    mentions: Sequence[Mention] = (),
) -> list[Evidence]:
    """Everything that points at a worker, strongest first: the crash's own frames (a cut
    traceback's last one too), the classes its message names, the frames of dumps pasted
    into its run, the classes its run's other crashes name, then the run's config (dump,
    warnings, launch command); with none of these pointing, the run's other crashes' frames,
    a family's file under the runner's draft step, then worker files a sentence names."""
    own = incident_frames(incident)
    ranks = rank_frames(incident)  # the same failure's other records: their frames count too
    since = config.start[1] if config.start and config.start[0] == incident.first_seen.source else 0
    pasted = dump_frames(incident, dumps, since)
    era = config.era or frames_era(own + ranks + pasted)  # files only some releases hold
    loops = _loops_decide(config, own + ranks + pasted, load, era)
    when = incident.first_seen.ts  # the code that crashed is no newer than its day
    newest = newest_at(when.date()) if when is not None and config.engine != "vllm" else None
    unnamed = _unnamed(config, load, era, newest)  # accept len alone: any algorithm
    votes = message_votes(incident, config.engine)
    evidence = frame_votes(own, loops, era, newest, unnamed)
    ranked = frame_votes(ranks, loops, era, newest, unnamed)
    evidence += [e for e in ranked if e.points_to or e.condition]
    evidence += votes + native_votes(incident) + message_names(incident)
    evidence += frame_votes(pasted, loops, era, newest, unnamed)
    evidence += _counters(config, load) if loops else []
    evidence += peer_message_votes(incident, others, since, config.engine)
    evidence += _config_votes(config, load) + method_evidence(config)
    if not _settled(evidence):  # nothing of its own: the run's other crashes
        peers = peer_frames(incident, others, since)
        loops = loops or _loops_decide(config, peers, load, era)
        evidence += [
            e for e in frame_votes(peers, loops, era, newest) if e.points_to or e.condition
        ]
    if not _settled(evidence):  # a family's file under the runner's draft step
        evidence = family_evidence(own + ranks + pasted) + evidence
    if not _settled(evidence, conditions=True):  # an SGLang family's own file
        found = sglang_family_evidence(own + ranks + pasted, config, newest)
        same = {(e.source, e.lineno, e.text) for e in found}
        evidence = found + [e for e in evidence if (e.source, e.lineno, e.text) not in same]
    if not _settled(evidence, conditions=True):  # a proposer base: its subclass by the family
        plugin = "platform_named" in config.flags or "platform" in config.flags
        sites, families = base_inputs(incident, mentions, since, plugin)
        day = when.date() if when is not None else None
        based = base_evidence(frame_sites(own + ranks + pasted) + sites, config, families, day)
        evidence = based + evidence
        if not based:  # a vLLM run's method named only in words
            engine = frames_engine(evidence) or engine_of(incident, config)
            named = [] if _plain_vllm_launch(config) else named_families(incident, mentions, since)
            backend = config.flags.get("backend")  # trtllm-build, --backend trt
            flow = any("/tensorrt_llm/runtime/" in sf.frame.file for sf in own + ranks) or (
                backend is not None and str(backend.value) in ("tensorrt", "trt"))  # fmt: skip
            evidence += named_family_evidence(named, config, engine, flow)
    if not _settled(evidence):  # weakest: `eagle_worker_v2.py:828` in prose
        conditions = [e.condition for e in evidence if e.condition]
        evidence += mention_votes(incident, mentions, since, conditions)
    # stable: voters first, strongest first; an algorithm the prose names after them all
    evidence.sort(key=lambda e: (e.points_to is None, e.reason.startswith(PROSE_REASON)))
    return evidence


def _plain_vllm_launch(config: RunConfig) -> bool:
    """The run's own vLLM command is shown and sets no speculative option: a method its
    sentences name ("ngram was disabled", "MTP has been turned off") is not the run's."""
    flags = config.flags
    launched = any(f.origin == "launch_command" for f in flags.values())
    spec = any(word in name for name in flags for word in ("specul", "draft", "num_spec"))
    return config.engine == "vllm" and launched and not spec


def _settled(evidence: Sequence[Evidence], conditions: bool = False) -> bool:
    """Whether something points (or, with ``conditions``, gives a conditional); an algorithm
    only the report's sentences name leaves room for every weaker kind of evidence."""
    return any((e.points_to or (conditions and e.condition))
               and not e.reason.startswith(PROSE_REASON) for e in evidence)  # fmt: skip


def _kind(evidence: Evidence) -> str:
    for prefix, kind in (
        ("traceback frame", "traceback frames"),
        ("cut traceback frame", "traceback frames"),
        ("peer traceback frame", "traceback frames"),
        ("py-spy frame", "stack dump frames"),
        ("faulthandler frame", "stack dump frames"),
        ("exception message", "exception messages"),
        (MENTION, "files named in the text"),
        ("IPython traceback frame", "traceback frames"),
        ("runtime warning", "runtime warnings"),
        ("log line written by", "log lines of worker modules"),
        (MESSAGE_KIND, "exception messages"),
        ("server_args dump", "the server_args dump"),
        ("vLLM config", "the vLLM config"),
    ):
        if evidence.reason.startswith(prefix):
            return kind
    return "a start-up line"


def decide(
    evidence: Sequence[Evidence], config: RunConfig | None = None, crash_engine: str | None = None
) -> WorkerPath:
    """The strongest evidence that points somewhere decides; disagreement is reported. With
    none, a verdict that hangs on the release is given as such, and what is missing is said
    (``crash_engine``: the framework the crash itself names, by its frames or exception type)."""
    config = config if config is not None else RunConfig()
    if config.engine is None and (engine := frames_engine(evidence) or crash_engine) is not None:
        config = replace(config, engine=engine)  # ask for that server's lines, not SGLang's
    votes = [e for e in evidence if e.points_to is not None and not proposer_condition(e)]
    if not votes:
        conditional = next((e.condition or proposer_condition(e) for e in evidence
                            if e.condition or proposer_condition(e)), None)  # fmt: skip
        missing = missing_evidence(config, evidence, conditional)
        conditional = conditional or switch_condition(config)
        framework, family = describe(None, config)
        family = family or next((e.family for e in evidence if e.condition and e.family), None)
        return WorkerPath("unknown", None, tuple(evidence), None, framework, family, conditional,
                          missing)  # fmt: skip
    first = votes[0]
    worker = next(
        (e.worker_class for e in votes if e.points_to == first.points_to and e.worker_class), None
    )
    against = next((e for e in votes if e.points_to != first.points_to), None)
    against = against or _other_family(first, worker, votes)
    conflict = None
    if against is not None and _kind(against) == _kind(first):
        conflict = (
            f"{_kind(first).capitalize()} disagree: {first.text} points to {first.points_to} "
            f"({first.worker_class}) but {against.text} points to {against.points_to} "
            f"({against.worker_class})"
        )
    elif against is not None:
        conflict = (
            f"{_kind(first).capitalize()} point to {first.points_to} ({worker}) but "
            f"{_kind(against)} at {against.source}:{against.lineno} points to "
            f"{against.points_to} ({against.worker_class}): the log may hold more than "
            "one run, or the worker code was patched or moved"
        )
    framework, family = describe(worker, config, votes)
    return WorkerPath(first.points_to or "unknown", worker, tuple(evidence), conflict, framework,
                      family)  # fmt: skip


def _other_family(
    first: Evidence, worker: str | None, votes: Sequence[Evidence]
) -> Evidence | None:
    """A vote of another kind naming a class of another family (frames in
    ``lookaheadDecodingLayer.cpp``, a config saying MTP): "other" verdicts disagree by class,
    not by v1/v2. Classes of one family (a plugin's subclass, V0's wrapper and its proposer)
    or with no family of their own never disagree."""
    mine = family_of(worker)
    if first.points_to != "other" or mine is None or not mine[1]:
        return None
    for vote in votes:
        theirs = family_of(vote.worker_class) if vote.worker_class else None
        if (
            theirs is not None
            and theirs[1]
            and theirs[1] != mine[1]
            and _kind(vote) != _kind(first)
        ):
            return vote
    return None


def global_worker_path(config: RunConfig) -> WorkerPath:
    """The run's worker path from config evidence alone (no crash frames to go by)."""
    evidence = config.path_evidence + method_evidence(config)
    return decide(sorted(evidence, key=lambda e: e.points_to is None), config)


def _messages(incident: Incident) -> tuple[str, ...]:
    messages = [incident.message, *(link.message for link in reversed(incident.chain))]
    return tuple(m for m in messages if m)


def _add_hints(incident: Incident, path: WorkerPath, era: str | None) -> None:
    hints: list[str] = []
    v1 = path.value == "v1" and path.worker_class in ("EAGLEWorker", "MultiLayerEagleWorker")
    before_v2 = era is not None and era.startswith("0.4")  # no v2 worker to have patched yet
    if v1 and incident.root_cause and not before_v2:
        by_frames = bool(path.evidence) and _kind(path.evidence[0]) == "traceback frames"
        hints.append(_HINT_V1.format(subject="This crash ran" if by_frames else "This run was"))
        sm = incident.explanation
        if sm is not None and sm.unexplained and (sm.tensor or "").startswith("EagleVerifyInput"):
            hints.append(_HINT_COUPLING)
    topk = incident.flags.get("speculative_eagle_topk")
    top = topk.value if topk is not None else None
    early = era is None or not era.startswith(("0.5.13", "0.5.17"))  # v1 exists, v2 is topk=1
    if (
        path.value == "v2"
        and early
        and isinstance(top, int)
        and not isinstance(top, bool)
        and top > 1
    ):
        hints.append(_HINT_V2_TOPK.format(topk=top))
    if path.conflict:
        hints.append(f"Worker path evidence disagrees. {path.conflict}.")
    incident.hints.extend(h for h in hints if h not in incident.hints)


def run_for(incident: Incident, config: RunConfig) -> RunConfig:
    """The run the incident belongs to: the start-up before it in its own file, else (a file
    of its own, one per rank or node) the latest start-up before it in time, from its own
    directory first. With several runs and neither to go by, no run's flags are taken for
    another's."""
    first = incident.first_seen
    if not config.runs:
        return RunConfig() if _predates(first.ts, config.start_ts) else config
    same_file = [
        run
        for run in config.runs
        if run.start is not None and run.start[0] == first.source and run.start[1] <= first.lineno
    ]
    if same_file:
        run = max(same_file, key=lambda run: run.start or ("", 0))
        return RunConfig() if _predates(first.ts, run.start_ts) else run
    if first.ts is None:
        return RunConfig()
    when = _naive(first.ts)
    before = [run for run in config.runs if run.start_ts and _naive(run.start_ts) <= when]
    here = os.path.dirname(first.source)
    near = [run for run in before if run.start and os.path.dirname(run.start[0]) == here]
    before = near or before  # a run's other files share its directory; another run's do not
    if not before:
        return RunConfig()
    return max(before, key=lambda run: _naive(run.start_ts) if run.start_ts else datetime.min)


def _predates(crash: datetime | None, start: datetime | None) -> bool:
    """The crash is stamped more than a day before the run's start-up line: an older log pasted
    beside it (a day of slack for clocks in other time zones; year-less stamps never count)."""
    if crash is None or start is None or min(crash.year, start.year) < 2000:
        return False
    return _naive(crash) < _naive(start) - timedelta(days=1)


def _naive(ts: datetime) -> datetime:
    return ts.replace(tzinfo=None)


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


def _crash_engine(incident: Incident, config: RunConfig) -> RunConfig:
    """The config without another server's lines where the crash's own frames ran one
    server's code: a thread comparing engines pastes a vLLM command beside the SGLang run
    that crashed (or the reverse), and that command's method is not this crash's."""
    engines = frame_engines(incident)
    if not engines:
        return config
    kept = [e for e in config.path_evidence
            if _server_of(e) in (None, *engines) and _classes_server(e) in (None, *engines)]  # fmt: skip
    run = "vllm" if config.engine == "vllm_ascend" else config.engine
    engine = config.engine if run in engines else min(engines) if len(engines) == 1 else None
    if len(kept) == len(config.path_evidence) and engine == config.engine:
        return config
    return replace(config, path_evidence=kept, engine=engine)


# how each server's config verdicts begin (config_path, vllm_proposers, trtllm_config)
_SERVER_REASONS = (
    ("vLLM ", "vllm"),
    ("TensorRT-LLM ", "trtllm"),
    ("launch command (no server_args dump)", "sglang"),
    ("server_args dump", "sglang"),
    ("launch command shown whole", "sglang"),
)


def _server_of(evidence: Evidence) -> str | None:
    return next((srv for lead, srv in _SERVER_REASONS if evidence.reason.startswith(lead)), None)


# worker and proposer class names as verdicts and conditions write them
_CLASS_WORD = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:Worker|Proposer|Drafter|Layer)(?:V2)?\b")


def _classes_server(evidence: Evidence) -> str | None:
    """The one server whose tables define every class the evidence decides or conditions on
    (a vLLM plugin's classes are vLLM's); None when they name none or several servers. A
    sentence naming another engine's algorithm ("this also happened on sglang with EAGLE")
    gives that engine's class, which a crash in another engine's frames never ran."""
    names = [evidence.worker_class] if evidence.worker_class else []
    names += _CLASS_WORD.findall(evidence.condition or "")
    servers = {
        _SERVER_OF_FRAMEWORK.get(fw, "vllm") for name in names for fw in frameworks_of_class(name)
    }
    return next(iter(servers)) if len(servers) == 1 else None


_SERVER_OF_FRAMEWORK = {"sglang": "sglang", "trtllm": "trtllm"}  # every other table is vLLM's


def link(
    incident: Incident,
    config: RunConfig,
    load: LoadSample | None,
    dumps: Sequence[PastedDump] = (),
    others: Sequence[Incident] = (),
    mentions: Sequence[Mention] = (),
) -> None:
    """Fill the incident's worker path, decisive flags, shape explanation, load and hints.
    ``dumps``: py-spy / faulthandler dumps pasted in the logs; ``others``: every incident;
    ``mentions``: worker files the logs' sentences name with a line number."""
    config = _crash_engine(incident, run_for(incident, config))
    evidence = path_evidence(incident, config, load, dumps, others, mentions)
    incident.worker_path = decide(evidence, config, engine_of(incident, config))
    incident.flags = decisive_flags(config)
    incident.load = load
    for message in _messages(incident):
        mismatch = find_shape_mismatch(message)
        if mismatch is not None:
            incident.shape_mismatch = mismatch
            incident.explanation = explain(mismatch, config, load)
            break
    _add_hints(incident, incident.worker_path, config.era)
    incident.hints = localize(incident.hints, engine_of(incident, config))
