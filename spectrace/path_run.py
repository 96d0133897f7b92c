"""What the word-reading path readers share about the run's text: its day, whether its own
command is shown plain, and the one framework its title or family lines name in words.

Why: the era join (``path_era``), the vLLM/TensorRT-LLM family lookup (``path_named``), the
proposer-base reader (``path_base``) and the gatherer each read these; one definition keeps
their answers the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date

from spectrace.assemblers.framework_names import frameworks_named
from spectrace.assemblers.other_engines import engine_named
from spectrace.assemblers.run_config import FlagValue, RunConfig
from spectrace.assemblers.run_forms import record_named
from spectrace.assemblers.run_shown import (
    crash_shows_run,
    pull_reports_run,
    reported_failure,
    shows_run,
)
from spectrace.assemblers.vllm_finish import PROSE_RELEASE_ALONE
from spectrace.assemblers.stated_plain import STATED_PLAIN_FLAG
from spectrace.incident_model import Incident
from spectrace.path_base import family_words, word_guards
from spectrace.path_mention_kinds import (
    FAMILY_KIND,
    FORM_KIND,
    FRAMEWORK_KIND,
    PULL_KIND,
    RELEASE_MARK,
    RUN_KIND,
    TITLE_KIND,
    Mention,
)

# flag names only a speculative run's command or dump sets
_SPEC_WORDS = ("specul", "draft", "eagle", "num_spec")
_METHOD_WORDS = ("method", "algorithm", "draft", "eagle")  # flags naming what drafted
# a line that names a framework beside another run or another engine: a comparison, a port,
# a borrowed design ("slower than vLLM", "ported from SGLang", "similar to vLLM"), a migration
ELSEWHERE = re.compile(
    r"(?i)\b(?:vs\.?|versus|than|compared?|comparison|between|port(?:ed|ing)?|borrow\w*|"
    r"migrat\w*|switch\w*|instead|unlike|similar|inspired)\b"
)


# a line offering another framework as the fix or the better choice ("2. **Better — serve on
# SGLang (>= v0.5.15).** It runs MTP with prefix caching", "Alternatively, use SGLang", "we
# recommend running it on SGLang"): what the writer proposes, not the run that failed
SUGGESTED = re.compile(
    r"(?i)^\W*(?:\d+[.)]\W*){0,2}(?:better|best|alternatively|or)\b\W{0,6}\s*(?:to\s+)?(?:serve|run|use"
    r"|switch|move|migrate|deploy)\b"
    r"|\b(?:recommend\w*|suggest\w*|consider)\s+(?:\w+\s+){0,2}?(?:serving|running|using|switching"
    r"|moving|deploying)\b"
)


# where one clause of a sentence ends and another begins
_CLAUSE = re.compile(r"[;:!?]|,\s+(?=(?:but|while|whereas|and|though|although|yet|so)\b)|\.\s")


# a title's release tag: "[v0.9.1] ...", "[0.6.3.post1]"
_TAG = re.compile(r"\[\s*v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+|\.dev\d+)?)\s*\]")


def titled_release(
    incident: Incident, mentions: Sequence[Mention], framework: str
) -> list[tuple[str, str, int, str]]:
    """``(RELEASE_MARK + "<framework>:<release>", source, line, text)`` for the one release the
    thread's title tags ("# [v0.9.1] n-gram on vLLM crashes"), as ``path_words.named_families``
    gives a tracker's title release: on a thread whose tracker names no framework, the title's
    tag is the release of the framework its words name. [] where none or several."""
    source = incident.first_seen.source
    for m in mentions:
        if m.source == source and m.kind == TITLE_KIND and m.text.lstrip().startswith("#"):
            tags = set(_TAG.findall(m.text))
            if len(tags) == 1:
                return [(f"{RELEASE_MARK}{framework}:{tags.pop()}", m.source, m.lineno, m.text)]
    return []


def text_day(config: RunConfig) -> date | None:
    """The day the text was posted (the thread's or a post's), where a line shows it: the code
    that ran is no newer than it."""
    shown = config.flags.get("text_day")
    try:
        return date.fromisoformat(str(shown.value)) if shown is not None else None
    except ValueError:
        return None


def plain_launch(config: RunConfig, engine: str | None = None) -> bool:
    """The run's own command is shown whole and nothing of the run sets a speculative option:
    a family its sentences name is another run's, a plan or a wish ("we will try EAGLE3 after
    the upgrade", "ngram was disabled"; what the prose readers set from them does not count). ``engine``: only for that framework's run. A cut vLLM
    command (``vllm_launch_cut``) may hold its speculative options below the cut; so may an
    SGLang command that is not whole (``sglang_launch_cut``: a paste ending mid-option, flags
    quoted in a bullet beside others, ``"${MODEL}"`` the paste does not show)."""
    if engine is not None and config.engine != engine:
        return False
    flags = config.flags
    launched = any(f.origin == "launch_command" for f in flags.values())
    if not launched or "vllm_launch_cut" in flags or "sglang_launch_cut" in flags:
        return False
    return not _set_beyond_prose(flags, _SPEC_WORDS)


def _set_beyond_prose(flags: Mapping[str, FlagValue], words: tuple[str, ...]) -> bool:
    """A flag whose name holds one of ``words`` is set by a line other than prose (a sentence's
    family is another run's, a plan or a wish)."""
    return any(word in name for name, flag in flags.items() for word in words if flag.origin != "prose")


def stated_plain_run(config: RunConfig) -> bool:
    """A line states the run's own options with no speculation (``assemblers/stated_plain``)
    and nothing but prose sets the run's method or draft (a checkpoint's own count of draft
    layers in its config dump sets none): a family its sentences name is another run's, as
    under ``plain_launch``."""
    if STATED_PLAIN_FLAG not in config.flags:
        return False
    return not _set_beyond_prose(config.flags, _METHOD_WORDS)


# an exception as Python prints it, in a table cell ("`TypeError: forward_decode() got an
# unexpected keyword argument ...`", "ValueError: only supported on ..."): the class name's shape
_RAISED = re.compile(r"(?<![\w.])[A-Z]\w*(?:Error|Exception):\s*\S")
_CITED = re.compile(r"(?<![\w&])#\d+\b|/(?:issues|pull)/\d")
_TABLE_ROW = re.compile(r"^\s*\|[^|]+\|")  # a row's opening cells (a mention's text may be cut)


def attempt_row(text: str) -> bool:
    """The line is a table row telling an attempt and the error it raised: a Markdown row whose
    first cell names what was tried and a later cell the exception ("| EAGLE speculative decoding
    | crashes: `TypeError: forward_decode() ...` |"). A report that shows its served command
    with no speculative option may table the levers it tried on the same deployment: such a row
    is a run of its own, the family in it that run's, not another run's or a plan."""
    if _TABLE_ROW.match(text) is None or _CITED.search(text):
        return False  # a row citing a thread ("see #123"): a known issue someone else reported
    cells = text.strip().strip("|").split("|")
    return len(cells) >= 2 and any(_RAISED.search(c) for c in cells[1:])


# the flag holding the one release a text names for the framework in its sentences ("Tested on
# vLLM 0.10.1.1 with MTP"): read by its lookup as a version line is (TensorRT-LLM's and the
# Ascend plugin's prose releases already place their runs through their own readers)
_PROSE_RELEASES = {"vllm": PROSE_RELEASE_ALONE}


def run_told(incident: Incident, config: RunConfig, mine: Sequence[Mention], mentions: Sequence[Mention]) -> bool:
    """The text (``mine``: the crash's file) shows a run by its own lines, so that its words may
    name the run's framework: a crash that ran, a run's config, a test, serve or benchmark line
    or a result (``RUN_KIND``), a line in a form only a run's process or the writer's record of
    it takes (``run_forms.record_named``: a table of pids, an engine record cut to its message,
    a check's outcome "| server start | 通过 |"), an issue reporting its failure, or a pull
    request deploying or fixing a run."""
    return (crash_shows_run(incident) or shows_run(config) or reported_failure(mine)
            or any(m.kind == RUN_KIND or (m.kind == FORM_KIND and record_named(m.name)) for m in mine)
            or pull_reports_run(mentions))  # fmt: skip


def worded_framework(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int
) -> str | None:
    """The one framework the thread's title and the run's family lines name in words ("Eagle3
    slows down on vLLM", "we ran MTP n=5 on vLLM", "MTP for DeepSeek-R1 on TRT"), for a text
    that shows a run by its own lines (a crash that ran, a run's config, a test, serve or
    benchmark line, a result), an issue reporting its failure, or a pull request deploying or
    fixing a run (``pull_reports_run``: a recipe, image bump); None where two are named, a
    line names one beside another run or engine, or the run is only told about (a blog, a
    bot's summary of a change). A run no version line, sentence-named release or day bounds
    (``release_bounded``) is still read, unless a pull request's (its branch is of a day it does
    not give, and its words are mostly the code's): its lookups then name every class the family ran on
    across the framework's releases (``path_named.unbounded_classes``, the SGLang era join's
    release condition), never the newest era's alone."""
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    if not release_bounded(config) and any(m.kind == PULL_KIND for m in mine):
        return None  # a pull request ran its branch, of a day it does not give: its words are code's
    if not run_told(incident, config, mine, mentions):
        return None
    titles = {m.lineno for m in mine if m.kind == TITLE_KIND}
    lines = {(m.lineno, m.text) for m in mine if m.kind == TITLE_KIND
             or (m.kind == FAMILY_KIND and m.lineno >= since)}  # fmt: skip
    told: set[str] = set()  # what the family lines below the title name
    titled: set[str] = set()  # what the title names
    for lineno, text in sorted(lines):
        if frameworks_named(text) and SUGGESTED.search(text):
            continue  # the framework the writer proposes, not the one the run was on
        if compared_beside(text):
            return None  # "faster than vLLM", "ported from SGLang": not only the run's
        for clause in _CLAUSE.split(text):
            named = frameworks_named(clause)
            if named and ELSEWHERE.search(clause) and not releases_compared(clause):
                continue  # "setup was heavier than vLLM": the framework compared against
            (titled if lineno in titles else told).update(named)
    found = told | titled
    if not found:  # the run's other lines ("vLLM's EngineCore crashes"): path_framework_words
        found = {m.name for m in mine if m.kind == FRAMEWORK_KIND and m.lineno >= since}
    if len(titled) > 1 and len(told) == 1 and told < titled:
        found = told  # a title listing two ("recipes: 4x A (vLLM) and 4x B (SGLang TP4)"), the
        # family line one of them ("on four B with ... (SGLang, DSpark block 3)"): that run's;
        # a family line naming the one the title does not is still two runs
    if len(found) != 1:
        return None
    (framework,) = found
    return framework


# a framework named with its release ("vLLM 0.28.0", "SGLang v0.5.12", "vllm==0.27.1")
_NAMED_RELEASE = re.compile(
    r"(?i)(?<![\w/-])(vllm|sglang|tensorrt[-_ ]?llm|trt[-_]?llm)(?:\s*==\s*|\s+)v?(\d+\.\d+(?:\.\d+)?)(?!\w|\.\d)"
)


def releases_compared(text: str) -> bool:
    """The line sets one framework's releases side by side ("main (vLLM 0.28.0) accepts fewer
    than 8d832f8 (vLLM 0.27.1)"): a regression between releases of the run's own framework,
    not a comparison with another engine. Every framework it names is that one, and it names
    two releases of it."""
    named = {(m.group(1).lower(), m.group(2)) for m in _NAMED_RELEASE.finditer(text)}
    return len(frameworks_named(text)) == 1 and len({release for _name, release in named}) > 1


# two values compared in code spans ("`param=(4096, 1024)` packed vs `loaded=(2048, 1024)`",
# "`dtype=float16` vs `dtype=bfloat16`", "`(4096, 8)` vs `(2048, 8)`"): an error's shapes or
# settings side by side, no other run or engine
_VALUES_VS = re.compile(
    r"(?i)(`[^`\n]*[=(\d][^`\n]*`[^`\n]{0,24}?\s)(?:vs\.?|versus)(?=\s+`\s*(?:[\w.]+\s*=|[(\[]?\s*\d))"
)


def compared_beside(text: str) -> bool:
    """The line names a framework beside another run or engine ("SGLang with MTP is faster than
    vLLM", "EAGLE ported from SGLang"): its family is not only the run's. Only where every
    clause naming a framework beside such a word names no family ("setup was heavier than
    vLLM") is that the framework compared against, and the line's other clauses still name the
    run's; a line whose comparing word stands in no clause naming a framework keeps it whole.
    Two values an error sets side by side in code spans (``_VALUES_VS``) compare no run."""
    text = _VALUES_VS.sub(r"\1and", text)
    if not (frameworks_named(text) and ELSEWHERE.search(text)) or releases_compared(text):
        return False
    beside = [c for c in _CLAUSE.split(text) if frameworks_named(c) and ELSEWHERE.search(c)]
    return not beside or any(word_guards(c) for c in beside)  # a family word, guarded or not


def release_bounded(config: RunConfig, framework: str | None = None) -> bool:
    """A version line or the text's day bounds the run's release, or the text's sentences
    name one release of ``framework`` and no other (of any framework, where None)."""
    if config.version is not None or text_day(config) is not None:
        return True
    named = _PROSE_RELEASES.values() if framework is None else [_PROSE_RELEASES.get(framework)]
    return any(flag in config.flags for flag in named if flag is not None)


def names_other_framework(text: str, engine: str) -> bool:
    """The line's family belongs to another framework than ``engine``: every clause naming a
    family names a framework (or another engine, ``_other``) and not ``engine`` ("Our fallback is vLLM + eagle3, but we'd like
    to stay on SGLang"), or, where no clause names one, the line does (a release row "| vLLM
    0.10.2 | ngram |"). vllm-ascend counts as vLLM's plugin."""
    clauses = [c for c in _CLAUSE.split(text) if family_words(c)]
    return all(_other(c, engine) for c in clauses) if clauses else _other(text, engine)


def _other(text: str, engine: str) -> bool:
    """The clause names a framework and not ``engine``, or names another engine by its bare
    name (``other_engines``: "llama.cpp with its DFlash2 path reaches 64 tok/s") and none of
    the three: that engine's method, not the run's."""
    named = frameworks_named(text)
    if not named and engine_named(text):
        return True
    if engine in ("vllm", "vllm_ascend"):
        return bool(named) and not named & {"vllm", "vllm_ascend"}
    return bool(named) and engine not in named
