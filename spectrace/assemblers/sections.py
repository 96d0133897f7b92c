"""A Markdown section heading or list caption that sets the lines under it apart from the
reported run (``### Previous setup (worked)``, ``Old env:``), and a feature form's wish sections.

Reports keep an earlier or another setup beside their own under a heading; a method named under
it is not the crashed run's. Shared by the vLLM environment-bullet reader (``vllm_stated``) and
the family words of ``path_mentions``, so both read a section the same way.

A review shows code, not a run: the lines of a diff under a review comment's anchor
(``docs/source/blogs/blog10.md:108`` alone on a line, "Comment on line R215") or anywhere in a
pull request are the change under review, a command on its ``+`` lines included
(``reviewed_lines``).

A feature request's form asks for what does not run yet: a launch command under its "Proposed
Solution", "Alternatives" or "The feature, motivation and pitch" heading (or "Motivation" in a
thread that is a request) is the writer's wish, never a run (``wish_lines``: the config
collector reads the text without them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from spectrace.assemblers.not_run import NotRun, read_apart
from spectrace.assemblers.post_dates import post_author
from spectrace.assemblers.diff_view import ADDED_LAUNCH
from spectrace.assemblers.run_bound import RECORD_SHAPE, result_told
from spectrace.assemblers.run_results import heading_tested
from spectrace.assemblers.thread_head import PULL_LINE
from spectrace.dialects.base import LogLine

# a Markdown section heading reaches the reader; so do a feature form's headings, which a web
# copy prints without their bold marks ("Proposed solution", "Describe alternatives ..."); and
# so does a tracker's request label ("kind/feature", "enhancement")
HEADING_LITERALS: tuple[bytes, ...] = (b"## ", b"roposed ", b"roposal", b"lternative",
                                       b"otivation", b"olution you", b".md:", b".rst:",
                                       b"omment on line", b"Features",
                                       b"kind/feature", b"nhancement", b"ttempt |", b"ttempts |",
                                       b"ried |",
                                       # a wish section's proposal words (``_PROPOSED``)
                                       b"ropos", b"uch as", b"n the form", b"ike this", b"ooks like",
                                       b"ook like", b"e.g.", b"or example", b"hould print", b"hould log",
                                       b"ould print", b"ould log", b"hould show", b"ould show",
                                       # a caption of what comes after the run (``_NEXT``)
                                       b"ext step", b"ext Step", b"ollow-up", b"ollow up", b"uture work",
                                       "下一步".encode(), "后续".encode(), "今後の".encode())  # fmt: skip (a table header of attempts, its border peeled)
# a thread that asks for a feature or discusses a plan: its title's tag (``# [Feature]: MTP
# support on 310P``, ``[RFC]``, ``[Roadmap]``) or its tracker labels (``labels: feature request``,
# ``kind/feature``, ``enhancement``)
REQUEST = re.compile(
    r"(?i)^\W{0,6}\[(?:feature(?:[ _-]?request)?|rfc|roadmap|proposal|discussion|new feature"
    r"|docs?|documentation)\b"
    r"|^\s*labels?\s*:.*\b(?:feature[ _-]?request|rfc|roadmap|new[ _-]feature|kind/feature|enhancement)\b"
)
# a feature form's heading over a wish (GitHub's templates, sglang's, vLLM's, TensorRT-LLM's),
# as a Markdown heading or a bold line a web copy prints bare
_WISH_WORDS = (
    r"(?:describe\s+)?(?:the\s+|your\s+)?(?:proposed(?:\s+\w+)?|alternatives?\b[^.`]{0,40}"
    r"|proposal(?!\s+to\s+improve\s+performance)"  # vLLM's performance form: the report's own
    r"|(?:the\s+)?feature,?\s+motivation|solution you'?d like|suggested (?:solution|approach)"
    r"|desired (?:behaviou?r|solution|api|usage|interface))"
)
_WISH = re.compile(r"(?i)^\s*(?:#{2,6}\s+)?\W{0,4}" + _WISH_WORDS + r"[^.`=]{0,60}$")
_MOTIVATION = re.compile(r"(?i)^\s*(?:#{2,6}\s+)?\W{0,4}motivation\b[^.`=]{0,40}$")
_ANY_HEADING = re.compile(r"^\s*#{1,6}\s")
# a saved thread's title (``# EAGLE3 with page size 64``) among a text's first lines, and a
# bug report's tag, which keeps it the report's subject
_TITLE = re.compile(r"^\s*#\s+\S")
_TITLE_WITHIN = 4
_BUG = re.compile(r"(?i)\[\s*bug")
# a heading only a feature form has (sglang's "### Related resources" under its Motivation)
_REQUEST_FORM = re.compile(r"(?i)^\s*#{2,6}\s+related resources\b")
# a changelog's own bullet heading ("* Features", "- New Features"): the bullets under it are
# the release's code, not a run (a pull request syncing a release, release notes pasted)
_CHANGELOG = re.compile(r"(?i)^\s*[-*+]\s+(?:\*\*)?(?:new |key )?features(?:\*\*)?\s*:?\s*$")
# a section heading or a caption over a list (``### Previous setup (worked)``, ``Old env:``);
# a saved thread's ``# title`` is the thread's subject, not a section
_HEADING = re.compile(r"^\s*(?:#{2,6}\s|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][^:]{0,60}:\s*$)")
# what the writer means to do after the reported run ("## Next steps", "Follow-ups:", "下一步"):
# the methods and engines its items name are plans, not the run's
_NEXT = r"next steps?|follow[- ]?ups?|future work|下一步|后续(?:计划|工作|步骤)|今後の(?:課題|予定)"
_ASIDE = re.compile(
    r"(?i)\b(?:previous|old|older|earlier|before|worked|working|works|baseline|reference"
    r"|expected|other|another|colleague|their|his|her|release notes?|changelog|highlights"
    rf"|what'?s new)\b|{_NEXT}"
)
# a caption over the list below it, alone or as a paragraph's last sentence ("下一步：", "... is not
# viable. Potential next steps:")
_TAIL_CAPTION = re.compile(r"(?:^|[.!?。])\W*([^.!?。:：]{1,60})[:：]\s*\**\s*$")
_NEXT_CAPTION = re.compile(rf"(?i){_NEXT}")
# a section that holds the writer's way around the crash (``## Workaround``, ``临时解决方案:``,
# ``### 回避策``): its config is another run than the crashed one; not a list of workarounds
# that failed too (``### Workarounds tried (all fail)``), which are the crashed setup's variants
_WORKAROUND = re.compile(
    r"(?i)\bwork-?arounds?\b|\btemporary (?:fix|solution)\b|临时(?:解决|规避)?(?:方案|方法|办法)"
    r"|规避(?:方案|方法|办法)|绕过(?:方案|方法|办法)|回避策|обходн\w*\s+пут\w*|solución temporal"
    r"|solução temporária|contournement|umgehung"
)
_TRIED = re.compile(r"(?i)\btried\b|\battempt|\bfail|\bnot work|n't work|\bno effect")


def heading_aside(text: str, before: bool) -> bool:
    """Whether the lines after ``text`` sit under a heading that sets them apart from the
    reported run (``### Previous setup (worked)``); ``before``: the state above ``text``."""
    if _CHANGELOG.match(text):
        return True
    if not _HEADING.match(text):
        return before
    return _ASIDE.search(text) is not None or workaround_heading(text)


def _next_caption(text: str) -> bool:
    """The line heads or captions what the writer means to do next ("## Next steps", "下一步：",
    "... is not viable. Potential next steps:")."""
    if _HEADING.match(text):
        return _NEXT_CAPTION.search(text) is not None
    tail = _TAIL_CAPTION.search(text)
    return tail is not None and _NEXT_CAPTION.search(tail.group(1)) is not None


# a table's header row heading what was tried ("| Attempt | Result |", "| Tried | Outcome |")
_TRIED_HEADER = re.compile(r"(?i)^\s*\|\W*(?:attempts?|tried|what (?:we |I )?tried)\W*\|")


def heading_tried(text: str, before: bool) -> bool:
    """Whether the lines after ``text`` sit under a heading over what the writer tried on their
    setup (``## Levers tried``, ``### Attempts``, a table headed ``| Attempt | Result |``): each
    row's outcome is a run of that setup, not a known issue or a plan; ``before``: the state
    above ``text``. Any other heading ends it."""
    if _TRIED_HEADER.match(text):
        return True
    if not _ANY_HEADING.match(text) or _TITLE.match(text):
        return before
    return _TRIED.search(text) is not None


def workaround_heading(text: str) -> bool:
    """A section heading over the writer's way around the crash, not over ones that failed."""
    return _WORKAROUND.search(text) is not None and _TRIED.search(text) is None


def wish_lines(lines: Iterable[LogLine]) -> frozenset[tuple[str, int]]:
    """(source, line) of each line under a feature form's wish heading, the heading included,
    up to the next heading or post; "Motivation" only in an issue that asks for a feature (a
    request tag or label, or another wish heading), never in a pull request. A log record there
    (its engine's prefix or a cut one: a clock, a logger's source tag) is no wish where nothing
    above it in the section proposes it (``_PROPOSED``) and no field of it is a blank to fill in:
    the writer's run printed it, as the motivation's evidence."""
    by_source: dict[str, list[LogLine]] = {}
    for line in lines:
        by_source.setdefault(line.source, []).append(line)
    out: set[tuple[str, int]] = set()
    for source, held in by_source.items():
        wishes = [ln for ln in held if _WISH.match(ln.text) or _REQUEST_FORM.match(ln.text)]
        request = bool(wishes) or any(REQUEST.search(ln.text) for ln in held)
        if not request:
            continue
        if wishes:  # a feature form: its title names the feature asked for, no run's
            out.update((source, ln.lineno) for ln in held[:_TITLE_WITHIN]
                       if _TITLE.match(ln.text) and not _BUG.search(ln.text))  # fmt: skip
        pull = any(PULL_HEADER.search(ln.text) for ln in held)
        inside = proposed = False
        for line in held:
            if not line.quoted and post_author(line.text) is not None:
                inside = False
            elif _WISH.match(line.text) or (_MOTIVATION.match(line.text) and not pull):
                inside, proposed = True, False  # a PR's Motivation states the bug it fixes, its repro included
            elif _ANY_HEADING.match(line.text):
                inside = False
            record = line.headed or RECORD_SHAPE.search(line.text) is not None
            proposed = proposed or (inside and not record and _PROPOSED.search(line.text) is not None)
            if inside and not (record and not proposed and not _TEMPLATE_FIELD.search(line.text)) and not (
                    _TRIED_FAILED.search(line.text) and not _WANTED.search(line.text)):
                out.add((source, line.lineno))
    return frozenset(out)


# a wish section's words that put what follows forward as wanted, not seen ("I propose a record
# such as:", "the worker should log, in the form:", "### Proposed solution"): a record below them
# is the proposal's; one the section quotes from the writer's run ("From this morning's start-up:")
# is what their run printed, its motivation's evidence
_PROPOSED = re.compile(
    r"(?i)\bpropos\w*|\bsuch as\b|\bin the form\b|\blike this\b|\blooks? like\b|\be\.g\.|\bfor example\b"
    r"|\b(?:should|could|would|must)\s+(?:\w+\s+)?(?:print|log|show|emit|report|output|say|read)\b"
)
# the writer's own attempt and its failure in one sentence ("When I try to deploy the X head, it
# throws the error below", "we launched it with X and it crashed"): the motivation's evidence, a run
# of the writer's; not when the sentence wants it ("it should not fail when we run X")
_TRIED_FAILED = re.compile(
    r"(?i)\b(?:I|we)\s+(?:try|tried|ran|run|deploy(?:ed)?|launch(?:ed)?|serve[ds]?|start(?:ed)?)\b"
    r".{0,120}?\b(?:throws?|threw|fails?|failed|crash(?:es|ed)?|raises?|raised|errors? out|dies|died|hangs?)\b"
)
_WANTED = re.compile(r"(?i)\b(?:should|would|could|wish|want|hope|expect\w*|if)\b")
_TEMPLATE_FIELD = re.compile(r"<[A-Za-z][\w .-]{0,30}>|\{[a-z_]+\}")  # a record's field left to fill in


# a review comment's anchor as GitHub prints it over the commented hunk: a path with a line
# (``docs/source/blogs/blog10.md:108``, backticked or bold), or "Comment on line R215"
_ANCHOR = re.compile(
    r"^\s*[`*]*(?:[\w.@+-]+/)*[\w.-]+\.[A-Za-z]{1,5}:\d+(?:-\d+)?[`*]*\s*$"
    r"|^\s*Comment on lines? [RL]?\d+"
)
# a saved pull request thread's header ("owner/repo · pull request #123 · ...", and the citations
# "owner/repo PR#123 · pull request · open", "owner/repo#123 · merged": ``thread_head``)
PULL_HEADER = PULL_LINE


def reviewed_lines(lines: Iterable[LogLine]) -> frozenset[tuple[str, int]]:
    """(source, line) of each diff line (``+x``, ``-x``, ``@@``) under a review anchor, up to
    the next line that is not one, and of every diff line of a pull request's thread: code under
    review, not a run. Outside a review anchor, a launch line the diff adds (an option, an
    engine variable, the server's entry: ``diff_view.ADDED_LAUNCH``) in a thread whose own lines
    report a result (``run_bound.result_told``: a figure measured, the writer's run told) is the
    recipe that run used, as a recipe pull request reporting its results shows it."""
    lines = list(lines)
    out: set[tuple[str, int]] = set()
    pulls: set[str] = set()
    under: dict[str, bool] = {}
    ran = _ran_sources(lines)
    for line in lines:
        if PULL_HEADER.search(line.text):
            pulls.add(line.source)
        if _ANCHOR.match(line.text):
            under[line.source] = True
        elif _hunk_line(line.text):
            if under.get(line.source) or (line.source in pulls and not (
                    line.source in ran and ADDED_LAUNCH.match(line.text))):  # fmt: skip
                out.add((line.source, line.lineno))
        elif _DIFF_FENCE.match(line.text):
            continue  # the fence opening a commented hunk keeps its anchor
        elif line.text.strip():
            under[line.source] = False
    return frozenset(out)


_DIFF_FENCE = re.compile(r"^\s*`{3,}\s*diff\s*$")


def _ran_sources(lines: Sequence[LogLine]) -> frozenset[str]:
    """The sources a line of which, not a diff's nor a quote's nor a log record's, reports a
    result the writer got (``run_bound.result_told``)."""
    return frozenset(line.source for line in lines
                     if not (line.quoted or line.headed or diff_line(line.raw) or diff_line(line.text))
                     and result_told(line.text))  # fmt: skip


# a search of the source: a grep command opening its line (grep, egrep, rg, git grep: not one a
# launch pipes its output through) or one of its hits, a file
# under its folder with a line number and a colon or dash, then the code the search printed
# (``python/sglang/srt/speculative/spec_info.py:31:    FROZEN_KV_MTP = auto()``, a CI log's stamp
# before it); a logger's own ``server_args.py:1500:`` names no folder
_GREP_COMMAND = re.compile(
    r"^\s*(?:\S*\d:\d\d\S*\s+)?(?:##\[group\]Run\s+|[$+>]\s+)?(?:e?grep|rg|git\s+grep)\s+(?:-[\w-]+\s+)*[\"'\w]"
)
_GREP_HIT = re.compile(
    r"^\s*(?:\S*\d:\d\d\S*\s+)?(?:\./)?(?:[\w.@+-]+/)+[\w.@+-]+\.\w{1,5}:\d+[:-]"
    r"(?![ \t]*(?:in [\w<]|\w*(?:Error|Exception|Warning|Failure)\b))"  # a pytest frame, a warning: code that ran
)


def grep_line(text: str) -> bool:
    """The line searches the source or is what a search printed: the names in it are code a
    reader looked for (a CI job's audit, a how-to), not a run's words."""
    return _GREP_HIT.match(text) is not None or _GREP_COMMAND.match(text) is not None


def diff_line(text: str) -> bool:
    """``+code``, ``--- a/x.py``, ``@@ -8,6``, ``-    code`` (a bullet ``- text`` is prose, and a
    command's flag ``--speculative-config {...} \\`` is a launch's continuation line)."""
    body = text.lstrip(" >")
    if body.startswith(("+", "--- ", "@@", "diff --git", "index ")):
        return True
    if body.startswith("--") and body[2:3].isalpha():
        return False
    if _SHORT_OPTION.match(body):  # "-e SPEC_ALGORITHM=dspark -e X=6 \\": a command's short options
        return False
    return body.startswith("-") and not (body[1:2] == " " and body[2:3].strip())


# a command's continuation line of short options ("  -e TP_SIZE=8 -v /m:/model \\", as a
# `docker run` or `srun` wraps): each option a letter, a space, a value, the line continuing
_SHORT_OPTION = re.compile(r"-[A-Za-z] +[^\s-]\S*(?: +-{1,2}[A-Za-z][\w-]*(?:[ =]+[^\s-]\S*)?)* *\\$")


def _hunk_line(text: str) -> bool:
    """A diff line, and not a command's continuation line (``    --tp 4 \\``, a flag)."""
    body = text.lstrip(" >")
    return diff_line(text) and (not body.startswith("--") or body.startswith("--- "))


def not_run_lines(lines: Sequence[LogLine], apart: NotRun | None = None) -> frozenset[tuple[str, int]]:
    """The lines no run's config is read from: wishes, code under review, and every block
    ``not_run`` sets apart (an example, advice, a review comment, a docs quotation, a goal;
    ``apart``: those blocks when already read)."""
    apart = read_apart(lines) if apart is None else apart
    return (wish_lines(lines) | reviewed_lines(lines) | apart.lines(lines)
            | workaround_lines(lines) | next_step_lines(lines))


def next_step_lines(lines: Iterable[LogLine]) -> frozenset[tuple[str, int]]:
    """(source, line) of each line under a caption of the writer's next steps, up to the next
    heading: a release, an engine or a method an item names ("- Rerun it on SGLang 0.5.9") is
    a run still to come, not the reported one."""
    out: set[tuple[str, int]] = set()
    under: dict[str, bool] = {}
    for line in lines:
        if _next_caption(line.text):
            under[line.source] = True
            continue  # (a paragraph ending in the caption tells the run before it)
        if _HEADING.match(line.text) or (not line.quoted and post_author(line.text) is not None):
            under[line.source] = False
        if under.get(line.source):
            out.add((line.source, line.lineno))
    return frozenset(out)


def workaround_lines(lines: Iterable[LogLine]) -> frozenset[tuple[str, int]]:
    """(source, line) of each line under a workaround heading, up to the next heading: the
    run the writer got working, whose method is not the crashed run's ("## Workaround / Force
    the eagle3 proposer" under a crash that fell to the draft-model proposer)."""
    out: set[tuple[str, int]] = set()
    under: dict[str, bool] = {}
    for line in lines:
        if _HEADING.match(line.text):
            under[line.source] = workaround_heading(line.text)
        elif not line.quoted and post_author(line.text) is not None:
            under[line.source] = False  # another post: its own report
        if under.get(line.source):
            out.add((line.source, line.lineno))
    return frozenset(out)
