"""A thread title's words for the vLLM / vllm-ascend / TensorRT-LLM readers: the families it
says the reported run used, and the releases it names.

The title is read by ``assemblers.thread_title`` (the one title reader every framework shares:
which line is a title, its methods outside exception messages and quotes, and its guard: a
feature request, a comparison, "... without MTP", a docs page; a CI job's report is not set
apart: the guard's own exception). A title set apart names no family, but for a PR adding or
supporting a method: its family counts only where the thread shows a run of its own
(``path_words.named_families``). Otherwise its methods count as family words of the run, weaker than any config line
(``path_named`` ranks them as prose), and so do the words ``path_base.family_words`` reads in
it (with their own guards: a CI test id, ``lookAheadRuntimeConfig``, an "MLP Speculator"). Its releases ("fix mtp launch
error in vllm-0.17.1-rc", "v0.23.0rc1-310p ... mtp") are the tracker's framework's: vLLM's on
vllm-project/vllm, the plugin's on vllm-project/vllm-ascend.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.assemblers.thread_title import Title, TitleReader, guard, methods_in
from spectrace.dialects.base import LogLine
from spectrace.path_base import family_words

# the shared reader's canonical names -> the family names of the path tables (vLLM and
# TensorRT-LLM run NEXTN as MTP; STANDALONE and multi-layer EAGLE are SGLang's alone)
_FAMILIES = {"EAGLE3": "EAGLE3", "EAGLE": "EAGLE", "NEXTN": "MTP", "MTP": "MTP",
             "NGRAM": "NGRAM", "DFLASH": "DFLASH", "DSPARK": "DSPARK", "MEDUSA": "MEDUSA",
             "LOOKAHEAD": "LOOKAHEAD", "SUFFIX": "SUFFIX", "DRAFT_MODEL": "DRAFT_MODEL"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class TitleWords:
    """What a title line says of the reported run."""

    families: tuple[str, ...]  # none when the title sets its names apart
    releases: tuple[str, ...]  # as written ("0.17.1", "v0.23.0rc1"); none when set apart
    engine: str | None  # the framework whose tracker the thread is on (None: not a known one)
    loose: tuple[str, ...] = ()  # a bug title's one family, set apart only by a speed word


# a pull request's title that adds a method ("vLLM v1 supports Medusa", "Add EAGLE-3 support
# for X", "Implement MTP", "enable LM TP for MTP"), not "X does not support Y"
ADDS_TITLE = re.compile(
    r"(?i)^(?!.*\b(?:not|no|un|never|does(?:n't| not))\s*support).*\b(?:supports?|supported|"
    r"support(?:ing)? for|adds?|added|adding|implement\w*|introduc\w*|enabl(?:e|es|ing))\b"
)
# a title about a checkpoint job rather than a serving run: converting, training or fine-tuning
# a draft names its method, not the proposer a server ran
NOT_SERVING = re.compile(r"(?i)\b(?:convert\w*|conversion|train(?:s|ed|ing)?|fine-?tun\w*)\b")


def title_words(reader: TitleReader, line: LogLine) -> TitleWords | None:
    """The line's words when ``reader`` (fed every line in order) reads it as a title."""
    title = reader.feed(line)
    if title is None:
        return None
    engine = tracker_engine(title.repo)
    if NOT_SERVING.search(title.text):
        return TitleWords((), (), engine)
    own = family_words(title.text)  # the words every line is read for, with their own guards
    if title.apart is not None:  # the shared guard: a request, a comparison, a PR adding X
        if ADDS_TITLE.search(title.text) is None:
            return TitleWords((), (), engine, _loose(title))
        # a PR adding or supporting X: its family, which path_words keeps only where the
        # thread shows a run of its own (a test or serve command, a result, a server's crash)
        added = {_FAMILIES[m] for m in title.methods if m in _FAMILIES}
        return TitleWords(tuple(sorted(added | own)), (), engine)
    shared = {_FAMILIES[m] for m in title.run_methods() if m in _FAMILIES}
    if "LOOKAHEAD" not in own:  # an ordinary word too: "the scheduler's lookahead window"
        shared.discard("LOOKAHEAD")
    families = tuple(sorted(shared | own))
    return TitleWords(families, tuple(title.releases), engine)


# a bug title's speed words ("[Bug] NEXTN ... is 2.6x faster with trtllm_mha", "EAGLE3 slower
# than plain decoding after upgrade"): the guard reads them as a comparison of methods, but in a
# report of a failure they measure the one run the title names
_SPEED = re.compile(
    r"(?i)\b(?:than|vs\.?|versus|compared\s+(?:to|with))\s+(?:the\s+|a\s+)?(?:plain|baseline|non-?spec\w*"
    r"|no[- ]spec\w*)(?:\s+(?:server|run|decoding|engine|one|model|mode))?\b"
    r"|\b(?:faster|slower|than|speed-?ups?|vs\.?|versus|compar\w*|benchmark\w*)\b"
    r"|^\W*\[\s*(?:perf|performance|benchmark)\s*\]"
)
_BUG = re.compile(
    r"(?i)\[\s*bug\s*\]|\bbug\b|\b(?:regress\w*|slow(?:s|ed|er|down)?|degrad\w*|drops?|crash\w*"
    r"|fail\w*|errors?|hangs?|wrong|incorrect|garbled|broken|corrupt\w*|gibberish)\b"
    # a figure the run measured for the one method: "EAGLE3 2.1-2.3x decode", "MTP at 61 tok/s"
    # (a count of GPUs, "8x B200", is no figure: a speed word must follow the multiple)
    r"|\d(?:\.\d+)?(?:\s*[-–~]\s*\d+(?:\.\d+)?)?\s*[x×]\s+(?:decode|decoding|speed-?ups?|faster|slower"
    r"|throughput|gains?|uplift)\b|\d\s*(?:tok(?:en)?s?/s|t/s|tps)\b"
)


# a title's clauses ("[Bug] NEXTN ... memory-faults on MI300X; triton works"): the guard of
# another clause ("works") is about another setup, not the method this one names
_CLAUSE = re.compile(r"(?i);|\s[—–]\s|,?\s+but\s+|,?\s+whereas\s+")


def _loose(title: Title) -> tuple[str, ...]:
    """The one family of a bug report's title whose guard is only a speed word or sits in
    another clause (the era join reads it on SGLang's tracker, ``sglang_run_words``)."""
    families = {_FAMILIES[m] for m in title.methods if m in _FAMILIES}
    if title.pull or len(set(title.methods)) != 1 or len(families) != 1:
        return ()  # one method named, of a family the tables spell (STANDALONE beside it: two)
    if _BUG.search(title.text) is None:
        return ()
    for clause in _CLAUSE.split(title.text):
        if methods_in(clause) and guard(_SPEED.sub(" ", clause)) is None:
            return tuple(families)
    return ()
