"""Which of vLLM's two GPU model runners ran a speculative method, and so which class drafted.

vLLM 0.12 added the model runner v2 (MRV2, ``vllm/v1/worker/gpu/``) beside the V1 runner
(``gpu_model_runner.py``); it builds speculators of its own (``EagleSpeculator``,
``MTPSpeculator``...), not the V1 runner's proposers. A user selects it with
``VLLM_USE_V2_MODEL_RUNNER=1``; from 0.22 vLLM picks it by itself when the env is unset (for
some architectures, for every one from 0.29), and 0.34 dropped the V1 runner. So a method's
V1 class is right only where the text puts the run on the V1 runner or on a release before the
default: where the text says MRV2 ran (the env, vLLM's "Using V2 Model Runner", "the V2 model
runner" in words, a frame of ``v1/worker/gpu/``) the MRV2 speculator decides, and where a
release that may default to MRV2 leaves the runner open, both classes are the condition.
The runner a text's own lines show outranks its method words: a log line whose prefix names a
module only one runner's tree holds (``[speculator.py:120]``: MRV2; ``[multi_step_worker.py:N]``:
V0), a frame of V0's engine or ``vllm/spec_decode/`` package (V0: the method's V0 worker), and
an MRV2 file newer than the release a fork's build prints (that file's first release bounds it).
Every release, class and module is rules/paths/vllm_runner.toml's, read from vLLM's own source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import cache

from packaging.version import Version

from spectrace.assemblers.documents import expected_line
from spectrace.assemblers.pyconfig import commented_out
from spectrace.assemblers.release_dates import newest_at, published, rules_table
from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.thread_head import HEAD_LINES
from spectrace.assemblers.thread_title import TitleReader
from spectrace.assemblers.vllm_engine_lines import engine_shown, fork_tree, other_tracker
from spectrace.assemblers.vllm_plugin_marks import plugin_rows
from spectrace.assemblers.vllm_proposers import (
    first_release,
    method_family,
    method_spans,
    subclasses,
    v0_worker,
)
from spectrace.assemblers.vllm_release import base_release, parse_release
from spectrace.assemblers.vllm_v0_marks import v0_table
from spectrace.dialects.base import LogLine

RUNNER_FLAG = "vllm_model_runner"  # "v2" / "v1": the runner the text says ran
FLOOR_FLAG = "vllm_release_floor"  # the oldest release the run's own lines allow (0.25+ flags)
FRAME_FLOOR_FLAG = "vllm_frame_floor"  # the first release holding the newest MRV2 file the text names
DEV_BUILD_FLAG = "vllm_dev_build"  # the release a sentence names, as the dev build it writes (0.26.1rc1.dev920+g...)


@dataclass(frozen=True, slots=True)
class Speculator:
    """One MRV2 class a method runs on over a span of releases; ``default``: the first
    release whose auto mode (env unset) puts the method on MRV2, None: never."""

    method: str
    cls: str
    first: Version
    last: Version
    default: Version | None


@dataclass(frozen=True, slots=True)
class Variant:
    """A draft checkpoint that makes MRV2 build a speculator of its own inside ``method``
    (a DFlash2 draft under ``dflash``); ``word``: how a draft name or a sentence spells it."""

    method: str
    word: str
    architecture: str
    cls: str
    first: Version
    last: Version
    ascend: tuple[str, str] = ("", "")  # vllm-ascend's classes: the V1 runner's, MRV2's


@dataclass(frozen=True, slots=True)
class V1Proposer:
    """A V1-runner proposer for a method that source trees carry but no tabled release holds
    (the V1 DSpark proposer, ``v1/spec_decode/dspark.py``): what ran where the text puts such a
    method on the V1 runner, whose tabled releases name only the model runner v2's class."""

    method: str
    cls: str
    file: str
    base: str


@dataclass(frozen=True, slots=True)
class Module:
    """A ``[[module]]`` row: basenames only ``runner``'s trees (``trees``) hold across vLLM's
    releases, so a log line whose prefix names one was written by that runner's code;
    ``besides``: files of the same name that are not drafting code (a benchmark)."""

    runner: str  # "v0" / "v1" / "v2"
    trees: tuple[str, ...]
    files: frozenset[str]
    besides: frozenset[str]
    tree: bool = True  # a relative DEBUG path under ``trees`` states the runner by itself


@dataclass(frozen=True, slots=True)
class RunnerTable:
    first: Version  # the env selects MRV2
    auto_some: Version  # the env unset: MRV2 for a few architectures
    auto_dense: Version  # ... for every dense model too
    auto_all: Version  # ... for every architecture
    v1_last: Version  # the last release with the V1 runner
    speculators: tuple[Speculator, ...]
    ascend: tuple[Speculator, ...]  # vllm-ascend's, by the plugin's releases
    variants: tuple[Variant, ...] = ()
    v1_untabled: tuple[V1Proposer, ...] = ()
    modules: tuple[Module, ...] = ()
    records: Records | None = None


@dataclass(frozen=True, slots=True)
class Records:
    """``[records]``: modules whose vLLM log record is a vLLM run's own line; ``prefixed``
    behind the logger's whole prefix, ``bare`` also cut to the ``[file.py:N]`` tag."""

    prefixed: frozenset[str]
    bare: frozenset[str]


def _rows(raw: object) -> tuple[Speculator, ...]:
    rows = []
    for r in raw if isinstance(raw, list) else []:
        first, last = (parse_release(x) for x in (r.get("releases") or ["", ""]))
        if first is not None and last is not None and r.get("method") and r.get("class"):
            rows.append(Speculator(str(r["method"]), str(r["class"]), first, last,
                                   parse_release(r.get("default"))))  # fmt: skip
    return tuple(rows)


@cache
def runner_table() -> RunnerTable:
    """rules/paths/vllm_runner.toml, read once."""
    name = "paths/vllm_runner.toml"
    data = rules_table(name)
    runner = data.get("runner", {})
    assert isinstance(runner, dict)
    keys = ("first", "auto_some", "auto_dense", "auto_all", "v1_last")
    first, some, dense, every, last = (parse_release(runner.get(k)) or Version("0") for k in keys)
    untabled = tuple(V1Proposer(str(r["method"]), str(r["class"]), str(r.get("file", "")), str(r.get("base", "")))
                     for r in data.get("v1_untabled", []) if isinstance(r, dict) and r.get("method") and r.get("class"))
    modules = tuple(Module(str(r["runner"]), tuple(map(str, r["trees"])), frozenset(map(str, r["files"])),
                           frozenset(map(str, r.get("besides", []))), bool(r.get("tree", True)))
                    for r in data.get("module", []) if isinstance(r, dict) and r.get("runner") and r.get("files"))  # fmt: skip
    raw = data.get("records", {})
    records = Records(*(frozenset(map(str, raw.get(k, []))) for k in ("prefixed", "bare")))
    return RunnerTable(first, some, dense, every, last, _rows(data.get("speculator")),
                       _rows(data.get("ascend")), _variants(data.get("variant")), untabled, modules,
                       records)  # fmt: skip


def _variants(raw: object) -> tuple[Variant, ...]:
    rows = []
    for r in raw if isinstance(raw, list) else []:
        first, last = (parse_release(x) for x in (r.get("releases") or ["", ""]))
        keys = ("method", "word", "architecture", "class")
        if first is not None and last is not None and all(r.get(k) for k in keys):
            ascend = (str(r.get("ascend_v1", "")), str(r.get("ascend_v2", "")))
            rows.append(Variant(*(str(r[k]) for k in keys), first, last, ascend))
    return tuple(rows)


# what says the run was on MRV2: the env set (also ``os.environ["..."] = "1"``), vLLM's own line, the runner named in words or a
# [MRV2] tag, a frame of its package (vLLM's or vllm-ascend's); on V1: the env off, vLLM's
# fallback line ("Model Runner V2 does not yet support ...; using the V1 model runner instead")
_ENV = re.compile(r"\bVLLM_USE_V2_MODEL_RUNNER\b[`'\"]?\]?\s*[:=]\s*[`'\"]?(1|true|0|false)\b", re.I)
_V2_WORDS = re.compile(
    r"(?i)\bmodel[ _-]?runner[ _-]?v2\b|\bv2[ _-](?:model[ _-]?)?runner\b|(?<![\w-])MRV2\b"
    r"|[/\\]v1[/\\]worker[/\\]gpu[/\\]\w+|vllm_ascend[/\\]worker[/\\]v2[/\\]"
)
# ... and a frame of the V1 runner's own file (MRV2 calls into it only from frames of its own)
_V1_LINE = re.compile(
    r"using the V1 model runner instead|[/\\]v1[/\\]worker[/\\]gpu_model_runner\.py\b"
)
LITERALS: tuple[bytes, ...] = (b"V2_MODEL_RUNNER", b"odel runner", b"odel Runner", b"MRV2",
                               b"MRv2", b"odelRunner", b"/worker/gpu/", b"/worker/v2/",
                               b"gpu_model_runner.py", b"/v1/spec_decode/", b"/vllm/spec_decode/")  # fmt: skip
# a file of vLLM's V1 spec_decode package (a frame, a path in prose); which of them are V1
# proposers' own is the frame table's (``v1_proposer_file``)
_V1_SPEC_FILE = re.compile(r"\bvllm[/\\]v1[/\\]spec_decode[/\\]([\w/\\]+\.py)\b")


@cache
def _v1_proposer_files() -> frozenset[str]:
    """vLLM's ``v1/spec_decode/`` files defining a proposer class (``EagleProposer``, the base
    ``SpecDecodeBaseProposer``...): only the V1 runner builds them; the model runner v2's
    speculators live under ``v1/worker/gpu/spec_decode/``."""
    from spectrace.path_frames import frame_signatures  # the frame tables (no import back)

    return frozenset(sig.name.removeprefix("v1/spec_decode/") for sig in frame_signatures()
                     if sig.framework == "vllm" and sig.name.startswith("v1/spec_decode/")
                     and any(_V1_CLASS.search(c) for c in sig.classes))  # fmt: skip


def v1_proposer_file(text: str) -> bool:
    """The line names a V1 proposer's file (``vllm/v1/spec_decode/llm_base_proposer.py``, a
    frame or a path in prose): the run went through the V1 runner."""
    return any(m.group(1).replace("\\", "/") in _v1_proposer_files() for m in _V1_SPEC_FILE.finditer(text))


def stated_runner(lines: Sequence[LogLine], tags: bool = True) -> tuple[str, LogLine] | None:
    """("v2" | "v1", the line) where the text's lines put the run on one runner; None where
    none does, or lines say both. ``tags``: the module a vLLM log prefix names may say it (not
    on another framework's tracker, where a vLLM record is a comparison's)."""
    said = _said_runners(lines, tags)
    if len(said) != 1:
        return None
    ((runner, line),) = said.items()
    return runner, line


def _said_runners(lines: Sequence[LogLine], tags: bool) -> dict[str, LogLine]:
    """Each runner the text's lines put a run on, with its first line (``stated_runner``)."""
    said: dict[str, LogLine] = {}
    for line in lines:
        if line.quoted:
            continue
        # the module vLLM's log prefix names
        runner = _runner(line.text) or (module_runner(line.raw) if tags else None)
        if runner == "v2" and commented_out(line.text):
            continue  # a switch to MRV2 commented out (``# VLLM_USE_V2_MODEL_RUNNER: "1"``) was not on
        if runner is not None:
            said.setdefault(runner, line)
    if not said and (titled := _tagged_title(lines)) is not None:
        said["v2"] = titled
    return said


# a title's leading tags naming the model runner v2 ("[Model Runner V2][Bug]: ...", "[Bug]: [MRV2]
# ..."): the thread reports a run on it
_TITLE_TAG = re.compile(r"\[(?i:MRV2|Model[ _-]?Runner[ _-]?V2|V2[ _-]?Model[ _-]?Runner)\]")
_TAGS_FIRST = re.compile(r"^\W*(?:\[[^\]]*\]:?\s*)*" + _TITLE_TAG.pattern)


def _tagged_title(lines: Sequence[LogLine]) -> LogLine | None:
    """The line of the text's thread title (the title a head holds in any copy form:
    ``# owner/repo#N: [Model Runner V2][Bug]: ...``, ``Issue #N: [MRV2] ...``, a mail subject)
    where its leading tags name the model runner v2; None where the title is set apart or
    tags nothing."""
    if not any(ln.lineno <= HEAD_LINES and _TITLE_TAG.search(ln.text) for ln in lines):
        return None
    reader = TitleReader()
    for line in lines:
        if line.lineno > HEAD_LINES + 3:
            continue
        title = reader.feed(line)
        if title is not None:
            return line if title.apart is None and _TAGS_FIRST.match(title.text) else None
    return None


def _runner(text: str) -> str | None:
    words = _PATH.sub(" ", text)  # a path sets nothing apart
    if (env := _ENV.search(text)) is not None:  # "Could you try VLLM_USE_V2_MODEL_RUNNER=1?"
        on = "v2" if env.group(1).lower() in ("1", "true") else "v1"
        return None if APART.search(_ENV.sub(" ", _env_clause(text, env.start()))) else on
    if _V1_LINE.search(text) or v1_proposer_file(text):
        return "v1"
    if _V0_TREE_FRAME.search(text) or v0_table().frames.search(text.replace("\\", "/")):
        return "v0"  # a frame of V0's spec_decode package or of a function only V0's engine runs
    engine = _ENGINE_V2.search(text)  # vLLM's own line, its frames, a PR tagged [MRV2]
    if engine is not None and not re.search(r"[`'\"]\s*$", text[: engine.start()]):
        return "v2"  # (quoted in a sentence, "the log says `Using V2 Model Runner`", it is words)
    if chained_mrv2(text):
        return "v2"  # a step of a call chain written in prose, in a file only MRV2's tree holds
    if _V2_WORDS.search(text) is None or not _OWN.search(words):
        return None
    # each clause holding the runner words is read by itself: a negation or a "works fine"
    # in another sentence of the line ("... \"Using V2 Model Runner\". `--model` still
    # works") is about something else
    for clause in _CLAUSE.split(text):
        if _V2_WORDS.search(clause) and not APART.search(_PATH.sub(" ", clause)):
            return "v2"
    return None


_FRAME_V1 = re.compile(r"[/\\]v1[/\\](?:worker[/\\]gpu_model_runner|spec_decode[/\\]\w+)\.py\b")
# a command's own option (``--no-enable-prefix-caching``, ``--disable-log-requests``): no word of
# a sentence, so no "no" or "disable" that sets the switch beside it apart
_OPTION = re.compile(r"(?<!\w)--?[A-Za-z][\w.-]*")


def _env_clause(text: str, at: int) -> str:
    """The clause holding the runner switch at ``at``, its paths and a command's options taken
    out: what may set the switch apart ("could you try ...?", "without ..."). A report pasted
    as one paragraph (an issue digest's body: the template's "Your current environment", the
    comparison with V1, then the command) sets apart only the sentence the switch is in."""
    start = 0
    for clause in _CLAUSE.split(text):
        start = text.find(clause, start)
        if start <= at < start + len(clause):
            return _OPTION.sub(" ", _PATH.sub(" ", _ENV.sub(" ", clause)))
        start += len(clause)
    return _OPTION.sub(" ", _PATH.sub(" ", _ENV.sub(" ", text)))


def v2_named(lines: Sequence[LogLine]) -> LogLine | None:
    """The first line naming the model runner v2 in words where the runner reader set its
    clause apart (``APART``) but no clause of it says the run was off it (``_OFF_V2``): it
    may have been the run's runner."""
    for line in lines:
        if line.quoted or _V2_WORDS.search(line.text) is None or _runner(line.text) is not None:
            continue
        clauses = [_PATH.sub(" ", c) for c in _CLAUSE.split(line.text) if _V2_WORDS.search(c)]
        if clauses and not any(_OFF_V2.search(c) for c in clauses) and any(
                _OWN.search(c) or _OUTCOME.search(c) for c in clauses):  # fmt: skip
            return line
    return None


# what a runner did in a run ("handles the wrapper fine", "worked", "boots clean"); a clause
# saying what MRV2 has ("the model runner v2 has a new EAGLE path") tells no run
_OUTCOME = re.compile(r"(?i)\b(?:handl\w*|works?|worked|fine|boot\w*|load\w*|pass\w*|succeed\w*|ok)\b")


# a clause saying the run was not on the model runner v2: "not on MRV2", "without the V2 model
# runner", "MRV2 off / disabled", "fell back from MRV2", "MRV2 support for X" (a request: none ran)
_OFF_V2 = re.compile(
    r"(?i)\b(?:not|no|never|without|w/o|disabl\w*|instead of|fall\w* back|unsupported|lacks?"
    r"|support\w* for|add\w* support|off|n't|cannot|plan\w*|todo|roadmap|rfc"
    # ... or offers it as another's word, a suggestion or a later fix ("could you try MRV2?",
    # "0.30 (MRV2 by default) fixes it; we cannot upgrade"): the run was not on it then
    r"|try|trying|tried|could|should|would|suggest\w*|recommend\w*|if|whether|fix\w*|upgrad\w*"
    r"|by default|maybe|might|please|someone|said|says|your|yours)\b|\?"
)
_PATH = re.compile(r"[\w./\\-]*[/\\][\w./\\-]*")
# a clause of a line: a sentence (its end mark and a blank), a semicolon's side; a table row's
# cells stay together ("| MRV2 | not tested |" sets the runner apart)
_CLAUSE = re.compile(r"(?<=[.!?;])\s+")


# vLLM's log prefix up to its module tag: the level, the day and time, then ``[file.py:N]`` (a
# relative path under DEBUG) or, in older releases, ``file.py:N]``; any process prefix before it
_TAG = re.compile(
    r"\b(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+\d\d:\d\d:\d\d(?:[.,]\d+)?\s+"
    r"\[?((?:[\w.-]+/)*[\w.-]+\.py):\d+\]"
)
# a frame of V0's ``vllm/spec_decode/`` package (gone in 0.10; V1's is ``vllm/v1/...``), as a
# traceback or py-spy (``file.py:N``) writes it
_V0_TREE_FRAME = re.compile(r"[/\\]vllm[/\\]spec_decode[/\\]\w+\.py(?:\"?,? line \d+|:\d+\b)")


def _record_names() -> frozenset[str]:
    records = runner_table().records
    return records.prefixed | records.bare if records is not None else frozenset()


# a log prefix's module tag of a ``[[module]]`` row ("speculator.py:"); no load line holds one
LITERALS += tuple(sorted({f"{name}:".encode() for row in runner_table().modules for name in row.files}
                         | {f"{name}:".encode() for name in _record_names()}))


def module_runner(text: str) -> str | None:
    """"v2" / "v0" where a vLLM log line's prefix names a module only that runner's tree holds
    (``rules/paths/vllm_runner.toml`` ``[[module]]``: ``[speculator.py:120]``, a relative path
    under MRV2's or V0's tree, the record cut to its tag at the line's start); None for a name
    several trees share (``eagle.py``) or no tag."""
    for name in _tag_names(text):
        name = name.removeprefix("vllm/")
        base = name.rsplit("/", 1)[-1]
        for row in runner_table().modules:
            under = "/" in name and name.startswith(row.trees) and (row.tree or base in row.files)
            if name in row.files or under:
                return row.runner
    return None


def _tag_names(text: str) -> list[str]:
    """The module names a vLLM record's prefix gives: the whole prefix's tags, the tag after a
    level whose day and time a copy elided or wrote otherwise (``_LEVEL_TAG``), or the tag of
    a record a timeline transcribes or one cut to its tag at the line's start."""
    cut = _DIGEST_TAG.match(text) or _BARE_TAG.match(text)
    tags = [t.group(1) for t in _TAG.finditer(text)] or [t.group(1) for t in _LEVEL_TAG.finditer(text)]
    return tags + ([cut.group(1)] if cut else [])


# the same prefix with its day and time elided or in another form, its bracketed module tag
# kept: "ERROR ... [gpu_model_runner.py:5403] ...", "WARNING [speculator.py:92] ...", "INFO
# 2026-08-26T10:11:12 [gpu_model_runner.py:4578] ..." (up to three words between; not a
# Markdown link's text, "[eagle.py:130](https://...)"). The level opens the record, as vLLM's
# logger writes it (behind a process prefix at most): another program's logger that puts its
# own day first ("2025-06-22 15:12:27 ERROR [engine.py:458]") names its own modules
_LEVEL_TAG = re.compile(
    r"^[\s>*+|`-]*(?:\([\w.-]+ pid=\d+\)\s*)?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\b\s+(?:[^\s\[\]]+\s+){0,3}?"
    r"\[((?:[\w.-]+/)*[\w.-]+\.py):\d+\](?!\()"
)


# a record as a timeline transcribes it: the time, the module tag without its level, day and
# brackets, then the message in quotes (``22:59:36  speculator.py:92  "Capturing model ..."``)
_DIGEST_TAG = re.compile(r"^[\s>*+|`-]*\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?\s+((?:[\w.-]+/)*[\w.-]+\.py):\d+\s+[\"“]")


# the same record cut to its tag, at the line's start (behind a bullet, a table cell's edge, a
# backtick, the process prefix, an ellipsis standing for the cut prefix): ``[gpu_model_runner.py:4578]
# Model loading took ...``, ``... [gpu_model_runner.py:5403] Failed to load model``
_BARE_TAG = re.compile(
    r"^[\s>*+|`-]*(?:(?:\.\.\.|…)\s*)?(?:\[vLLM\]\s*)?(?:\([\w.-]+ pid=\d+\)\s*)?\[([\w.-]+\.py):\d+\]\s"
)


# the sentences telling which lines to expect ("you should see", "look for these"), as config
# lines: the records under one are the reader's to come, not the run's (documents.expected_line)
LITERALS += (b"ou should see", b"ook for", b"xpected", b"ou'll see", b"ou will see", b"og for")
_EXPECTED_SPAN = 12  # lines after such a sentence that its example may take


def own_records(lines: Sequence[LogLine]) -> list[LogLine]:
    """The run's own vLLM records (``vllm_record``): not behind a reply's quote mark, and not
    the lines a sentence before them says the reader should expect."""
    return [line for line in _unexpected(lines) if vllm_record(line.raw)]


def _unexpected(lines: Sequence[LogLine]) -> list[LogLine]:
    """The lines not behind a reply's quote mark and not among those a sentence before them
    says the reader should expect (``expected_line``)."""
    told = [line for line in lines if expected_line(line.text)]
    return [line for line in lines if not line.quoted
            and not any(t.source == line.source and 0 < line.lineno - t.lineno <= _EXPECTED_SPAN
                        for t in told)]  # fmt: skip


def vllm_record(text: str) -> bool:
    """The line is a record vLLM's logger wrote from one of vLLM's drafting or runner modules
    (``[records]``): the whole prefix (``INFO 03-02 10:11:12 [eagle.py:1419] ...``, any process
    prefix before it; not the older bracketless form, whose releases the V1 classes postdate)
    or, for a name only vLLM's trees hold, the bare tag."""
    records = runner_table().records
    if records is None:
        return False
    for tag in (*_TAG.finditer(text), *_LEVEL_TAG.finditer(text)):
        if "[" in tag.group(0) and tag.group(1).rsplit("/", 1)[-1] in records.prefixed:
            return True
    bare = _BARE_TAG.match(text) or _DIGEST_TAG.match(text)
    return bare is not None and bare.group(1) in records.bare


# a frame or log line only vLLM's own runner v2 has (not the plugin's): the run is vLLM's; its
# speculators sit in subpackages (``v1/worker/gpu/spec_decode/autoregressive/speculator.py``)
_VLLM_OWN = re.compile(r"\bvllm[/\\]v1[/\\]worker[/\\]gpu[/\\](?:\w+[/\\])*\w+\.py|\bUsing V2 Model Runner\b")
# what only a run on MRV2 prints, and a PR or report about MRV2's code, its title's leading tag
# spelling the runner ([MRV2], [Model Runner V2], [ModelRunnerV2]): its runs went through it
_ENGINE_V2 = re.compile(
    r"\bUsing V2 Model Runner\b|[/\\]v1[/\\]worker[/\\]gpu[/\\](?:\w+[/\\])*\w+\.py|vllm_ascend[/\\]worker"
    r"[/\\]v2[/\\]\w+"
    r"|^\W*(?:\[[^\]]*\]\s*)*\[(?i:MRV2|Model[ _-]?Runner[ _-]?V2|V2[ _-]?Model[ _-]?Runner)\]"
)
# "without MRV2", "MRV2 is off", "falls back from the V2 model runner", "V2 model runner
# support for X" (a request: the run had none), "should we try MRV2?", "works fine on the V2
# model runner" (the run that crashed is another), "0.30 (MRV2 by default) fixes it; we cannot
# upgrade"; a PR number beside it sets nothing apart
APART = re.compile(
    r"(?i)\b(?:not|no|never|without|w/o|disabl\w*|instead of|fall\w* back|unsupported|lacks?"
    r"|support\w* for|add\w* support|if|whether|should|could|would|try|trying|suggest\w*|plan\w*"
    r"|fine|works?|worked|used to|before|unlike|off|n't|fix\w*|upgrad\w*|said|says|someone"
    r"|by default|recommend\w*|maybe|might|please|cannot|can't|yours|your)\b|\?"
    r"|\bmy (?:box|machine|side|end|setup)\b"
)
# words of a sentence about the run itself ("we run the V2 model runner", "reproduced on ...
# and the V2 model runner", "Setup: MRV2"); a sentence about MRV2 alone ("the model runner v2
# has a new EAGLE path") says nothing of the run
_OWN = re.compile(
    r"(?i)\b(?:we|i|our|my|us|run|runs|running|ran|using|uses|used|reproduc\w*|launch\w*"
    r"|serv\w*|enabled|setup|deploy\w*|crash\w*|hang\w*|fails?|failed)\b|^\W*setup\b"
)


# vLLM's model runners named in words, one or both ("the v2 runner", "Model Runner V2", "MRV2",
# "V1 + V2 model runners"): on a fork of vLLM's tree (``fork_tree``) the run is vLLM's
_RUNNERS = re.compile(
    r"(?i)\bmodel[ _-]?runner[ _-]?v[12]\b|(?<![\w-])MRV2\b"
    r"|\bv[12](?:\s*(?:\+|and|&|/)\s*v[12])?[ _-](?:model[ _-]?)?runners?\b"
)


def note_runner(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """Flags ``vllm_model_runner`` and ``vllm_draft_variant`` from the text, then each
    method-derived V1 class of the config's evidence read on that runner (``on_runner``)."""
    said = _said_runners(lines, tags=not other_tracker(lines, plugins=True))
    stated = next(iter(said.items())) if len(said) == 1 else None
    if stated is not None and RUNNER_FLAG not in config.flags:
        runner, line = stated
        config.flags[RUNNER_FLAG] = FlagValue(runner, line.source, line.lineno, "prose")
        own = _VLLM_OWN.search(line.text) or chained_mrv2(line.text)
        if config.engine is None and (module_runner(line.raw) or (runner == "v2" and own)):
            config.engine = "vllm"  # a py-spy / faulthandler frame of vLLM's own runner v2, vLLM's log prefix
    if config.engine is None and fork_tree(lines) and any(_RUNNERS.search(ln.text) for ln in lines if not ln.quoted):
        config.engine = "vllm"  # "reproduces ... with the v2 runner", "on both the V1 and V2 model runners" on a fork
    if config.engine is None and own_records(lines):
        config.engine = "vllm"  # a record vLLM's logger wrote from its drafting or runner code
    if config.engine is None and engine_shown(lines, config.version) is not None and not other_tracker(lines):
        config.engine = "vllm"  # a line only vLLM's engine processes print (vllm_engine_lines)
    # runs on both runners, the V1 one told by a switch or words (not a frame of its file: the
    # crash's own stack ran there): which crashed is open, so both classes
    both = said.keys() == {"v1", "v2"} and _FRAME_V1.search(said["v1"].text) is None
    named_v2 = said["v2"] if both else None
    if stated is None and (named_v2 := named_v2 or v2_named(lines)) is not None:
        config.flags.setdefault(NAMED_V2_FLAG, FlagValue("v2", named_v2.source, named_v2.lineno, "prose"))
    floor = frame_floor(lines)
    if floor is not None and FRAME_FLOOR_FLAG not in config.flags:
        first, line = floor
        config.flags[FRAME_FLOOR_FLAG] = FlagValue(str(first), line.source, line.lineno, "frame")
    captured = captured_speculator(lines)
    bar = capture_bar(lines)
    if captured is None and bar is not None and bar[0]:
        captured = bar
    if captured is not None and CAPTURED_FLAG not in config.flags:
        cls, line = captured
        config.flags[CAPTURED_FLAG] = FlagValue(cls, line.source, line.lineno, "log")
    record = speculator_record(lines) or (bar[1] if bar is not None else None)
    if record is not None and RECORD_FLAG not in config.flags:
        config.flags[RECORD_FLAG] = FlagValue(record.raw.strip(), record.source, record.lineno, "log")
    named = named_variant(lines)
    if named is not None and VARIANT_FLAG not in config.flags:
        word, line, frame = named
        origin = "frame" if frame else "prose"
        config.flags[VARIANT_FLAG] = FlagValue(word, line.source, line.lineno, origin)
    config.path_evidence = [on_runner(e, config) for e in config.path_evidence]


VARIANT_FLAG = "vllm_draft_variant"  # a variant's word the run's text names ("dflash2")
RECORD_FLAG = "vllm_speculator_record"  # the run's own record of an MRV2 speculator module
CAPTURED_FLAG = "vllm_captured_speculator"  # the MRV2 class the run's capture record names

# the record an MRV2 speculator's capture() logs under its own name ("Capturing model for
# DSpark speculator...", "... for Eagle speculator..."; later releases' shared base logs
# "Capturing model for speculator...", which names none)
_CAPTURE = re.compile(r"\bCapturing model for (\w+) speculator\b")


def captured_speculator(lines: Sequence[LogLine]) -> tuple[str, LogLine] | None:
    """The model runner v2 speculator the run's own records name as capturing its CUDA graphs
    (a record of an MRV2 module, ``[speculator.py:N]``), as the runner table spells it
    (``DSpark`` -> ``DSparkSpeculator``); None where no record names one, a name is no tabled
    class, or the records name several (two runs in one text)."""
    by_name = {c.lower(): c for c in _mrv2_classes()}
    found: dict[str, LogLine] = {}
    for line in own_records(lines):
        m = _CAPTURE.search(line.raw)
        if m is not None and module_runner(line.raw) == "v2":
            cls = by_name.get(f"{m.group(1)}speculator".lower())
            if cls is None:
                return None
            found.setdefault(cls, line)
    return next(iter(found.items())) if len(found) == 1 else None


# the progress bar an MRV2 speculator's graph capture draws under its own name ("Capturing
# dspark CUDA graphs (FULL):  40%|...", "Capturing eagle CUDA graphs (PIECEWISE): ...": the
# speculator's name, lower-cased, before "CUDA graphs"; the target model's bars name none, and
# V1's put the mode after "graphs"): written alone at the line's start, behind a process prefix
_CAPTURE_BAR = re.compile(r"^\s*(?:\([\w ]+pid=\d+\)\s*)?Capturing (\w+) CUDA graphs\b[^:]{0,40}:\s*\d{1,3}%\|")


def capture_bar(lines: Sequence[LogLine]) -> tuple[str, LogLine] | None:
    """The model runner v2 speculator whose own graph-capture progress bar the text shows, as
    the runner table spells it (``dspark`` -> ``DSparkSpeculator``), with the bar's line: a bar
    stands for the speculator's record where stderr kept the bars alone. The class is "" where
    the name's graph manager serves other classes too (``eagle``: one manager for every
    autoregressive head, MTP's included). None where no bar names a tabled speculator outside
    a reply's quote and the lines a sentence tells the reader to expect, or bars name several."""
    bars = [(line, m) for line in lines if "CUDA graphs" in line.raw and (m := _CAPTURE_BAR.match(line.raw))]
    if not bars:
        return None
    kept = {id(line) for line in _unexpected(lines)}
    by_name = {c.lower(): c for c in _mrv2_classes()}
    found: dict[str, LogLine] = {}
    for line, m in bars:
        cls = by_name.get(f"{m.group(1)}speculator".lower()) if id(line) in kept else None
        if cls is not None:
            found.setdefault(cls, line)
    if len(found) != 1:
        return None
    cls, line = next(iter(found.items()))
    rows = runner_table().speculators
    shared = any(r.cls != cls for r in rows if r.method in {o.method for o in rows if o.cls == cls})
    return ("" if shared else cls), line


def _v2_files() -> frozenset[str]:
    """The basenames only the model runner v2's speculators have (``[[module]]`` runner v2)."""
    return frozenset(f for row in runner_table().modules if row.runner == "v2" for f in row.files)


def _record_module(text: str) -> str:
    """The MRV2 speculator module a vLLM record's prefix names (``speculator.py``), or ""."""
    return next((base for name in _tag_names(text) if (base := name.rsplit("/", 1)[-1]) in _v2_files()), "")


def speculator_record(lines: Sequence[LogLine]) -> LogLine | None:
    """The first of the run's own vLLM records (``own_records``) that a model runner v2
    speculator module wrote (``[speculator.py:235] ...`` behind vLLM's whole prefix). MRV2
    builds a speculator only for a speculative config, so such a record shows a speculative
    run on that runner even where no line names its method."""
    return next((line for line in own_records(lines)
                 if _record_module(line.raw) and module_runner(line.raw) == "v2"), None)  # fmt: skip


def recorded_speculator(config: RunConfig) -> Evidence | None:
    """What drafted in a run whose own records show an MRV2 speculator (``RECORD_FLAG``) and
    name no method: the class the capture record names (``_captured``), else the speculator of
    the draft variant the text names where the run's release or day holds it (``_variant``),
    else the condition over every MRV2 speculator the release or day allows
    (``mrv2_unnamed``). None without such a record, or on a plugin's platform (its own
    classes) or another engine."""
    record = config.flags.get(RECORD_FLAG)
    if record is None or config.engine not in (None, "vllm") or "platform" in config.flags:
        return None
    text = str(record.value)
    head = (f"line {record.lineno} is a record of the model runner v2's {_record_module(text) or 'speculator'}, "
            f"written only in a speculative run")  # fmt: skip
    base = Evidence(record.source, record.lineno, text, head, None, None, None)
    captured = config.flags.get(CAPTURED_FLAG)
    if captured is not None:
        return _captured(base, captured, base)
    named = config.flags.get(VARIANT_FLAG)
    alive, _at = _alive_for(config)
    for row in runner_table().variants:
        method_rows = [r for r in runner_table().speculators if r.method == row.method and alive(r.first, r.last)]
        if named is None or named.value != row.word or not method_rows:
            continue
        drafted = replace(base, points_to="other", worker_class=method_rows[-1].cls, family=method_family(row.method))
        found = _variant(drafted, row.method, config)
        if found is not None and (found.worker_class or found.condition):
            return found
    unnamed = mrv2_unnamed(config, v1=False)
    if unnamed is None:
        return None
    return replace(base, condition=unnamed[0], reason=f"{head}: no method named: {unnamed[0]}")


# a file of the model runner v2's package as a frame or log tag writes it
_MRV2_FILE = re.compile(r"\bv1[/\\]worker[/\\]gpu[/\\]((?:\w+[/\\])*\w+\.py)\b")


@cache
def _mrv2_firsts() -> dict[str, Version]:
    """Each MRV2 file of the frame tables (``v1/worker/gpu/...``) -> the first release holding it."""
    from spectrace.path_frames import frame_signatures  # the frame tables (no import back)

    out: dict[str, Version] = {}
    for sig in frame_signatures():
        first = parse_release(sig.releases[0]) if sig.framework == "vllm" else None
        if first is not None and sig.name.startswith("v1/worker/gpu/"):
            out[sig.name] = min(out.get(sig.name, first), first)
    return out


def frame_floor(lines: Sequence[LogLine]) -> tuple[Version, LogLine] | None:
    """The first release of the newest MRV2 file the run's lines name (a frame, a log tag):
    no build older than that ran them, whatever version string a fork's build prints
    (``0.11.2.dev...`` with ``autoregressive/speculator.py``, a file of 0.23 on)."""
    found: tuple[Version, LogLine] | None = None
    for line in lines:
        if line.quoted:
            continue
        names = ["v1/worker/gpu/" + m.group(1).replace("\\", "/") for m in _MRV2_FILE.finditer(line.raw)]
        for name in names + chained_mrv2(line.text):
            first = _mrv2_firsts().get(name)
            if first is not None and (found is None or first > found[0]):
                found = (first, line)
    return found


# a file named with its folder and a line number as one step of a call chain written in prose
# (``speculator.py:125`` -> ``autoregressive/cudagraph_utils.py:74`` -> ...): an arrow on
# either side of it, quotes and emphasis aside
_ARROW = r"(?:->|→|⟶|=>)"
_STEP = re.compile(
    rf"(?:{_ARROW}\s*[`'\"*]*)((?:[\w.-]+/)+[\w-]+\.py):\d+\b"
    rf"|(?<![\w./\\-])((?:[\w.-]+/)+[\w-]+\.py):\d+\b(?=[`'\"*]*\s*{_ARROW})"
)


@cache
def _tree_rows() -> tuple[tuple[str, str], ...]:
    """(file, framework) of every row of the frame tables (no function rows)."""
    from spectrace.path_frames import frame_signatures  # the frame tables (no import back)

    return tuple((sig.name, sig.framework) for sig in frame_signatures() if sig.function is None)


# any step of a chain, a bare file name too, with the function a writer may put after it
_ANY_STEP = re.compile(r"[`'\"*(]*(?:[\w.-]+/)*[\w-]+\.py:\d+\b(?:\s*\(?[A-Za-z_]\w*(?:\(\))?\)?(?=\s*(?:->|→|⟶|=>|$)))?[`'\"*)]*")
# what may stand before a chain on its line: the words introducing it as the crash's stack
# ("Stack frames identical to boot 2 —", "Backtrace:"), closed by a colon or a dash
_LEAD_IN = re.compile(r"(?i)^[^:—–]*\b(?:stack|frames?|traceback|backtrace)\b[^:—–]*(?::|\s[—–-])\s*$")


# a stack printed one frame a line: the step opens the line, then its function or the code
# line it ran (``  autoregressive/cudagraph_utils.py:74   super().capture(fn, ...)``); not a
# grep hit (``x.py:74:``), a range of source lines (``x.py:51-61``) or a bullet's prose
_FRAME_LINE = re.compile(r"^[ \t]*((?:[\w.-]+/)+[\w-]+\.py):\d+(?![\d:,-])[ \t]+(?P<rest>\S.*)$")
_NOTE = re.compile(r"\s*(?:←|#).*$")


def _frame_line(text: str) -> str | None:
    """The step's path where the line is one frame of a stack printed a frame a line: what
    follows the step is a function name or code (a call), never words of a sentence."""
    m = _FRAME_LINE.match(text)
    if m is None:
        return None
    rest = _NOTE.sub("", m["rest"]).strip()
    code = re.fullmatch(r"[A-Za-z_][\w.]*(?:\(.*)?", rest) is not None or re.search(r"\w\(", rest) is not None
    return m.group(1) if code else None


def _stack_line(text: str) -> bool:
    """The line is a call chain printed as the crash's stack: nothing but its steps and
    arrows, a stack's lead-in before them at most; a sentence that cites steps while it
    tells of code ("moves the buffer out of `a.py:1` → `b.py:2` so ...") is none."""
    steps = list(_ANY_STEP.finditer(text))
    if not steps or (len(steps) < 2 and not re.match(rf"\s*{_ARROW}", text)):
        return False  # (a line opening with an arrow continues a chain: one step is enough)
    lead, tail = text[: steps[0].start()], text[steps[-1].end() :]
    between = _ANY_STEP.sub(" ", text[steps[0].start() : steps[-1].end()])
    if _LETTER.search(re.sub(_ARROW, " ", between)) or _LETTER.search(re.sub(_ARROW, " ", tail)):
        return False
    lead = re.sub(rf"\s*{_ARROW}\s*$", "", lead)
    return not _LETTER.search(lead) or _LEAD_IN.match(lead) is not None


_LETTER = re.compile(r"[A-Za-z]")  # a word between or after a chain's steps: a sentence


def chained_mrv2(text: str) -> list[str]:
    """The MRV2 files (their tables' names) the steps of a call chain printed as a stack
    (``_stack_line``, or one frame a line: ``_frame_line``) name, where every row of every framework's tables the step's path
    could end is vLLM's, under MRV2's tree (``autoregressive/cudagraph_utils.py``: only
    ``v1/worker/gpu/spec_decode/autoregressive/`` holds it); a bare name (``speculator.py``)
    or a path other trees hold too names none."""
    if "/" not in text:
        return []
    if (single := _frame_line(text)) is not None:
        paths = [single]
    elif re.search(_ARROW, text) and _stack_line(text):
        paths = [m.group(1) or m.group(2) for m in _STEP.finditer(text)]
    else:
        return []
    found: list[str] = []
    for path in (p.lstrip("./") for p in paths):
        rows = [(name, fw) for name, fw in _tree_rows() if name == path or name.endswith("/" + path)]
        if rows and all(fw == "vllm" and name.startswith("v1/worker/gpu/") for name, fw in rows):
            found += sorted({name for name, _fw in rows})
    return found


def _mrv2_steps() -> tuple[bytes, ...]:
    """``folder/file.py:`` of each MRV2 file whose folder and name no other tree's row ends
    with: what the scan keeps a line for where a stack names it without its package."""
    tails = {"/".join(name.split("/")[-2:]) for name, fw in _tree_rows()
             if fw == "vllm" and name.startswith("v1/worker/gpu/spec_decode/")}  # fmt: skip
    return tuple(sorted(f"{tail}:".encode() for tail in tails if chained_mrv2(f"{tail}:1 → {tail}:2")))


LITERALS += _mrv2_steps()


def _variant_word(word: str) -> re.Pattern[str]:
    """``dflash2`` as a draft name or a sentence spells it: ``-DFlash2``, ``DFlash-2``,
    ``dflash_2``, never inside a longer word or number (``DFlash20``)."""
    stem, digits = re.fullmatch(r"(\D+?)(\d*)", word).groups()  # type: ignore[union-attr]
    return re.compile(rf"(?i)(?<![A-Za-z0-9]){re.escape(stem)}[-_ ]?{digits}(?![0-9])")


def named_variant(lines: Sequence[LogLine]) -> tuple[str, LogLine, bool] | None:
    """(the variant's word, the line, whether it is a frame of the variant's package) where the
    run's own lines name a draft variant: in a model name or path (the draft itself), in words
    not set apart ("DFlash2 fails in rejection sampling"; not "we could try DFlash2", "works
    without DFlash2"), or as a frame under ``spec_decode/dflash2/`` (that class or a subclass
    of it ran); a draft or a word outranks a frame."""
    frame: tuple[str, LogLine, bool] | None = None
    for line in lines:
        if line.quoted:
            continue
        for row in runner_table().variants:
            for found in _variant_word(row.word).finditer(line.text):
                start = line.text.rfind(" ", 0, found.start()) + 1
                end = line.text.find(" ", found.end())
                token = line.text[start : end if end >= 0 else len(line.text)]
                token = token.strip(".,;:!?()[]{}<>\"'`*")
                if re.search(rf"(?i)[/\\]spec_decode[/\\]{re.escape(row.word)}[/\\]", token):
                    frame = frame or (row.word, line, True)  # a frame of the variant's package
                    continue
                if _CODE_PATH.search(token):
                    continue  # another file naming it: code, not the run's draft
                in_name = token != found.group(0) and bool(re.search(r"[/\\_-]|\.\w", token))
                words = re.sub(r"[\w./\\-]*[/\\][\w./\\-]*", " ", line.text)
                if in_name or not (APART.search(words) or _COMPARED.search(words)):
                    return row.word, line, False
    return frame


# a sentence weighing the variant against another ("DFlash2 is faster than DFlash"): no statement
# of which one the run used
_COMPARED = re.compile(r"(?i)\bthan\b|\bvs\.?(?!\w)|\bversus\b|\bcompar\w*|\bover\b")
# a token that is a source file or a package directory, not a checkpoint's name
_CODE_PATH = re.compile(r"\.(?:py|pyc|cu|cuh|cpp|cc|h)\b|[/\\]spec_decode[/\\]")


# a family named in words -> the method value the runner's table is keyed by
_FAMILY_METHOD = {"EAGLE": "eagle", "EAGLE3": "eagle3", "MTP": "mtp", "DFLASH": "dflash", "DSPARK": "dspark",
                  "DRAFT_MODEL": "draft_model", "NGRAM": "ngram", "SUFFIX": "suffix",
                  "EXTRACT_HIDDEN_STATES": "extract_hidden_states"}  # fmt: skip


def on_runner(e: Evidence, config: RunConfig, families: Sequence[str] = ()) -> Evidence:
    """``e`` as the runner the text states (or leaves open) makes it: a V1 proposer a method
    gave stays where the text says V1 ran or the release predates MRV2 by default; becomes the
    MRV2 speculator where the text says MRV2 ran; becomes both, as a condition, where the
    release may have defaulted to MRV2 and nothing says which ran."""
    cls = e.worker_class or ""
    if not cls and e.condition and e.reason.startswith("vLLM"):
        return _ascend_condition_on_v2(e, config)
    if e.points_to != "other" or not _DRAFTER.search(cls):
        return e
    captured = config.flags.get(CAPTURED_FLAG)
    if captured is not None and not cls.startswith("Ascend") and "platform" not in config.flags:
        return _captured(e, captured, _read_on_runner(e, config, families))
    return _read_on_runner(e, config, families)


def _read_on_runner(e: Evidence, config: RunConfig, families: Sequence[str] = ()) -> Evidence:
    """``on_runner`` for a drafting class ``e`` names, by its method, variant and runner."""
    cls = e.worker_class or ""
    method = _method(e, config)
    if method is None:
        return _families_open(e, config, families)
    if (variant := _variant(e, method, config)) is not None:
        return variant
    runner = config.flags.get(RUNNER_FLAG)
    if runner is not None and runner.value == "v1" and cls in _mrv2_classes() and _v1_ships(config):
        return _contradicted(e, method, runner)
    if not _V1_CLASS.search(cls) or _own_runner(config):
        return e
    if runner is not None and runner.value == "v1":
        return _on_v1(e, method, runner, config)
    if runner is not None and runner.value == "v0":
        return _on_v0(e, method, runner)
    if cls.startswith("Ascend"):
        return _on_v2(e, method, runner, config, ascend=True) if runner is not None else e
    if runner is not None:
        return _on_v2(e, method, runner, config, ascend=False)
    found = _open(e, method, config)
    named = config.flags.get(NAMED_V2_FLAG)
    if named is None or not found.worker_class or config.engine != "vllm":
        return found  # (a run placed by its words or tracker alone gets every era's classes)
    return _named_v2(found, method, named, config)


def _captured(e: Evidence, captured: FlagValue, read: Evidence) -> Evidence:
    """The run's own MRV2 record named the speculator capturing its graphs: that class drafted,
    whatever a method or architecture line gave (``read``: what they gave on the runner); where
    a tabled class derives from it (and may inherit its capture), that class or those, as the
    condition, unless ``read`` decided one of them already (a draft variant's class)."""
    cls, head = str(captured.value), e.reason.split(" -> ", 1)[0]
    why = f"line {captured.lineno} is the model runner v2's record of {cls} capturing its graphs"
    kin = subclasses(cls)
    if read.worker_class is not None and read.worker_class in {cls, *(c for c, _lo, _hi in kin)}:
        return read
    if kin:
        condition = f"{cls}, or " + ", ".join(f"{c} (vLLM {lo}-{hi}), which derives from it" for c, lo, hi in kin)
        return replace(e, points_to=None, worker_class=None, condition=condition,
                       reason=f"{head}: {why}: {condition}")  # fmt: skip
    methods = {r.method for r in runner_table().speculators if r.cls == cls}
    family = method_family(next(iter(methods))) if len(methods) == 1 else ""
    return replace(e, points_to="other", worker_class=cls, condition=None, family=family or e.family,
                   reason=f"{head} -> {cls} (other): {why}")  # fmt: skip


def _own_runner(config: RunConfig) -> bool:
    """The run is on a plugin marked by its own package, repository or pip name (vllm-gaudi,
    tpu-inference, vllm-rbln...): the plugin's model runner built its class, and vLLM's choice
    between its V1 runner and the model runner v2 never applies to it."""
    platform = config.flags.get("platform")
    return platform is not None and platform.value in {row.framework for row in plugin_rows()}


NAMED_V2_FLAG = "vllm_runner_v2_named"  # a line naming the model runner v2 in a clause set apart


def _named_v2(e: Evidence, method: str, named: FlagValue, config: RunConfig) -> Evidence:
    """``e`` (the V1 runner's class, nothing saying which runner ran) where a line names the
    model runner v2 in a clause the runner reader sets apart ("V2 model runner handles the
    wrapper fine", "works on MRV2 too"): the run may be either runner's, so
    the V1 class and the method's MRV2 speculators of the release (every one where none is
    given), as a condition; never the V1 class alone."""
    table = runner_table()
    release = _release(config, ascend=False)
    newest = _newest(config, "vllm") if release is None else None  # the day's newest release
    rows = [r for r in table.speculators if r.method == method
            and (release is None or r.first <= release[1] <= r.last)
            and (newest is None or r.first <= newest)]  # fmt: skip
    if not rows:
        return e
    mrv2 = " / ".join(dict.fromkeys(f"{r.cls} (vLLM {r.first}-{r.last})" for r in rows))
    condition = (f"{e.worker_class} on the V1 model runner, {mrv2} on the model runner v2 (line "
                 f"{named.lineno} names the V2 model runner beside the run)")  # fmt: skip
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{e.reason.split(' -> ', 1)[0]}: {condition}")  # fmt: skip


@cache
def _mrv2_classes() -> frozenset[str]:
    """The model runner v2's speculators (``runner_table``'s rows, its variants)."""
    table = runner_table()
    return frozenset(r.cls for r in table.speculators) | {v.cls for v in table.variants}


def _v1_ships(config: RunConfig) -> bool:
    """The run's release (where the text gives one) still ships the V1 runner: on a later one
    a line saying V1 ran cannot hold, and the model runner v2's class stands."""
    release = _release(config, ascend=False)
    return release is None or release[1] <= runner_table().v1_last


def _contradicted(e: Evidence, method: str, runner: FlagValue) -> Evidence:
    """``e`` named a model runner v2 speculator, but the text puts the run on the V1 runner
    (the env off, a V1 proposer's frame or file): never that class. The V1 proposer source
    trees carry for the method (``v1_untabled``) is the condition; with none, no class (the
    build is newer than our tables)."""
    head = e.reason.split(" -> ", 1)[0]
    why = f"line {runner.lineno} puts the run on the V1 model runner, which builds no {e.worker_class}"
    rows = [r for r in runner_table().v1_untabled if r.method == method]
    if not rows:
        return replace(e, points_to=None, worker_class=None, condition=None,
                       reason=f"{head}: {why}; no V1 class for '{method}' in the tabled releases "
                       f"(the build is newer than our tables)")  # fmt: skip
    condition = "; ".join(f"{r.cls} (the V1 runner's proposer for '{method}', {r.file}, deriving "
                          f"from {r.base}; in source trees newer than the tabled releases)" for r in rows)  # fmt: skip
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{head}: {why}: {condition}")


def _on_v0(e: Evidence, method: str, runner: FlagValue) -> Evidence:
    """``e`` named a V1 proposer from the method, but the text's own frames or log modules put
    the run on V0's engine (vLLM up to 0.9.2): the proposer worker V0's ``create_worker``
    builds for the method (``MultiStepWorker`` for EAGLE and EAGLE-3 heads, MTP and draft
    models), never the V1 class; a method V0 never took has none (the text contradicts itself)."""
    head = e.reason.split(" -> ", 1)[0]
    why = f"line {runner.lineno} is a frame or a log module only V0's engine has"
    found = v0_worker("deepseek_mtp" if method == "mtp" else method)  # V0 spelled MTP so
    if found is None:
        return replace(e, points_to=None, worker_class=None, condition=None,
                       reason=f"{head}: {why}, and V0 never ran '{method}': the text does not "
                       f"show which class ran")  # fmt: skip
    return replace(e, points_to="other", worker_class=found[0], condition=None,
                   reason=f"{head} -> {found[0]} (V0 spec_decode, other): {why}")


def _ascend_condition_on_v2(e: Evidence, config: RunConfig) -> Evidence:
    """vllm-ascend's classes for the method by the plugin's release (``EagleProposer`` on its
    older releases, ``AscendEagleProposer`` on later ones): all of them the plugin's V1 runner's.
    Where the text puts the run on the model runner v2 (``VLLM_USE_V2_MODEL_RUNNER=1``), the
    plugin's MRV2 speculator for the method decides instead (one class over the releases the
    text allows), or stays a condition naming the MRV2 classes by release."""
    platform, runner = config.flags.get("platform"), config.flags.get(RUNNER_FLAG)
    if platform is None or platform.value != "ascend" or runner is None or runner.value != "v2":
        return e
    method = _method(e, config)
    if method is None or not any(r.method == method for r in runner_table().ascend):
        return e
    found = _on_v2(replace(e, points_to="other", condition=None), method, runner, config, ascend=True)
    if found.worker_class is None and not any(r.cls in (found.condition or "") for r in runner_table().ascend):
        return e  # no MRV2 class of the plugin's fits the releases the text allows
    return found


# the V1 runner's proposers (``NgramProposerGPU`` too), and every class that drafts
_V1_CLASS = re.compile(r"Proposer(?:GPU)?$")
_DRAFTER = re.compile(r"(?:Proposer(?:GPU)?|Speculator)$")


def _variant(e: Evidence, method: str, config: RunConfig) -> Evidence | None:
    """The variant's own speculator where the text names a draft variant of ``method`` (a
    DFlash2 draft under ``dflash``): MRV2 alone builds it, so the V1 class a method gave is
    not what ran; a release outside its span (or the V1 runner stated) built none of it."""
    named = config.flags.get(VARIANT_FLAG)
    row = next((r for r in runner_table().variants
                if named is not None and r.word == named.value and r.method == method), None)  # fmt: skip
    if named is None or row is None:
        return None
    head = e.reason.split(" -> ", 1)[0]
    if (e.worker_class or "").startswith("Ascend"):
        return _ascend_variant(e, row, head, config.flags.get(RUNNER_FLAG))
    why = (f"line {named.lineno} names the {row.architecture} draft ('{row.word}'), for which "
           f"the model runner v2 builds {row.cls} (vLLM {row.first}-{row.last})")  # fmt: skip
    release = _release(config, ascend=False)
    if named.origin == "frame":  # the package's frame: that class, or one deriving from it
        at = release[1] if release is not None else _newest(config, "vllm")
        kin = [(c, lo, hi) for c, lo, hi in subclasses(row.cls) if at is None or lo <= at]
        if release is not None:
            kin = [(c, lo, hi) for c, lo, hi in kin if release[1] <= hi]
        why = f"a frame of {row.cls}'s package (line {named.lineno})"
        if kin:
            condition = f"{row.cls}, or " + ", ".join(
                f"{c} (vLLM {lo}-{hi}), which derives from it" for c, lo, hi in kin)
            return replace(e, points_to=None, worker_class=None, condition=condition,
                           reason=f"{head}: {why}: {condition}")  # fmt: skip
    runner = config.flags.get(RUNNER_FLAG)
    if (runner is None or runner.value != "v1") and (held := _dev_held(config, row.first)) is not None:
        condition = (f"{row.cls} on the model runner v2 if the build holds it ({held}), else "
                     f"{e.worker_class or e.condition}")  # fmt: skip
        return replace(e, points_to=None, worker_class=None, condition=condition,
                       reason=f"{head}: {why}: {condition}")  # fmt: skip
    if (release is not None and not row.first <= release[1] <= row.last) or (
        runner is not None and runner.value == "v1"
    ):
        where = f"vLLM {release[0]}" if release is not None else "the V1 model runner"
        return replace(e, points_to=None, worker_class=None, condition=None,
                       reason=f"{head}: {why}; {where} has no {row.cls}: the text does not "
                       f"show which class ran")  # fmt: skip
    return replace(e, worker_class=row.cls, reason=f"{head} -> {row.cls} (other): {why}")


def _dev_held(config: RunConfig, first: Version) -> str | None:
    """Why a dev build the text names may hold code first released in ``first``, or None. A dev
    build's string counts from the last tag its branch carries (``0.26.1rc1.dev920``: 920
    commits past it), and main kept such a tag while later releases were cut: its code is
    main's of its day, so a release published by the text's day may be in it, never one after.
    A build whose local label is its builder's own (``0.26.1rc0+glm53.flash.r1``; not a wheel's
    ``+cu126`` / ``+rocm6.2`` / ``+cpu`` nor a git ``+g1a2b3c4``) is patched code: it may carry
    a later release's code whatever the day."""
    dev = config.flags.get(DEV_BUILD_FLAG)
    text = str(dev.value) if dev is not None else config.version  # a sentence's, or the version line's
    built = parse_release(text)
    if built is not None and Version(built.base_version) < first and _patched(built.local):
        return (f"{text} is a patched build (a label no wheel has, or patches the text names), which may carry "
                f"vLLM {first}'s code")  # fmt: skip
    newest = _newest(config, "vllm")
    if built is None or not built.is_devrelease or Version(built.base_version) >= first:
        return None
    if newest is None or newest < first:
        return None
    return f"{text} is a build of main past its tag; vLLM {first} came out by the text's day"


# the local labels of vLLM's own wheels and of builds from its tree: a CUDA, ROCm or CPU variant,
# a git commit, a build date, a dirty tree
_WHEEL_LABEL = re.compile(
    r"(?i)(?:(?:cu\d+|rocm\d+(?:\.\d+)*|cpu|xpu|tpu|hpu|neuron\w*|precompiled|g[0-9a-f]{6,}|d\d{8}|dirty)(?:\.|$))+"
)


def _patched(label: str | None) -> bool:
    """A version's local label is its builder's own (a patched build), not a wheel's variant."""
    return bool(label) and _WHEEL_LABEL.fullmatch(str(label)) is None


def _ascend_variant(e: Evidence, row: Variant, head: str, runner: FlagValue | None) -> Evidence:
    """vllm-ascend's own class for the variant: its V1 runner's or its MRV2's, as the text
    states the runner, else both as the condition (the plugin has one for each runner)."""
    v1, v2 = row.ascend
    if runner is not None and (cls := v2 if runner.value == "v2" else v1):
        return replace(e, worker_class=cls, reason=f"{head} -> {cls} (other): the text names a "
                       f"{row.architecture} draft and the run's model runner (line {runner.lineno})")  # fmt: skip
    condition = (f"{v1} on vllm-ascend's V1 model runner, {v2} on its model runner v2 (a "
                 f"{row.architecture} draft)")  # fmt: skip
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{head}: {condition}")


def _method(e: Evidence, config: RunConfig) -> str | None:
    if e.worker_class == "Gemma4Proposer":  # a Gemma-4 assistant head, whatever the method says
        return "gemma4_mtp"
    flag = config.flags.get("speculative_config.method")
    value = str(flag.value).lower().strip("[]'\"") if flag is not None else None
    value = value or _FAMILY_METHOD.get((e.family or "").upper())
    if value and value.endswith("_mtp") and value != "gemma4_mtp":
        return "mtp"  # vLLM's config reads every model-named MTP method as mtp
    return value


def _release(config: RunConfig, ascend: bool) -> tuple[str, Version] | None:
    """The release the text gives the run (the plugin's for vllm-ascend), text and base."""
    said = config.flags.get("platform_release" if ascend else "vllm_prose_release")
    text = str(said.value) if said is not None else (None if ascend else config.version)
    found = base_release(text)
    return (text, found) if text and found is not None else None


def _newest(config: RunConfig, framework: str) -> Version | None:
    """The newest release the text's newest day allows (None: no day shown)."""
    day = config.flags.get("text_day")
    try:
        shown = date.fromisoformat(str(day.value)) if day else None
    except ValueError:
        return None
    if shown is None:
        return None
    rows = published(framework)  # a day past the table's newest release holds that one at least
    late = rows and shown >= max(d for _v, d in rows)
    return newest_at(framework, shown) or (max(v for v, _d in rows) if late else None)


def _on_v2(
    e: Evidence, method: str, runner: FlagValue, config: RunConfig, ascend: bool
) -> Evidence:
    """The MRV2 speculator of ``method`` at the run's release, or over the releases its day
    allows; a condition where those differ or none has one."""
    table = runner_table()
    rows = [r for r in (table.ascend if ascend else table.speculators) if r.method == method]
    release = _release(config, ascend)
    floor = config.flags.get(FRAME_FLOOR_FLAG) if not ascend else None
    low = parse_release(floor.value) if floor is not None else None
    forked = ""
    if low is not None:  # the text's MRV2 files are newer than a printed release: a fork's string
        if release is not None and release[1] < low:
            forked = f"; line {floor.lineno}'s file came in vLLM {low}, after the {release[0]} the build prints"
            release = None
        rows = [r for r in rows if r.last >= low]
    if release is not None:
        rows = [r for r in rows if r.first <= release[1] <= r.last]
    elif (newest := _newest(config, "vllm_ascend" if ascend else "vllm")) is not None:
        rows = [r for r in rows if r.first <= newest]
    at = f" in {'vllm-ascend' if ascend else 'vLLM'} {release[0]}" if release else ""
    why = f"the text puts the run on the model runner v2 (line {runner.lineno}){forked}"
    head = e.reason.split(" -> ", 1)[0]
    classes = dict.fromkeys(r.cls for r in rows)
    if len(classes) == 1:
        (cls,) = classes
        return replace(e, worker_class=cls, reason=f"{head} -> {cls} (other): {why}{at}")
    if classes:
        name = "vllm-ascend" if ascend else "vLLM"
        condition = "; ".join(f"{r.cls} if {name} {r.first}-{r.last}" for r in rows)
    else:
        condition = f"{e.worker_class} if the V1 model runner ran it (no MRV2 speculator for '{method}'{at})"
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{head}: {why}: {condition}")  # fmt: skip


def _on_v1(e: Evidence, method: str, runner: FlagValue, config: RunConfig) -> Evidence:
    """``e``'s V1 class, which the text's line ``runner`` puts the run on; where the release
    (or the day) would have left the runner open (``_open``), the reason says which line
    settled it."""
    if _open(e, method, config).worker_class == e.worker_class:
        return e
    head, _, tail = e.reason.partition(" -> ")
    why = f"the text puts the run on the V1 model runner (line {runner.lineno})"
    return replace(e, reason=f"{head} -> {tail}: {why}" if tail else f"{head}: {why}")


def _open(e: Evidence, method: str, config: RunConfig) -> Evidence:
    """A release (or a day) that may have put ``method`` on MRV2 by default, and nothing saying
    which runner ran: the V1 class and the MRV2 one, as a condition."""
    table = runner_table()
    release = _release(config, ascend=False)
    at = release[1] if release is not None else _newest(config, "vllm")
    floor = config.flags.get(FLOOR_FLAG) if release is None else None
    if floor is not None and (low_at := parse_release(floor.value)) is not None:
        at = max(at, low_at) if at is not None else table.v1_last  # no newer bound than the runner's
    from spectrace.assemblers.vllm_methods import own_head_classes  # it imports this module

    born = first_release(e.worker_class or "") if e.worker_class in own_head_classes() else None
    if release is None and floor is None and born is not None and at is None:  # no day shown:
        floor = FlagValue(str(born), e.source, e.lineno, "class")  # no run predates the head
        at = table.v1_last
    if release is not None and at > table.v1_last and (alone := _v2_alone(e, method, at)):
        return alone
    # a release of 0.22-0.24 picks MRV2 for a few architectures; a day alone counts only once
    # the newest release it allows picks MRV2 for every dense model
    low = table.auto_some if release is not None else table.auto_dense
    if at is None or not low <= at or (release is not None and at > table.v1_last):
        return e
    rows = [r for r in table.speculators if r.method == method and r.default is not None
            and r.default <= at and r.first <= table.v1_last]  # fmt: skip
    if release is not None:
        rows = [r for r in rows if r.first <= at <= r.last]
    if not rows:
        return e
    mrv2 = " / ".join(dict.fromkeys(f"{r.cls} (vLLM {r.first}-{r.last})" if len(rows) > 1
                                    else r.cls for r in rows))  # fmt: skip
    scope = (
        "every architecture"
        if at >= table.auto_all
        else "every dense model and some MoE ones"
        if at >= table.auto_dense
        else "a few architectures"
    )
    when = (f"vLLM {release[0]}" if release is not None
            else f"a release from {floor.value} (the first with {e.worker_class})"
            if floor is not None and floor.origin == "class"
            else f"a release from {floor.value} (line {floor.lineno}'s flags)" if floor is not None
            else f"a release up to {at} (the text's day)")  # fmt: skip
    condition = (f"{e.worker_class} on the V1 model runner, {mrv2} on the model runner v2 "
                 f"({when} picks MRV2 for {scope} when VLLM_USE_V2_MODEL_RUNNER is unset)")  # fmt: skip
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{e.reason.split(' -> ', 1)[0]}: {condition}")  # fmt: skip


def _v2_alone(e: Evidence, method: str, at: Version) -> Evidence | None:
    """A release with no V1 runner (0.34 on) ran the method on MRV2 alone: its one speculator."""
    rows = {r.cls for r in runner_table().speculators if r.method == method and r.first <= at <= r.last}
    if len(rows) != 1:
        return None
    (cls,) = rows
    return replace(e, worker_class=cls, reason=f"{e.reason.split(' -> ', 1)[0]} -> {cls} (other): "
                   f"vLLM {at} ships no V1 model runner, its model runner v2 builds {cls}")


def _families_open(e: Evidence, config: RunConfig, families: Sequence[str] = ()) -> Evidence:
    """A V1 class several named families share (EAGLE3 and MTP both on ``EagleProposer``).
    Where the text states a runner other than V1 (MRV2, V0) that class cannot stand: each
    family is read on that runner by itself, and their classes are the verdict (one class) or
    the condition. With no runner said, a release or day whose auto mode may pick MRV2 leaves
    the runner open."""
    runner = config.flags.get(RUNNER_FLAG)
    if len(families) > 1 and runner is not None and runner.value in ("v2", "v0"):
        return _each_family(e, config, families, runner)
    cls = e.worker_class or ""
    table = runner_table()
    release = _release(config, ascend=False)
    at = release[1] if release is not None else _newest(config, "vllm")
    low = table.auto_some if release is not None else table.auto_dense
    if (not _V1_CLASS.search(cls) or cls.startswith("Ascend") or RUNNER_FLAG in config.flags
            or at is None or at < low or at > table.v1_last):
        return e
    when = f"vLLM {release[0]}" if release is not None else f"a release up to {at} (the text's day)"
    condition = (f"{cls} on the V1 model runner, the model runner v2's speculator for each "
                 f"named method otherwise ({when} may pick MRV2 when VLLM_USE_V2_MODEL_RUNNER "
                 f"is unset)")  # fmt: skip
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{e.reason.split(' -> ', 1)[0]}: {condition}")



def _each_family(e: Evidence, config: RunConfig, families: Sequence[str], runner: FlagValue) -> Evidence:
    """``e`` (the V1 class several named families share) read on the runner the text states,
    one family at a time: one class for all of them decides, else the condition by method."""
    each = {f: on_runner(replace(e, family=f), config) for f in families}
    classes = {x.worker_class for x in each.values()}
    if len(classes) == 1 and None not in classes:
        return replace(next(iter(each.values())), family=None)
    if all(x.worker_class == e.worker_class for x in each.values()):
        return e  # no family read on that runner moved the class
    condition = "; ".join(f"{x.worker_class or x.condition} for {_FAMILY_METHOD.get(f.upper(), f.lower())}"
                          for f, x in each.items())  # fmt: skip
    head = e.reason.split(" -> ", 1)[0]
    on = "the model runner v2" if runner.value == "v2" else "vLLM's V0 engine"
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{head}: the text puts the run on {on} (line {runner.lineno}): {condition}")


def family_on_stated_runner(family: str, cls: str, config: RunConfig) -> tuple[str | None, str | None]:
    """(class, condition): ``family``'s V1 class ``cls`` on the runner the text states (MRV2,
    V0), for a condition naming each family's class; ``cls`` itself where it states none or V1.
    A draft variant of the family's method the text names (a ``...-DFlash2`` drafter under
    ``dflash``) is read as ``on_runner`` reads it: the variant's own class (DFlash2Speculator),
    which the V1 runner never builds, in the condition too."""
    runner = config.flags.get(RUNNER_FLAG)
    named = config.flags.get(VARIANT_FLAG)  # a draft variant of this family's method named
    variant = named is not None and any(r.word == named.value and r.method == _FAMILY_METHOD.get(family)
                                        for r in runner_table().variants)  # fmt: skip
    if (runner is None or runner.value not in ("v2", "v0")) and not variant:
        return cls, None
    at = runner if runner is not None else named
    assert at is not None
    found = on_runner(Evidence(at.source, at.lineno, "", f"{family} -> {cls} (other)", "other",
                               cls, family=family), config)  # fmt: skip
    if found.worker_class is None and found.condition is None and (runner is None or runner.value == "v1"):
        return cls, None  # no variant class in the run's release or runner: the family's own stands
    return found.worker_class, found.condition


def _alive_for(config: RunConfig) -> tuple[Callable[[Version, Version], bool], str]:
    """Whether a class shipped from ``first`` to ``last`` can have run (the run's release inside
    that span, else the newest release of the run's day at or past its first, no day: any), and
    those releases in words."""
    release = _release(config, ascend=False)
    newest = _newest(config, "vllm") if release is None else None

    def alive(first: Version, last: Version) -> bool:
        if release is not None:
            return first <= release[1] <= last
        return newest is None or first <= newest

    at = f"vLLM {release[0]}" if release is not None else (f"vLLM {newest} or older" if newest else "any vLLM")
    return alive, at


def mrv2_speculators(config: RunConfig) -> tuple[str, ...]:
    """Every MRV2 speculator (a draft variant's own class too) the run's release holds, else
    any release its day allows, else any: the classes an MRV2 run no line names a method of
    may have drafted with."""
    table = runner_table()
    alive, _at = _alive_for(config)
    return tuple(dict.fromkeys([*(r.cls for r in table.speculators if alive(r.first, r.last)),
                                *(v.cls for v in table.variants if alive(v.first, v.last))]))  # fmt: skip


def mrv2_unnamed(config: RunConfig, v1: bool = True) -> tuple[str, FlagValue] | None:
    """(condition, the runner's flag) for a speculative run the text puts on the model runner v2
    (``RUNNER_FLAG`` "v2": the env forced, the runner said for the run) whose method no line
    names: each MRV2 speculator of the run's release (else of the releases its day allows,
    else of any) with the variants' own classes, and, for a method MRV2 had no speculator for then, the V1 runner's class (as
    ``_on_v2`` gives it for a named method); not with ``v1`` off (a speculator's own record
    shows MRV2 took the method)."""
    runner = config.flags.get(RUNNER_FLAG)
    if runner is None or runner.value != "v2":
        return None
    table = runner_table()
    alive, at = _alive_for(config)
    rows = [r for r in table.speculators if alive(r.first, r.last)]
    if not rows:
        return None
    # a draft variant makes MRV2 build its own class inside a method (a DFlash2 draft under
    # "dflash" -> DFlash2Speculator): with no method named, its class is as open as the others
    variants = [v.cls for v in table.variants if alive(v.first, v.last)]
    served = {method_family(r.method) for r in rows}  # deepseek_mtp runs as mtp: by family
    v1_classes = [cls for _method, family, cls, first, last in method_spans()
                  if v1 and family not in served and alive(first, last) and _V1_CLASS.search(cls)]
    condition = (f"one of the model runner v2's speculators ({at}): "
                 + ", ".join(dict.fromkeys([*(r.cls for r in rows), *variants])))  # fmt: skip
    if v1_classes:
        condition += ("; for a method it had none for then, the V1 runner's class: "
                      + ", ".join(dict.fromkeys(v1_classes)))  # fmt: skip
    return condition, runner
