"""A vLLM crash inside a call only a speculative run makes, and no method named: the V1 proposers.

A failing test or a warm-up crash may show no command and no config, only frames: the V1 runner
(``v1/worker/gpu_model_runner.py``) building dummy draft metadata (``SpecDecodeMetadata.
make_dummy``) or running the rejection sampler in ``_dummy_sampler_run``, or one of its own draft
steps (``propose_draft_token_ids``). The runner makes those calls only under ``if
self.speculative_config``, so the run speculated on the V1 runner; which proposer drafted, no line
says. The verdict is the condition over the V1 runner's proposers the run's release could hold
(its stated release, else the newest its day allows, else every one). The calls are data:
rules/paths/vllm_runner.toml ``[[spec_call]]`` and the frame table's draft-step rows. So is
vLLM's dump of the crashing step's scheduler output that schedules draft tokens
(``dumped_evidence``), which either runner's engine core writes: the condition then holds
MRV2's speculators too. So is a record only an MRV2 speculator module writes
(``recorded_evidence``): that runner drafted.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from datetime import date
from functools import cache
from importlib import resources

from spectrace.assemblers.framework_names import frameworks_named
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.release_dates import newest_held
from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.run_shown import whole_apart
from spectrace.assemblers.sglang_run_words import SPEC_KIND
from spectrace.assemblers.spec_prose import PROSE_REASON
from spectrace.assemblers.vllm_proposers import v1_proposers
from spectrace.assemblers.vllm_release import parse_release
from spectrace.assemblers.vllm_runner import RUNNER_FLAG, mrv2_speculators, mrv2_unnamed, recorded_speculator
from spectrace.incident_model import Incident
from spectrace.path_evidence import StackFrame
from spectrace.path_frames import frame_signature, unknown_file
from spectrace.path_mention_kinds import FAMILY_KIND, FOREIGN_KIND, REQUEST_KIND, Mention
from spectrace.path_words import LOOSE_KIND, adds_only

_DRAFT_STEP = "(speculation ran)"  # the frame table's runner draft-step rows end so
REASON = "a call only a speculative V1 run makes"
# mentions that name a family, ask for a feature or name another engine: not a method-less run
_NAMED_KINDS = (FAMILY_KIND, LOOSE_KIND, REQUEST_KIND, FOREIGN_KIND)


@cache
def _calls() -> tuple[tuple[str, frozenset[str], str], ...]:
    """(file, functions, runner file) of each ``[[spec_call]]`` row."""
    node = resources.files("spectrace.rules").joinpath("paths/vllm_runner.toml")
    rows = tomllib.loads(node.read_text("utf-8")).get("spec_call", [])
    return tuple((str(r["file"]), frozenset(map(str, r.get("functions", []))), str(r["runner_file"]))
                 for r in rows if isinstance(r, dict))  # fmt: skip


def _vllm(path: str, name: str) -> bool:
    return path.replace("\\", "/").endswith("/vllm/" + name)


def _family_file(sf: StackFrame) -> bool:
    """A frame in a file of one drafting family: its table row's, or a newer file's name."""
    sig = frame_signature(sf.frame)
    if sig is not None:
        return bool(sig.family)
    unknown = unknown_file(sf.frame)
    return unknown is not None and bool(unknown.family)


def _speculative(frames: Sequence[StackFrame]) -> StackFrame | None:
    """The frame of a call only a speculative run on vLLM's V1 runner makes."""
    files = [sf.frame.file for sf in frames]
    if any("vllm_ascend" in f or "/v1/worker/gpu/" in f.replace("\\", "/") for f in files):
        return None  # a plugin's or the model runner v2's run: other classes
    if any(_family_file(sf) for sf in frames):
        return None  # a family's own file ran: its classes are open, not every proposer
    for sf in frames:
        frame = sf.frame
        if frame.function == "<module>":
            continue
        for file, functions, runner in _calls():
            if _vllm(frame.file, file) and (not functions or frame.function in functions) \
                    and any(_vllm(f, runner) for f in files):  # fmt: skip
                return sf
        sig = frame_signature(frame)
        if sig is not None and sig.what.endswith(_DRAFT_STEP) and _vllm(frame.file, "v1/worker/gpu_model_runner.py"):
            return sf
    return None


def spec_ran_evidence(
    frames: Sequence[StackFrame], config: RunConfig, day: date | None
) -> list[Evidence]:
    """The condition over the V1 proposers for a crash in a speculative-only call of vLLM's V1
    runner (``_speculative``), bounded by the run's release or its day; nothing otherwise."""
    if config.engine not in (None, "vllm") or "platform" in config.flags:
        return []
    found = _speculative(frames)
    if found is None:
        return []
    release = parse_release(config.version) if config.version else None
    bound = release or (newest_held("vllm", day) if day is not None else None)
    classes = v1_proposers(bound)
    if not classes:
        return []
    upto = f" (vLLM {bound} or older)" if bound is not None else ""
    condition = f"one of the V1 runner's proposers{upto}: " + ", ".join(classes)
    reason = f"{found.kind} in {found.frame.file.rsplit('/', 1)[-1]} {found.frame.function}: {REASON}, no method named"
    return [Evidence(found.source, found.lineno, found.text, reason, None, None, condition)]


def switched_evidence(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int
) -> list[Evidence]:
    """A vLLM run the text puts on the model runner v2 (the env forced, the runner said for the
    run) that speculates by its words and names no method: the condition over MRV2's
    speculators of its release (``vllm_runner.mrv2_unnamed``). Nothing where a family, a
    request or another engine is named, or the thread adds code rather than runs it."""
    if config.engine not in (None, "vllm") or "platform" in config.flags:
        return []
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    said = next((m for m in mine if m.kind == SPEC_KIND and m.lineno >= since
                 and not frameworks_named(m.text) - {"vllm"}), None)  # fmt: skip
    if said is None or any(m.kind in _NAMED_KINDS for m in mine):
        return []
    if whole_apart(mentions) or adds_only(mentions, source):
        return []
    found = mrv2_unnamed(config)
    if found is None:
        return []
    condition, runner = found
    reason = (f"{PROSE_REASON}: speculation named for the run (line {said.lineno}), no method; "
              f"line {runner.lineno} puts the run on the model runner v2")  # fmt: skip
    return [Evidence(said.source, said.lineno, said.text, reason, None, None, condition)]


def recorded_evidence(config: RunConfig) -> list[Evidence]:
    """A run whose own vLLM records include one an MRV2 speculator module wrote
    (``[speculator.py:N]``), and no method named: the class its records name, else the
    condition over MRV2's speculators (``vllm_runner.recorded_speculator``)."""
    found = recorded_speculator(config)
    return [found] if found is not None else []


DUMP_REASON = "vLLM's scheduler-output dump of the crashing step schedules draft tokens"


def dumped_evidence(load: LoadSample | None, config: RunConfig, day: date | None) -> list[Evidence]:
    """vLLM's engine core dumps the scheduler's output of the step that crashed
    (``dump_input.py``: ``SchedulerOutput(... scheduled_spec_decode_tokens={req: [...]} ...)``);
    that map holds a request only where a drafter proposed tokens for it, so the run speculated
    (placeholder ``-1`` drafts of async scheduling too). No method: the condition over the V1
    runner's proposers and MRV2's speculators the run's release or day allows; one runner's
    where the text states which ran. A plugin's platform builds its own: nothing."""
    if load is None or load.kind != "crash_dump" or config.engine not in (None, "vllm"):
        return []
    drafted = int(load.fields.get("scheduled_spec_decode_tokens") or 0)  # requests with drafts
    if "platform" in config.flags or drafted < 1:
        return []
    release = parse_release(config.version) if config.version else None
    bound = release or (newest_held("vllm", day) if day is not None else None)
    runner = config.flags.get(RUNNER_FLAG)
    said = str(runner.value) if runner is not None else None
    parts = []
    if said != "v2" and (v1 := v1_proposers(bound)):
        parts.append("one of the V1 runner's proposers: " + ", ".join(v1))
    if said != "v1" and (v2 := mrv2_speculators(config)):
        parts.append("one of the model runner v2's speculators: " + ", ".join(v2))
    if not parts:
        return []
    upto = f" (vLLM {bound} or older)" if bound is not None else ""
    condition = " or ".join(parts) + upto
    text = ", ".join(f"{k}: {v}" for k, v in load.fields.items())
    reason = f"{DUMP_REASON} for {drafted} request(s): no method named"
    return [Evidence(load.source, load.lineno, text, reason, None, None, condition)]
