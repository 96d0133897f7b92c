"""Why a worker-path verdict is what it is, in the reader's own terms (``--explain-path``).

Why: an "unknown" used to say only "no speculative worker named in the log", although the
title named NEXTN, the tracker was SGLang's and the post had a day: a guard had set the word
apart, and nobody could tell which without reading the code. The path readers note here, as
they decide, what they found and what they made of it (a ``PathTrace`` passed to them, made
only when the flag is on); ``account`` adds what the text gave each reader (framework, family
words with the guard that dropped each, release, day) and the one line that would settle it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.sections import diff_line, grep_line, heading_aside, wish_lines
from spectrace.assemblers.spec_prose import planned
from spectrace.assemblers.thread_title import Title, TitleReader
from spectrace.dialects._time import stamp_day
from spectrace.dialects.base import LogLine
from spectrace.incident_model import Incident
from spectrace.path_base import LISTED_GUARD, line_guard, word_guards
from spectrace.path_mention_kinds import (
    APART_KIND,
    FAMILY_KIND,
    FRAMEWORK_KIND,
    PULL_KIND,
    RELEASE_KIND,
    REQUEST_KIND,
    THREAD_KIND,
    TITLE_KIND,
    Mention,
)
from spectrace.path_missing import LAUNCH, LAUNCH_OF, VERSION_OF
from spectrace.assemblers.framework_names import frameworks_named
from spectrace.path_run import SUGGESTED, compared_beside, release_bounded, run_told, worded_framework
from spectrace.path_titles import ADDS_TITLE, NOT_SERVING
from spectrace.path_words import LOOSE_KIND
from spectrace.worker_path import PathStep as Step
from spectrace.worker_path import WorkerPath

# the readers, in the order a report lists them
FRAMEWORK = "framework"
FAMILY = "family word"
RELEASE = "release"
DAY = "day"
RULE = "rule"  # a reader that joins the others' findings (the era join, a family's class)
VERDICT = "verdict"
ORDER = (FRAMEWORK, FAMILY, RELEASE, DAY, RULE, VERDICT)
# why a plain command's run takes no family from the words (path_gather, path_era)
PLAIN_WHY = "the run's own command is shown with no speculative option: its words are another run's"
_MAX_WORDS = 12  # family-word lines listed; a long thread's further ones are counted


@dataclass(slots=True)
class PathTrace:
    """The recorder one crash's path readers note into (made only under ``--explain-path``);
    ``lines``: the text's config lines, which the family-word account reads again; ``heard``:
    every line's words (``path_mentions``) before ``walls`` (a writer's line saying a run is
    plain) cut off those on the far side of one from the crash."""

    lines: Sequence[LogLine] = ()
    heard: Sequence[Mention] = ()
    walls: Sequence[tuple[str, int]] = ()
    steps: list[Step] = field(default_factory=list)


def note(
    trace: PathTrace | None, reader: str, found: str, kept: bool, why: str,
    source: str = "", lineno: int = 0,
) -> list[Evidence]:  # fmt: skip
    """A reader's finding into ``trace`` (nothing when no trace is asked for); [] for the
    reader that stops there to return: ``return note(trace, ...)``."""
    if trace is not None:
        trace.steps.append(Step(reader, found, kept, why, source, lineno))
    return []


def account(
    trace: PathTrace, incident: Incident, config: RunConfig, mentions: Sequence[Mention],
    path: WorkerPath,
) -> tuple[Step, ...]:  # fmt: skip
    """Every reader's finding for the crash's verdict ``path``, in ``ORDER``: what the text
    gave (framework, family words, release, day), then what the rules made of it, then the
    verdict and what would settle it."""
    first = incident.first_seen
    source, crash = first.source, first.lineno
    since = config.start[1] if config.start and config.start[0] == source else 0
    mine = [m for m in trace.heard or mentions if m.source == source]
    walls = [n for src, n in trace.walls if src == source]
    wall = {m.lineno: w for m in mine
            if (w := next((n for n in walls if min(m.lineno, crash) < n < max(m.lineno, crash)),
                          None)) is not None}  # fmt: skip
    cut = [m for m in mine if m.lineno in wall]
    mine = [m for m in mine if m.lineno not in wall]
    steps = _framework(config, mine) + _words(trace, mine, source, since, wall)
    steps += _release(config, mine) + _walled(trace, wall, cut, source) + _day(incident, config)
    if not any(s.reader == FRAMEWORK for s in steps):
        worded = worded_framework(incident, config, mentions, since)
        steps.append(Step(FRAMEWORK, worded or "none", worded is not None, _WORDED if worded
                          else _unworded(incident, config, mentions, since)))  # fmt: skip
    if not any(s.reader == FAMILY for s in steps):
        steps.append(Step(FAMILY, "none", False, "no family word (EAGLE, MTP, NEXTN, n-gram, "
                          "DFlash, Medusa, draft model...) in the text"))  # fmt: skip
    steps += trace.steps
    steps += _verdict(path, steps)
    return tuple(sorted(steps, key=lambda s: ORDER.index(s.reader)))


_WORDED = "the title and the run's family lines name it in words"


def _unworded(
    incident: Incident, config: RunConfig, mentions: Sequence[Mention], since: int
) -> str:
    """Why ``path_run.worded_framework`` names none, asked in its order."""
    head = "no launch command, start-up line or tracker header; in words: "
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source]
    if not release_bounded(config) and any(m.kind == PULL_KIND for m in mine):
        return head + ("not read: a pull request, and no version line, no release named in a "
                       "sentence and no day bound its branch")  # fmt: skip
    if not run_told(incident, config, mine, mentions):
        return head + ("not read: the text shows no run by its own lines, its title reports no "
                       "failure, and it is no pull request deploying a run")  # fmt: skip
    lines = sorted({(m.lineno, m.text) for m in mine if (m.kind == TITLE_KIND
                    or (m.kind == FAMILY_KIND and m.lineno >= since)) and not SUGGESTED.search(m.text)})  # fmt: skip
    named = {f for _, text in lines for f in frameworks_named(text)}
    beside = next((n for n, text in lines if compared_beside(text)), None)
    if beside is not None:
        return head + f"line {beside} names one beside another run or engine ('than', 'vs')"
    if named:
        return head + f"the title and family lines name two: {', '.join(sorted(named))}"
    others = {m.name for m in mine if m.kind == FRAMEWORK_KIND and m.lineno >= since}
    if others:
        return head + f"the run's other lines name two: {', '.join(sorted(others))}"
    return head + "the title, the family lines and the run's other lines name none"


def _walled(
    trace: PathTrace, wall: dict[int, int], cut: Sequence[Mention], source: str
) -> list[Step]:
    """The family words and tracker headers a wall cuts off from the crash."""
    texts = {ln.lineno: ln.text for ln in trace.lines if ln.source == source}
    out = []
    for lineno, at in sorted(wall.items()):
        why = (f"cut off from the crash by line {at}, which says a run is plain "
               f"('{texts.get(at, '')[:60].strip()}'): another run's")  # fmt: skip
        words = sorted({w for w, _ in word_guards(texts.get(lineno, ""))})
        out += [Step(FAMILY, w, False, why, source, lineno) for w in words]
        out += [Step(FRAMEWORK, m.name, False, f"the thread header names it, but is {why}",
                     source, lineno)
                for m in cut if m.lineno == lineno and m.kind == THREAD_KIND]  # fmt: skip
    return out


def _framework(config: RunConfig, mine: Sequence[Mention]) -> list[Step]:
    out = []
    if config.engine is not None:
        at = config.start or ("", 0)
        why = f"the run's own lines (start-up line {at[1]})" if at[1] else "the run's own lines"
        out.append(Step(FRAMEWORK, config.engine, True, why, *at))
    headers = [m for m in mine if m.kind == THREAD_KIND]
    for m in headers[:2]:
        why = "the thread header names its tracker" + (
            "" if config.engine in (None, m.name) else f" (the run's lines say {config.engine})")
        kept = config.engine in (None, m.name)
        out.append(Step(FRAMEWORK, m.name, kept, why, m.source, m.lineno))
    return out


def _words(
    trace: PathTrace, mine: Sequence[Mention], source: str, since: int, wall: dict[int, int]
) -> list[Step]:
    """Each line with a family word, the word kept or the guard that set it apart, read the
    way ``path_mentions.find_mentions`` and ``path_words.word_mentions`` read it."""
    lines = [ln for ln in trace.lines if ln.source == source]  # walled ones: ``_walled``
    kept = {(m.lineno, m.name) for m in mine if m.kind == FAMILY_KIND}
    loose = {(m.lineno, m.name) for m in mine if m.kind == LOOSE_KIND}  # SGLang's tracker only
    titles = {m.lineno for m in mine if m.kind == TITLE_KIND}
    blocks = [m for m in mine if m.kind == APART_KIND]
    request = next((m for m in mine if m.kind == REQUEST_KIND), None)
    wished = wish_lines(lines)
    out: list[Step] = []
    aside = False
    reader = TitleReader()
    for line in lines:
        aside = heading_aside(line.text, aside)
        title = reader.feed(line)
        words = word_guards(line.text)
        if not words or line.lineno in wall:
            continue
        guard = _line_guard(line, aside, wished, blocks)
        if title is not None and guard is None:  # the title reader's own guards
            guard = _title_guard(title)
        shown = sorted({w for w, _ in words})
        if len([w for w, why in words if why is None]) >= 3 and guard is None:
            guard = LISTED_GUARD
        for word in shown:
            why_word = guard or next((why for w, why in words if w == word and why), None)
            on = (line.lineno, word) in kept
            if on and line.lineno < since:
                why_word = f"before the run's start (line {since}): another run's"
            elif on and request is not None:
                why_word = f"a feature request, plan or docs thread (line {request.lineno})"
            elif on:
                why_word = "the title names it" if line.lineno in titles else "a line names it"
            elif why_word is None:
                why_word = "not kept (no guard of the word reader says why)"
            if not on and (line.lineno, word) in loose:  # sglang_run_words reads it again
                on, why_word = True, f"{why_word}; kept by the looser reading on SGLang's tracker"
            ok = on and line.lineno >= since and request is None
            out.append(Step(FAMILY, word, ok, why_word, line.source, line.lineno))
    kept_steps = [s for s in out if s.kept]
    dropped = [s for s in out if not s.kept]
    listed = kept_steps + dropped[: max(0, _MAX_WORDS - len(kept_steps))]
    if len(listed) < len(out):
        listed.append(Step(FAMILY, f"{len(out) - len(listed)} more", False,
                           "further family words set apart (not listed)"))  # fmt: skip
    return sorted(listed, key=lambda s: s.lineno)


def _title_guard(title: Title) -> str | None:
    """Why a title's words are not the run's, as ``path_titles.title_words`` decides."""
    if NOT_SERVING.search(title.text):
        return "the title is about a checkpoint job (converting, training), not a serving run"
    if title.apart is not None and not ADDS_TITLE.search(title.text):
        return f"the title reader sets it apart: {title.apart}"
    return line_guard(title.text)


def _line_guard(
    line: LogLine, aside: bool, wished: frozenset[tuple[str, int]], blocks: Sequence[Mention]
) -> str | None:
    """Why no word of the line is a run's, the first guard in the word readers' order."""
    block = next((b for b in blocks if b.lineno <= line.lineno <= b.last), None)
    if (line.source, line.lineno) in wished:
        return "a feature form's wish: what it asks for did not run"
    if block is not None:
        return f"in a block set apart from the run at line {block.lineno} ({block.name})"
    if diff_line(line.text):
        return "a diff line: code under change, not a run"
    if grep_line(line.text) or grep_line(line.raw):
        return "a search of the source (a grep command or its hit): code looked for, not a run"
    if aside:
        return "under a heading that sets its section apart"
    if (guard := line_guard(line.text)) is not None:
        return guard
    return "a plan or a wish ('will try', 'plan to')" if planned(line.text) else None


# flags naming a framework's release, and whose
_RELEASES = (("vllm_prose_release", "vLLM"), ("platform_release", "vllm-ascend"),
             ("trtllm_release", "TensorRT-LLM"))  # fmt: skip


def _release(config: RunConfig, mine: Sequence[Mention]) -> list[Step]:
    out = []
    if config.version:
        out.append(Step(RELEASE, config.version, True, "a version line of the run"))
    for key, name in _RELEASES:
        if (flag := config.flags.get(key)) is not None:
            why = f"read from a line ({flag.origin})"
            out.append(Step(RELEASE, f"{name} {flag.value}", True, why, flag.source, flag.lineno))
    out += [Step(RELEASE, m.name, True, "the title names it", m.source, m.lineno)
            for m in mine if m.kind == RELEASE_KIND]  # fmt: skip
    if config.era:
        out.append(Step(RELEASE, f"era {config.era}", True, "a line only some releases print"))
    if not out:
        out.append(Step(RELEASE, "none", False, "no version line, no image tag, no release "
                        "in the title"))  # fmt: skip
    return out


def _day(incident: Incident, config: RunConfig) -> list[Step]:
    day = stamp_day(incident.first_seen.ts)  # a year-less stamp shows no day
    if day is not None:
        return [Step(DAY, day.isoformat(), True, "the crash's own timestamp",
                     incident.first_seen.source, incident.first_seen.lineno)]  # fmt: skip
    if (day := config.flags.get("text_day")) is not None:
        return [Step(DAY, str(day.value), True, "the post's day", day.source, day.lineno)]
    return [Step(DAY, "none", False, "no timestamp, no post day")]


def _verdict(path: WorkerPath, steps: Sequence[Step]) -> list[Step]:
    """The verdict and the line it stands on; for an unknown, the reader that left it with
    nothing (``cause``) and the one line that would settle it (``settle``)."""
    if path.value != "unknown":
        found = path.value + (f" ({path.worker_class})" if path.worker_class else "")
        votes = [e for e in path.evidence if e.points_to]
        why = votes[0].reason if votes else "the evidence listed"
        return [Step(VERDICT, found, True, why, votes[0].source if votes else "",
                     votes[0].lineno if votes else 0)]  # fmt: skip
    if path.conditional:
        out = [Step(VERDICT, "conditional", True, path.conditional)]
    else:
        out = [Step(VERDICT, "unknown", False, cause(steps))]
    return out + [Step(VERDICT, "would settle it", False, settle(steps, path))]


def settle(steps: Sequence[Step], path: WorkerPath) -> str:
    """The one line that would settle an unknown, from the first reader that found nothing:
    no framework -> its launch command; no family of the run -> that framework's launch; no
    release and no day -> its version line; else the verdict's own first missing line."""
    frameworks = [s.found for s in steps if s.reader == FRAMEWORK and s.kept]
    framework = frameworks[0] if frameworks else None
    found = {s.reader for s in steps if s.kept}
    if path.conditional or (framework and FAMILY in found and found & {RELEASE, DAY}):
        return path.missing[0] if path.missing else LAUNCH
    if framework is None:
        return LAUNCH
    if not any(s.kept for s in steps if s.reader == FAMILY):
        return LAUNCH_OF.get(framework, LAUNCH)
    return VERSION_OF.get(framework, LAUNCH)


def cause(steps: Sequence[Step]) -> str:
    """The first reader in the chain that left an unknown with nothing: one short phrase
    (``--explain-path``'s summary, and a tally of unknowns by cause)."""
    by = {r: [s for s in steps if s.reader == r] for r in ORDER}
    gate = next((s for s in by[RULE] if s.found == "run-shown gate"), None)
    if gate is not None:
        return "decided, then withheld: the text shows no run of its own"
    words = [s for s in by[FAMILY] if s.found != "none" and not s.found.endswith(" more")]
    if not words:
        frameworks = sorted({s.found for s in by[FRAMEWORK] if s.kept})
        return f"no family word in the text (framework: {', '.join(frameworks) or 'none'})"
    if not any(s.kept for s in words):
        first = next((s for s in words if "title" in s.why), words[0])
        return f"every family word set apart; {first.found} (line {first.lineno}): {first.why}"
    frameworks = {s.found for s in by[FRAMEWORK] if s.kept}
    if not frameworks:
        said = next((s.why for s in by[FRAMEWORK]), "")
        return f"family named, no framework found; {_short(said.split('; ', 1)[-1])}"
    rules = [s for s in by[RULE] if not s.kept]
    sglang = "sglang" in frameworks
    rule = next((s for s in rules if ("SGLang" in s.found) == sglang), None)
    if rule is not None:
        return f"family and framework found; {rule.found} stops: {_short(rule.why)}"
    return f"family and framework ({', '.join(sorted(frameworks))}) found; no rule takes them"


def _short(why: str) -> str:
    """A rule's reason without the line numbers and quotes that make every case distinct."""
    cut = why.split(" (line ", 1)[0].split(": '", 1)[0].split(" ('", 1)[0]
    return cut[:110]
