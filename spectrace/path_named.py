"""A vLLM run whose text names its speculative method only in words -> that method's class.

Bug reports about vLLM's spec decode often paste only the engine's traceback (``v1/engine/
core.py``, the EngineCore's ranks) and say the method in the title or a sentence: "V1 engine +
MTP speculative decoding hangs", "Spec Decode Draft Model fails during graph capture", a CI
test id ``test_ngram_correctness``. In vLLM one method runs one class (its ``[[method]]`` row:
MTP -> EagleProposer), so the words name the class the way a maintainer reads them, weaker
than any config line: only when nothing else points, only for a run the text shows is vLLM's,
and only when every family named runs the same class (MTP and EAGLE-3 do; n-gram and EAGLE do
not, and then their classes are the condition). On the vllm-ascend plugin the plugin's class
for the method, by its release; where no line bounds the release, every class the method had
in the framework's eras (``method_eras``: V0's workers too, the plugin's where the text names it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.release_dates import newest_held
from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.run_shown import fixes_failure, shows_run
from spectrace.assemblers.spec_prose import PROSE_REASON
from spectrace.assemblers.trtllm_config import PYTORCH_FIRST
from spectrace.assemblers.trtllm_words import (
    ENGINE_FLOW_MODES,
    ENGINE_MODE_ROW,
    ENGINE_ONLY,
    PROSE_DECODING_TYPES,
    eagle_model_count,
)
from spectrace.assemblers.vllm_finish import (
    GEMMA4_FLAG,
    GEMMA4_HEAD_FLAG,
    MARKED_PLUGINS,
    PLUGIN_SPAN_FLAG,
    newest_release,
    paired_release,
    plugin_release,
    plugin_table,
)
from spectrace.assemblers.vllm_release import base_release, parse_release
from spectrace.assemblers.vllm_methods import GEMMA4_HEAD, target_head
from spectrace.assemblers.vllm_plugins import ascend_proposer, plugin_proposer
from spectrace.assemblers.method_eras import EraClass, era_condition, plugin_eras, vllm_eras
from spectrace.assemblers.vllm_proposers import first_release, proposer_verdict, v0_worker
from spectrace.assemblers.vllm_runner import RUNNER_FLAG, family_on_stated_runner, on_runner, runner_table
from spectrace.incident_model import Incident
from spectrace.path_base import family_words
from spectrace.path_frames import (
    family_methods,
    family_of,
    fork_of,
    frame_signature,
    frameworks_of_class,
    method_signature,
    signature_for_class,
    symbol_signatures,
)
from spectrace.path_mention_kinds import ADDS_MARK, CLASS_KIND, FOREIGN_KIND, FOREIGN_MARK, RELEASE_MARK, THREAD_MARK, Mention
from spectrace.path_missing import method_evidence
from spectrace.path_run import names_other_framework, text_day
from spectrace.path_trace import RULE, PathTrace, note

_LOOKUP = "vLLM family lookup"  # the rule's name in --explain-path
# each family as the method value vLLM's config spells it
_METHOD = {"EAGLE": "eagle", "EAGLE3": "eagle3", "MTP": "mtp", "NGRAM": "ngram",
           "DFLASH": "dflash", "DSPARK": "dspark", "MEDUSA": "medusa", "SUFFIX": "suffix",
           "DRAFT_MODEL": "draft_model", "ARCTIC": "arctic",
           "MLP_SPECULATOR": "mlp_speculator"}  # fmt: skip


def named_family_evidence(
    named: Sequence[tuple[str, str, int, str]],
    config: RunConfig,
    engine: str | None,
    engine_flow: bool = False,
    worded: str | None = None,
    trace: PathTrace | None = None,
) -> list[Evidence]:
    """``named``: (family, source, line, text) of each family word of the run's text. The
    verdict of the one class they all run on, or the condition over their classes; for
    TensorRT-LLM (``engine_flow``: the crash ran the engine flow's Python runtime) see
    ``_trtllm``. ``worded``: the framework the title or the family lines name in words
    (``path_run.worded_framework``), the last of the places the run's framework is read from
    (a title's release tag then is its release: ``path_run.titled_release``)."""
    thread = next((f[len(THREAD_MARK) :] for f, *_ in named if f.startswith(THREAD_MARK)), None)
    released = [n for n in named if n[0].startswith(RELEASE_MARK)]
    # a title that fixes a run's failure ("Fix crash when enabling X") adds no method: it may tell the run
    adds_words = any(f == ADDS_MARK and not fixes_failure(text) for f, *_, text in named)
    adds = adds_words and not shows_run(config)
    foreign = any(f == FOREIGN_MARK for f, *_ in named)
    named = [n for n in named
             if not n[0].startswith((THREAD_MARK, RELEASE_MARK, ADDS_MARK, FOREIGN_MARK))]
    if engine is None and foreign and thread is None:  # another engine's server ran: its words
        # are its own; on our own tracker's thread another engine named is a comparison (WRONGS)
        return note(trace, RULE, _LOOKUP, False, "another engine's command: its words are its own")
    # only the words or the tracker name the framework: no line of the run placed it, so no
    # release bound read them before (``_every_era``): an issue page with no post day (a wiki
    # mirror, an index card) may be of any era of the tracker's
    by_words = engine is None and not _text_engine(named, config) and bool(thread or worded)
    if engine is None:  # nothing of the run places it: its words, its release, its tracker
        engine = _text_engine(named, config) or thread or worded
        if engine == "vllm" and worded not in (None, "vllm", "vllm_ascend") and thread is None:
            # the title and the run's lines name another engine in words ("SGLang AgentX moved to
            # DSpark"): a value only vLLM spells beside them (a harness key's label
            # ``spec-decoding: draft_model``) is a recipe's category, not vLLM's method
            engine = worded
    config = _titled(config, released, engine)
    plugin = _on_plugin(config, engine)
    table = plugin_table(config)  # a plugin whose own runner builds the proposers, or None
    marked = table in MARKED_PLUGINS  # named by its package: vLLM's runners and eras never apply
    if adds and (engine != "vllm" or plugin or not named
                 or not all(f in _METHOD and _v0_dated(f, config) for f, *_ in named)):
        # a PR adding the method, with no run of its own: its words are the code's
        return note(trace, RULE, _LOOKUP, False, "a pull request adding the method shows no run")
    if engine is not None:  # a line naming only another framework is that framework's run
        named = [n for n in named if not names_other_framework(n[3], engine)]
    named = _own_reports(named)
    judged = _judged(config)  # the config reader's own verdict on a line outranks its words
    if named and all((n[1], n[2]) in judged for n in named):
        why = f"the config reader already judged line {named[0][2]}, the family words' line"
        return note(trace, RULE, _LOOKUP, False, why)
    named = [n for n in named if (n[1], n[2]) not in judged]
    if named and engine == "trtllm":
        # a PR adding a mode ("[feat] Eagle3 two-model for X") names the mode it adds, not the run's
        return _trtllm(named, _flow(engine_flow, config), config, by_count=not adds_words)
    if not named or (
        engine not in ("vllm", "vllm_ascend") and not plugin
        and (table is None or marked)  # a marked plugin runs vLLM: its words
    ):
        why = f"the run's framework is {engine or 'not named'}, not vLLM's" if named else (
            "no family word of the run is left (the family words above)")  # fmt: skip
        return note(trace, RULE, _LOOKUP, False, why)
    families = dict.fromkeys(family for family, *_ in named if family in _METHOD)
    verdicts = {family: _class(family, config, plugin) for family in families}
    if plugin and by_words and _plugin_unreleased(config):  # any of the plugin's eras
        newest = newest_release(config, "vllm_ascend")
        span = config.flags.get(PLUGIN_SPAN_FLAG)
        verdicts = {f: _eras_verdict(_spanned(plugin_eras(_METHOD[f], newest), span), newest, span) or v
                    for f, v in verdicts.items()}  # fmt: skip
    if "MTP" in verdicts and not plugin:  # a target drafting with its own head (Step-3.5)
        heads = [h for *_, text in named if any(h := target_head(text, config.version))]
        if not heads and GEMMA4_HEAD_FLAG in config.flags and (gemma4 := config.flags.get(GEMMA4_FLAG)):
            # a line ties the text's Gemma-4 checkpoint to its MTP head: that head drafted
            heads = [target_head(f"{gemma4.value} assistant", config.version)]
        verdicts["MTP"] = heads[0] if heads and any(heads[0]) else verdicts["MTP"]
    if table is not None and any(c or d for c, d in verdicts.values()):
        # a method the plugin's releases build no proposer for: the writer's own port, no class
        verdicts = {f: (c, d) if c or d else (None, f"a port of its own (no {table} release builds one)")
                    for f, (c, d) in verdicts.items()}  # fmt: skip
    if not verdicts or any(cls is None and cond is None for cls, cond in verdicts.values()):
        said = "/".join(families) or "no family of vLLM's table"
        return note(trace, RULE, _LOOKUP, False, f"{said}: no vLLM class runs it in its releases")
    _fam, source, lineno, text = next(n for n in named if n[0] in families)
    said = "/".join(families)
    classes = {cls for cls, _ in verdicts.values()}
    eras_read = by_words and bool(plugin)
    reason = f"{PROSE_REASON}: the text names {said} for a vLLM run{_release_said(config, eras_read)}"
    if len(classes) == 1 and None not in classes:
        (cls,) = classes
        family = next(iter(families)) if len(families) == 1 else None
        found = Evidence(source, lineno, text, f"{reason} -> {cls} (other)", "other", cls,
                         family=family, framework="vllm_ascend" if plugin else "vllm")  # fmt: skip
        if marked:  # the plugin's own runner: no vLLM runner or era
            return [found]
        # the V1 runner's class, MRV2's, or both (each named family by itself where several
        # share the V1 runner's class: vllm_runner._families_open)
        found = on_runner(found, config, families if len(families) > 1 else ())
        if family == "MTP" and not plugin:
            found = _gemma4_head(found, config)
        if not by_words or family is None or plugin or not _unbounded(config) \
                or found.worker_class != cls:  # fmt: skip
            return [found]
        return [_every_era(found, _METHOD[family], config)]
    if not plugin and not marked:  # a marked plugin: its own classes
        # each family's V1 class on the runner the text states (an MRV2 frame, V0's)
        verdicts = {f: family_on_stated_runner(f, cls, config) if cls else (cls, cond)
                    for f, (cls, cond) in verdicts.items()}  # fmt: skip
    condition = "; ".join(f"{cls or cond} for {_METHOD[f]}" for f, (cls, cond) in verdicts.items())
    family = next(iter(families)) if len(families) == 1 else None
    return [Evidence(source, lineno, text, f"{reason}: {condition}", None, None, condition,
                     family)]  # fmt: skip


def _gemma4_head(found: Evidence, config: RunConfig) -> Evidence:
    """MTP told in words where a line names a Gemma-4 checkpoint: if that model is the run's,
    its assistant head drafted (``vllm_methods.GEMMA4_HEAD``, on the runner the text leaves);
    the condition names that class beside the verdict MTP gave, never it alone. Not where the
    run's release predates the head, nor where the words gave the head already."""
    named = config.flags.get(GEMMA4_FLAG)
    cls, first = GEMMA4_HEAD
    said = found.worker_class or found.condition or ""
    release = base_release(config.version)
    if named is None or not said or cls in said or (release is not None and release < Version(first)):
        return found
    head = on_runner(replace(found, points_to="other", worker_class=cls, condition=None), config)
    own = head.worker_class or head.condition
    if not own:
        return found
    condition = (f"{own} if the MTP run served the Gemma-4 that line {named.lineno} names ('{named.value}': "
                 f"vLLM drafts a Gemma-4 only with its assistant head), else {said}")  # fmt: skip
    head_said = found.reason.replace(f": {found.condition}", "") if found.condition else found.reason.split(" -> ", 1)[0]
    return replace(found, points_to=None, worker_class=None, condition=condition,
                   reason=f"{head_said}: {condition}")  # fmt: skip


def _unbounded(config: RunConfig) -> bool:
    """Nothing in the text bounds the run's vLLM release or runner: no version line, no release
    a sentence names, no day, no model-runner switch (a text naming vLLM and a method in words
    only: "MTP on vLLM: acceptance 0.78", "DFlash2 with vLLM crashes")."""
    flags = config.flags
    return (config.version is None and text_day(config) is None
            and not any(k in flags for k in ("vllm_prose_release", RUNNER_FLAG, "VLLM_USE_V1")))  # fmt: skip


def _plugin_unreleased(config: RunConfig) -> bool:
    """No line gives the plugin's release, vLLM's or the model runner: a day at most bounds it."""
    flags = config.flags
    return config.version is None and not any(
        k in flags for k in ("platform_release", "vllm_prose_release", RUNNER_FLAG, "VLLM_USE_V1"))


def _spanned(eras: tuple[EraClass, ...], span: FlagValue | None) -> tuple[EraClass, ...]:
    """``eras`` (oldest first) less those wholly outside the plugin releases ``span`` allows
    (``vllm_finish.PLUGIN_SPAN_FLAG``: the releases defining the classes the text names): an
    era ends where the next begins. All of them where ``span`` is None or leaves none."""
    if span is None:
        return eras
    low_text, _, high_text = str(span.value).partition("..")
    low, high = parse_release(low_text), parse_release(high_text) if high_text else None
    starts = [e.first for e in eras]
    kept = tuple(e for i, e in enumerate(eras)
                 if not (low is not None and any(s is not None and (e.first is None or e.first < s) and s <= low
                                                 for s in starts[i + 1:]))
                 and not (high is not None and e.first is not None and e.first > high))  # fmt: skip
    return kept or eras


def _eras_verdict(
    eras: tuple[EraClass, ...], newest: Version | None, span: FlagValue | None = None
) -> tuple[str | None, str | None] | None:
    """(class, None) where every era of the plugin that the text's day allows (``newest``) and
    the classes it names (``span``) ran one class, else (None, the condition over them); None
    where no era ran the method."""
    if not eras:
        return None
    if len({e.cls for e in eras}) == 1:
        return eras[0].cls, None
    bound = f"; its day allows vllm-ascend {newest} at the newest" if newest is not None else ""
    if span is not None:
        low, _, high = str(span.value).partition("..")
        bound += f"; line {span.lineno} names a class of vllm-ascend {low}{f'-{high}' if high else ' on'}"
    return None, f"{era_condition(eras)} (no release of the plugin or of vLLM in the text{bound})"


def _every_era(found: Evidence, method: str, config: RunConfig) -> Evidence:
    """``found`` (the V1 runner's class for ``method``) widened to every class vLLM ran the
    method on across its releases, since the text bounds none (``method_eras.vllm_eras``), and
    where the text names the vllm-ascend plugin without placing the run on it (a path into its
    package in a sentence, its repository) every class the plugin ran it on too; decided where
    that is one class, else the condition naming them all, never the newest era's alone."""
    eras = vllm_eras(method, found.worker_class or "")
    if "platform_named" in config.flags:
        eras += plugin_eras(method)
    if len({e.cls for e in eras}) == 1:
        return found
    condition = era_condition(eras) + " (no version line, release or day in the text bounds it)"
    head = found.reason.split(" -> ", 1)[0]
    return replace(found, points_to=None, worker_class=None, condition=condition,
                   reason=f"{head}: {condition}")


def _own_reports(named: Sequence[tuple[str, str, int, str]]) -> list[tuple[str, str, int, str]]:
    """``named`` without the family words another thread's run stands for, where the words
    disagree: a sentence likening the report to an issue or pull request it cites ("Open issue
    #42261 (gemma4 + MTP, same assert) matches this signature") names that thread's method, and
    the family the writer's own sentences name is the run's. Kept where every word is such a
    citation (the cited thread may be the same setup) or all name one family."""
    if len({family for family, *_ in named}) < 2:
        return list(named)
    own = [n for n in named if not _cited_only(n[0], n[3])]
    return own if own else list(named)


def _cited_only(family: str, text: str) -> bool:
    """Every clause of ``text`` naming ``family`` is about a thread it likens the report to: the
    parenthesis right after the citation ("issue #42261 (gemma4 + MTP, same assert)"; not "Fixes
    #1234 (MTP crash)", which likens nothing), or a clause citing it
    and likening the report to it with no writer of its own ("same as #1234 with MTP"; not "we
    run MTP and it fails, same as #1234", whose MTP clause cites nothing)."""
    parts = [m.group(1) for m in _CITED_PAREN.finditer(text) if _LIKENS.search(text)]
    rest = _CITED_PAREN.sub(" ", text)
    parts += [c for c in _CLAUSE.split(rest) if _CITES.search(c) and _LIKENS.search(c)
              and not _WRITER.search(c)]  # fmt: skip
    named = [c for c in _CLAUSE.split(rest) if family in family_words(c)]
    return any(family in family_words(p) for p in parts) and not any(
        c not in parts for c in named)


# another thread cited: ``#42261``, ``owner/repo#12``, an issue or pull request address
_CITES = re.compile(r"(?<!&)#\d{2,}\b|/(?:issues|pull)/\d+")
_CITED_PAREN = re.compile(r"(?:(?<!&)#\d{2,}\b|/(?:issues|pull)/\d+)\s*\(([^()\n]{1,200})\)")
_CLAUSE = re.compile(r"[,;.!?]\s+|\s+(?:and|but|while|whereas)\s+")
_WRITER = re.compile(r"(?i)\b(?:I|we|my|our|us)\b")
# the clause likens this report to it
_LIKENS = re.compile(r"(?i)\b(?:same|similar(?:ly)?|matches|match(?:ing)?|related|duplicates?"
                     r"|looks? like|resembles?|plausibly|probably|likely|see also|as in|like in)\b")


def _judged(config: RunConfig) -> frozenset[tuple[str, int]]:
    """(source, line) of each line a config reader already judged (a launch command, a
    speculative JSON): its reading there, a class, a condition or a considered "no class" ("the
    title says V0, and V0 never ran eagle3"), is that line's, and the family words on it are the
    same method seen again, not a second vote. A note a line only informs (an env switch named)
    judges nothing."""
    return frozenset((e.source, e.lineno) for e in config.path_evidence
                     if not e.reason.startswith(PROSE_REASON)
                     and (e.points_to or e.condition or e.worker_class or _READ.search(e.reason)))  # fmt: skip


# a config reader's reading of the run's method ("speculative method 'eagle3'", "draft model
# '/models/x' with no method")
_READ = re.compile(r"\bspeculative method '|\bdraft model '")


# packages of programs that load or convert checkpoints, not serve them: a crash all of whose
# frames are theirs (and a script's) ran no server, whatever the thread's words name
_OTHER_PROGRAMS = re.compile(
    r"[/\\](?:transformers|speculators|modelopt|specforge|peft|accelerate|deepspeed|datasets"
    r"|safetensors|huggingface_hub)[/\\]"
)
_SERVERS = re.compile(r"[/\\](?:vllm|vllm_ascend|sglang|tensorrt_llm)[/\\]")


def owned_elsewhere(incident: Incident, config: RunConfig, mentions: Sequence[Mention]) -> bool:
    """The classes the crash's message names are another program's own, not a server's worker
    (a fork naming its drafter ``DFlashProposer``, a CI checker printing a class it looked for),
    where nothing in the text ties the run to a server (no engine read from its own lines): the
    crash's frames, past installed libraries and bare names, all sit in a tree of its own (no
    server's package: ``minisgl/spec/``, a job's ``scripts/``), or, printed by no process (a
    comment's, a sentence's), it sits in a text that launches another engine."""
    if config.engine is not None:
        return False
    frames = [*incident.frames, *(f for c in incident.chain for f in c.frames)]
    files = [f.file.replace("\\", "/") for f in frames]
    if any("/" in f and not _LIBRARY.search(f) for f in files):  # a server's tree or a known file of one
        return not any(_SERVERS.search(f) for f in files) and all(frame_signature(f) is None for f in frames)
    source = incident.first_seen.source
    return incident.mentioned is not None and any(m.kind == FOREIGN_KIND and m.source == source for m in mentions)


# an installed library's or the interpreter's own file (``site-packages/torch/...``, ``lib/python3.12/runpy.py``)
_LIBRARY = re.compile(r"[/\\](?:site|dist)-packages[/\\]|[/\\]lib(?:64)?[/\\]python\d")


def ran_other_program(incident: Incident) -> bool:
    """``other_program`` over every traceback of the crash's chain: a loader's error raised under
    a server's command ("During handling of the above exception" ending in ``sglang/cli``) is
    the server's launch failing, not another program's run."""
    links = (f.file for link in incident.chain for f in link.frames)
    return other_program([*(f.file for f in incident.frames), *links])


def other_program(files: Sequence[str]) -> bool:
    """The crash's frames (their file paths) show another program and no server: no server's
    proposer is named for it by words. A fork's copy of a server (``aphrodite/spec_decode/``,
    ``path_frames.fork_of``) is another program too."""
    return any(_OTHER_PROGRAMS.search(f) or fork_of(f) for f in files) and not any(
        _SERVERS.search(f) for f in files
    )


def _release_said(config: RunConfig, eras: bool = False) -> str:
    """Where a release the words were read by came from: ``; vllm-ascend v0.23.0rc1 (line 3)``;
    with ``eras`` (the plugin's eras were read) the releases the classes it names bound."""
    for key, name in (("platform_release", "vllm-ascend"), ("vllm_prose_release", "vLLM")):
        flag = config.flags.get(key)
        if flag is not None and flag.origin == "prose":
            return f" on {name} {str(flag.value).removeprefix('v')} (line {flag.lineno})"
    span = config.flags.get(PLUGIN_SPAN_FLAG)
    if eras and span is not None and _plugin_unreleased(config):
        low, _, high = str(span.value).partition("..")
        upto = f" through {high}" if high else " on"
        return f" on vllm-ascend {low}{upto} (line {span.lineno} names a class only those releases define)"
    return ""


def _titled(
    config: RunConfig, released: Sequence[tuple[str, str, int, str]], engine: str | None
) -> RunConfig:
    """``config`` with the release the thread's title names (``<tracker engine>:<release>``)
    where no line of the run names one: vLLM's on vLLM's tracker, the plugin's on vllm-ascend's."""
    if not released:
        return config
    mark, source, lineno, _text = released[0]
    tracker, _, release = mark[len(RELEASE_MARK) :].partition(":")
    flags = config.flags
    if tracker == "vllm" and engine == "vllm" and config.version is None:
        key = "vllm_prose_release"
    elif tracker == "vllm_ascend" and engine in ("vllm", "vllm_ascend"):
        key = "platform_release"
    else:
        return config
    if key in flags:
        return config
    return replace(config, flags={**flags, key: FlagValue(release, source, lineno, "prose")})


def _text_engine(named: Sequence[tuple[str, str, int, str]], config: RunConfig) -> str | None:
    """vLLM for a method value only its config spells; TensorRT-LLM for a line naming its
    release (``Version: TensorRT-LLM 1.3.0rc21``)."""
    if any(_vllm_spelled(text) and not _OTHER_ENGINE_TOKEN.search(text) for *_, text in named):
        return "vllm"
    return "trtllm" if "trtllm_release" in config.flags else None


def _flow(engine_flow: bool, config: RunConfig) -> str | None:
    """Why the run is on TensorRT-LLM's engine flow: its crash ran the flow's runtime, or it
    predates the PyTorch backend (0.17), by the release the text names or the newest its day
    allows; None when neither shows."""
    if engine_flow:
        return "on the engine flow's runtime"
    release = config.flags.get("trtllm_release")
    try:
        at = Version(str(release.value)) if release is not None else newest_release(config, "trtllm")
    except InvalidVersion:
        return None
    if at is None or at >= _PYTORCH_FIRST:
        return None
    return f"on TensorRT-LLM {at} or older, before the PyTorch backend (0.17): the engine flow's"


_PYTORCH_FIRST = Version(PYTORCH_FIRST)
# a config value written as one snake_case token (``glm4_moe_mtp``, ``ngram_gpu``)
_VALUE = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w./-])")


# another engine's name as a token, also inside a config's or recipe's identifier
# (``qwen3-h200-sglang-agentic``): a vLLM-only method value beside it is that entry's label
_OTHER_ENGINE_TOKEN = re.compile(r"(?i)(?<![a-z0-9])(?:sglang|tensorrt[-_ ]?llm|trt[-_]?llm)(?![a-z0-9])")


def _vllm_spelled(text: str) -> bool:
    """The line writes a speculative method as only vLLM's ``speculative_config.method`` spells
    it (a ``[[method]]`` value of vLLM's table that SGLang's and TensorRT-LLM's lack): the text
    is about a vLLM run even where no line names the engine."""
    return any(method_signature("vllm", value) is not None
               and method_signature("sglang", value) is None
               and method_signature("trtllm", value) is None
               for value in _VALUE.findall(text))  # fmt: skip


def _on_plugin(config: RunConfig, engine: str | None) -> bool:
    platform = config.flags.get("platform")
    if engine == "sglang" or config.engine == "sglang":  # SGLang runs on Ascend NPUs itself
        return False
    return engine == "vllm_ascend" or (platform is not None and platform.value == "ascend")


def _class(family: str, config: RunConfig, plugin: bool) -> tuple[str | None, str | None]:
    """(class, None) or (None, the condition) the method runs on; (None, None): no class."""
    method = _METHOD[family]
    if (table := plugin_table(config)) is not None:  # a plugin's own runner (ArcticInference)
        return plugin_proposer(table, method, plugin_release(config))
    if family == "ARCTIC":  # ArcticInference's own method: no vLLM class runs it
        return None, None
    if plugin:  # the plugin's release, else the one the vLLM release it states pairs with
        release = config.flags.get("platform_release")
        vllm = config.flags.get("vllm_prose_release")
        at = str(release.value) if release else paired_release(config.version or (
            str(vllm.value) if vllm is not None else None))  # fmt: skip
        worker, _why, condition = ascend_proposer(method, at, newest_release(config, "vllm_ascend"))
        return worker, condition
    said = config.flags.get("vllm_prose_release")  # "... crash in vLLM 0.6.3"
    version = config.version or (str(said.value) if said is not None else None)
    reason, points_to, proposer = proposer_verdict(method, version)
    if version is None and (early := _before(method, proposer, reason, config)) is not None:
        return early
    if points_to == "other" and proposer:
        return proposer, None
    both = reason.split(" -> ", 1)[1] if points_to == "other" and " -> " in reason else None
    return None, both  # "NgramProposer on the V1 engine, NGramWorker on V0 (...)"


def _v0_dated(family: str, config: RunConfig) -> bool:
    """The text's day is before vLLM's V1 engine had any speculative decoding (its first
    proposer, ``_V1_FIRST``), and V0 had a worker for the family: a pull request adding the
    family then added it to V0's spec decode, whose worker its own crash ran (a 2024 "Medusa
    implementation" PR: MedusaWorker), run shown or not."""
    if config.version is not None or "vllm_prose_release" in config.flags:
        return False
    method = _METHOD[family]
    reason, _points_to, proposer = proposer_verdict(method, None)
    before_v1 = _before("ngram", _V1_FIRST, "", config)
    early = _before(method, proposer, reason, config)
    return before_v1 is not None and early is not None and early[0] is not None


_V1_FIRST = "NgramProposer"  # the V1 engine's first proposer (0.7.3): V1 speculation began


def _before(
    method: str, proposer: str | None, reason: str, config: RunConfig
) -> tuple[str | None, str | None] | None:
    """With no release named, the text's newest day bounds it: a day before the first release
    shipping the method's V1 class leaves V0's worker for it (EAGLE in 2024 ran on
    MultiStepWorker), or no class at all where V0 never ran the method; None: no bound."""
    v1 = proposer or next((c for c in (reason.rsplit(" -> ", 1)[-1].split(" on the V1")[0],)
                           if " on the V1 engine" in reason), None)  # fmt: skip
    day = text_day(config)
    newest = newest_held("vllm", day) if day is not None else None
    first = first_release(v1) if v1 else None
    if newest is None or first is None or newest >= first:
        return None
    found = v0_worker(method)
    return (found[0], None) if found is not None else (None, None)


# TensorRT-LLM families only its engine flow runs (a speculative_decoding_mode of the engine):
# their decoding layer is the [[symbol]] row of trtllm.toml that names a worker
_ENGINE_ONLY = ENGINE_ONLY


# families both flows run (the engine flow's external draft tokens / prompt lookup)
_BOTH_FLOWS = ("DRAFT_MODEL", "NGRAM")


def _on_pytorch(config: RunConfig) -> bool:
    """The run is on the PyTorch backend: ``--backend pytorch``, or a release of 1.0 or later
    (its default backend) named in the text."""
    backend = config.flags.get("backend")
    if backend is not None:
        return str(backend.value) in ("pytorch", "_autodeploy")
    release = config.flags.get("trtllm_release")
    try:
        return release is not None and Version(str(release.value)) >= Version("1.0.0")
    except InvalidVersion:
        return False


# the ``decoding_type`` a PyTorch-backend family stands for, read as a YAML stating it would be
_DECODING_TYPES = PROSE_DECODING_TYPES


def _trtllm(
    named: Sequence[tuple[str, str, int, str]], flow: str | None, config: RunConfig,
    by_count: bool = True,
) -> list[Evidence]:
    """A TensorRT-LLM run whose text names one family. Medusa or lookahead: the engine flow's
    decoding layer for it, decided where ``flow`` (why the run is on the engine flow) says so,
    else a condition. A PyTorch-backend family (MTP, EAGLE-3, n-gram, draft-target): what its
    ``decoding_type`` gives with the keys a paste would show unset (a condition where those
    keys pick the worker), ranked as prose; nothing on the engine flow, whose modes differ.
    ``by_count``: EAGLE-3's one-/two-model words name its mode (not in a PR adding that mode)."""
    families = dict.fromkeys(f for f, *_ in named)
    if 1 < len(families) <= _MOST_FAMILIES:
        return _trtllm_each(named, flow, config, by_count)
    if len(families) != 1:
        return []
    family = next(iter(families))
    _f, source, lineno, text = named[0]
    if family in _BOTH_FLOWS and flow is None and not _on_pytorch(config):
        return []  # draft-target and n-gram ran on the engine flow too: the flow is not shown
    if family in _DECODING_TYPES and flow is None:
        stated = FlagValue(_DECODING_TYPES[family], source, lineno, "prose")
        flags = {**config.flags, "speculative_config.method": stated}
        counted = {c for *_, line in named if (c := eagle_model_count(line)) is not None}
        if by_count and family in ("EAGLE", "EAGLE3") and len(counted) == 1 \
                and "speculative_config.one_model" not in flags:  # fmt: skip
            # "eagle3 two model", "Eagle3-one-model": the PyTorch backend's mode, by its name
            flags["speculative_config.one_model"] = FlagValue(counted.pop(), source, lineno, "prose")
        return [replace(e, text=text) for e in
                method_evidence(replace(config, flags=flags, engine="trtllm"))]  # fmt: skip
    if _engine_shown(flow, family, config) and (layer := _engine_layer(family)) is not None:
        reason = f"{PROSE_REASON}: the text names {family} for a TensorRT-LLM run {flow}"
        return [Evidence(source, lineno, text, f"{reason} -> {layer} (other)", "other", layer,
                         framework="trtllm")]  # fmt: skip
    cls = next((s.worker for s in symbol_signatures() if s.framework == "trtllm"
                and s.family == family and s.worker and s.points_to), None)  # fmt: skip
    reason = f"{PROSE_REASON}: the text names {family} for a TensorRT-LLM run"
    if family == "EAGLE" and cls is not None and flow is not None and "engine_flow" in config.flags:
        # EAGLE-1/2 where the run's own lines show the engine flow (a build, its C++ batch
        # manager's frames): the engine's decoding layer; EAGLE-3 never ran there
        return [Evidence(source, lineno, text, f"{reason} {flow} -> {cls} (other)", "other", cls,
                         framework="trtllm")]  # fmt: skip
    if family not in _ENGINE_ONLY or cls is None:
        return []
    if flow is not None:
        return [Evidence(source, lineno, text, f"{reason} {flow} -> {cls} (other)", "other", cls,
                         framework="trtllm")]  # fmt: skip
    condition = f"{cls} if the TensorRT engine flow ran it ({family} mode)"
    return [Evidence(source, lineno, text, f"{reason}: {condition}", None, None, condition)]


def _engine_shown(flow: str | None, family: str, config: RunConfig) -> bool:
    """The engine flow ran the family's external-draft mode (``family``: draft-target, n-gram):
    shown by its own lines (a build, an example script, executors: flag ``engine_flow``), its
    runtime's frames or the release; not by an LLM API ``backend: tensorrt`` key alone, whose
    n-gram and draft-target configs are the PyTorch backend's."""
    if flow is None or family not in ENGINE_FLOW_MODES:
        return False
    if "engine_flow" in config.flags or "backend" not in config.flags:
        return True
    return not flow.startswith("on the engine flow's runtime")


def _engine_layer(family: str) -> str | None:
    """The decoding layer the TensorRT engine flow runs ``family`` with, where its mode is not
    engine-only (``trtllm_words.ENGINE_FLOW_MODES``: draft-target and prompt lookup ->
    ExternalDraftTokensLayer)."""
    mode = ENGINE_FLOW_MODES.get(family)
    return next((s.worker for s in symbol_signatures() if s.framework == "trtllm" and s.family == mode
                 and s.worker and s.what.startswith(ENGINE_MODE_ROW)), None)  # fmt: skip


_MOST_FAMILIES = 2  # a condition over more families (each of two or three classes) says little


def _trtllm_each(
    named: Sequence[tuple[str, str, int, str]], flow: str | None, config: RunConfig,
    by_count: bool = True,
) -> list[Evidence]:
    """Several families named for one TensorRT-LLM run ("we tried MTP and Eagle3 on 1.0.0;
    one of the runs crashed"): each family's class or condition, as one condition, the way the
    vLLM branch joins them; nothing where any family gives nothing."""
    parts: list[str] = []
    for family in dict.fromkeys(f for f, *_ in named):
        found = _trtllm([n for n in named if n[0] == family], flow, config, by_count)
        if not found:
            return []
        one = found[0]
        parts.append(f"{one.worker_class or one.condition} for {family}")
    _f, source, lineno, text = named[0]
    condition = "; ".join(parts)
    said = "/".join(dict.fromkeys(f for f, *_ in named))
    reason = f"{PROSE_REASON}: the text names {said} for a TensorRT-LLM run: {condition}"
    return [Evidence(source, lineno, text, reason, None, None, condition)]


# a class written as what ran: ``Gemma4Proposer.propose``, "crashed in Gemma4Proposer", "raised
# from X", "X fails"; the name filled in per class
_RAN = (r"`?{c}`?\.\w+|\b(?:in|inside|within|from|by|at)\s+(?:the\s+)?`?{c}\b"
        r"|\b{c}`?\s+(?:crash|fail|rais|throw|hang|hung|die|died|dies|error|abort)")
# a line pointing at another report or page: a class there ran in that report, not this run
_CITED = re.compile(r"#\d{3,}|https?://|\b(?:issue|see|same as|as in|like in)\b", re.I)
# a guess or a likeness ("I think the bug is like the one in EagleProposer"): not what ran
_HEDGED = re.compile(r"(?i)\b(?:think|guess|suspect|maybe|perhaps|probably|might|may|could|like"
                     r"|similar\w*|resembl\w*)\b")
_NAMED = "the text names it as the class that ran"  # the narrowing's words in a reason


def _families_of(cls: str) -> frozenset[str]:
    """The families a vLLM class drafts for: its frame row's, each ``[[method]]`` row naming
    it (``gemma4_mtp`` -> Gemma4Proposer is MTP's), each MRV2 speculator row's method."""
    found = {family for family in _METHOD if any(w == cls for w, *_ in family_methods("vllm", family))}
    found |= {(method_signature("vllm", r.method) or ("", ""))[0]
              for r in runner_table().speculators if r.cls == cls}  # fmt: skip
    own = family_of(cls, "vllm")
    return frozenset(found | ({own[1]} if own else set())) - {""}


def _ran_named(mentions: Sequence[Mention], source: str, since: int) -> list[Mention]:
    """The run's lines naming one vLLM drafting class as the code that ran or crashed (the
    mention reader already set aside diffs, edits, headings, comparisons, questions)."""
    out = []
    for m in mentions:
        if m.kind != CLASS_KIND or m.source != source or m.lineno < since:
            continue
        if "vllm" not in frameworks_of_class(m.name) or _CITED.search(m.text) or _HEDGED.search(m.text):
            continue
        if re.search(_RAN.format(c=re.escape(m.name)), m.text):
            out.append(m)
    return out


def named_ran(
    evidence: Sequence[Evidence], config: RunConfig, mentions: Sequence[Mention], source: str,
    since: int,
) -> list[Evidence]:
    """``evidence`` with a vLLM method-table verdict (a config's method, a family in words)
    narrowed to the drafting class the run's text names as what ran (``Gemma4Proposer.propose``
    under ``method: mtp``: vLLM's config rewrote the method for a Gemma-4 draft; a fork's
    class): of the method's family the named class decides, being the more specific; of
    another family the two give a condition. Frames or messages that point keep their verdict;
    names that disagree among themselves settle nothing."""
    votes = [e for e in evidence if e.points_to is not None]
    inferred = [e for e in votes if _READ.search(e.reason) or e.reason.startswith(PROSE_REASON)]
    if not votes or len(inferred) != len(votes) or config.engine not in (None, "vllm"):
        return list(evidence)
    named = {m.name: m for m in _ran_named(mentions, source, since)}
    if len(named) != 1:
        return list(evidence)
    (cls, said), first = next(iter(named.items())), votes[0]
    if "vllm" not in frameworks_of_class(first.worker_class or ""):
        return list(evidence)  # another engine's class decided: its run, not vLLM's
    method = config.flags.get("speculative_config.method")
    family = first.family
    if not family and method is not None:
        family = (method_signature("vllm", str(method.value)) or ("", ""))[0]
    theirs = _families_of(cls)
    if not family or not theirs or cls == first.worker_class:
        return list(evidence)
    where = f"line {said.lineno}: {said.text}"
    if family in theirs:
        why = f"; {_NAMED}, of the {family} family ({where}) -> {cls}"
        sig = signature_for_class(cls, "vllm")
        points_to = sig.points_to if sig is not None else first.points_to
        return [replace(e, reason=e.reason + why, points_to=points_to, worker_class=cls)
                if e in inferred and e.worker_class == first.worker_class else e for e in evidence]  # fmt: skip
    condition = (f"{first.worker_class} if the run's {family} method ran as configured, else "
                 f"{cls} ({_NAMED}, of the {'/'.join(sorted(theirs))} family)")
    why = f"{first.reason}; but {cls} is named as the class that ran ({where}): {condition}"
    return [replace(e, reason=why, points_to=None, worker_class=None, condition=condition)
            if e in inferred else e for e in evidence]  # fmt: skip
