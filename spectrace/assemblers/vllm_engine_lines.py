"""vLLM log lines only one engine generation writes: which engine drafted, without a version.

A pasted log often keeps no command and no release, only what the server printed while it
served: V0's ``Speculative metrics: Draft acceptance rate: 0.642, System efficiency: 0.598, ...``
(``vllm/engine/metrics.py``) or its ``SpecDecodeWorker stage times`` line, V1's ``SpecDecoding
metrics: Mean acceptance length: 2.38, ...`` (``vllm/v1/spec_decode/metrics.py``). No other engine
writes them, and each engine writes its own words only: a V0 line proves ``SpecDecodeWorker``
drafted (the proposer worker under it follows from the run's method), a V1 line that the V1
engine did (``NgramProposer``, not ``NGramWorker``, for the same ``ngram``). The rows, with the
releases printing them, are data in rules/paths/vllm_v0.toml (``[[line]]``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from packaging.version import Version

from spectrace.assemblers.documents import expected_line
from spectrace.assemblers.release_dates import rules_table
from spectrace.assemblers.thread_head import HeadReader
from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.dialects.base import LogLine


@dataclass(frozen=True, slots=True)
class EngineLine:
    """One ``[[line]]`` row: a line only ``engine`` ("V0" / "V1") writes."""

    engine: str
    literal: str
    pattern: re.Pattern[str]
    worker: str  # the class the line proves ran ("" = the engine only)
    first: Version
    last: Version | None  # None: still printed by the newest release read
    what: str


@dataclass(frozen=True, slots=True)
class EngineShown:
    """The engine a run's own line shows, and that line."""

    v1: bool
    line: LogLine
    row: EngineLine

    @property
    def said(self) -> str:
        return f"{self.row.what} on line {self.line.lineno}"


def _version(text: str) -> Version | None:
    return Version(text.lstrip("v")) if text else None


@cache
def engine_rows() -> tuple[EngineLine, ...]:
    """rules/paths/vllm_v0.toml's ``[[line]]`` rows, read once."""
    name = "paths/vllm_v0.toml"
    data = rules_table(name)
    rows = data.get("line")
    out = []
    for r in rows if isinstance(rows, list) else []:
        first, last = (str(v) for v in r["releases"])
        out.append(EngineLine(str(r["engine"]), str(r["literal"]), re.compile(str(r["pattern"])),
                              str(r.get("worker", "")), Version(first.lstrip("v")), _version(last),
                              str(r["what"])))  # fmt: skip
    return tuple(out)


# what the scan keeps a line for: the rows' literals, and the example-introducing words
# (``_EXAMPLE_INTRO``; none is in a load line: vLLM's ``SpecDecoding metrics``, ``Avg prompt
# throughput``, SGLang's ``Decode batch``)
_INTRO_LITERALS = (b"may see", b"might see", b"will see", b"'ll see", b"would see", b"could see",
                   b"can see", b"may get", b"might get", b"may hit", b"might hit", b" like:",
                   b"lines like", b"output like", b"rror like", b"rrors like", b"essages like",
                   b"ogs like", b"look like", b"such as", b"or example", b"e.g.", b"ypical",
                   b"ymptom")  # fmt: skip
LITERALS: tuple[bytes, ...] = tuple(dict.fromkeys(r.literal.encode() for r in engine_rows())) + _INTRO_LITERALS

# a line placing the log it quotes in an old or another deployment ("on the old version I saw")
_ELSEWHERE = re.compile(
    r"(?i)\b(?:old|older|earlier|previous|another|other|colleague'?s?|their|used to|back (?:on|in)"
    r"|last (?:year|month|week)|docs?|documentation|example)\b"
)


# a sentence presenting the lines below it as what a reader may meet, not as the writer's run:
# "you may see lines like:", "the log will look like", "for example:", "typical output:" (and the
# expected-line phrasing ``documents.expected_line`` reads in eight languages)
_EXAMPLE_INTRO = re.compile(
    r"(?i)\b(?:may|might|will|would|could|can|'ll)\s+(?:see|get|hit)\b|\blike\s*:"
    r"|\b(?:lines?|output|errors?|messages?|logs?)\s+(?:like|such as)\b|\blook\s+like\b"
    r"|\bfor example\b|\be\.g\.|\btypical(?:ly)?\s+(?:output|errors?|logs?|symptoms?|looks?)\b"
    r"|\bsymptoms?\s*[:：]"
)
_INTRO_SPAN = 6  # lines an introducing sentence reaches below it (a short code block)


def _introduced(lines: Sequence[LogLine]) -> set[tuple[str, int]]:
    """(source, line) of each line an example-introducing sentence above it presents."""
    out: set[tuple[str, int]] = set()
    for line in lines:
        if _EXAMPLE_INTRO.search(line.text) or expected_line(line.text):
            out.update((line.source, line.lineno + k) for k in range(1, _INTRO_SPAN + 1))
    return out


def engine_shown(lines: Sequence[LogLine], version: str | None = None) -> EngineShown | None:
    """The engine the run's own engine-only lines show: None where none is shown, where lines
    of both engines are (two runs, or one quoted beside the other), or where the printed
    release (``version``) does not print the line found. A line a sentence above presents as
    an example or as what to expect is no run's. Quoted lines (``> ``, any depth: a reply
    quoting the post whose run it discusses) speak only where the writer's own show no engine,
    as ``quotes`` ranks them, and only as a pasted log: under vLLM's logger header."""
    own = [ln for ln in lines if not ln.quoted]
    found = _shown(own, lines, version)
    if found is None and len(own) < len(lines) and not _shown_any(own):
        # a quoted log keeps vLLM's logger header; a quoted bare message may be a docs snippet
        found = _shown([ln for ln in lines if ln.quoted and ln.headed and ln.dialect == "vllm"], lines, version)
    return found


def _shown_any(lines: Sequence[LogLine]) -> bool:
    """Some line holds an engine row's literal (shown or refused: the writer's own spoke)."""
    return any(r.literal in (ln.raw or ln.text) for ln in lines for r in engine_rows())


def _shown(
    lines: Sequence[LogLine], context: Sequence[LogLine], version: str | None
) -> EngineShown | None:
    """``engine_shown`` over ``lines`` (``context``: every line, for the sentences that
    introduce examples)."""
    at = _version(version) if version else None
    found: dict[str, EngineShown] = {}
    introduced: set[tuple[str, int]] | None = None
    for line in lines:
        text = line.raw or line.text  # with the process prefix a dialect may have taken off
        if not any(r.literal in text for r in engine_rows()):
            continue
        if introduced is None:
            introduced = _introduced(context)
        if (line.source, line.lineno) in introduced:
            continue
        for row in engine_rows():
            if row.literal in text and row.pattern.search(text):
                if _ELSEWHERE.search(text[: text.find(row.literal)]):
                    continue  # "in the old deployment: Speculative metrics: ..."
                if at is not None and (at < row.first or (row.last is not None and at > row.last)):
                    return None  # the printed release never wrote it: not this run's line
                found.setdefault(row.engine, EngineShown(row.engine == "V1", line, row))
    if len(found) != 1:
        return None
    return next(iter(found.values()))


def other_tracker(lines: Sequence[LogLine], plugins: bool = False) -> bool:
    """A thread head of the text names a tracker other than vLLM's own (vllm-ascend's: a plugin
    prints vLLM's engine lines too, and its run is the plugin's; SGLang's, TensorRT-LLM's: vLLM's
    lines there are a comparison): the engine's lines then do not name the run's framework.
    ``plugins``: a platform plugin's tracker counts as vLLM's own (its runs run vLLM's runners)."""
    heads = HeadReader()
    found = {tracker_engine(h.repo) for ln in lines if (h := heads.feed(ln)) is not None and h.repo}
    return bool(found - {"vllm", None, *(("vllm_ascend",) if plugins else ())})


# a fork of vLLM's tree by its repository's name ("local-inference-lab/vllm", "ROCm/vllm",
# "HabanaAI/vllm-fork"): not vLLM's own tracker, nor a plugin's or deployment repository's
_FORK = re.compile(r"(?i)^(?!vllm-project/)[\w.-]+/vllm(?:-fork)?$")


def fork_tree(lines: Sequence[LogLine]) -> bool:
    """A thread head of the text names a fork of vLLM's tree: its runs run vLLM's runners at
    the fork's own pace, so a runner the text states for the run is vLLM's."""
    heads = HeadReader()
    return any((h := heads.feed(ln)) is not None and h.repo is not None and _FORK.match(h.repo) is not None
               for ln in lines)  # fmt: skip
