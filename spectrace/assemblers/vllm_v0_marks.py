"""What puts a vLLM run on the V0 engine though its method is spelled the V1 way.

A command with ``{"method": "eagle"}`` names ``EagleProposer`` on the V1 engine, but V0 ran the
same spelling through ``SpecDecodeWorker`` and ``MultiStepWorker``. The run was V0's where its
text says so (a title "... on vLLM V0", a ``[V0]`` tag), where its traceback goes through a
function only V0's engine runs (``LLMEngine.step``, V0's ``model_runner.py``), or where its command gives an option
V1's oracle (0.8.0-0.9.2) refused and fell back to V0 for (``--num-scheduler-steps 8``): V0's
worker, or nothing decided for a method V0 never ran (EAGLE-3). A command giving an option
removed with V0 (``--use-v2-block-manager``) ran a release that still shipped V0, where V1 may
have run too: the V1 class and V0's worker, as a condition. rules/paths/vllm_v0.toml holds the
options, read from vLLM's own EngineArgs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from packaging.version import Version

from spectrace.assemblers.crash import Frame
from spectrace.assemblers.release_dates import rules_table
from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.thread_title import TitleReader
from spectrace.assemblers.vllm_proposers import v0_worker
from spectrace.assemblers.vllm_release import parse_release
from spectrace.dialects.base import LogLine


@dataclass(frozen=True, slots=True)
class Fallback:
    """An option whose non-default value made V1's oracle fall back to V0."""

    pattern: re.Pattern[str]
    option: str
    default: str  # "" = any use of it (a store_true flag)
    last: Version  # its last release


@dataclass(frozen=True, slots=True)
class V0Table:
    v0_last: Version
    fallbacks: tuple[Fallback, ...]
    ceiling: tuple[tuple[re.Pattern[str], str], ...]
    frames: re.Pattern[str]  # a traceback frame of a function only V0's engine runs


@dataclass(frozen=True, slots=True)
class Mark:
    """A line that puts the run on V0 (``decides``) or caps its release at V0's (not)."""

    line: LogLine
    why: str
    decides: bool


def _option(option: str) -> re.Pattern[str]:
    body = re.escape(option[2:]).replace(r"\-", "[-_]")
    return re.compile(rf"(?<![\w-])--{body}(?![\w-])(?:[= ]+['\"]?([\w.]+))?")


@cache
def v0_table() -> V0Table:
    """rules/paths/vllm_v0.toml, read once."""
    name = "paths/vllm_v0.toml"
    data = rules_table(name)
    rows = data.get("fallback")
    fallbacks = tuple(
        Fallback(_option(str(r["option"])), str(r["option"]), str(r.get("default", "")),
                 Version(str(r["last"])))
        for r in (rows if isinstance(rows, list) else []))  # fmt: skip
    ceiling = data.get("ceiling")
    options = tuple((_option(str(o)), str(o)) for o in (ceiling if isinstance(ceiling, list) else []))
    rows = data.get("engine_frame")
    frames = [re.escape(str(r["file"])) + r'", line \d+, in (?:'
              + "|".join(re.escape(str(f)) for f in r["functions"]) + r")\b"
              for r in (rows if isinstance(rows, list) else [])]  # fmt: skip
    return V0Table(Version(str(data["v0_last"])), fallbacks, options,
                   re.compile(r"/vllm/(?:" + "|".join(frames) + ")"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class WorkerModule:
    """A module V0's worker wrapper imports as the run's worker (``[[worker_module]]``)."""

    file: str  # under vllm/
    importer: str
    functions: frozenset[str]  # the importer's functions that import it
    passes: frozenset[str]  # vLLM functions between them (the qualname resolver)
    worker: str
    what: str


@cache
def worker_modules() -> tuple[WorkerModule, ...]:
    """rules/paths/vllm_v0.toml's ``[[worker_module]]`` rows, read once."""
    name = "paths/vllm_v0.toml"
    data = rules_table(name)
    rows = data.get("worker_module")
    return tuple(WorkerModule(str(r["file"]), str(r["importer"]), frozenset(r["functions"]),
                              frozenset(r.get("passes", ())), str(r["worker"]), str(r["what"]))
                 for r in (rows if isinstance(rows, list) else []))  # fmt: skip


def _vllm_file(frame: Frame, name: str) -> bool:
    return frame.file.replace("\\", "/").endswith("/vllm/" + name)


def imported_worker(stack: Sequence[Frame]) -> tuple[Frame, WorkerModule] | None:
    """The frame (outermost-first ``stack``) importing a worker module right under V0's
    worker wrapper's ``init_worker`` (only the import machinery's frames, outside vLLM, and
    the rows' resolver between): that worker was being created for the run."""
    for at, frame in enumerate(stack):
        if frame.function != "<module>":
            continue
        row = next((r for r in worker_modules() if _vllm_file(frame, r.file)), None)
        if row is None:
            continue
        callers = [f for f in reversed(stack[:at]) if "/vllm/" in f.file.replace("\\", "/")
                   and "importlib" not in f.file and f.function not in row.passes]  # fmt: skip
        if callers and _vllm_file(callers[0], row.importer) and callers[0].function in row.functions:
            return frame, row
    return None


def worker_module_evidence(
    stacks: Sequence[Sequence[Frame]], source: str, lineno: int
) -> list[Evidence]:
    """A traceback frame vote for the worker a crash's stacks (each outermost first) show
    V0's wrapper importing (``imported_worker``), at the crash's ``source``/``lineno``."""
    for stack in stacks:
        found = imported_worker(stack)
        if found is not None:
            frame, row = found
            text = f'File "{frame.file}", line {frame.line}, in <module>'
            reason = (f"traceback frame in {row.file} (imported by {row.importer} "
                      f"{'/'.join(sorted(row.functions))}): {row.what} -> other ({row.worker})")
            return [Evidence(source, lineno, text, reason, "other", row.worker)]
    return []


def engine_frame(lines: Sequence[LogLine]) -> LogLine | None:
    """The first traceback frame of ``lines`` in a function only V0's engine runs (``/`` or
    ``\\`` paths): the run was V0's on any release."""
    pattern = v0_table().frames
    return next((ln for ln in lines if pattern.search(ln.text.replace("\\", "/"))), None)


# a title saying the run was V0's: "[V0]", "vLLM V0", "V0 engine", "on V0"; not a release
# number (v0.6.3), and not a title about V0 and V1 both or about removing V0's code
_V0_SAID = re.compile(
    r"(?i)\[\s*V0\s*\]|\b(?:vllm|engine)[ -]?V0(?![.\w])|\bV0[ -](?:engine|spec\w*|path|worker)"
    r"|\bon V0(?![.\w])"
)
_NOT_RUN = re.compile(r"(?i)\bV[12](?![.\w])|\b(?:remov|deprecat|drop|delet|migrat|port)\w*")


def _stated(lines: Sequence[LogLine]) -> Mark | None:
    reader = TitleReader()
    for line in lines:
        title = reader.feed(line)
        if title is None:
            continue
        if title.apart is None and _V0_SAID.search(title.text) and not _NOT_RUN.search(title.text):
            return Mark(line, f"the title says the run was V0's (line {line.lineno})", True)
        return None
    return None


def _framed(lines: Sequence[LogLine]) -> Mark | None:
    """A traceback frame only V0's engine runs: the run fell back to (or was on) V0."""
    frame = engine_frame(lines)
    if frame is None:
        return None
    return Mark(frame, f"line {frame.lineno} is a frame only V0's engine runs", True)


def _given(fallback: Fallback, text: str) -> bool:
    m = fallback.pattern.search(text)
    if m is None:
        return False
    if not fallback.default:
        return True
    value = m.group(1)
    if value is None:
        return False
    try:
        return float(value) != float(fallback.default)
    except ValueError:
        return value != fallback.default


def _options(lines: Sequence[LogLine], at: Version | None) -> Mark | None:
    """A fallback option (V0 decided), else a ceiling option (V0 possible), on a command line."""
    table = v0_table()
    ceiling: Mark | None = None
    for line in lines:
        if "--" not in line.text or line.quoted:
            continue
        for f in table.fallbacks:
            if (f.last <= table.v0_last or (at is not None and at <= table.v0_last)) and _given(
                f, line.text
            ):
                why = f"line {line.lineno} gives {f.option}, for which V1 fell back to V0"
                return Mark(line, why, True)
        if ceiling is None and (o := next((o for p, o in table.ceiling if p.search(line.text)), None)):
            ceiling = Mark(line, f"line {line.lineno} gives {o}, which only releases with V0 have", False)
    return ceiling


def v0_marked(config: RunConfig, lines: Sequence[LogLine], newest: Version | None) -> None:
    """The V1 class a vLLM config line gave, made V0's worker where the text puts the run on
    V0, or a condition over both where its options allow V0; nothing for a printed release
    after V0 or where no config line named a V1 class."""
    if config.engine not in (None, "vllm") or "platform" in config.flags:
        return
    table = v0_table()
    at = parse_release(config.version) if config.version else None
    if at is not None and at > table.v0_last:
        return
    v1 = [e for e in config.path_evidence
          if e.reason.startswith("vLLM") and (e.worker_class or "").endswith(("Proposer", "ProposerGPU"))]  # fmt: skip
    if not v1:
        return
    mark = _stated(lines) or _framed(lines) or _options(lines, at or newest)
    if mark is None or (not mark.decides and at is not None):
        return
    method, model = (config.flags.get(f"speculative_config.{k}") for k in ("method", "model"))
    found = v0_worker(method.value if method else None, model.value if model else None)
    if found is not None and found[1] == "EAGLE3":
        found = None  # EAGLE-3 came in 0.9.1, V1's by default then: no V0 run of it is known
    config.path_evidence = [_v0(e, mark, found) if e in v1 else e for e in config.path_evidence]


def _v0(e: Evidence, mark: Mark, found: tuple[str, str] | None) -> Evidence:
    head = e.reason.rsplit(" -> ", 1)[0]
    if mark.decides and found is not None:
        worker = found[0]
        return replace(e, reason=f"{head} -> {worker} (V0 spec_decode, other): {mark.why}",
                       worker_class=worker, points_to="other", condition=None)  # fmt: skip
    if mark.decides:  # a method V0 never ran: the text contradicts itself
        return replace(e, reason=f"{head}: {mark.why}, and V0 never ran this method: the text does "
                       "not show which class ran", worker_class=None, points_to=None, condition=None)  # fmt: skip
    if found is None:
        return e  # V0 never ran the method: the run was V1's
    condition = f"{e.worker_class} on the V1 engine, {found[0]} on V0 (vLLM 0.8-{v0_table().v0_last})"
    return replace(e, reason=f"{head}: {mark.why}: {condition}", worker_class=None,
                   points_to=None, condition=condition)  # fmt: skip
