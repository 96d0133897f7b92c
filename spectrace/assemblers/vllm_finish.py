"""What a vLLM run's config implies once every line is read: the method vLLM infers for a draft
model named without one (by release), and the Ascend plugin's own class in place of vLLM's.

Done last, on the final flags: the version line or the platform's may come after the config.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from packaging.version import Version

from spectrace.assemblers.image_tags import image_release
from spectrace.assemblers.mtp_models import MtpModel, own_mtp_models
from spectrace.assemblers.pyconfig import bare_spec_config, commented_out
from spectrace.assemblers.release_dates import newest_at, newest_held
from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig, trim
from spectrace.assemblers.spec_prose import PROSE_REASON, no_spec, set_apart
from spectrace.assemblers.trtllm_runners import named_engines
from spectrace.assemblers.vllm_config import (
    GPU_PLATFORMS,
    bracketed_value,
    platform_named,
    prose_version,
)
from spectrace.assemblers.vllm_engine_lines import engine_shown, other_tracker
from spectrace.assemblers.vllm_methods import (
    GEMMA4_MODEL,
    LAST_V0,
    Inferred,
    assistant_draft,
    infer,
    own_head_classes,
    mrv2_of,
    self_mtp,
    speculators_checkpoint,
    target_head,
    v0_tokens_spelling,
    with_head_class,
)
from spectrace.assemblers.vllm_plugin_marks import (
    ascend_marked,
    plugin_marked,
    plugin_rows,
    stated_release,
)
from spectrace.assemblers.vllm_plugins import ascend_proposer, named_span, on_ascend, plugin_proposer
from spectrace.assemblers.vllm_proposers import (
    first_release,
    legacy_spelling,
    proposer_verdict,
    v0_worker,
)
from spectrace.assemblers.vllm_prose_json import prose_json
from spectrace.assemblers.vllm_release import parse_release
from spectrace.assemblers.volumes import mounted_from
from spectrace.assemblers.vllm_runner import APART, DEV_BUILD_FLAG, FLOOR_FLAG, note_runner, stated_runner
from spectrace.assemblers.vllm_stated import SPEC_METRICS, introduced_method, on_vllm_tracker, stated_method
from spectrace.assemblers.vllm_startup import shared_draft
from spectrace.assemblers.vllm_v0_marks import v0_marked
from spectrace.assemblers.vllm_v0_title import v0_titled
from spectrace.dialects.base import LogLine

Target = tuple[str, LogLine]  # vLLM's target model and the line that named it
Day = tuple[date, LogLine]  # the newest day a text shows and the line that shows it
_MTP_METHODS = ("mtp", "gemma4_mtp")  # the methods an MTP head runs under


def finish_vllm(
    config: RunConfig,
    lines: Sequence[LogLine],
    target: Target | None,
    prose: str | None,
    day: Day | None = None,
) -> None:
    """The inferred method, then the platform's class, written into ``config`` (the
    collector's own, still being built). ``day``: the newest day the text shows and its line,
    as the collector reads it (``ConfigCollector.text_day``), kept as flag ``text_day``."""
    if day is not None:
        shown, line = day
        config.flags["text_day"] = FlagValue(shown.isoformat(), line.source, line.lineno, "env")
    _placeholders(config)
    _prose_release(config, lines, prose)
    _launch_release(config, lines)
    stated_method(config, lines)  # vLLM's own line pasted alone, an environment bullet
    introduced_method(config, lines)  # the sentence introducing a cut vllm serve
    _bare_alone(config, lines)
    prose_json(config, lines)  # a sentence's inline config set apart, or two of them
    _shortcut_flags(config, lines)
    _vllm_image(config, lines)
    _infer_method(config, lines, target, prose)
    _native_mtp(config, lines, target, prose)  # a speculating run of a model with its own MTP
    _speculators_named(config, lines)  # a speculators checkpoint's id in a sentence
    v0_titled(config, lines, newest_release(config, "vllm"))  # a [V0] title, V0's frames
    _mtp_head(config, prose, target, lines)
    _gemma4_model(config, lines)
    _platform(config, lines)
    _plugin_span(config, lines)
    _on_ascend(config, config.version or prose)
    _plugin_named(config, config.version or prose)
    _on_other_platform(config)
    _engine_by_date(config, lines)
    _v0_line(config, lines)
    if _engine_forced(config, lines) is None and not any(_V1_FRAME.search(ln.text) for ln in lines):
        v0_marked(config, lines, newest_release(config, "vllm"))  # a V0 title, V0-only options
    _classes_disagree(config)
    _engine_contradicted(config, lines)
    note_runner(config, lines)  # the V1 runner's class, MRV2's, or both by release
    shared_draft(config)  # a draft architecture several methods load, alone
    _args_failed(config, lines)


def _speculators_named(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A speculators checkpoint the report names in words ("We serve `org/X-speculator.dflash`
    on vLLM 0.20.1", "- Model: org/X-speculator.eagle3"): its type is the run's method, as
    where it is served (``speculators_checkpoint``); not from a question, a plan, a wish or a
    sentence setting it apart, nor where the text says the run did not speculate."""
    if "speculative_config.method" in config.flags or config.engine not in (None, "vllm"):
        return
    release = config.flags.get("vllm_prose_release")
    if (config.version is None and release is None and not on_vllm_tracker(lines)) or any(
            no_spec(ln.text) for ln in lines):  # fmt: skip
        return  # placed on vLLM by a release or its tracker; no run said to be plain
    version = config.version or (str(release.value) if release is not None else None)
    for line in lines:
        if line.quoted or "?" in line.text or set_apart(line.text, without=False):
            continue
        found = next((f for token in line.text.split() if (f := speculators_checkpoint(
            token.strip("`'\"*,;:()[]"), version)) is not None), None)  # fmt: skip
        if found is None:
            continue
        config.engine = config.engine or "vllm"
        if found.method is not None:
            config.flags["speculative_config.method"] = FlagValue(found.method, line.source,
                                                                  line.lineno, "prose")  # fmt: skip
        config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw),
                                             f"{PROSE_REASON}: {found.reason}", found.points_to,
                                             found.worker, found.condition))  # fmt: skip
        return



# a value written as a template's placeholder (``"method": <method>``, ``"model": "<path to draft>"``)
_PLACEHOLDER = re.compile(r"\s*<[^<>\n]{1,80}>\s*")
PLACEHOLDER_FLAG = "speculative_config.placeholder"  # the first placeholder a config held


def _placeholders(config: RunConfig) -> None:
    """A speculative config whose values are a template's placeholders holds no value: each
    such flag is dropped (no method "<method>", no draft named "draft_model"), the config line's
    reading of the method says so (the line stays judged: its words are not the run's method),
    and flag ``speculative_config.placeholder`` keeps vLLM's inference from guessing one."""
    held = [(key, flag) for key, flag in config.flags.items()
            if key.startswith("speculative_config.") and _PLACEHOLDER.fullmatch(str(flag.value))]  # fmt: skip
    for key, flag in held:
        del config.flags[key]
        config.flags.setdefault(PLACEHOLDER_FLAG, flag)
        if key != "speculative_config.method":
            continue
        why = f"speculative method '{flag.value}' is a placeholder, no value: the method is not shown"
        config.path_evidence = [
            replace(e, reason=f"{e.reason.split(':', 1)[0]}: {why}", points_to=None,
                    worker_class=None, condition=None)
            if (e.source, e.lineno) == (flag.source, flag.lineno) and e.reason.startswith("vLLM")
            else e for e in config.path_evidence
        ]  # fmt: skip


# a release the sentence says was run patched ("vLLM 0.27.1 with our KV-compression patch set",
# "0.26.0, patched", "plus two backports"): its builder's own code, as a local version label is
_PATCHED = re.compile(r"(?i)^[^.;!?]*?\b(?:patched|patches|patch[ -]?set|backport(?:s|ed)?)\b")


def _prose_release(config: RunConfig, lines: Sequence[LogLine], prose: str | None) -> None:
    """The vLLM release a sentence or title names (``... crash in vLLM 0.6.3``), kept as flag
    ``vllm_prose_release`` with its line for a run only words place on vLLM (``path_named``);
    a run whose config lines are vLLM's takes it as its version (``_infer_method``). A vLLM
    image's tag (``vllm/vllm-openai:v0.20.0``, images.toml) states it the same way."""
    line = next((ln for ln in lines if prose and prose in (prose_version(ln.text), image_release(ln.text, "vllm"))),
                None)  # fmt: skip
    if line is not None and config.version is None:
        config.flags["vllm_prose_release"] = FlagValue(prose, line.source, line.lineno, "prose")
        if (dev := re.search(rf"(?<![\w.]){re.escape(prose)}(?:rc\d+)?\.dev\d+(?:\+[\w.]+)?", line.text)):
            config.flags[DEV_BUILD_FLAG] = FlagValue(dev.group(0), line.source, line.lineno, "prose")
        elif _PATCHED.search(line.text[line.text.find(prose) + len(prose):]):  # "vLLM 0.27.1 with our KV patch set"
            config.flags[DEV_BUILD_FLAG] = FlagValue(f"{prose}+patched", line.source, line.lineno, "prose")
        # the text names no other release: it bounds a run no day bounds (path_run.release_bounded)
        others = {prose_version(ln.text) for ln in lines} - {prose, None}
        if not others and len(set(_RELEASE.findall(line.text))) == 1:
            config.flags[PROSE_RELEASE_ALONE] = FlagValue(prose, line.source, line.lineno, "prose")


_LAUNCH_METHOD = "vLLM launch command: speculative method"


def _launch_release(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """The launch's proposer by the release the run prints (the server's version line, collect_
    env's ``vLLM Version:``) wherever that line sits (under the command, below the traceback),
    else by the one vLLM release the text states (its image ``vllm/vllm-openai:v0.7.3``, a
    ``[pip3] vllm==`` row, a table row, a sentence; ``PROSE_RELEASE_ALONE``): the release
    decides V0 or V1 as the server's line would, and shows in the reason."""
    method = config.flags.get("speculative_config.method")
    alone = config.flags.get(PROSE_RELEASE_ALONE)
    if config.version is not None:
        release, where = config.version, "the release the run prints"
    elif alone is not None:
        release, where = str(alone.value), f"the release line {alone.lineno} states"
    else:
        return
    if method is None or method.origin != "launch_command":
        return
    legacy = legacy_spelling(_text_of(method, lines))
    for i, e in enumerate(config.path_evidence):
        if (e.source, e.lineno) != (method.source, method.lineno) or not e.reason.startswith(_LAUNCH_METHOD):
            continue
        reason, points_to, proposer = proposer_verdict(method.value, release, None, legacy)
        reason = reason.replace("vLLM config", "vLLM launch command", 1)
        if release not in reason:
            reason = f"{reason} (vLLM {release}, {where})"
        config.path_evidence[i] = replace(e, reason=reason, points_to=points_to, worker_class=proposer)


# the flag of a vLLM release a sentence names where its line names no other release-like
# number ("upgrading from vLLM 0.6.3 to 0.10.1": which one ran is not said) and no other line
# names another vLLM release
PROSE_RELEASE_ALONE = "vllm_prose_release_alone"
_RELEASE = re.compile(r"(?<![\w.])v?(\d+\.\d+\.\d+(?:\.\d+)?)(?![\d.]*\d)")  # as prose_version


def _bare_alone(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A bare speculative JSON (``{"method": "eagle3", ...}``) with no line naming vLLM (a
    draft-training framework's config takes the same keys): not a vLLM run's config."""
    if any(_VLLM.search(line.text) for line in lines):
        return
    bare = {(e.source, e.lineno) for e in config.path_evidence
            if "speculative" not in e.text and bare_spec_config(e.text) is not None}  # fmt: skip
    if not bare:
        return
    config.path_evidence = [e for e in config.path_evidence if (e.source, e.lineno) not in bare]
    config.flags = {k: f for k, f in config.flags.items()
                    if not (k.startswith("speculative_config.") and (f.source, f.lineno) in bare)}  # fmt: skip
    if not any(k.startswith("speculative_config.") for k in config.flags):
        config.engine = None


_VLLM = re.compile(r"(?i)vllm")


def newest_release(config: RunConfig, framework: str) -> Version | None:
    """The newest release of ``framework`` the text's newest day allows, if a day is shown;
    for vLLM also a day before the table's first release (0.6.0, Sept 2024): V0's threads of
    mid-2024 ran a release older than it."""
    day = config.flags.get("text_day")
    if day is None:
        return None
    try:
        shown = date.fromisoformat(str(day.value))
    except ValueError:
        return None
    return newest_held(framework, shown) if framework == "vllm" else newest_at(framework, shown)


PLUGIN_SPAN_FLAG = "platform_span"  # the plugin releases defining the classes the text names


def _plugin_span(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """``platform_span``: vllm-ascend's releases that define every class of its own the text's
    lines name where only some releases do ([[since]] rows: ``AscendSpecDecodeBaseProposer``
    0.19.1rc1 on), as "first..last" (last empty: to the newest); the line naming the newest."""
    floor: tuple[Version, LogLine] | None = None
    ceiling: Version | None = None
    for line in lines:
        if line.quoted or (span := named_span("vllm_ascend", line.text)) is None:
            continue
        if floor is None or span[0] > floor[0]:
            floor = (span[0], line)
        if span[1] is not None and (ceiling is None or span[1] < ceiling):
            ceiling = span[1]
    if floor is not None and PLUGIN_SPAN_FLAG not in config.flags:
        line = floor[1]
        config.flags[PLUGIN_SPAN_FLAG] = FlagValue(f"{floor[0]}..{ceiling or ''}", line.source, line.lineno, "class")


def _platform(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A platform of its own (not vLLM's GPU ones) that vLLM's start-up lines name, or the
    vllm-ascend plugin's own marks (its PR footer, its package in the page's address, a change
    built on one of its pull requests), where no other line set one."""
    _plugin_activated(config, lines)
    if "platform" in config.flags:
        return
    if (marked := ascend_marked(lines)) is not None:
        config.flags["platform"] = FlagValue("ascend", marked.source, marked.lineno, "env")
        return
    if (plugin := plugin_marked(lines)) is not None:  # vllm_gaudi/..., tpu_inference/...
        row, line = plugin
        config.flags["platform"] = FlagValue(row.framework, line.source, line.lineno, "env")
        if (said := stated_release(lines, row)) is not None:  # "vllm-rbln 0.10.3"
            config.flags[PLUGIN_RELEASE] = FlagValue(said[0], said[1].source, said[1].lineno, "prose")
        return
    for line in lines:
        if (name := platform_named(line.text)) is not None and name not in GPU_PLATFORMS:
            # a plugin only the activation line names ("Platform plugin rbln is activated")
            config.flags["platform"] = FlagValue(_own_platform(name) or name, line.source, line.lineno, "env")
            return


def _own_platform(name: str) -> str | None:
    """The plugin whose own platform name vLLM's activation line gives (``rbln``), or None."""
    return next((r.framework for r in plugin_rows() if r.platform and r.platform == name), None)


def _plugin_activated(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """vLLM's line activating a plugin only its name names ("Platform plugin rbln is
    activated", printed by vLLM's platform resolver): the text holds a vLLM run's own record,
    where nothing else named the run's engine and no other framework's tracker heads it."""
    if config.engine is not None or other_tracker(lines):
        return
    if any((name := platform_named(ln.text)) is not None and _own_platform(name) for ln in lines):
        config.engine = "vllm"


def _on_other_platform(config: RunConfig) -> None:
    """A platform plugin other than vllm-ascend (TPU, Gaudi, Neuron...) runs its own model
    runner: vLLM's CUDA proposer a config line names may not be the class that ran, so it
    becomes a condition (the family stays)."""
    platform = config.flags.get("platform")
    name = str(platform.value) if platform is not None else ""
    if not name or name == "ascend" or name in GPU_PLATFORMS:
        return
    if name in MARKED_PLUGINS:  # the plugin's own package ran: vLLM's CUDA class never does
        _dropped(config, f"the run is on the {name} plugin (line {platform.lineno}), whose runner"
                         " builds its own proposers")  # fmt: skip
    else:
        _undecided(config, f"the {name} plugin may build its own proposer for this method")
    _plugin_class(config, name)


# the plugins' path tables, by the name the text gives the plugin itself (its package or
# repository); a platform line (``Platform plugin tpu is activated``) is not enough: vLLM's own
# built-in TPU / HPU platforms log it too, before tpu-inference or vllm-gaudi took them over
_PLUGIN_TABLES = {"arctic_inference": "arctic_inference",
                  **{row.framework: row.framework for row in plugin_rows()}}  # fmt: skip


# the plugin's own release as the text states it (``vllm_plugin_marks.stated_release``)
PLUGIN_RELEASE = "plugin_release"


def plugin_release(config: RunConfig) -> str | None:
    """The plugin's release where the text gives it: its own number as the text states it,
    else the vLLM release the run prints, for a plugin whose releases follow vLLM's numbers
    (vllm-gaudi)."""
    if (own := config.flags.get(PLUGIN_RELEASE)) is not None:
        return str(own.value)
    platform = config.flags.get("platform")
    row = next((r for r in plugin_rows() if platform is not None and r.framework == platform.value), None)
    if row is None or not row.paired:
        return None
    said = config.flags.get("vllm_prose_release")
    return config.version or (str(said.value) if said is not None else None)


def plugin_table(config: RunConfig) -> str | None:
    """The path table of the platform plugin the run is on (other than vllm-ascend)."""
    platform = config.flags.get("platform")
    return _PLUGIN_TABLES.get(str(platform.value)) if platform is not None else None


def _plugin_class(config: RunConfig, name: str) -> None:
    """The plugin's own class for the configured method, where its table has a [[method]]
    row (ArcticInference builds ArcticProposer for ``arctic``): decided at the method's line."""
    method = config.flags.get("speculative_config.method")
    framework = plugin_table(config)
    if method is None or method.value is None or framework is None:
        return
    cls, condition = plugin_proposer(framework, method.value, plugin_release(config))
    if cls is None and condition is None:
        return
    said = f"vLLM config: speculative method '{method.value}' on the {framework} plugin"
    reason = (
        f"{said}, which builds {cls} for it -> other ({cls})" if cls else f"{said}: {condition}"
    )
    text = next((e.text for e in config.path_evidence
                 if (e.source, e.lineno) == (method.source, method.lineno)), str(method.value))  # fmt: skip
    evidence = Evidence(method.source, method.lineno, text, reason, "other" if cls else None, cls,
                        None if cls else condition)  # fmt: skip
    config.path_evidence.insert(0 if cls else len(config.path_evidence), evidence)


# plugins named by their own package, image or repository (vllm_plugin_marks.plugin_marked), not
# by a platform line vLLM's built-in platforms log too
MARKED_PLUGINS = frozenset(row.framework for row in plugin_rows())


def _dropped(config: RunConfig, why: str) -> None:
    """Each config line's vLLM class taken away (the family stays): the plugin's runner ran."""
    config.path_evidence = [
        replace(e, reason=f"{e.reason}; {why}", points_to=None, worker_class=None, condition=None)
        if e.worker_class and e.reason.startswith("vLLM") else e
        for e in config.path_evidence
    ]  # fmt: skip


def _undecided(config: RunConfig, elsewhere: str) -> None:
    """Each config line's vLLM class made a condition: that class on vLLM's GPU platforms,
    ``elsewhere`` on the plugin's (the family stays)."""
    config.path_evidence = [
        replace(e, points_to=None, worker_class=None,
                condition=f"{e.worker_class} on vLLM's GPU platforms; {elsewhere}")
        if e.worker_class and e.reason.startswith("vLLM") else e
        for e in config.path_evidence
    ]  # fmt: skip


def _engine_by_date(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A method both engines ran, with no release printed (``NgramProposer on the V1 engine,
    NGramWorker on V0``): ``VLLM_USE_V1=1`` / ``=0`` set for the run picks the engine (0.8-0.10
    read it); a text whose dates allow no release with the V1 class ran V0; a line only one
    engine writes (V0's ``Speculative metrics: ... System efficiency``, V1's ``SpecDecoding
    metrics``) picks it too, under a printed release of both engines' years (0.8-0.9.2) as well."""
    forced = _engine_forced(config, lines)
    if config.version is not None and forced is None:
        return
    newest = newest_release(config, "vllm") if config.version is None else None
    out = []
    for e in config.path_evidence:
        both = e.reason.rsplit(" -> ", 1)[-1] if " on the V1 engine, " in e.reason else ""
        v1, _, v0 = both.partition(" on the V1 engine, ")
        if not v1 or e.worker_class:
            out.append(e)
            continue
        v0 = v0.split(" on V0", 1)[0]
        first = first_release(v1)
        if forced is not None:
            worker = v1 if forced[0] else v0
            why = forced[1]
        elif newest is not None and first is not None and newest < first:
            worker = v0
            why = f"the text's dates allow vLLM {newest} at the newest; {v1} is first in {first}"
        else:
            out.append(e)
            continue
        engine = "V1" if worker == v1 else "V0"
        out.append(replace(e, reason=f"{e.reason}; {why} -> {worker} ({engine}, other)",
                           worker_class=worker))  # fmt: skip
    config.path_evidence = _forced_v0(config, out, forced)


def _forced_v0(
    config: RunConfig, evidence: list[Evidence], forced: tuple[bool, str] | None
) -> list[Evidence]:
    """``VLLM_USE_V1=0`` set for the run: a method spelled the V1 way still ran on V0 (only
    0.8-0.10 read the switch, and nobody sets a switch their server ignores)."""
    method, model = (config.flags.get(f"speculative_config.{k}") for k in ("method", "model"))
    if forced is None or forced[0] or (method is not None and method.value is None):
        return evidence
    found = v0_worker(method.value if method else None, model.value if model else None)
    if found is None or found[1] == "EAGLE3":  # EAGLE-3 came in 0.9.1, V1's: V0 never ran it
        return evidence
    v0 = found[0]
    plain = "platform" not in config.flags  # a plugin's conditions name its own classes
    # a class, or a condition on the release (a draft model with no method): V0 settles it
    return [replace(e, reason=f"{e.reason.rsplit(' -> ', 1)[0]} -> {v0} (V0 spec_decode, "
                    f"other): {forced[1]}", worker_class=v0,
                    points_to="other", condition=None)
            if (e.worker_class or (e.condition and plain)) and e.reason.startswith("vLLM")
            and e.worker_class != v0 else e
            for e in evidence]  # fmt: skip


# the engine switch vLLM 0.8-0.10 read, as an env assignment (``export VLLM_USE_V1=1``, a
# prefix, ``os.environ["VLLM_USE_V1"] = "0"``)
_USE_V1 = re.compile(r"""\bVLLM_USE_V1["']?\]?\s*=\s*["']?([01])\b""")
# a sentence giving the switch as what worked, a fix or a suggestion ("With VLLM_USE_V1=0 it
# worked", "falling back to V0 (VLLM_USE_V1=0) avoids it", "try VLLM_USE_V1=0?"): not the run's
_SWITCH_ASIDE = re.compile(
    r"(?i)\b(?:works?|worked|fine|avoid\w*|fix\w*|workaround|fall\w* back|instead|try|tried"
    r"|would|should|could|suggest\w*|if|unless|before)\b|\?"
)
# a frame of vLLM's V1 engine (a traceback's ``File ".../vllm/v1/..."``, a py-spy line)
_V1_FRAME = re.compile(r"[/\\]?\bvllm[/\\]v1[/\\][\w/\\]+\.py\b")


def _engine_forced(config: RunConfig, lines: Sequence[LogLine]) -> tuple[bool, str] | None:
    """(V1 ran, why) where the text fixes the engine: the switch set for the run, else a line
    only one engine writes (``vllm_engine_lines``); None where neither does."""
    if (m := _engine_switch(lines)) is not None:
        return m.group(1) == "1", f"{m.group(0)} set for the run"
    shown = engine_shown(lines, config.version)
    if shown is None:
        return None
    return shown.v1, f"{shown.said}, which only vLLM's {shown.row.engine} engine writes"


def _v0_line(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """V0's own serving line (``Speculative metrics: ... System efficiency ...``) with no config
    line naming a class: ``SpecDecodeWorker`` drafted (the proposer worker under it is the
    method's, which the text does not give). Nothing where a config line names a class or a
    condition (``_engine_by_date`` settled those), or another engine is the run's."""
    if config.engine not in (None, "vllm") or _engine_switch(lines) is not None:
        return
    shown = engine_shown(lines, config.version)
    if shown is None or shown.v1 or not shown.row.worker:
        return
    if any((e.worker_class or e.condition) and e.reason.startswith("vLLM") for e in config.path_evidence):
        return
    config.engine = "vllm"
    worker = shown.row.worker
    line = shown.line
    if line.headed and line.dialect == "vllm" and V0_LINE_FLAG not in config.flags and not line.quoted:
        # printed under vLLM's own logger header while it served: the run's line, as a launch is
        # (not a quoted one: a thread set apart as a whole shows a run only by its own lines)
        config.flags[V0_LINE_FLAG] = FlagValue(worker, line.source, line.lineno, "vllm_config")
    quoted = QUOTED_V0_LINE if line.quoted else ""
    reason = (f"vLLM V0's own log line ({shown.row.what}; only V0's SpecDecodeWorker reports it{quoted}) "
              f"-> {worker} (V0 spec_decode, other)")  # fmt: skip
    config.path_evidence.append(Evidence(shown.line.source, shown.line.lineno,
                                         trim(shown.line.raw), reason, "other", worker))  # fmt: skip


# the flag a V0 engine line under vLLM's logger header sets: the run's own line (``run_shown``)
V0_LINE_FLAG = "v0_engine_line"
QUOTED_V0_LINE = "; quoted from another post"  # said in the reason of a quoted line's verdict
# a path into vLLM's V1 engine (a frame of the writer's own crash)
_V1_PATH = re.compile(r"[/\\]vllm[/\\]v1[/\\]")


def quoted_v0_aside(config: RunConfig, files: Sequence[str]) -> RunConfig:
    """``config`` without the verdict and run flag of a V0 line quoted from another post where
    the crash's own frames (``files``) went through vLLM's V1 engine: the writer's run was V1's,
    the quoted line another run's."""
    if not any(_V1_PATH.search(f) for f in files):
        return config
    quoted = [e for e in config.path_evidence if QUOTED_V0_LINE in e.reason]
    if not quoted:
        return config
    flags = {k: v for k, v in config.flags.items()
             if not (k == V0_LINE_FLAG and any(v.lineno == e.lineno for e in quoted))}  # fmt: skip
    return replace(config, flags=flags, path_evidence=[e for e in config.path_evidence if e not in quoted])


# the V0 engine's proposer workers and wrapper (vllm/spec_decode/), no other engine's class
_V0_CLASS = re.compile(r"^(?:SpecDecodeWorker|MultiStepWorker|NGramWorker|MedusaWorker"
                       r"|MLPSpeculatorWorker|SmallerTpProposerWorker|Top1Proposer)$")


def _engine_contradicted(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A config line's class of one engine where the run's own line shows the other engine ran
    (``Loading drafter model...``, V1's, beside a V0 ``MultiStepWorker`` by the flags' era; V0's
    metrics line beside ``EagleProposer`` for eagle3, which V0 never ran): the text contradicts
    itself, so that class decides nothing."""
    shown = engine_shown(lines, config.version)
    if shown is None:
        return
    out = []
    for e in config.path_evidence:
        cls = e.worker_class or ""
        other = bool(_V0_CLASS.match(cls)) if shown.v1 else cls.endswith(("Proposer", "ProposerGPU", "Speculator"))
        if cls and other and e.reason.startswith("vLLM") and not e.reason.startswith("vLLM V0's own"):
            e = replace(e, points_to=None, worker_class=None, condition=None,
                        reason=f"{e.reason.rsplit(' -> ', 1)[0]}: {shown.said} shows vLLM's "
                        f"{shown.row.engine} engine ran, which has no {cls}: the text does not show "
                        "which class ran")  # fmt: skip
        out.append(e)
    config.path_evidence = out


def _engine_switch(lines: Sequence[LogLine]) -> re.Match[str] | None:
    """``VLLM_USE_V1=0`` / ``=1`` set for the run: not a sentence that gives it as what worked
    or a suggestion, and ``=0`` not where the text's frames show the V1 engine ran (the crash
    went through ``vllm/v1/``: V0 was the other run, the one that worked)."""
    found = next((m for line in lines if (m := _USE_V1.search(line.text))
                  and not (line.quoted or _SWITCH_ASIDE.search(_USE_V1.sub(" ", line.text)))), None)  # fmt: skip
    if found is not None and found.group(1) == "0" and any(
        _V1_FRAME.search(line.text) for line in lines
    ):
        return None
    return found


def _classes_disagree(config: RunConfig) -> None:
    """Config lines of one run that name different classes (a thread comparing two servers'
    speculative configs, ``{"method": "ngram"}`` here and ``{"method": "eagle3"}`` there):
    none decides; each class becomes a condition naming its line."""
    named = [e for e in config.path_evidence if e.worker_class and e.reason.startswith("vLLM")]
    classes = dict.fromkeys(e.worker_class for e in named)
    if len(classes) < 2:
        return
    lines = {cls: next(e.lineno for e in named if e.worker_class == cls) for cls in classes}
    condition = "; ".join(f"{cls} for the config on line {n}" for cls, n in lines.items())
    config.path_evidence = [
        replace(e, points_to=None, worker_class=None,
                condition=f"{condition} (the text shows configs of several runs)")
        if e in named else e
        for e in config.path_evidence
    ]  # fmt: skip


# A crash in vLLM's argument parsing or engine-config building (a frame or a sentence naming
# vllm/engine/arg_utils.py, argparse's own refusal): the server never built a proposer.
_ARGS_FAILED = re.compile(
    r"vllm/engine/arg_utils\.py[\"'`]?,? line \d+"
    r"|: error: unrecognized arguments|: error: argument --"
)


def _args_failed(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """The run died parsing its arguments, before any proposer was built: the class its config
    asks for is what the run was set up to build, so it stays as a condition, not a decision."""
    # a commented-out line ("# error: unrecognized arguments ..." left in a compose file) is a note
    line = next((ln for ln in lines if _ARGS_FAILED.search(ln.text) and not commented_out(ln.text)), None)
    if line is None:
        return
    why = f"the run failed in vLLM's argument parsing (line {line.lineno}), before building a proposer"
    config.path_evidence = [
        replace(e, reason=f"{e.reason}; {why}", points_to=None, worker_class=None,
                condition=f"{e.worker_class} (the class its config asks for; {why})")
        if e.worker_class and e.reason.startswith("vLLM") else e
        for e in config.path_evidence
    ]  # fmt: skip


def _plugin_named(config: RunConfig, vllm: str | None) -> None:
    """The text names the vllm-ascend plugin (its repository, package, an ``Ascend*Proposer``)
    but no line shows the run on Ascend: vLLM's class and the plugin's (by release) are both
    conditions, neither decided."""
    flags = config.flags
    method = flags.get("speculative_config.method")
    if "platform" in flags or "platform_named" not in flags:
        return
    plugin = None
    if method is not None and method.value is not None:
        newest = newest_release(config, "vllm_ascend")
        plugin, _why, alt = ascend_proposer(method.value, paired_release(vllm), newest)
        plugin = plugin or alt
    there = f"{plugin} on vllm-ascend" if plugin else "the vllm-ascend plugin's own proposer"
    _undecided(config, f"{there} (the text names the plugin)")


def _mtp_head(
    config: RunConfig, prose: str | None, target: Target | None = None, lines: Sequence[LogLine] = ()
) -> None:
    """``method: mtp`` with a draft that has a proposer of its own (a Gemma-4 assistant runs
    ``Gemma4Proposer``, not ``EagleProposer``): the config lines' class is the head's. A draft
    given as a container path (``"model": "/assistant"``) is read as the host folder the text's
    volume option mounts there (``-v /models/gemma-4-26b-it-assistant:/assistant``)."""
    method, model = (config.flags.get(f"speculative_config.{k}") for k in ("method", "model"))
    if method is None or str(method.value).lower() not in _MTP_METHODS:
        return
    version = config.version or prose
    if model is None and target is not None:  # drafting with the target's own MTP layers
        config.path_evidence = [_target_head(e, target[0], version) for e in config.path_evidence]
    if model is not None:
        draft = mounted_from(lines, model.value) or model.value
        config.path_evidence = [_with_head(e, draft, version) for e in config.path_evidence]


GEMMA4_FLAG = "vllm_gemma4_model"  # a line of the run's text naming a Gemma-4 checkpoint
GEMMA4_HEAD_FLAG = "vllm_gemma4_head"  # a line tying that checkpoint to its MTP head


def _gemma4_model(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """Flag ``vllm_gemma4_model``: the first line (not behind a reply's quote mark) naming a
    Gemma-4 checkpoint with its size; MTP told in words may then be its assistant head's. Flag
    ``vllm_gemma4_head``: the first line that ties a Gemma-4 checkpoint to its MTP head in one
    clause ("Gemma-4 26B: MTP-K3 vs plain", ``vllm_methods.TARGET_HEADS``), or, where a
    checkpoint is named, calls the draft an assistant ("MTP-K3 (assistant drafter)"): the MTP
    the text tells is that head's, whose proposer is the Gemma-4 one alone."""
    if GEMMA4_FLAG in config.flags:
        return
    for line in lines:
        if not line.quoted and (m := GEMMA4_MODEL.search(line.text)) is not None:
            config.flags[GEMMA4_FLAG] = FlagValue(m.group(0), line.source, line.lineno, "prose")
            break
    if GEMMA4_FLAG not in config.flags:
        return
    for line in lines:
        if line.quoted or commented_out(line.text):
            continue
        if target_head(line.text, None)[0] in own_head_classes() or assistant_draft(line.text):
            config.flags[GEMMA4_HEAD_FLAG] = FlagValue(line.text.strip()[:120], line.source, line.lineno, "prose")
            return


def _target_head(evidence: Evidence, target: str, version: str | None) -> Evidence:
    """A config line's verdict with the class the target's own MTP head runs on, or the
    condition on the release where that class is not known to have shipped."""
    if not (evidence.reason.startswith("vLLM") and evidence.worker_class):
        return evidence
    cls, condition = target_head(target, version)
    if cls is not None:
        said = f"{cls} (the target {target} drafts with its own MTP head)"
        return replace(evidence, reason=evidence.reason.replace(
            f"-> {evidence.worker_class}", f"-> {said}", 1), worker_class=cls)  # fmt: skip
    if condition is not None:
        reason = f"{evidence.reason.split(' -> ', 1)[0]} -> {condition}"
        return replace(evidence, reason=reason, points_to=None, worker_class=None,
                       condition=condition)  # fmt: skip
    return evidence


def _with_head(evidence: Evidence, model: object, version: str | None) -> Evidence:
    """A config line's verdict with the head's own class (other evidence as it is)."""
    if not (evidence.reason.startswith("vLLM") and evidence.worker_class):
        return evidence
    reason, worker = with_head_class(model, version, evidence.reason, evidence.worker_class)
    return replace(evidence, reason=reason, worker_class=worker)


def paired_release(vllm: str | None) -> str | None:
    """The plugin release a vLLM release pairs with: vllm-ascend numbers its releases after
    the vLLM they run on (v0.16.0rc1 on vLLM 0.16), so vLLM X.Y stands for the plugin's X.Y.0rc1
    when no line names the plugin's own release."""
    parts = (vllm or "").removeprefix("v").split(".")
    if len(parts) < 2 or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    return f"{parts[0]}.{parts[1]}.0rc1"


# evidence whose class is vLLM's own: its config lines, and the methods a sentence states
_VLLM_REASONS = ("vLLM", PROSE_REASON)


def _on_ascend(config: RunConfig, vllm: str | None = None) -> None:
    """On Ascend the vllm-ascend plugin builds its own proposer for the method: vLLM's
    CUDA class named by a config line, or by a sentence stating the method, is replaced by the
    plugin's (or by none)."""
    flags = config.flags
    platform, method = flags.get("platform"), flags.get("speculative_config.method")
    if platform is None or platform.value != "ascend":
        return
    config.path_evidence = [  # a conditional names the plugin's classes too
        replace(e, reason=on_ascend(e.reason), condition=on_ascend(e.condition))
        if e.condition and e.reason.startswith(_VLLM_REASONS) else e
        for e in config.path_evidence
    ]  # fmt: skip
    if method is None or method.value is None:
        return
    plugin = flags.get("platform_release")
    release = plugin.value if plugin is not None else paired_release(vllm)
    worker, why, condition = ascend_proposer(
        method.value, release, newest_release(config, "vllm_ascend")
    )
    if plugin is None and release is not None and worker is not None:
        why = f"{why} (the release paired with vLLM {vllm})"
    config.path_evidence = [
        replace(e, reason=f"{e.reason}; on Ascend {why}", worker_class=worker,
                points_to=e.points_to if worker else None, condition=condition)
        if e.worker_class and e.reason.startswith(_VLLM_REASONS) else e
        for e in config.path_evidence
    ]  # fmt: skip


def _infer_method(
    config: RunConfig, lines: Sequence[LogLine], target: Target | None, prose: str | None
) -> None:
    """A vLLM draft model with no method: the method and class vLLM infers, by release."""
    flags = config.flags
    model = flags.get("speculative_config.model")
    if "speculative_config.method" in flags or config.engine != "vllm" or PLACEHOLDER_FLAG in flags:
        return
    if config.version is None and prose is not None:
        config.version = prose  # the run is vLLM's: its prose release
    if model is None:
        _self_mtp(config, lines, target)
        if target is not None and "speculative_config.method" not in flags:
            name, line = target  # a served speculators checkpoint carries its own config
            at = FlagValue(name, line.source, line.lineno, "launch_command")
            _inferred(config, at, line.raw, speculators_checkpoint(name, config.version))
        return
    if bracketed_value(model.value):
        return  # V0's bracketed special value, mistyped past reading: no draft checkpoint ran
    text = _text_of(model, lines)
    legacy = legacy_spelling(text) and _v0_current(config)
    newest = newest_release(config, "vllm") if config.version is None else None
    if newest is not None and newest < Version("0.8.0"):  # the text's days allow V0 alone
        found = infer(model.value, str(newest), legacy)
        why = f" (vLLM {newest}, the newest release the text's days allow)"
        found = replace(found, reason=found.reason + why) if found is not None else None
    else:
        v1 = (runner := stated_runner(lines, tags=False)) is not None and runner[0] == "v1"
        found = infer(model.value, config.version, legacy, v1_runner=v1)
    if found is not None and model.origin == "prose":
        found = replace(found, reason=f"{PROSE_REASON} (the report's draft-model line): {found.reason}")
    _inferred(config, model, text, found)


# vLLM 0.25's shortcut flags (rules/options/vllm.toml: --spec-method, --spec-model,
# --spec-tokens from 0.25.0), merged into the speculative config by
# EngineArgs.create_speculative_config: a launch using one runs 0.25 or later
_SHORTCUT = re.compile(r"--spec[-_](?:method|model|tokens)(?=[\s=]|$)")
SHORTCUT_FIRST = "0.25.0"


def _shortcut_flags(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A launch whose speculative settings came from ``--spec-method`` / ``--spec-model`` /
    ``--spec-tokens``: flag ``vllm_release_floor`` (0.25.0) where no release is printed, and the
    method's class on the line that set it (the launch reader gives it only for the JSON)."""
    for key in ("method", "model", "num_spec_tokens"):
        flag = config.flags.get(f"speculative_config.{key}")
        if flag is None or flag.origin != "launch_command":
            continue
        text = _text_of(flag, lines)
        if _SHORTCUT.search(text) is None:
            continue
        if config.version is None and FLOOR_FLAG not in config.flags:
            config.flags[FLOOR_FLAG] = replace(flag, value=SHORTCUT_FIRST)
        shown = any((e.source, e.lineno) == (flag.source, flag.lineno) for e in config.path_evidence)
        if key == "method" and not shown:
            reason, points_to, cls = proposer_verdict(flag.value, config.version, None)
            reason = reason.replace("vLLM config", "vLLM launch command", 1)
            config.path_evidence.append(Evidence(flag.source, flag.lineno, trim(text), reason,
                                                 points_to, cls))  # fmt: skip


# a container image of vLLM (``vllm/vllm-openai:v0.20.1``, ``rocm/vllm:...``, a model repository's
# ``acme/vllm-dflash:0.23.1``): an image whose repository is named for vLLM runs vLLM's server
_IMAGE = re.compile(r"(?<![\w./-])(?:[\w.-]+/)*[\w.-]*\bvllm\b[\w.-]*:[\w.+-]+(?![\w/])", re.I)


def _vllm_image(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A run no other line places on a server, whose text says it runs a vLLM container image:
    vLLM's (its method words then name vLLM's classes). Not from a line that sets the image
    apart (another's setup, a suggestion, one that works), nor where the text names another
    engine's wrapper or image too (a Dynamo comparison of its vLLM and TensorRT-LLM runtimes)."""
    if config.engine is not None or not any(_IMAGE.search(ln.text) for ln in lines):
        return
    if named_engines(lines) - {"vllm"}:
        return
    for line in lines:
        if line.quoted or _IMAGE.search(line.text) is None:
            continue
        if not APART.search(_IMAGE.sub(" ", line.text)):
            config.engine = "vllm"
            return


def _v0_current(config: RunConfig) -> bool:
    """A V0 spelling (``--speculative-model``, ``--num-speculative-tokens``) with no release
    printed stands for V0 only in a text whose day allows V0's releases to be current: one dated
    after the newest release past V0's last (2026, and vLLM long at 0.1x) names no V0 run by
    its spelling alone (another engine's flags, an old doc quoted), so the release stays open."""
    newest = newest_release(config, "vllm")
    return newest is None or newest <= Version(LAST_V0)


def _self_mtp(config: RunConfig, lines: Sequence[LogLine], target: Target | None) -> None:
    """A token count with no draft model: a DeepSeek-V3 target drafts with its own MTP."""
    tokens = config.flags.get("speculative_config.num_spec_tokens")
    if tokens is None or target is None:
        return
    text = _text_of(tokens, lines)
    found = self_mtp(target[0], config.version, v0_tokens_spelling(text) and _v0_current(config))
    _inferred(config, tokens, text, found)


def _inferred(config: RunConfig, at: FlagValue, text: str, found: Inferred | None) -> None:
    """vLLM's inferred method as a flag on the line that caused it, and its verdict."""
    if found is None:
        return
    if found.method is not None:
        config.flags["speculative_config.method"] = replace(at, value=found.method)
    config.path_evidence.append(Evidence(at.source, at.lineno, trim(text),
        found.reason, found.points_to, found.worker, found.condition))  # fmt: skip


def _text_of(flag: FlagValue, lines: Sequence[LogLine]) -> str:
    """The raw line a flag was read on (the value itself when the line is gone)."""
    line = next((ln for ln in reversed(lines)
                 if (ln.source, ln.lineno) == (flag.source, flag.lineno)), None)  # fmt: skip
    return line.raw if line is not None else str(flag.value)


# the text names a draft of its own or a method apart from the target's MTP layers: a draft
# model, drafter or assistant, V0's speculative model, a separate head or checkpoint
_OWN_DRAFT = re.compile(
    r"(?i)\bdraft(?:ers?|[-_ ](?:models?|heads?|checkpoints?|weights))\b|speculative[-_ ]model"
    r"|\bassistant\b|\bprompt[-_ ]lookup\b|\bsuffix\b"
)
_MTP_NAMED = "0.11.0"  # the one ``mtp`` method (model-named methods before it)
# vLLM's own records of a speculating server besides its metrics log line: ``vllm bench serve``'s
# block (benchmarks/serve.py prints a "Speculative Decoding" rule, then "Acceptance rate (%):",
# "Acceptance length:" with their figures; it reads them from the server's spec_decode counters,
# which only vLLM exports) and those Prometheus counters themselves (``vllm:spec_decode_num_drafts``)
_BENCH_RULE = re.compile(r"^\s*-{5,}\s*Speculative Decoding\s*-{5,}\s*$")
_BENCH_FIGURE = re.compile(r"^\s*Acceptance (?:length|rate \(%\)):\s+\d+(?:\.\d+)?\s*$")
_COUNTER = re.compile(r"^\s*vllm:spec_decode_num_(?:accepted_tokens|drafts|draft_tokens)\w*(?:\{[^}]*\})?\s+\d")
SPEC_RECORD_LITERALS: tuple[bytes, ...] = (b"Speculative Decoding---", b"Acceptance length:",
                                           b"Acceptance rate (%):", b"vllm:spec_decode_num_")  # fmt: skip


def spec_record(lines: Sequence[LogLine]) -> LogLine | None:
    """The first of vLLM's own records of a speculating run: its ``SpecDecoding metrics`` log
    line (under the logger's header, or pasted alone on its line), a ``vllm bench serve`` figure under its "Speculative Decoding" rule (within three lines),
    or a ``vllm:spec_decode_num_*`` counter with its value; none behind a reply's quote mark."""
    shown = [ln for ln in lines if not ln.quoted]
    for i, line in enumerate(shown):
        if _COUNTER.search(line.text) or (m := SPEC_METRICS.search(line.text)) is not None and (
                line.headed or not line.text[: m.start()].strip()):  # fmt: skip
            return line  # as the logger wrote it, not a sentence quoting it ("prints `SpecDecoding ...`")
        if _BENCH_FIGURE.search(line.text) and any(
                _BENCH_RULE.search(ln.text) and ln.source == line.source and 0 < line.lineno - ln.lineno <= 3
                for ln in shown[max(0, i - 3):i]):  # fmt: skip
            return line
    return None


def _native_mtp(
    config: RunConfig, lines: Sequence[LogLine], target: Target | None, prose: str | None
) -> None:
    """A vLLM run that speculated (its own ``SpecDecoding metrics`` record) on a model whose
    checkpoints carry MTP layers (mtp_models.toml), where no line names a method, a draft or a
    family: the MTP class, as a condition on the run drafting with those layers (``method:
    mtp``; SpeculativeConfig loads the target itself as the draft). Not where the text names
    two such families, nor on a release older than the family's MTP model in vLLM."""
    flags = config.flags
    if config.engine != "vllm" or config.path_evidence or any(
            f"speculative_config.{k}" in flags for k in ("method", "model")):  # fmt: skip
        return
    record = spec_record(lines)
    if record is None:
        return
    from spectrace.path_base import family_words  # it imports the assemblers this one feeds

    shown = [ln for ln in lines if not ln.quoted and not commented_out(ln.text)]
    if any(family_words(ln.text) or _OWN_DRAFT.search(ln.text) for ln in shown if ln is not record):
        return
    named = {row.name: (row, ln) for ln in shown for row, _m in own_mtp_models(ln.text)}
    if target is not None:  # the served model decides: another model's MTP is no run's here
        named = {row.name: (row, target[1]) for row, _m in own_mtp_models(target[0])}
    if len(named) != 1:
        return
    ((row, at),) = named.values()
    version = config.version or prose
    condition = _mtp_condition(row, version)
    if condition is None:
        return
    reason = (f"vLLM's spec-decode metrics record shows the run speculated, on {row.name} "
              f"(line {at.lineno}), whose checkpoints carry MTP layers that vLLM drafts with "
              f"(method mtp); the text names no method or draft -> {condition}")  # fmt: skip
    config.path_evidence.append(Evidence(record.source, record.lineno, trim(record.raw), reason,
                                         None, None, condition, family="MTP"))  # fmt: skip


def _mtp_condition(row: MtpModel, version: str | None) -> str | None:
    """The MTP class of ``version`` (no release: by release and runner) for the family, as a
    condition on the run drafting with its own layers; None on a release before them."""
    tail = f" if the run drafted with {row.name}'s own MTP layers"
    release = parse_release(version) if version else None
    if release is not None:
        base = Version(release.base_version)
        if base < Version(max(row.vllm_first, _MTP_NAMED, key=Version)):
            return None
        _reason, _points, cls = proposer_verdict("mtp", version, v1=True)
        return f"{cls} (mtp){tail}" if cls else None
    first = max(row.vllm_first, _MTP_NAMED, key=Version)
    _reason, _points, cls = proposer_verdict("mtp", first, v1=True)
    condition = f"{cls} (mtp){tail}, vLLM >= {first}"
    if mrv2 := mrv2_of("mtp", Version(first)):
        condition += f"; on the model runner v2: {mrv2}"
    return condition
