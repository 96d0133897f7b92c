"""Speculative worker files named with a line number in a log's text: weak path evidence.

Pasted reports often cut the traceback and say in a sentence where it crashed: "the crash is
in `eagle_worker_v2.py:828` -> `spec_utils.py:675`". A runtime warning prints
``.../eagle_worker.py:412: UserWarning: ...``, a headerless py-spy line
``verify (sglang/srt/speculative/eagle_worker.py:610)``, a gdb frame ``at
lookaheadDecodingLayer.cpp:233``. Such a name, with its line number, points at code that ran,
when the file is one the path tables say proves a worker (``path_frames.file_signature``: a
bare ``eagle.py`` could be six files and names none).

A sentence can also name code that never ran: a patch the user wrote ("I added the check at
eagle_worker_v2.py:512"), a link, a diff, a grep of the source. So a line is not read when it
talks about changing code, is a diff line, or the name sits in a URL or a ``file:N:`` grep hit;
the names of a run vote only when they all agree; and the linker takes them only when nothing
stronger (a frame, a message, the run's config) points anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from types import MappingProxyType

from spectrace.assemblers.framework_names import frameworks_named
from spectrace.assemblers.not_run import FOREIGN, LITERALS as APART_LITERALS, UNRECORDED, NotRun, read_apart
from spectrace.assemblers.other_engines import hosted_title
from spectrace.assemblers.post_dates import opens_thread, post_author
from spectrace.assemblers.run_config import Evidence
from spectrace.assemblers.run_shown import RUN_LITERALS
from spectrace.assemblers.run_forms import ENGINE_RECORD, first_form, form_of, record_form, record_named
from spectrace.assemblers.run_forms import literals as form_literals
from spectrace.assemblers.run_results import metric_header
from spectrace.assemblers.sections import (
    heading_tried,
    PULL_HEADER, HEADING_LITERALS, diff_line, grep_line, heading_aside, heading_tested, wish_lines,
    next_step_lines,
)
from spectrace.assemblers.sglang_run_words import SPEC_KIND
from spectrace.assemblers.thread_title import TitleReader
from spectrace.assemblers.vllm_proposers import method_classes
from spectrace.assemblers.vllm_runner import module_runner
from spectrace.dialects.base import LogLine
from spectrace.incident_model import Incident
from spectrace.path_base import is_base
from spectrace.path_chains import chain_steps
from spectrace.path_frames import FrameSignature, file_signature, frame_signatures
from spectrace.path_framework_words import FRAMEWORK_LITERALS, framework_mentions
from spectrace.path_run import attempt_row
from spectrace.path_mention_kinds import (
    ADDS_KIND,
    APART_KIND,
    ATTEMPT_KIND,
    CHAIN_KIND,
    PULL_KIND,
    BASE_KIND,
    CLASS_KIND,
    FAMILY_KIND,
    FAMILY_ROW,
    FRAMEWORK_KIND,
    FOREIGN_KIND,
    FORM_KIND,
    KIND,
    LOGGED_KIND,
    MAX_TEXT,
    MESSAGE_KIND,
    RELEASE_KIND,
    REQUEST_KIND,
    RUN_KIND,
    THREAD_KIND,
    TITLE_KIND,
    WRAPPER_KIND,
    Mention,
)
from spectrace.path_words import (
    FAMILY_LITERALS,
    FOREIGN_LITERALS,
    LATEST_KIND,
    LOOSE_KIND,
    REQUEST_LITERALS,
    ROLLOUT_KIND,
    TRAINER_KIND,
    V2_KIND,
    adds_only,
    word_mentions,
)

# V0's SpecDecodeWorker wrapped every method's proposer worker (vLLM <= 0.9.x, spec_decode/):
# named alone it tells the V0 engine, and the proposer only as a condition on the method
WRAPPER_CONDITION = (
    "SpecDecodeWorker (vLLM V0 spec_decode) around the method's proposer: MultiStepWorker "
    "(draft model, EAGLE, MTP), NGramWorker (ngram), MedusaWorker or MLPSpeculatorWorker"
)
# an arrow leading from a named file to the next step of its call chain (closing quotes between)
_ARROW = r"[`'\"*]*\s*(?:->|→|⟶|=>)\s"
_LOGGER = re.compile(r"[\w.-]+\.(?:py|cpp|cu|h):\d+")
_EXTENSIONS = (".py", ".cpp", ".cu", ".h")
_NAME = re.compile(
    r"(?<![\w./\\:@+-])(?P<path>(?:[A-Za-z]:)?[/\\~]?(?:[\w.@+-]+[/\\])*[\w-]+"
    r"\.(?:py|cpp|cu|h))(?::(?P<line>\d+)(?!\d)(?P<more>:)?|,? (?:at )?line (?P<word>\d+)(?!\d)"
    # or its function: `file.py::verify`, a call chain's `file.py forward_batch_generation`
    r"|::[A-Za-z_]\w*|[ ][a-z_]\w*_\w*|[ ][a-z_]\w*(?=\s*(?:->|\(|$))"
    # or the next step of a call chain written with arrows (`.../speculator.py` → `cudagraph_utils.py`)
    rf"|(?={_ARROW}))"
)
# a file right after a call chain's arrow (the chain's next step: `a.py` → `eagle.py` → ...)
_AFTER_ARROW = re.compile(
    rf"(?:->|→|⟶|=>)\s*[`'\"*]*(?P<path>(?:[\w.@+-]+[/\\])*[\w-]+\.(?:py|cpp|cu|h))(?![\w/\\])"
)
# a module's function in inline code: `eagle_worker_v2.init_lm_head`, `speculative.x.y()`
_DOTTED = re.compile(r"`(?P<dotted>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
# a line that talks about changing code, or is part of a diff
_EDIT = re.compile(
    r"\b(?:patch\w*|modif\w*|chang\w*|edit\w*|add(?:ed|ing|s)?|remov\w*|replac\w*|insert\w*"
    r"|fix\w*|diff|commit\w*|merg\w*|revert\w*|pull|PR|suggest\w*|should|instead|workaround"
    r"|TODO|rewrit\w*|refactor\w*|implement\w*|mov(?:e|ed|ing))\b",
    re.IGNORECASE,
)
_DIFF = ("+", "--- ", "@@", "diff --git", "index ")
# lines that are frames or a warning by their shape, not a sentence: named as such
_SHAPES = (
    ("py-spy frame line", re.compile(r"^\s*[\w<>.]+ \([^()\s]+:\d+\)\s*$")),
    ("IPython traceback frame", re.compile(r"^\s*File \S+:\d+, in [\w<>.]+")),
    ("runtime warning", re.compile(r":\d+: \w*Warning\b")),
)


# worker-like class names (``NgramProposerGPU.update_token_ids_ngram`` in a sentence)
_CLASS_WORD = re.compile(r"\b[A-Z]\w*(?:Worker|Proposer|Speculator|Drafter|Layer)\w*\b")
# a vLLM method stated beside the class: ``method="mtp"``, ``'method': 'mtp'``, ``method: mtp``
_METHOD_SAID = re.compile(r"""\bmethod["']?\s*[:=]\s*["']?([a-z][\w]{1,40})""")
# a sentence about a class's existence, not a run of it: a feature request's "X is available
# upstream", a docs list's "Upstream X: [link]", "support for X"
_NOT_RUN = re.compile(
    r"(?i)\b(?:available|support(?:s|ed)?|upstream|feature|exists?|provides?|offers?"
    r"|introduc\w*|documentation|docs?)\b|\]\(https?://"
)
# a class named as the other side of a comparison ("unlike SGLang's EAGLEWorker") did not run
_CONTRAST = re.compile(r"\b(?:unlike|compared|versus|vs\.?|similar(?:ly)?|other than)\b", re.I)
# source that only tests for or imports a class (``isinstance(self.drafter, EagleProposer)``,
# ``from ... import EagleProposer``): the class exists, not that this run built it
_TYPE_TEST = re.compile(r"\bisinstance\(|\bissubclass\(|^\s*(?:from\s+[\w.]+\s+)?import\s")
_QUESTION = re.compile(r"\?(?:\s|$)")
# wrappers every V0 method ran under: naming one tells V0, not which proposer drafted
_WRAPPERS = ("SpecDecodeWorker", "Top1Proposer", "SmallerTpProposerWorker")


@cache
def _driver_classes() -> MappingProxyType[str, FrameSignature]:
    """Each class a path table names as the driver of its own file -> that file's row (a
    helper class defined beside a worker names no worker: eagle3.py holds two)."""
    out: dict[str, FrameSignature] = {}
    for sig in frame_signatures():
        cls = sig.worker_class
        if sig.points_to and cls and cls in sig.classes and not sig.function:
            held = out.get(cls)  # a plugin's same-named class yields to the framework's own
            if cls not in _WRAPPERS and (held is None or held.framework == "vllm_ascend"):
                out[cls] = sig
    return MappingProxyType(out)


@cache
def _names() -> tuple[str, ...]:
    """The file names whose rows prove a worker."""
    names = {sig.name.rsplit("/", 1)[-1] for sig in frame_signatures()
             if sig.points_to and not sig.function and sig.name.endswith(_EXTENSIONS)}  # fmt: skip
    return tuple(sorted(names))


@cache
def _stems() -> tuple[str, ...]:
    """The names without their extension (a dotted module names its file without it)."""
    return tuple(sorted({name.rsplit(".", 1)[0] for name in _names()}))


@cache
def mention_literals() -> tuple[bytes, ...]:
    """What the scan keeps a line for: a known name followed by ``:``, a blank or a comma
    (``eagle_worker.py:828``, ``eagle_worker.py line 412``), never by the ``"`` of a
    traceback's own frame line, which the traceback assembler reads and which would otherwise
    fill the config lines in a log of thousands of crashes."""
    names = [f"{name}{end}" for name in _names() + _base_files() for end in (":", " ", ",", "`")]
    dotted = [f"`{name.rsplit('.', 1)[0]}." for name in _names() if name.endswith(".py")]
    classes = sorted(_driver_classes()) + ["SpecDecodeWorker"]
    words = list(FAMILY_LITERALS) + list(REQUEST_LITERALS) + list(RUN_LITERALS) + list(FOREIGN_LITERALS)
    found = tuple(name.encode() for name in names + dotted + classes + words)
    return found + HEADING_LITERALS + _REVIEW_LITERALS + APART_LITERALS + FRAMEWORK_LITERALS + form_literals()


@cache
def _base_files() -> tuple[str, ...]:
    """The file names of the proposer base rows (``llm_base_proposer.py``)."""
    return tuple(sorted({sig.name.rsplit("/", 1)[-1] for sig in frame_signatures()
                         if is_base(sig)}))  # fmt: skip


@cache
def _literal_texts() -> tuple[str, ...]:
    return tuple(lit.decode() for lit in mention_literals())


def find_mentions(lines: Iterable[LogLine], apart: NotRun | None = None) -> list[Mention]:
    """Every known worker file the lines name with a line number, in a line that is not a
    diff, a link or talk about changing code (``apart``: the lines' ``read_apart`` blocks when
    the caller has read them already)."""
    lines = list(lines)
    wished = wish_lines(lines)  # a feature form's wish: what it asks for did not run
    planned = next_step_lines(lines)  # the writer's next steps: runs still to come
    apart = read_apart(lines) if apart is None else apart  # examples, advice, reviews, docs quotes
    blocks = [Mention(b.source, b.first, b.opener[:MAX_TEXT], b.said(), FAMILY_ROW, APART_KIND,
                      b.last) for b in apart.blocks]  # fmt: skip
    out: list[Mention] = []
    titles = TitleReader()
    aside: dict[str, bool] = {}  # per file: under a heading that sets its section apart
    tested: dict[str, bool] = {}  # per file: in a section of the text's own tests
    tried: dict[str, bool] = {}  # per file: under a heading over what the writer tried
    named: dict[str, list[int]] = {}  # per file: the lines naming a file or class, recent first
    review: dict[str, bool] = {}  # per file: inside a review's post (its header says so)
    reviewed: set[tuple[str, int]] = set()  # lines whose names a diff below puts under review
    engines: dict[str, int] = {}  # per file: the header row of a table comparing engines
    for line in lines:
        shown = line.raw.strip()[:MAX_TEXT]
        if _HUNK.match(line.text):  # a diff hunk right below: the code under review
            reviewed.update((line.source, n) for n in named.get(line.source, ())
                            if line.lineno - n <= _REVIEW_GAP)  # fmt: skip
        if _ANCHOR.match(line.text):  # a path alone: a review's anchor, a changed-files list
            reviewed.add((line.source, line.lineno))
        if not line.quoted and PULL_HEADER.search(line.text):
            out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, PULL_KIND))
        if not line.quoted and post_author(line.text) is not None:
            review[line.source] = _REVIEW_POST.search(line.text) is not None
        if review.get(line.source):  # a review's comments talk about the code under review
            reviewed.add((line.source, line.lineno))
        aside[line.source] = heading_aside(line.text, aside.get(line.source, False))
        here = aside[line.source] or (line.source, line.lineno) in planned
        tested[line.source] = heading_tested(line.text, tested.get(line.source, False))
        tried[line.source] = heading_tried(line.raw, tried.get(line.source, False))
        block = apart.block(line.source, line.lineno)
        # code under change or searched for (a parser may take a grep hit's file for a log prefix)
        code = diff_line(line.text) or grep_line(line.text) or grep_line(line.raw)
        # a document with no record of a run (UNRECORDED) keeps its words: the run gate denies
        # it as a whole, unless a crash of its own is the record its words lacked
        wish = (line.source, line.lineno) in wished or (
            block is not None and block.why not in (FOREIGN, UNRECORDED))
        if not wish:  # a wish (a feature form's section or title) names nothing of a run
            out += word_mentions(line, shown, titles, here, code, tested[line.source])
            if not here and not code:
                out += framework_mentions(line, shown)
                if not line.quoted and _header_row(line) and metric_header(line.raw):
                    out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, RUN_KIND))
                if tried[line.source] and not line.quoted and attempt_row(line.raw):
                    out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, ATTEMPT_KIND))
        logger = _logger(line)
        sig = file_signature(logger.rsplit(":", 1)[0]) if logger else None
        if logger and sig is not None:
            out.append(Mention(line.source, line.lineno, shown, logger, sig, LOGGED_KIND))
        if wish or any(_ELSEWHERE.search(t) for t in {line.text, line.raw}):
            continue  # "for reference, ...", "from an older report", "the earlier run had ..."
        files, classes = ([], []) if code else (line_names(line.text), class_names(line.text))
        if _compared_row(line, engines) or ((files or classes) and len(frameworks_named(line.text)) > 1):
            files = classes = []  # a comparison of engines: each name is its own engine's code
        kind = next((k for k, shape in _SHAPES if shape.search(line.text)), KIND)
        out += [Mention(line.source, line.lineno, shown, name, sig, kind) for name, sig in files]
        out += [Mention(line.source, line.lineno, shown, name, sig, CLASS_KIND) for name, sig in classes]
        if (wrapper := _wrapper(line.text)) is not None:
            out.append(Mention(line.source, line.lineno, shown, *wrapper, WRAPPER_KIND))
        out += [Mention(line.source, line.lineno, shown, name, sig, BASE_KIND)
                for name, sig in base_names(line.text)]  # fmt: skip
        out += [Mention(line.source, line.lineno, shown, step, FAMILY_ROW, CHAIN_KIND)
                for step in chain_steps(line.text)]  # fmt: skip
        if out and out[-1].lineno == line.lineno and out[-1].source == line.source:
            named[line.source] = [line.lineno, *named.get(line.source, ())[:3]]
    # a title read above its head (thread_title) was first read as prose: its loose words go
    titled = {(m.source, m.lineno): i for i, m in reversed(list(enumerate(out))) if m.kind == TITLE_KIND}
    kept = [m for i, m in enumerate(out)
            if (m.kind not in _REVIEW_KINDS or (m.source, m.lineno) not in reviewed)
            and not (m.kind == LOOSE_KIND and i < titled.get((m.source, m.lineno), -1))]  # fmt: skip
    return _hosted(_commented_request(kept, lines)) + blocks + _formed(lines, apart)


def _hosted(mentions: list[Mention]) -> list[Mention]:
    """``mentions`` without another engine's tracker mark where the thread's title names that
    engine's plugin mode inside one of ours (``other_engines.hosted_title``): the host ran."""
    foreign = [m for m in mentions if m.kind == FOREIGN_KIND]
    if not foreign:
        return mentions
    titles = {m.source: m.text for m in mentions if m.kind == TITLE_KIND}
    hosted = {(m.source, m.lineno) for m in foreign if hosted_title(m.text, titles.get(m.source, ""))}
    return [m for m in mentions if not (m.kind == FOREIGN_KIND and (m.source, m.lineno) in hosted)]


def _commented_request(mentions: list[Mention], lines: Sequence[LogLine]) -> list[Mention]:
    """``mentions`` without a feature request's, roadmap's or RFC's mark where the text holds
    only comments under that thread (no post opening it) and one of them shows a run of its own
    (a result, a run line): the thread's wish is its opener's, the comment reports what its
    writer ran ("Finished the MI350 run: DSpark mean AL: 4.81"), read as any report is."""
    asked = {m.source for m in mentions if m.kind == REQUEST_KIND}
    if not asked:
        return mentions
    first: dict[str, int] = {}  # per file: its first post header, where none opens the thread
    for line in lines:
        if line.source in asked and not line.quoted and post_author(line.text) is not None:
            if opens_thread(line.text):
                asked.discard(line.source)
            first.setdefault(line.source, line.lineno)
    ran = {m.source for m in mentions if m.kind == RUN_KIND and m.source in first and m.lineno > first[m.source]}
    return [m for m in mentions if not (m.kind == REQUEST_KIND and m.source in asked and m.source in ran)]


def _formed(lines: Sequence[LogLine], apart: NotRun) -> list[Mention]:
    """The first line no block sets apart that has a run's form (``run_forms``), if any, and the
    first such line in a form only a run's process writes (``run_forms.record_form``), where
    another form came first: the readers that take only such records (``path_era``) see it."""
    held = [ln for ln in lines if apart.block(ln.source, ln.lineno) is None]
    found = first_form(held)
    if found is None:
        return []
    line, form = found
    out = [Mention(line.source, line.lineno, line.raw.strip()[:MAX_TEXT], form, FAMILY_ROW, FORM_KIND)]
    if form != ENGINE_RECORD and not record_named(form) \
            and (record := next((ln for ln in held if record_form(ln)), None)) is not None:  # fmt: skip
        # (an engine's own headed log: its records are its lines, no second scan of them)
        out.append(Mention(record.source, record.lineno, record.raw.strip()[:MAX_TEXT], form_of(record) or "",
                           FAMILY_ROW, FORM_KIND))  # fmt: skip
    return out


# a Markdown table's row; the rows of one table below its header, at most this many lines apart
_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_ROWS = 20


# a table row written without its outer borders, as GitHub's tables allow ("Input length |
# TP8 tokens/s | Throughput change"): three cells or more
_BARE_ROW = re.compile(r"^[^|]+(?:\s\|\s[^|]+){2,}$")


def _header_row(line: LogLine) -> bool:
    """The line may be a table's header row: bordered, or bare in a line no log prefix heads."""
    return _ROW.match(line.raw) is not None or (not line.headed and _BARE_ROW.match(line.raw.strip()) is not None)


def _compared_row(line: LogLine, engines: dict[str, int]) -> bool:
    """The line is a row of a table whose header compares engines ("| Metric | SGLang | vLLM
    0.25.0 |"): a class or file a cell names is its column's engine's code, not the run's
    (``engines`` keeps each file's open header row; a line that is no row closes it)."""
    if _ROW.match(line.raw) is None:  # (the raw line: a parser may take the leading pipe as a prefix)
        engines.pop(line.source, None)
        return False
    if len(frameworks_named(line.text)) >= 2:
        engines[line.source] = line.lineno
    header = engines.get(line.source)
    return header is not None and line.lineno - header <= _TABLE_ROWS


# a review comment's anchor (``**tensorrt_llm/_torch/speculative/draft_target.py:142**`` on a
# line of its own, as GitHub prints it over the commented hunk or suggestion) or a line naming a
# file right over a diff hunk (up to this many lines below) names the code under review, not
# code a run went through
_ANCHOR = re.compile(r"^\s*[`*]*(?:[\w.@+-]+/)+[\w.-]+\.(?:py|cpp|cu|h):\d+(?:-\d+)?[`*]*\s*$")
_HUNK = re.compile(r"^\s*@@ -\d")
# a saved thread's header of a review's post ("coderabbitai[bot] · review thread · 2026-02-11",
# "· review comment ·", "· review ·")
_REVIEW_POST = re.compile(r"(?i)·\s*review(?:\s+(?:thread|comment)s?)?\s*·")
_REVIEW_LITERALS = (b"@@ -",)
_REVIEW_GAP = 3
_REVIEW_KINDS = (KIND, CLASS_KIND, BASE_KIND, CHAIN_KIND, WRAPPER_KIND, FAMILY_KIND, LOOSE_KIND, V2_KIND,
                 LATEST_KIND, FRAMEWORK_KIND, SPEC_KIND)  # fmt: skip


# kinds that name no worker file: they never vote on their own
_NOT_VOTES = (WRAPPER_KIND, BASE_KIND, CHAIN_KIND, FAMILY_KIND, THREAD_KIND, REQUEST_KIND, RELEASE_KIND,
              ADDS_KIND, RUN_KIND, FOREIGN_KIND, TITLE_KIND, APART_KIND, ATTEMPT_KIND, PULL_KIND, LOOSE_KIND,
              V2_KIND, LATEST_KIND, ROLLOUT_KIND, TRAINER_KIND, FRAMEWORK_KIND, SPEC_KIND, FORM_KIND)  # fmt: skip


# a line that puts the file or class it names in another run, report or setup
_ELSEWHERE = re.compile(
    r"(?i)\bunrelated\b|\b(?:earlier|previous|old|older|other|another|different)(?: [\w-]+)?"
    r" (?:run|report|issue|crash|setup|server|node|deployment|version)s?\b"
    r"|\bfor (?:reference|comparison)\b|\bback (?:on|in|with) v?\d"
    r"|\b(?:do|does|did)(?: not|n't) (?:use|go through|run|reach|enter|call|hit)\b|\bnot using\b"
    r"|\b(?:works?|worked) (?:fine|correctly)\b|\bcorrectly\b|\bgets? (?:this|it) right\b"
)


def base_names(text: str) -> list[tuple[str, FrameSignature]]:
    """(name as written, its row) of each proposer base file the line names with a line
    number (``llm_base_proposer.py:1449``): where a log pointed, outside a diff or an edit."""
    if not any(name in text for name in _base_files()) or diff_line(text):
        return []
    found = []
    named = list(_NAME.finditer(text))
    spans = {m.span("path") for m in named}
    # a call chain's step right after an arrow, where no other reading took it
    chained = [m for m in _AFTER_ARROW.finditer(text) if m.span("path") not in spans]
    for m in [*named, *chained]:
        pointed = m in chained or m["line"] is not None or m["word"] is not None or (
            re.match(_ARROW, text[m.end() :]) is not None)  # fmt: skip
        if not pointed or _EDIT.search(_NAME.sub(" ", text)):
            continue
        path = m["path"].lstrip("~/\\")
        rows = [sig for sig in frame_signatures() if is_base(sig)
                and (sig.name.endswith("/" + path) or _matches_tail(path, sig.name))]  # fmt: skip
        firsts = {sig.framework: sig for sig in reversed(rows)}  # each framework's own row
        found += [(m.group(0).strip(), sig) for sig in firsts.values()]
    return found


def _matches_tail(path: str, name: str) -> bool:
    return path == name or path.endswith("/" + name)


def _wrapper(text: str) -> tuple[str, FrameSignature] | None:
    """V0's ``SpecDecodeWorker`` named in a sentence (an error message quoted in prose), with
    the same limits as any class a sentence names."""
    if "SpecDecodeWorker" not in _CLASS_WORD.findall(text) or diff_line(text):
        return None
    if text.lstrip(" >").startswith("#") or _CONTRAST.search(text) or _EDIT.search(text):
        return None
    sig = file_signature("spec_decode/spec_decode_worker.py")
    return ("SpecDecodeWorker", sig) if sig is not None else None


def class_names(text: str) -> list[tuple[str, FrameSignature]]:
    """(class, its file's row) for each proposer or worker class a line names in prose or
    inline code (``vLLM's NgramProposerGPU raises``): the class the user saw fail, weaker than
    a frame; not in a diff, a line about changing code, a type test or import, or a heading or
    comment (``# [Bug]: ... EagleProposer``: a title says what the report is about, not what ran)."""
    found = [(name, sig) for name in dict.fromkeys(_CLASS_WORD.findall(text))
             if (sig := _driver_classes().get(name)) is not None]  # fmt: skip
    if not found or diff_line(text) or text.lstrip(" >").startswith("#") or _CONTRAST.search(text):
        return []
    if _TYPE_TEST.search(text) or _QUESTION.search(text):  # a question names no run's class
        return []
    if _EDIT.search(text):  # talk about fixes: only a class the line's own method builds
        said = {method_classes().get(m.group(1).lower()) for m in _METHOD_SAID.finditer(text)}
        return [(name, sig) for name, sig in found if name in said]
    return [] if _NOT_RUN.search(text) else found


def line_names(text: str) -> list[tuple[str, FrameSignature]]:
    """(name as written, its row) of each known worker file one line names with a line number
    or a function of it."""
    if not any(stem in text for stem in _stems()) or diff_line(text):
        return []
    found = [(m.group(0).strip(), sig) for m in _NAME.finditer(text)
             if (sig := _signature(m, text)) is not None]  # fmt: skip
    spans = {m.span("path") for m in _NAME.finditer(text)}
    found += [(m["path"], sig) for m in _AFTER_ARROW.finditer(text)
              if m.span("path") not in spans and (sig := _signature(m, text)) is not None]  # fmt: skip
    found += _dotted(text)
    if not found or _EDIT.search(_DOTTED.sub(" ", _NAME.sub(" ", text))):
        return []
    return found


def _dotted(text: str) -> list[tuple[str, FrameSignature]]:
    """`eagle_worker_v2.init_lm_head`: a known module followed by a name, in inline code."""
    out: list[tuple[str, FrameSignature]] = []
    for m in _DOTTED.finditer(text):
        parts = m["dotted"].split(".")
        for n in range(1, len(parts)):
            sig = file_signature("/".join(parts[:n]) + ".py")
            if sig is not None:
                out.append((m.group(0).strip("`"), sig))
                break
    return out


def message_names(incident: Incident) -> list[Evidence]:
    """Worker files the crash's own lines name (a C++ assertion's ``(.../lookaheadDecodingLayer
    .cpp:212)``, an exception message's ``eagle_worker.py:301``): where it failed, as strong as
    a class its message names; names that disagree settle nothing."""
    first = incident.first_seen
    found = [(n, text, name, sig) for n, text in enumerate(incident.lines)
             for name, sig in line_names(text)]  # fmt: skip
    if len({(sig.points_to, sig.worker_class) for *_, sig in found}) != 1:
        return []
    return [Evidence(first.source, first.lineno + n, text.strip()[:MAX_TEXT],
                     f"{MESSAGE_KIND} ({name}) in {sig.name}: {sig.what} -> {sig.points_to} "
                     f"({sig.worker_class})", sig.points_to, sig.worker_class)
            for n, text, name, sig in found]  # fmt: skip


def names_only(line: LogLine, config_literals: Sequence[bytes]) -> bool:
    """The line reached the config lines only for a file it or its logger header names (no
    config literal): the config reader never saw such lines before and need not now."""
    where = f"{line.text} {_logger(line) or ''}"
    if not any(lit in where for lit in _literal_texts()):
        return False
    if module_runner(line.raw) is not None:
        return False  # a module only one vLLM runner has wrote it: the runner reader's line
    return not any(lit.decode() in line.text for lit in config_literals)


def _engine(sig: FrameSignature) -> str | None:
    """The server whose code a table row names: SGLang's, TensorRT-LLM's, else vLLM's (its
    platform plugins' rows too); None for a row of no framework."""
    if not sig.framework:
        return None
    return sig.framework if sig.framework in ("sglang", "trtllm") else "vllm"


def _logger(line: LogLine) -> str | None:
    """The ``file.py:N`` a vLLM (or c10) header says wrote the line: that module ran."""
    where = (line.group or "").split(" ", 1)[0]
    return where if _LOGGER.fullmatch(where) else None


def _signature(m: re.Match[str], text: str) -> FrameSignature | None:
    """The row the name proves, unless it sits in a URL or a ``file.py:N:`` grep hit (a
    runtime warning's ``file.py:N: UserWarning`` and a C++ assertion's ``file.cu:N:`` stay)."""
    start = text.rfind(" ", 0, m.start()) + 1
    token = text[start : m.end()]
    if "://" in token or "www." in token or "#L" in text[m.end() : m.end() + 2]:
        return None
    path = m["path"]
    if m.groupdict().get("more") is not None and path.endswith(".py"):
        after = text[m.end() : m.end() + 40]
        if not re.match(r"\s*\w*Warning\b", after):
            return None
    return file_signature(path.lstrip("~/\\"))


def bare_plugin_file(m: Mention) -> bool:
    """A file named by its bare name (no folder) that only a platform plugin's table holds
    (``dspark_proposer.py``): vLLM's own tree or an overlay of it may hold a file of that name
    (a tree newer than the tables), so the name puts the run on the plugin only where the text
    does (its platform, its package path, its tracker)."""
    hosts = ("sglang", "vllm", "trtllm")
    return m.kind == KIND and not re.search(r"[/\\]", m.name) and m.signature.framework not in hosts


def mention_votes(
    incident: Incident,
    mentions: Sequence[Mention],
    since: int,
    conditions: Sequence[str] = (),
    engine: str | None = None,
) -> list[Evidence]:
    """The names in the incident's run (its file, from ``since``), when they all point to one
    worker; names that disagree settle nothing. ``conditions``: the run's conditional verdicts;
    a class a sentence names that none of them allows contradicts the run's config and is
    dropped. ``engine``: the run's engine; a class or file of another engine a sentence names
    is that engine's code (a comparison table's other column, an aside), never the run's."""
    source = incident.first_seen.source
    if adds_only(mentions, source):  # a PR adding a method, no run shown: names are its code
        return []
    mine = [m for m in mentions if m.source == source and m.lineno >= since
            and not (m.kind == CLASS_KIND and conditions
                     and not any(m.name in c for c in conditions))
            and not (m.kind in (KIND, CLASS_KIND) and engine is not None
                     and _engine(m.signature) not in (None, engine))]  # fmt: skip
    wrapped = [m for m in mine if m.kind == WRAPPER_KIND]
    mine = [m for m in mine if m.kind not in _NOT_VOTES]
    if any(m.kind == REQUEST_KIND and m.source == source for m in mentions):
        # a feature request, RFC or roadmap names the code it asks about, not code that ran
        mine = [m for m in mine if m.kind not in (KIND, CLASS_KIND)]
    if wrapped and not mine and not conditions:  # alone: V0 ran, its proposer by the method
        m = wrapped[0]
        reason = (f"{WRAPPER_KIND} ({m.name}), defined in {m.signature.name}: vLLM's V0 engine "
                  "ran speculative decoding")  # fmt: skip
        return [Evidence(m.source, m.lineno, m.text, reason, None, None, WRAPPER_CONDITION)]
    if len({(m.signature.points_to, m.signature.worker_class) for m in mine}) != 1:
        return []
    out: list[Evidence] = []
    for m in mine:
        sig = m.signature
        said = f"{sig.name}: {sig.what} -> {sig.points_to} ({sig.worker_class})"
        reason = (f"{m.kind} in {said}; a line outside the crash's record" if m.kind != KIND
                  else f"{KIND} ({m.name}) in {said}; a name in a sentence is weaker than a frame")  # fmt: skip
        if m.kind == LOGGED_KIND:  # the module that wrote it ran
            reason = f"{LOGGED_KIND} {m.name} in {said}"
        if m.kind == CLASS_KIND:
            reason = (
                f"{CLASS_KIND} ({m.name}), defined in {said}; a class a sentence names is "
                "weaker than a frame and counts only when nothing else points"
            )
        out.append(Evidence(m.source, m.lineno, m.text, reason, sig.points_to, sig.worker_class))
    return out
