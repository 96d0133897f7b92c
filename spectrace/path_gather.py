"""Incident + run config -> every piece of worker-path evidence, strongest first.

The linker's first half: the crash's own frames, its messages, pasted dumps, the run's other
crashes and config, then weaker kinds only while nothing stronger points (``path_decide`` weighs
what this gathers)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from spectrace.assemblers.config_path import PLAIN_REASON
from spectrace.assemblers.dump_path import EAGLE_FAMILY, V2_ONLY_ERAS
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import Evidence, RunConfig, trim
from spectrace.assemblers.run_shown import reported_failure, shows_run
from spectrace.assemblers.sglang_eras import Version, newest_at, parse_release
from spectrace.assemblers.sglang_run_words import SPEC_KIND
from spectrace.assemblers.spec_prose import PROSE_REASON, eagle_family
from spectrace.assemblers.vllm_config import patching_plugin
from spectrace.assemblers.vllm_finish import quoted_v0_aside
from spectrace.assemblers.vllm_v0_marks import worker_module_evidence
from spectrace.dialects._time import stamp_day
from spectrace.engine_hints import engine_of
from spectrace.frame_releases import RunRelease, reread, run_releases
from spectrace.incident_model import Incident
from spectrace.path_base import base_evidence, frame_sites
from spectrace.path_chains import chain_rows
from spectrace.path_drafts import draft_file_evidence
from spectrace.path_era import era_evidence, latest_narrowed
from spectrace.path_evidence import (
    StackFrame,
    dump_frames,
    frame_votes,
    frames_era,
    incident_frames,
    message_votes,
    names_class,
    native_votes,
    peer_frames,
    peer_message_votes,
    rank_frames,
    op_votes,
    speculates,
    untabled_votes,
)
from spectrace.path_family import family_evidence, sglang_family_evidence
from spectrace.path_frames import frame_signatures
from spectrace.path_mention_kinds import CHAIN_KIND, CLASS_KIND, FAMILY_KIND, RELEASE_MARK, RUN_KIND
from spectrace.path_mentions import Mention, bare_plugin_file, mention_votes, message_names
from spectrace.path_missing import frames_engine, method_evidence
from spectrace.path_named import named_family_evidence, named_ran, other_program, owned_elsewhere
from spectrace.path_spec_ran import dumped_evidence, recorded_evidence, spec_ran_evidence, switched_evidence
from spectrace.path_run import (
    names_other_framework,
    plain_launch,
    stated_plain_run,
    text_day,
    titled_release,
    worded_framework,
)
from spectrace.path_trace import PLAIN_WHY, RULE, PathTrace, note
from spectrace.path_unnamed import other_workers
from spectrace.path_v0 import v0_proposer
from spectrace.path_verified import verified_evidence
from spectrace.path_words import base_inputs, named_families
from spectrace.sglang_shared_frames import restate
from spectrace.stacks.pasted import PastedDump
from spectrace.trtllm_shared_frames import restate_shared


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
        # the loops vote EAGLEWorker(V2): STANDALONE runs its own classes on the same loops
        return str(flag.value).upper() in EAGLE_FAMILY - {"STANDALONE"}
    named = config.flags.get("named_algorithm")  # stated as the run's: its era's condition
    if named is not None and not eagle_family(str(named.value)):
        return False  # the text names STANDALONE, NGRAM, DSPARK...: the loops' vote is EAGLE's
    if any(e.points_to in ("v1", "v2") for e in config.path_evidence):
        return True
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


@dataclass(frozen=True, slots=True)
class _Run:
    """What the deciders after the crash's own evidence read: the incident, its run's config
    and texts, and what the first readers found out about its frames (their era, loops, day)."""

    incident: Incident
    config: RunConfig
    load: LoadSample | None
    others: Sequence[Incident]
    mentions: Sequence[Mention]
    trace: PathTrace | None
    since: int  # the first line of the incident's run in its file
    frames: list[StackFrame]  # the crash's own frames, its ranks' and pasted dumps'
    own: list[StackFrame]  # the crash's own frames and its ranks' (no dump)
    loops: bool
    era: str | None
    newest: Version | None
    day: date | None
    releases: Mapping[str, RunRelease]


def path_evidence(
    incident: Incident,
    config: RunConfig,
    load: LoadSample | None = None,
    dumps: Sequence[PastedDump] = (),
    others: Sequence[Incident] = (),
    mentions: Sequence[Mention] = (),
    trace: PathTrace | None = None,
) -> list[Evidence]:
    """Everything that points at a worker, strongest first: the crash's own frames (a cut
    traceback's last one too), the classes its message names, the frames of dumps pasted
    into its run, the classes its run's other crashes name, then the run's config (dump,
    warnings, launch command); then each of ``_DECIDERS``, weaker and weaker, while nothing
    before it settles the path."""
    config = _elsewhere_aside(config, mentions)
    config = quoted_v0_aside(config, [f.file for f in incident.frames])  # a V1 crash under a quoted V0 line
    own = incident_frames(incident)
    ranks = rank_frames(incident)  # the same failure's other records: their frames count too
    since = config.start[1] if config.start and config.start[0] == incident.first_seen.source else 0
    pasted = dump_frames(incident, dumps, since)
    era = config.era or frames_era(own + ranks + pasted)  # files only some releases hold
    loops = _loops_decide(config, own + ranks + pasted, load, era)
    when = incident.first_seen.ts  # the code that crashed is no newer than its day
    day = stamp_day(when) or text_day(config)  # else the post's day (a year-less stamp has none)
    newest = newest_at(day) if day is not None and config.engine != "vllm" else None
    unnamed = _unnamed(config, load, era, newest)  # accept len alone: any algorithm
    votes = message_votes(incident, config.engine) + _untabled(incident, config, mentions)
    elsewhere = _owned_elsewhere([incident, *others], config, mentions)
    if elsewhere:  # the classes those crashes name are another program's: no vote, on their lines either
        votes = [] if any(incident is e for e in elsewhere) else votes
        records = [(i.first_seen.source, range(i.first_seen.lineno, i.first_seen.lineno + len(i.lines)))
                   for i in elsewhere]  # fmt: skip
        mentions = [m for m in mentions if not (m.kind == CLASS_KIND and any(
            m.source == at and m.lineno in lines for at, lines in records))]  # fmt: skip
    releases = run_releases(config)  # a renamed file's frame: its class in the run's release
    evidence = frame_votes(own, loops, era, newest, unnamed, releases)
    evidence += worker_module_evidence([incident.frames, *(c.frames for c in incident.chain)],
                                       incident.first_seen.source, incident.first_seen.lineno)  # fmt: skip
    ranked = frame_votes(ranks, loops, era, newest, unnamed, releases)
    evidence += [e for e in ranked if e.points_to or e.condition]
    evidence += votes + native_votes(incident) + message_names(incident)
    evidence += frame_votes(pasted, loops, era, newest, unnamed, releases)
    evidence += _counters(config, load) if loops else []
    peers = [o for o in others if all(o is not e for e in elsewhere)]  # not another program's classes
    evidence += peer_message_votes(incident, peers, since, config.engine)
    evidence += _config_votes(config, load) + method_evidence(config)
    run = _Run(incident, config, load, others, mentions, trace, since, own + ranks + pasted,
               own + ranks, loops, era, newest, day, releases)  # fmt: skip
    for settles, decide in _DECIDERS:
        if not settles(evidence):
            evidence = decide(run, evidence)
    evidence = latest_narrowed(evidence, config, mentions, incident.first_seen.source)
    evidence = v0_proposer(evidence, config)  # V0's wrapper frame: the config's proposer
    evidence = restate(evidence, config, newest)  # a shared EAGLE frame: the stated algorithm's class
    evidence = restate_shared(evidence, config)  # mtp.py / eagle3.py: the function's worker
    evidence = named_ran(evidence, config, mentions, incident.first_seen.source, since)  # "X.propose crashed"
    # stable: voters first, strongest first; an algorithm the prose names after them all
    evidence.sort(key=lambda e: (e.points_to is None, e.reason.startswith(PROSE_REASON)))
    return evidence


def _owned_elsewhere(crashes: Sequence[Incident], config: RunConfig, mentions: Sequence[Mention]) -> list[Incident]:
    """The crashes whose message names a class that is another program's own (``owned_elsewhere``);
    none where the text's own lines tie it to a server (its engine)."""
    if config.engine is not None:
        return []
    return [i for i in crashes if names_class(i) and owned_elsewhere(i, config, mentions)]


def _untabled(incident: Incident, config: RunConfig, mentions: Sequence[Mention]) -> list[Evidence]:
    """A class no table holds, named by the crash as what ran (``untabled_votes``), or an
    sgl_kernel op named at its call (``op_votes``), where the crash shows a run
    (``_crash_ran``)."""
    found = untabled_votes(incident) + op_votes(incident)
    return found if found and _crash_ran(incident, config, mentions) else []


def _crash_ran(incident: Incident, config: RunConfig, mentions: Sequence[Mention]) -> bool:
    """The crash is more than a lone error line: it has frames or a log stamp, or the run's
    config shows the run; else its exception line stands on its own (not quoted inside a
    sentence: "Expected: FAIL with `AttributeError: ...`") and the text names speculation for
    its run on other lines (a drafting family or file, a run line, an issue reporting its
    failure). A bare error line in a note ("you would see something like") shows no run."""
    if incident.frames or incident.first_seen.ts is not None or shows_run(config):
        return True
    head = incident.lines[0].strip(" \t>*`-") if incident.lines else ""
    if not head.startswith(incident.exception_type):
        return False
    source, at = incident.first_seen.source, incident.first_seen.lineno
    mine = [m for m in mentions if m.source == source and m.lineno != at]
    return any(m.kind in (RUN_KIND, FAMILY_KIND, SPEC_KIND) for m in mine) or reported_failure(mine)


def _peers(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """Nothing of its own: the frames of the run's other crashes."""
    peers = peer_frames(run.incident, run.others, run.since)
    loops = run.loops or _loops_decide(run.config, peers, run.load, run.era)
    found = frame_votes(peers, loops, run.era, run.newest, None, run.releases)
    return evidence + [e for e in found if e.points_to or e.condition]


def _family_files(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """A family's file under the runner's draft step."""
    return family_evidence(run.frames) + evidence


def _draft_files(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """A vLLM draft model's own file among the frames, or among the steps of a crash chain the
    crash's file tells (``path_chains``): its method's proposer."""
    at = run.incident.first_seen.source
    steps = chain_rows([(m.source, m.lineno, m.text, m.name) for m in run.mentions
                        if m.kind == CHAIN_KIND and m.source == at and m.lineno >= run.since])  # fmt: skip
    return draft_file_evidence(run.frames, steps, run.config) + evidence


def _sglang_family(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """An SGLang family's own file (first, its lines not repeated)."""
    found = sglang_family_evidence(run.frames, run.config, run.newest)
    same = {(e.source, e.lineno, e.text) for e in found}
    return found + [e for e in evidence if (e.source, e.lineno, e.text) not in same]


def _installed_only(config: RunConfig, mentions: Sequence[Mention]) -> RunConfig:
    """A speculative plugin known only by its package or repository named in the text (an
    install line of ``arctic-inference``: ``vllm_config.patching_plugin``) is no proof its
    proposer ran: where the text names a class of vLLM's own as the run's (``CLASS_KIND``:
    not a question, a contrast or a heading) that the plugin does not define, the config is
    read without that platform, so vLLM's class for the family decides."""
    platform = config.flags.get("platform")
    if platform is None or patching_plugin(str(platform.value)) is None:
        return config
    own = {c for sig in frame_signatures() if sig.framework == platform.value for c in sig.classes}
    if not any(m.kind == CLASS_KIND and m.signature.framework == "vllm" and m.name not in own
               for m in mentions):  # fmt: skip
        return config
    return replace(config, flags={k: v for k, v in config.flags.items() if k != "platform"})


def _bases_or_words(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """A proposer base: its subclass by the family; with none, a vLLM run's method named only
    in words (``path_named``)."""
    config = _installed_only(run.config, run.mentions)
    plugin = "platform_named" in config.flags or "platform" in config.flags
    sites, families = base_inputs(run.incident, run.mentions, run.since, plugin)
    based = base_evidence(frame_sites(run.frames) + sites, config, families, run.day)
    if based:
        return based + evidence
    engine = frames_engine(evidence) or engine_of(run.incident, config)
    # its sentences' methods are not the run's: its command, or a line stating its options
    plain = plain_launch(config, "vllm") or stated_plain_run(config)
    named = [] if plain else named_families(run.incident, run.mentions, run.since)
    if plain:
        note(run.trace, RULE, "vLLM family lookup", False, PLAIN_WHY)
    if other_program([sf.frame.file for sf in run.own]):
        named = []  # a converter's / loader's crash: no server ran
    backend = config.flags.get("backend")  # trtllm-build, --backend trt
    flow = any("/tensorrt_llm/runtime/" in sf.frame.file for sf in run.own) or (
        backend is not None and str(backend.value) in ("tensorrt", "trt"))  # fmt: skip
    worded = worded_framework(run.incident, config, run.mentions, run.since)
    if worded and named and not any(n[0].startswith(RELEASE_MARK) for n in named):
        named += titled_release(run.incident, run.mentions, worded)  # "# [v0.6.3] ... vLLM"
    return evidence + named_family_evidence(named, config, engine, flow, worded, run.trace)


def _prose_names(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """Weakest of the names: ``eagle_worker_v2.py:828`` in prose."""
    conditions = [e.condition for e in evidence if e.condition]
    config = run.config
    plugin = "platform_named" in config.flags or "platform" in config.flags
    mentions = run.mentions if plugin else [m for m in run.mentions if not bare_plugin_file(m)]
    found = mention_votes(run.incident, mentions, run.since, conditions, config.engine)
    return evidence + reread(found, run.releases)


def _eras(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """A family and a release or day: the era's class."""
    return evidence + era_evidence(run.incident, run.config, run.mentions, run.since, run.trace, run.load)


def _spec_ran(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """A call only a speculative V1 run makes, no method named: the V1 proposers."""
    return evidence + spec_ran_evidence(run.frames, run.config, run.day)


def _switched(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """Speculation said, no method, the model runner v2 forced: its speculators."""
    return evidence + switched_evidence(run.incident, run.config, run.mentions, run.since)


def _recorded(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """A record of an MRV2 speculator module, no method named: the class it names, or its speculators."""
    return evidence + recorded_evidence(run.config)


def _dumped(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """Draft tokens in vLLM's dump of the crashing step, no method: every class it allows."""
    return evidence + dumped_evidence(run.load, run.config, run.day)


def _verified(run: _Run, evidence: list[Evidence]) -> list[Evidence]:
    """Drafts verified under the plugin's runner: the plugin's proposers."""
    return evidence + verified_evidence(run.frames, run.config)


def _pointed(evidence: Sequence[Evidence]) -> bool:
    """Anything points or gives a condition, the prose's verdicts too."""
    return any(e.points_to or e.condition for e in evidence)


def _settled_or_conditioned(evidence: Sequence[Evidence]) -> bool:
    return _settled(evidence, conditions=True)


# flags holding a framework's release read off a line: that line names the framework
_RELEASE_OF = {"vllm_prose_release": "vLLM", "platform_release": "vllm-ascend",
               "trtllm_release": "TensorRT-LLM"}  # fmt: skip


def _elsewhere_aside(config: RunConfig, mentions: Sequence[Mention]) -> RunConfig:
    """What the prose readers took from a line that names only another framework than the
    run's ("vLLM 0.10.2 with eagle3 works" in an SGLang report, a table row "| vLLM 0.10.2 |
    ngram |" above a TensorRT-LLM crash): that framework's run, so its algorithm, method,
    release and their votes are set aside."""
    if config.engine is None:
        return config
    texts = {(m.source, m.lineno): m.text for m in mentions}
    texts.update({(e.source, e.lineno): e.text for e in config.path_evidence})
    aside = {at for at, text in texts.items() if names_other_framework(text, config.engine)}
    aside |= {(f.source, f.lineno) for key, f in config.flags.items()  # "| vLLM 0.10.2 | ngram |"
              if key in _RELEASE_OF and names_other_framework(_RELEASE_OF[key], config.engine)}
    if not aside:
        return config
    flags = {k: v for k, v in config.flags.items()
             if v.origin != "prose" or (v.source, v.lineno) not in aside}  # fmt: skip
    kept = [e for e in config.path_evidence if not e.reason.startswith(PROSE_REASON)
            or (e.source, e.lineno) not in aside]  # fmt: skip
    return replace(config, flags=flags, path_evidence=kept)


def _settled(evidence: Sequence[Evidence], conditions: bool = False) -> bool:
    """Whether something points (or, with ``conditions``, gives a conditional); an algorithm
    only the report's sentences name leaves room for every weaker kind of evidence."""
    return any((e.points_to or (conditions and e.condition))
               and not e.reason.startswith(PROSE_REASON) for e in evidence)  # fmt: skip


# After the crash's own evidence and its run's config, in order: each runs only while what came
# before settles nothing (by its test), and returns the evidence with its own added
_DECIDERS: tuple[
    tuple[Callable[[Sequence[Evidence]], bool], Callable[[_Run, list[Evidence]], list[Evidence]]], ...
] = (
    (_settled, _peers),
    (_settled, _family_files),
    (_settled, _draft_files),
    (_settled_or_conditioned, _sglang_family),
    (_settled_or_conditioned, _bases_or_words),
    (_settled, _prose_names),
    (_pointed, _eras),
    (_pointed, _verified),
    (_pointed, _spec_ran),
    (_pointed, _switched),
    (_pointed, _recorded),
    (_pointed, _dumped),
)
