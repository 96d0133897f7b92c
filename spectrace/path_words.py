"""A report's words about its run: the families its lines and its title name, the thread's
tracker, the release a title names, and whether the thread asks for a feature rather than
reporting a run. ``word_mentions`` records them per line (``path_mentions.find_mentions``
calls it); ``named_families`` and ``base_inputs`` hand them to the linker."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.run_shown import run_line
from spectrace.assemblers.run_results import row_under_tests
from spectrace.assemblers.saved_file import saved_file
from spectrace.assemblers.sections import PULL_HEADER, REQUEST
from spectrace.assemblers.sglang_prose_flags import foreign_command
from spectrace.assemblers.sglang_run_words import (
    SPEC_KIND,
    V2_LITERALS,
    loose_families,
    speculation_named,
    v2_named,
)
from spectrace.assemblers.sentences import sentences
from spectrace.assemblers.spec_prose import planned, turns_against, unplanned
from spectrace.assemblers.launch_words import rollout_repo
from spectrace.assemblers.thread_repo import header_engine, run_engine, tracker_engine
from spectrace.assemblers.thread_title import TitleReader
from spectrace.assemblers.trainer_frames import trainer_of
from spectrace.assemblers.vllm_config import VERSION
from spectrace.assemblers.trtllm_words import WORD_LITERALS
from spectrace.dialects.base import LogLine
from spectrace.incident_model import Incident
from spectrace.path_base import BaseSite, family_words
from spectrace.path_mention_kinds import (
    ADDS_KIND,
    ADDS_MARK,
    BASE_KIND,
    FAMILY_KIND,
    FAMILY_ROW,
    FOREIGN_KIND,
    FOREIGN_MARK,
    MAX_TEXT,
    PULL_KIND,
    RELEASE_KIND,
    RELEASE_MARK,
    REQUEST_KIND,
    RUN_KIND,
    SERVER_RECORD,
    THREAD_KIND,
    TITLE_KIND,
    THREAD_MARK,
    Mention,
)
from spectrace.path_terms import term_literals
from spectrace.path_titles import ADDS_TITLE, TitleWords, title_words

REQUEST_LITERALS = ("[Feature", "[feature", "[FEATURE", "[RFC", "[Roadmap", "[Proposal", "[Doc",
                     "feature request", "Feature Request", "feature-request", "RFC")  # fmt: skip
# family words as they are written in prose and titles (capitalised: a lower-case ``eagle`` is
# in every frame line of a worker file, and would fill the config lines of a long log)
FAMILY_LITERALS = ("MTP", "EAGLE", "Eagle", "DSpark", "DFlash", "DSPARK", "DFLASH", "NGRAM",
                    "N-gram", "n-gram", "Ngram", "Medusa", "MEDUSA", "NextN", "NEXTN",
                    "raft Model", "RAFT MODEL", "test_eagle", "test_mtp",
                    "test_ngram", "test_draft_model", "test_dflash", "test_suffix",
                    "Lookahead", "LookAhead", "lookAhead", "Look-ahead", "Arctic ",
                    "arctic_speculator", "arctic speculator",
                    "medusa ", "lookahead ",  # lower case only before a blank: not a path
                    "_mtp ", "_mtp`", "_mtp,",  # vLLM's model-named MTP methods
                    "MLP Speculator", "MLP speculator", "mlp speculator", "MLPSpeculator",
                    "mlp_speculator ", *WORD_LITERALS, *V2_LITERALS,
                    "the latest version", *term_literals())  # fmt: skip
# the era join's looser words (``sglang_run_words``): a family a sentence names for the run
# where the line-wide guards dropped it, and SGLang's spec v2 named for the run
LOOSE_KIND = "family a sentence names, read loosely"
V2_KIND = "spec v2 named for the run"
# an issue form's checked box "The bug persists in the latest version" (SGLang's template; older:
# "2. The bug has not been fixed in the latest version"): the run is on the latest release
LATEST_KIND = "checked: the bug persists in the latest version"
# a thread header of an RL trainer whose rollouts always run SGLang (``launch_words.rollout_repo``)
ROLLOUT_KIND = "thread header of a trainer whose rollouts run SGLang"
# a thread header of a speculative-draft trainer's repository (``trainer_frames.trainer_of``):
# ``Mention.name`` holds the one draft family it trains ("" where it trains several)
TRAINER_KIND = "thread header of a draft trainer's repository"
_LATEST = re.compile(
    r"(?i)^\s*[-*]\s*\[[xX]\]\s*(?:\d+\.\s*)?the bug (?:persists in|has not been fixed in|is present in)"
    r" the latest version"
)


# another serving engine's command (``sglang_prose_flags.foreign_command``: LMDeploy, TokenSpeed,
# MLC, ROCm ATOM) reaches the reader by these
FOREIGN_LITERALS = ("lmdeploy", "tokenspeed", "mlc_llm", "atom.entrypoints")


def word_mentions(
    line: LogLine, shown: str, titles: TitleReader, aside: bool, diff: bool, tested: bool = False
) -> list[Mention]:
    """The line's words: a title's families and release (through the shared title reader), a
    feature-request tag or label, a tracker header, the family words of any other line that
    is not a diff line (``diff``) nor under a heading setting its section apart (``aside``). In
    a section of the text's own tests (``tested``) a row naming its rig, image or a figure is a
    run line (``row_under_tests``), and so is the server's own release record after its log prefix."""
    out: list[Mention] = []
    if (title := title_words(titles, line)) is not None:
        # a title read on its head's line stands on a line above it (a citation under its title)
        held = titles.titles[-1]
        at = replace(line, lineno=held.lineno, text=held.text, raw=held.text) if held.lineno != line.lineno else line
        said = at.text.strip()[:MAX_TEXT] if at is not line else shown
        # the title's mark first: find_mentions drops the loose words a line got before it
        out.append(Mention(line.source, at.lineno, said, "", FAMILY_ROW, TITLE_KIND))
        out += _title_mentions(at, said, title)
        if ADDS_TITLE.search(at.text):
            out.append(Mention(line.source, at.lineno, said, "", FAMILY_ROW, ADDS_KIND))
        if v2_named(at.text, title=True):
            out.append(Mention(line.source, at.lineno, said, "", FAMILY_ROW, V2_KIND))
        if run_line(at.text):  # a title giving the run's figure ("... row: 63.3 -> 96.1 tok/s")
            out.append(Mention(line.source, at.lineno, said, "", FAMILY_ROW, RUN_KIND))
    elif (late := titles.late) is not None and late.apart is None and len(late.releases) == 1:
        if (engine := tracker_engine(late.repo)) is not None:  # "[Bug]: ... on 0.6.3" above its citation
            name = f"{engine}:{late.releases[0].removeprefix('v')}"
            out.append(Mention(line.source, late.lineno, late.text, name, FAMILY_ROW, RELEASE_KIND))
    elif not diff and (run_line(line.text) or (tested and not aside and row_under_tests(line.text))):
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, RUN_KIND))
    elif not diff and line.headed and VERSION.search(line.text) is not None:
        # a server's own record of its release, after its log prefix (vLLM's banner, its
        # "engine (v0.x) with config:" line): a run's log pasted in the thread
        out.append(Mention(line.source, line.lineno, shown, SERVER_RECORD, FAMILY_ROW, RUN_KIND))
    elif not diff and not aside and not line.quoted and _request_failure(line, titles):
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, RUN_KIND))
    elif (saved := saved_file(line.raw)) is not None and saved.output and not line.quoted:
        # a saved log's header: a run's output, labelled by its own path ("ngram.bootfail.log")
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, RUN_KIND))
        out += [Mention(line.source, line.lineno, shown, family, FAMILY_ROW, FAMILY_KIND)
                for family in sorted(saved.families())]  # fmt: skip
    if foreign_command(line.text):  # another engine's server: its methods are its own
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, FOREIGN_KIND))
    if not line.quoted and _LATEST.match(line.text):
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, LATEST_KIND))
    if REQUEST.search(line.text) and not (title is not None and titles.titles[-1].pull):
        # the thread asks for a feature: no run's family (a pull request's "[Feature]" tag
        # is the kind of change it makes, not a wish; its readers tell its run from its code)
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, REQUEST_KIND))
    head = titles.head  # the thread head this line names (thread_head: every copy form)
    if (engine := run_engine(head.repo) if head is not None else header_engine(line.text)) is not None:
        out.append(Mention(line.source, line.lineno, shown, engine, FAMILY_ROW, THREAD_KIND))
    elif head is not None and head.repo is not None and rollout_repo(head.repo):
        out.append(Mention(line.source, line.lineno, shown, "sglang", FAMILY_ROW, ROLLOUT_KIND))
    elif head is not None and head.repo is not None and (trainer := trainer_of(head.repo)) is not None:
        out.append(Mention(line.source, line.lineno, shown, trainer.drafts or "", FAMILY_ROW, TRAINER_KIND))
    if head is not None and head.pull and not (not line.quoted and PULL_HEADER.search(line.text)):
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, PULL_KIND))  # a PR's head
    if not diff and not aside and not line.quoted and speculation_named(line.text):
        out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, SPEC_KIND))  # path_era
    if title is None and not diff and not aside and not title_copy(titles, line):
        families = family_words(unplanned(line.text))  # a plan's sentence names no run's family
        said = _family_said(line, shown) if families else shown
        if families:
            out += [Mention(line.source, line.lineno, said, family, FAMILY_ROW, FAMILY_KIND)
                    for family in sorted(families)]  # fmt: skip
        if not line.quoted and not planned(line.text):  # the era join's fallback reading
            out += [Mention(line.source, line.lineno, said, family, FAMILY_ROW, LOOSE_KIND)
                    for family in sorted(loose_families(line.text))]  # fmt: skip
        if not line.quoted and v2_named(line.text, title=False):
            out.append(Mention(line.source, line.lineno, shown, "", FAMILY_ROW, V2_KIND))
    return out


def _family_said(line: LogLine, shown: str) -> str:
    """The text a family mention of ``line`` holds: the line as shown, or, for a line longer
    than a mention keeps (a paragraph pasted as one line), its sentences naming a family and
    every later one that turns against them ("But that is not the run that crashed."), so a
    family named past the cut is read with its own sentence's guards, not another's."""
    raw = line.raw.strip()
    if len(raw) <= MAX_TEXT:
        return shown
    cut = sentences(raw)
    named = [i for i, sentence in enumerate(cut) if family_words(sentence)]
    if not named:
        return shown
    kept = [s for i, s in enumerate(cut) if i in named or (i > named[0] and turns_against(s))]
    return " ".join(kept)[: 2 * MAX_TEXT]  # (two mentions' worth: each sentence is whole)


# a title repeated in the body as a quote or a heading ("> [Bug]: ...", "### [Bug]: ...")
_COPY_MARKS = re.compile(r"^[\s>#*`]+|[\s*`]+$")


def title_copy(titles: TitleReader, line: LogLine) -> bool:
    """The line repeats the thread's title (an issue wiki's "Issue 标题" section, a web copy's
    heading under its page title): its words are the title's, already read with the title's
    guards (a question, a contrast, "doesn't"), never a run's line of their own."""
    own = _COPY_MARKS.sub("", line.text)
    return bool(own) and any(t.source == line.source and t.lineno != line.lineno
                             and _COPY_MARKS.sub("", t.text) == own for t in titles.titles)  # fmt: skip


def _title_mentions(line: LogLine, shown: str, title: TitleWords) -> list[Mention]:
    """A title's families (FAMILY_KIND) and releases (RELEASE_KIND, named ``<engine>:<x>``)."""
    out = [Mention(line.source, line.lineno, shown, family, FAMILY_ROW, FAMILY_KIND)
           for family in title.families]  # fmt: skip
    out += [Mention(line.source, line.lineno, shown, family, FAMILY_ROW, LOOSE_KIND)
            for family in title.loose]  # fmt: skip
    if title.engine is not None and len(title.releases) == 1:  # one release: the run's
        name = f"{title.engine}:{title.releases[0].removeprefix('v')}"
        out.append(Mention(line.source, line.lineno, shown, name, FAMILY_ROW, RELEASE_KIND))
    return out


def base_inputs(
    incident: Incident, mentions: Sequence[Mention], since: int, plugin: bool = False
) -> tuple[list[BaseSite], set[str]]:
    """The proposer base files the incident's run names in its text, and the families its
    lines name as words. A bare file name both vLLM and vllm-ascend have is the plugin's only
    in a run the text shows or names on it (``plugin``)."""
    source = incident.first_seen.source
    mine = [m for m in mentions if m.source == source and m.lineno >= since]
    bases = [m for m in mine if m.kind == BASE_KIND]
    want = "vllm_ascend" if plugin else "vllm"
    bases = [m for m in bases if m.signature.framework == want or not any(
        o.lineno == m.lineno and o.signature.framework == want for o in bases)]  # fmt: skip
    sites = [BaseSite(m.source, m.lineno, m.text,
                      f"{BASE_KIND} ({m.name}): the log pointed at a frame", m.signature)
             for m in bases]  # fmt: skip
    return sites, {m.name for m in mine if m.kind == FAMILY_KIND}


def named_families(
    incident: Incident, mentions: Sequence[Mention], since: int
) -> list[tuple[str, str, int, str]]:
    """(family, source, line, text) of each family word in the incident's run; then
    (``thread:<framework>``, ...) for the thread header its file starts with, if any. None in
    a feature-request or RFC thread: its words name the family asked for, not the one that ran."""
    source = incident.first_seen.source
    words = [(m.name, m.source, m.lineno, m.text) for m in mentions
             if m.kind == FAMILY_KIND and m.source == source and m.lineno >= since]  # fmt: skip
    words = words or _loose_title(mentions, source, since)
    if any(m.kind == REQUEST_KIND and m.source == source for m in mentions):
        # a feature request: only a line telling the method's own failure in the writer's
        # words ("cannot do DSpark decoding with it (draft loader fails with `KeyError: ...`)")
        words = [w for w in words if _TOLD_FAILURE.search(w[3])]
        if not words:
            return []
    headers = [m for m in mentions if m.kind == THREAD_KIND and m.source == source]
    trackers = {m.name for m in headers}  # the framework each head names (every copy form)
    engine = next(iter(trackers)) if len(trackers) == 1 else None
    releases = [(RELEASE_MARK + m.name, m.source, m.lineno, m.text) for m in mentions
                if m.kind == RELEASE_KIND and m.source == source]  # fmt: skip
    adds = _adds_only(mentions, source, headers)
    foreign = [(FOREIGN_MARK, m.source, m.lineno, m.text) for m in mentions
               if m.kind == FOREIGN_KIND and m.source == source][:1]  # fmt: skip
    return words + [(THREAD_MARK + engine, m.source, m.lineno, m.text)
                    for m in headers[:1] if words and engine] + releases[:1] + adds + foreign  # fmt: skip


def _loose_title(mentions: Sequence[Mention], source: str, since: int) -> list[tuple[str, str, int, str]]:
    """A bug or performance title's one family that only a speed word or a measured figure set
    apart (``path_titles._loose``: "Gemma 4 31B MTP - Slower T/S at high context", "[Performance]
    ... EAGLE3 2.1-2.3x decode"), where no line names a family and no looser word names another:
    the title reports that run's own outcome, as the SGLang era join reads it."""
    titles = {m.lineno for m in mentions if m.kind == TITLE_KIND and m.source == source}
    loose = [m for m in mentions if m.kind == LOOSE_KIND and m.source == source]
    if len({m.name for m in loose}) != 1:
        return []
    return [(m.name, m.source, m.lineno, m.text) for m in loose if m.lineno in titles and m.lineno >= since]


# a failure told as the run's: "fails with", "crashed at", "dies during", an exception's name
# with its message ("KeyError: 'layers.0...'"), in the line naming the family
_TOLD_FAILURE = re.compile(
    r"(?i)\b(?:fails?|failed|crash(?:es|ed)?|dies|died|aborts?|aborted)\s+(?:with|at|on|during|in)\b"
    r"|\b[A-Z]\w*(?:Error|Exception):\s"
    # "it throws the error below", "raised the following exception", "threw an error"
    r"|\b(?:throws?|threw|raises?|raised)\s+(?:(?:the|an?|this|that)\s+)?(?:(?:following|same|below)\s+)?(?:errors?|exceptions?)\b"
)


def _request_failure(line: LogLine, titles: TitleReader) -> bool:
    """In a thread titled as a feature request, the line tells the writer's run of a method
    failing (its family word and ``_TOLD_FAILURE``): a request may report the run that made
    the writer ask ("we run it on a fork ... but cannot do DSpark with it (draft loader fails
    with `KeyError: ...`)"), and that line shows the run."""
    if not _TOLD_FAILURE.search(line.text):
        return False
    told = any(_TOLD_FAILURE.search(s) and family_words(s) and not _WISH.search(s)
               for s in _SENTENCE_END.split(line.text))  # fmt: skip
    return told and any(t.source == line.source and REQUEST.search(t.text) for t in titles.titles)


_SENTENCE_END = re.compile(r"(?<=[.;!?。；！？])\s*")
# a sentence wishing or asking, not telling: "please add MTP", "would MTP fail with ...?"
_WISH = re.compile(r"(?i)\b(?:please|would|could|should|wish|hope|add|if)\b|\?|希望|请|能否")


def _adds_only(
    mentions: Sequence[Mention], source: str, headers: Sequence[Mention]
) -> list[tuple[str, str, int, str]]:
    """``(ADDS_MARK, ...)`` for a pull request whose title adds a method and whose text shows
    no run (no test, serve or benchmark command, no result): its words are the code's."""
    if not adds_only(mentions, source, headers):
        return []
    adds = [m for m in mentions if m.kind == ADDS_KIND and m.source == source]
    return [(ADDS_MARK, m.source, m.lineno, m.text) for m in adds[:1]]


def adds_only(
    mentions: Sequence[Mention], source: str, headers: Sequence[Mention] | None = None
) -> bool:
    """The text of ``source`` is a pull request whose title adds a method (or enables one) and
    which shows no run: the classes and files it names are the code it changes
    (``path_mentions.mention_votes`` takes no vote from them)."""
    if headers is None:
        headers = [m for m in mentions if m.kind == THREAD_KIND and m.source == source]
    pulls = {m.lineno for m in mentions if m.kind == PULL_KIND and m.source == source}  # any form's
    if not any(PULL_HEADER.search(m.text) or m.lineno in pulls for m in headers):
        return False
    if any(m.kind == RUN_KIND and m.source == source for m in mentions):
        return False
    return any(m.kind == ADDS_KIND and m.source == source for m in mentions)
