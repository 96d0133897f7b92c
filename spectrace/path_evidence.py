"""Every stack a log shows -> worker-path evidence, each with the line that proves it.

A crash's own traceback (or faulthandler dump) is the strongest evidence, but real logs carry
others: a traceback cut mid-frame whose last file name is still whole
(``.../speculative/eagle_worker_v2.py", lin``), a py-spy or faulthandler dump pasted into the
log (a scheduler watchdog's ``Pyspy dump for PID``), native frames that name a library or
symbol, and exception messages that name a worker class (``'EagleProposer' object has no
attribute ...``). A frame in a speculative worker's file proves the run speculates, whatever
its flags show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from spectrace.assemblers.crash import Frame
from spectrace.assemblers.run_config import Evidence
from spectrace.assemblers.sglang_eras import (
    Version,
    era_rules,
    parse_release,
    v1_gone,
    version_text,
)
from spectrace.frame_releases import FrameClass, RunRelease, frame_class
from spectrace.incident_model import Incident
from spectrace.path_frames import (
    NOT_IN_TABLES,
    FrameSignature,
    frame_signature,
    file_signature,
    frame_signatures,
    function_signature,
    kernel_op,
    signature_for_class,
    symbol_signature,
    unknown_class,
    unknown_file,
)
from spectrace.stacks.pasted import PastedDump
from spectrace.worker_calls import called_frame

# the last line of a cut traceback: a frame line whose file name is whole (its quote closed,
# or the copy ended right after ``.py``: no other file name goes on from there)
_CUT_FRAME = re.compile(
    r'^\s*File \\?"(?P<file>[^"]+\.py)(?:\\?"(?:, ?l?i?n?e?\s*\d*,?\s*i?n?)?)?\s*$'
)
# a traceback inside a JSON string: its breaks and quotes escaped once (\n, \") or twice
_ESCAPED_BREAK = re.compile(r"\\+n")
_ESCAPED_QUOTE = re.compile(r'\\+"')
_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+), in (?P<function>\S+)', re.M)
# worker-like class names; only those a path table defines count
# an sgl_kernel op named where torch resolves or dispatches it, at its call: "'_OpNamespace'
# 'sgl_kernel' object has no attribute 'X'", "Could not run 'sgl_kernel::X' with arguments",
# "torch.ops.sgl_kernel.X" (never "cannot import name 'X'": sgl_kernel imports it on any run)
_OP_CALLED = re.compile(r"'sgl_kernel' object has no attribute '(\w+)'|\bsgl_kernel::(\w+)"
                        r"|\btorch\.ops\.sgl_kernel\.(\w+)")
_CLASS_NAME = re.compile(r"\b[A-Z]\w*(?:Worker|Proposer|Speculator|Drafter|Decoder|Layer)\w*")
# a frame's source line calling a scheduler loop: ``scheduler.event_loop_normal()``
_LOOP_CALL = re.compile(r"\b(event_loop_\w+)\(")


@dataclass(frozen=True, slots=True)
class StackFrame:
    """A frame from any source, with where the log shows it and how to print it."""

    frame: Frame
    source: str
    lineno: int
    text: str
    kind: str  # "traceback frame" | "cut traceback frame" | "py-spy frame" | ...


def incident_frames(incident: Incident) -> list[StackFrame]:
    """The crash's own frames, innermost first, no repeats; a cut traceback's last frame."""
    first = incident.first_seen
    frames: dict[Frame, None] = {}  # the assemblers store every stack outermost first
    for group in [incident.frames, *(link.frames for link in incident.chain)]:
        frames.update((frame, None) for frame in reversed(group) if frame not in frames)
    out = [
        StackFrame(f, first.source, first.lineno, _traceback_text(f), "traceback frame")
        for f in frames
    ]
    named = {f.function for f in frames}  # a loop the traceback shows needs no caller's help
    out = [called for sf in out for called in (*_loop_called(sf, named), *_worker_called(sf, named), sf)]
    cut = _cut_frame(incident.lines)
    if cut is not None:
        text = incident.lines[-1].strip()
        last = first.lineno + len(incident.lines) - 1
        out.insert(0, StackFrame(cut, first.source, last, text, "cut traceback frame"))
    return out or _escaped_frames(incident)


def _loop_called(sf: StackFrame, shown: set[str]) -> tuple[StackFrame, ...]:
    """The scheduler loop a frame's source line calls (``scheduler.event_loop_normal()`` under
    ``run_scheduler_process``), as a frame of that loop, unless the traceback shows the loop's
    own frame: a paste cut right after the caller still tells which loop ran."""
    m = _LOOP_CALL.search(sf.frame.code or "")
    if m is None or m.group(1) in shown:
        return ()
    sig = function_signature(m.group(1))
    if sig is None:
        return ()
    frame = Frame(sig.name, None, m.group(1))
    return (replace(sf, frame=frame, text=f"{sf.text}: {(sf.frame.code or '').strip()}"),)


def _worker_called(sf: StackFrame, shown: set[str]) -> tuple[StackFrame, ...]:
    """The worker function a frame's source line calls (``self.draft_worker.
    forward_batch_speculative_generation(batch)`` in the 0.4.x scheduler's ``run_batch``), as a
    frame of the file that defines it (``worker_calls``), unless the traceback shows it."""
    frame = called_frame(sf.frame)
    if frame is None or frame.function in shown:
        return ()
    return (replace(sf, frame=frame, text=f"{sf.text}: {(sf.frame.code or '').strip()}"),)


def _escaped_frames(incident: Incident) -> list[StackFrame]:
    """A traceback carried inside a JSON string of the crash line (``"msg": "Traceback ...\\n
    File \\"...eagle_worker.py\\", line 301, in verify\\n ..."``, escaped once or twice):
    its frames, innermost first, at that line."""
    first = incident.first_seen
    out: list[StackFrame] = []
    for n, line in enumerate(incident.lines):
        if "File \\" not in line:
            continue
        text = _ESCAPED_QUOTE.sub('"', _ESCAPED_BREAK.sub("\n", line))
        found = [Frame(m["file"], int(m["line"]), m["function"]) for m in _FRAME.finditer(text)]
        out += [StackFrame(f, first.source, first.lineno + n, _traceback_text(f),
                           "traceback frame") for f in reversed(found)]  # fmt: skip
    return out


def rank_frames(incident: Incident) -> list[StackFrame]:
    """The frames other ranks' records of the same failure show beyond the incident's own
    (interleaved ranks cut at different depths), innermost first, each at its record."""
    own = set(incident.frames)
    out: list[StackFrame] = []
    for where, frames in incident.rank_frames:
        rank = f"({where.rank}) " if where.rank else ""
        for frame in reversed(frames):
            if frame not in own:
                own.add(frame)
                text = rank + _traceback_text(frame)
                out.append(StackFrame(frame, where.source, where.lineno, text, "traceback frame"))
    return out


def _traceback_text(frame: Frame) -> str:
    return f'File "{frame.file}", line {frame.line}, in {frame.function}'


def _cut_frame(lines: Sequence[str]) -> Frame | None:
    """``File ".../eagle_worker_v2.py", lin``: the paste ended inside the frame line, but the
    file it names is whole."""
    if not lines:
        return None
    m = _CUT_FRAME.match(lines[-1])
    return Frame(m["file"], None, "") if m else None


def dump_frames(incident: Incident, dumps: Iterable[PastedDump], since: int) -> list[StackFrame]:
    """Frames of the py-spy / faulthandler dumps pasted into the incident's own file (from
    line ``since``, its run's start): what the server's processes were running."""
    out: list[StackFrame] = []
    seen: set[tuple[str, str]] = set()
    for dump in dumps:
        if dump.source != incident.first_seen.source or dump.lineno < since:
            continue
        for proc in dump.capture.processes:
            for sample in proc.samples:
                for thread in sample.threads:
                    for f in thread.frames:
                        key = (f.filename, f.name)
                        if f.native or key in seen:
                            continue
                        seen.add(key)
                        text = _dump_text(dump.tool, f.name, f.filename, f.line)
                        frame = Frame(f.filename, f.line or None, f.name)
                        out.append(StackFrame(frame, dump.source, dump.lineno, text,
                                              f"{dump.tool} frame"))  # fmt: skip
    return out


def _dump_text(tool: str, name: str, filename: str, line: int) -> str:
    if tool == "faulthandler":
        return f'File "{filename}", line {line} in {name}'
    return f"{name} ({filename}:{line})"


def speculates(frames: Iterable[StackFrame]) -> bool:
    """A frame in code only speculative runs execute (not a scheduler loop, not the target's
    graph runner): the run speculates, whatever its flags show."""
    for sf in frames:
        sig = frame_signature(sf.frame)
        if sig is not None and sig.spec_only and not sig.needs_spec:
            return True
    return False


def _release(text: str) -> Version | None:
    """``v0.5.3.post1`` -> (0, 5, 3, 1): the era table's granularity."""
    return parse_release(text)


def frames_era(frames: Iterable[StackFrame]) -> str | None:
    """The era the crash's own SGLang files pin down: a file that exists only in some
    releases (``eagle_utils.py`` up to 0.5.3) bounds the release; when every era row the
    bounds leave shares one era, that is the run's era (a file still in the newest release
    read sets no upper bound)."""
    rows = [sf_sig for sf in frames if (sf_sig := frame_signature(sf.frame)) is not None
            and sf_sig.framework == "sglang" and sf_sig.releases[0]]  # fmt: skip
    if not rows:
        return None
    newest = _newest_sglang()
    low = max((_release(r.releases[0]) or (0, 0, 0)) for r in rows)
    highs = [_release(r.releases[1]) for r in rows if r.releases[1] != newest]
    high = min((h for h in highs if h is not None), default=None)
    eras = {r.era for r in era_rules()
            if (high is None or r.first <= high) and (r.last is None or low <= r.last)}  # fmt: skip
    return eras.pop() if len(eras) == 1 else None


@cache
def _newest_sglang() -> str:
    return max((s.releases[1] for s in frame_signatures() if s.framework == "sglang"
                and s.releases[1]), key=lambda t: _release(t) or (0, 0, 0), default="")  # fmt: skip


def frame_votes(
    frames: Iterable[StackFrame],
    loops_decide: bool,
    era: str | None = None,
    newest: Version | None = None,
    others: Mapping[str, str] | None = None,
    releases: Mapping[str, RunRelease] | None = None,
) -> list[Evidence]:
    """One evidence per frame the path tables know (a file whose class changed between
    releases names the class of the run's ``releases``, ``frame_releases``; a speculative file
    no row holds names the framework and family only); scheduler loops vote only when the run is
    EAGLE-family speculative (``loops_decide``). With no release in the log, a non-overlap
    loop is v1 only up to the last release that has the v1 worker: a conditional, unless the
    crash's date bounds the release (``newest``) below the first release without it. When
    no line names the algorithm (``others``: the other algorithms' workers by loop path), a
    loop's vote holds for the EAGLE family only and becomes a condition on the algorithm."""
    dated = newest is not None and newest < v1_gone()
    out: list[Evidence] = []
    for sf in frames:
        sig = frame_signature(sf.frame)
        if sig is None:
            out += _unknown(sf)
            continue
        if (moved := frame_class(sig, (releases or {}).get(sig.framework))) is not None:
            out.append(_moved(sf, sig, moved))
            continue
        points_to = None if (sig.needs_spec and not loops_decide) else sig.points_to
        if points_to == "v1" and sig.needs_spec and era is None and not dated:
            found = _evidence(sf, sig, None, _synchronous_v2(sig.worker_class or ""))
        elif points_to == "v1" and sig.needs_spec and era is None and newest is not None:
            found = _evidence(sf, sig, points_to)
            bound = (f" (the crash's date bounds the release to sglang {version_text(newest)} or"
                     f" older; the v1 worker exists up to {version_text(v1_gone())} exclusive)")  # fmt: skip
            found = replace(found, reason=found.reason + bound)
        else:
            found = _evidence(sf, sig, points_to)
        extra = (others or {}).get(sig.points_to or "")  # the loop's other algorithms
        if sig.needs_spec and extra and (found.points_to or found.condition):
            found = _per_algorithm(found, extra)
        out.append(found)
    return out


def _unknown(sf: StackFrame) -> list[Evidence]:
    """A frame in a framework's speculative folder whose file no table row holds (a release
    newer than the tables): it names the framework and the family its name says, no class."""
    found = unknown_file(sf.frame)
    if found is None:
        return []
    path = sf.frame.file.replace("\\", "/")
    name = found.folder + path.rsplit("/", 1)[-1]
    said = f", family {found.family} by its name" if found.family else ""
    reason = (f"{sf.kind} in {name}: {NOT_IN_TABLES} ({found.framework}'s speculative folder"
              f"{said}): it names no class")
    return [Evidence(sf.source, sf.lineno, sf.text, reason, family=found.family or None)]


def _moved(sf: StackFrame, sig: FrameSignature, found: FrameClass) -> Evidence:
    """A frame in a file whose class changed between releases, read with the run's release."""
    kind = sig.family or "speculative"
    reason = f"{sf.kind} in {sig.name}: {kind} file of {sig.framework}; {found.why}"
    if found.points_to is not None:
        reason += f" -> {found.points_to} ({found.worker})"
    return Evidence(sf.source, sf.lineno, sf.text, reason, found.points_to, found.worker,
                    found.condition)


def _per_algorithm(found: Evidence, others: str) -> Evidence:
    """A loop's EAGLE-family vote as a condition on the algorithm, no line naming it."""
    eagle = found.condition or f"{found.points_to} ({found.worker_class})"
    condition = f"{eagle} if the algorithm is EAGLE, EAGLE3 or NEXTN; {others}"
    head = found.reason.split(" -> ", 1)[0].split(": v", 1)[0]  # the frame, not its vote
    reason = f"{head}: {condition} (no line names the algorithm; each runs its own worker)"
    return replace(found, reason=reason, points_to=None, worker_class=None, condition=condition)


def _synchronous_v2(worker: str) -> str:
    """ "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)": from the first
    release the era table says has no v1 worker, where the normal loop drives V2."""
    first = next(r.first for r in era_rules() if r.workers == "v2")
    return f"v2 ({worker}V2) if sglang >= {version_text(first)}, else v1 ({worker})"


def _evidence(
    sf: StackFrame, sig: FrameSignature, points_to: str | None, condition: str | None = None
) -> Evidence:
    reason = f"{sf.kind} in {sig.name}: {sig.what}"
    if points_to is not None:
        reason += f" -> {points_to} ({sig.worker_class})"
    elif condition is not None:
        reason += f": {condition} (no sglang version in the log)"
    worker = sig.worker_class if points_to else None
    return Evidence(sf.source, sf.lineno, sf.text, reason, points_to, worker, condition)


def peer_frames(incident: Incident, others: Iterable[Incident], since: int) -> list[StackFrame]:
    """The frames of the other crashes of the incident's run (its file, from ``since``): ranks
    of one server run one worker, so another rank's traceback through the proposer names it
    when this one stopped in a generic module. A quoted crash (another post's, in a reply)
    and the writer's own are not ranks of one run."""
    out: list[StackFrame] = []
    for other in _peers(incident, others, since):
        out += [replace(sf, kind="peer traceback frame") for sf in incident_frames(other)]
    return out


def _peers(incident: Incident, others: Iterable[Incident], since: int) -> list[Incident]:
    """The other crashes of the incident's run: its file from ``since``, quoted as it is."""
    first = incident.first_seen
    return [other for other in others
            if other is not incident and other.first_seen.source == first.source
            and other.first_seen.lineno >= since and other.first_seen.quoted == first.quoted]  # fmt: skip


def peer_message_votes(
    incident: Incident, others: Iterable[Incident], since: int, framework: str | None = None
) -> list[Evidence]:
    """Classes named by the other crashes of the incident's run (its file, from ``since``): a
    paste that states ``AttributeError: 'EagleProposer' object ...`` above a traceback cut
    before its own exception line names the proposer of both."""
    out: list[Evidence] = []
    for other in _peers(incident, others, since):
        out += message_votes(other, framework)
    return out


def names_class(incident: Incident) -> bool:
    """The crash's message (or a link of its chain) names a class (``'X' object has ...``)."""
    return any(_CLASS_NAME.search(m or "") for m in (incident.message, *(c.message for c in incident.chain)))


def message_votes(incident: Incident, framework: str | None = None) -> list[Evidence]:
    """Worker classes an exception message names (``'EagleProposer' object has no attribute``):
    the object the failing call ran on, whose file the path tables know."""
    first = incident.first_seen
    out: list[Evidence] = []
    seen: set[str] = set()
    links = [(incident.exception_type, incident.message)]
    links += [(link.exception_type, link.message) for link in incident.chain]
    for etype, message in links:
        for name in _CLASS_NAME.findall(message or ""):
            sig = signature_for_class(name, framework)
            if sig is None or name in seen:
                continue
            seen.add(name)
            text = f"{etype}: {message}" if message else etype
            points_to = sig.points_to or _runtime_class(name, sig)
            reason = (f"exception message names {name} ({sig.name}: {sig.what})"
                      f" -> {points_to} ({name})")  # fmt: skip
            out.append(Evidence(first.source, first.lineno, text[:300], reason, points_to,
                                name))  # fmt: skip
    return out


def op_votes(incident: Incident) -> list[Evidence]:
    """An sgl_kernel speculative op the exception names at its call: the SGLang file that calls
    it ran (rules/paths/sglang_ops.toml); one worker's file votes for that worker, as a frame
    there would, and callers the families share name the framework only."""
    first = incident.first_seen
    links = [(incident.exception_type, incident.message)]
    links += [(link.exception_type, link.message) for link in incident.chain]
    for etype, message in links:
        for match in _OP_CALLED.finditer(message or ""):
            op = kernel_op(next(g for g in match.groups() if g))
            if op is None:
                continue
            sigs = {file_signature(c) for c in op.callers}
            sig = next(iter(sigs)) if len(sigs) == 1 else None
            text = f"{etype}: {message}"[:300]
            head = f"exception names sgl_kernel's {op.name} at its call ({op.what}): SGLang ran its caller"
            if sig is None:
                return [Evidence(first.source, first.lineno, text,
                                 f"{head}, which the families share", framework="sglang")]  # fmt: skip
            return [Evidence(first.source, first.lineno, text,
                             f"{head} {sig.name} -> {sig.points_to} ({sig.worker_class})",
                             sig.points_to, sig.worker_class, framework="sglang")]  # fmt: skip
    return []


def untabled_votes(incident: Incident) -> list[Evidence]:
    """Classes no table holds that the crash's exception names as the object its call ran on
    (``_untabled``): each a vote for itself, a fork's or a newer release's own class."""
    first = incident.first_seen
    out: dict[str, Evidence] = {}
    links = [(incident.exception_type, incident.message)]
    links += [(link.exception_type, link.message) for link in incident.chain]
    for etype, message in links:
        for name in _CLASS_NAME.findall(message or ""):
            if name in out or signature_for_class(name) is not None:
                continue
            if (why := _untabled(name, message or "")) is not None:
                out[name] = Evidence(first.source, first.lineno, f"{etype}: {message}"[:300],
                                     f"{why} -> other ({name})", "other", name)  # fmt: skip
    return list(out.values())


def _untabled(name: str, message: str) -> str | None:
    """Why an exception message naming a class no table holds shows that class ran: Python
    names the object the failing call ran on (``DSparkProposer.propose() got an unexpected
    keyword argument``, ``'DSparkProposer' object has no attribute``), and the name is in the
    shape of a framework's drafting classes (``path_frames.unknown_class``): a fork's own
    proposer or a release newer than the tables. None for any other mention (an import that
    failed, a registry's list of names)."""
    found = unknown_class(name)
    n = re.escape(name)
    ran = rf"\b{n}\.\w+\(|'{n}' object\b|<\S*\b{n} object at\b"  # X.f(), 'X' object, <X object at>
    if found is None or not re.search(ran, message):
        return None
    shape = "/".join(sorted(found.frameworks))
    return (f"exception message names {name} as the object its call ran on: a {found.family} class "
            f"in the shape of {shape}'s drafting classes that no table holds (a fork's or a newer "
            f"release's own)")


def _runtime_class(name: str, sig: FrameSignature) -> str | None:
    """A TensorRT-LLM worker class the message names as the failing object's type, in a file
    that holds several workers (mtp.py, eagle3.py): Python names the runtime class itself."""
    stem = sig.family.lower().replace("_", "")  # MTPEagleWorker in eagle3.py is not EAGLE3's
    worker = sig.framework == "trtllm" and name in sig.classes and name.lower().startswith(stem)
    return "other" if worker and stem and name.endswith(("Worker", "Drafter")) else None


def native_votes(incident: Incident) -> list[Evidence]:
    """Native frames whose symbol or library a path table knows (TensorRT-LLM's C++ decoding
    layers: ``tensorrt_llm::layers::LookaheadDecodingLayer<float>::forwardAsync``)."""
    first = incident.first_seen
    out: list[Evidence] = []
    seen: set[str] = set()
    for frame in incident.native_frames:
        text = f"{frame.symbol} ({frame.module})" if frame.module else frame.symbol
        sig = symbol_signature(f"{frame.symbol} {frame.module}")
        if sig is None or sig.pattern in seen:
            continue
        seen.add(sig.pattern)
        reason = f"native frame names {sig.pattern}: {sig.what}"
        if sig.points_to is not None:
            reason += f" -> {sig.points_to} ({sig.worker})"
        out.append(Evidence(first.source, first.lineno, text[:300], reason, sig.points_to,
                            sig.worker if sig.points_to else None))  # fmt: skip
    return out
