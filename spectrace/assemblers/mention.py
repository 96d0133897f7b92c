"""An error named in prose, not printed by a process: an issue's title, a Markdown heading,
or a sentence that quotes the error ("The primary error is "CUDA error: ..."", "the server
dies with CUDA error: ..."). Such a line is a report of a crash, not a crash: it must not
become a second root cause beside the traceback it describes (incident_copies.py drops it or
keeps it as a warning), yet a paste whose only sign of the failure is that sentence keeps
it as its root cause, marked ``mentioned``: the reporter says the run died that way.

A line a process printed is never prose here: any header, rank, process tag, stamp or level
makes it a log line, and so does a bare ``RuntimeError: CUDA error: ...`` (nothing before it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spectrace.dialects.base import LogLine

MENTION_HINT = (
    "Only named in prose (an issue title or a sentence), not printed by a process: the text "
    "reports this error but shows no traceback or log line of it."
)
# where the error was named: a title that says the run died of it ("... crashes with X",
# "... failed by X", "服务崩溃，报 X"), a sentence, or a title that only labels the thread with
# an error (a feature request, an RFC, "kernel memory segmentation fault")
TITLE, SENTENCE, LABEL = "title", "sentence", "label"
# "# Server dies ...", "[Bug]: ...", "# [Bug] ...": the title lines of issue forms
_TITLE = re.compile(
    r"\s*(?:#{1,6}\s+\S|\[(?:bug|feature|usage|performance|installation|doc|docs|rfc|misc|"
    r"new model|question|help wanted|hardware|roadmap)\]:?\s)",
    re.IGNORECASE,
)
_EXCEPTION_AT = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): ")
_PLAN = re.compile(r"[\s#]*\[(?:feature|rfc|roadmap|doc|docs)\]", re.IGNORECASE)
# a title's words saying the run died or failed (English, Chinese, Japanese, Korean)
_DIED = re.compile(
    r"(?i)\b(?:crash\w*|fail\w*|dies|died|dying|abort\w*|killed)\b|崩溃|崩潰|失败|挂掉|挂了|宕机"
    r"|クラッシュ|落ちる|落ちた|크래시|죽"
)
# ``RuntimeError: `` / ``torch.AcceleratorError: `` in front of what a rule matched
_TYPE_BEFORE = re.compile(r"(?:[A-Za-z_][\w.]*(?:Error|Exception):\s*)+$")
_LIST_MARK = re.compile(r"\s*(?:[-*+>]\s+|\d{1,3}[.)]\s+)*")
_TOKEN = re.compile(r"\(?[A-Za-z0-9][A-Za-z0-9'’.-]*[,;:.!?)]?")  # a word of a sentence
_QUOTES = {'"': '"', "“": "”", "'": "'", "‘": "’", "`": "`"}
# a sentence's small words: a log message of the same shape rarely has two of them
_FUNCTION_WORDS = frozenset(
    "a an the is was are were be been with when while where which that this these those "
    "we i it its our my you they he she get gets got see saw seeing hit hits of in on to "
    "and but or also then after because if as same similar".split()
)


def is_log_line(line: LogLine) -> bool:
    """A writer, header, stamp or level says a process printed the line."""
    return bool(line.headed or line.stream or line.rank or line.ts or line.level or line.group)


@dataclass(frozen=True, slots=True)
class Mention:
    where: str  # TITLE, LABEL or SENTENCE
    close: str  # the quote that ends the named error, "" when unquoted


def mentioned(line: LogLine, text: str, start: int) -> Mention | None:
    """The error a rule matched at ``text[start:]`` as named in prose; None when a process
    printed it."""
    if is_log_line(line):
        return None
    if (title := _TITLE.match(text)) is not None:
        said = _DIED.search(text[:start]) is not None or _is_error_line(text, title.end(), start)
        return Mention(TITLE if said and not _PLAN.match(text) else LABEL, _closing(text[:start]))
    head = text[:start]
    typed = _TYPE_BEFORE.search(head)
    if typed is not None:
        head = head[: typed.start()]
    if head and head[-1] in _QUOTES:
        close = _QUOTES[head[-1]]
        return Mention(SENTENCE, close) if _quoted(head[:-1], text[start:], close) else None
    # unquoted: "the server dies with CUDA error: ..."
    return Mention(SENTENCE, "") if _sentence(head, words=4, small=2) else None


def _is_error_line(text: str, after_form: int, start: int) -> bool:
    """The title is the error line itself, behind a word or two naming the model or feature
    ("[Bug]: GLM4.5 RuntimeError: ...", "MLP Speculator AttributeError: ..."): what the run
    printed when it died, not a label such as "kernel memory segmentation fault"."""
    words = [w for w in text[max(after_form - 1, 0) : start].split()
             if not (w.startswith("[") and w.rstrip(":").endswith("]"))]  # fmt: skip
    if not words and text[start : start + 1] == "[":  # the line as its logger printed it,
        return True  # tag and all, behind the form alone: "# [TensorRT-LLM][ERROR] ..."
    return len(words) <= 3 and _EXCEPTION_AT.match(text, start) is not None


def reports_death(text: str, start: int) -> bool:
    """The words before the error on its own line say the run died or failed of it ("the
    server crashes with X"): a sentence that fixes, explains or quotes an error ("resolves the
    following error", "workers raise X") names no crash; nor does a line opening with it."""
    head = text[:start]
    return bool(head.strip(" \t`'\"“‘([*")) and _DIED.search(head) is not None


# a fix described, not a death reported: "This PR fixes the X", "to avoid X", a [Bugfix] title
_FIXES = re.compile(
    r"(?i)\b(?:fix(?:es|ed|ing)|resolv(?:es|ed|ing)|avoid(?:s|ed|ing)?|prevent(?:s|ed|ing)?|"
    r"(?:to|will|should|would|can|PR|commit|patch)\s+(?:fix|resolve|handle|catch|avoid|prevent))\b"
)
_FIXED_BY = re.compile(r"(?i)\b(?:PR|patch|commit|change)\s+(?:\w+\s+)?(?:fix|avoid|resolv|prevent)\w*")
_FIX_TAG = re.compile(r"(?i)\[[^\]]*fix[^\]]*\]")  # [Bugfix], [Hotfix], [Fix]
_FIX_VERB = re.compile(r"(?i)(?:fix|fixes|fixed|resolve|resolves|avoid|prevent|handle|revert)\b")
_TURN = re.compile(r"(?i)\b(?:still|again|but|now|yet)\b")  # "fixed X but now it crashes"
# a yes/no question asks whether it would fail ("Does it raise ValueError?"); "why/how" report
_ASKS = re.compile(
    r"(?i)(?:does|do|did|is|are|was|were|can|could|would|should|will|may|might|has|have)\b"
)
_TAGS = re.compile(r"\s*(?:#{1,6}\s*)?(?:\[[^\]]*\]:?\s*)*")


# an outcome told before it happens: a plan's or a test's expected result ("Expected: FAIL with
# `ImportError`", "**Expected output:** fails with X"), an outcome a step foresees ("should fail
# with X", "is expected to raise X", "will fail with X"): what a test is meant to show, no death
_EXPECTED = re.compile(
    r"(?i)^\W*expect(?:ed|ation)?(?:\s+(?:result|output|outcome|behaviou?r|failure))?\W{0,3}[:：]"
    r"|\b(?:should|will|must|(?:is|are)\s+expected\s+to|expected\s+to|ought\s+to)\s+(?:fail|raise|crash|error)"
)
# the report turning to what did happen ("Expected: it starts. Actual: fails with X")
_ACTUAL = re.compile(r"(?i)\b(?:actual(?:ly)?|instead|but|however|yet|got|observed)\b")


def expected_outcome(text: str, start: int) -> bool:
    """The words before the error tell the outcome a plan, a test or a step expects ("Expected:
    FAIL with `ImportError`", "this should fail with X"), with no turn to what happened."""
    head = text[:start]
    told = _EXPECTED.search(head)
    return told is not None and _ACTUAL.search(head, told.end()) is None


def not_a_report(said: Mention, text: str, start: int) -> bool:
    """A title or sentence that names an error without saying the run died of it: a fix
    described ("[Bugfix] Fix EAGLE crash with X", "This PR fixes the X"), a yes/no question
    ("Does it raise ValueError: ...?") or an expected outcome (``expected_outcome``). A PR page
    or a reply is not the run that crashed."""
    head = text[:start]
    if expected_outcome(text, start):
        return True
    if said.where == TITLE:
        tags = _TAGS.match(text).end()  # type: ignore[union-attr]
        lead = text[tags:]
        if _FIX_TAG.search(text, 0, tags) or _FIX_VERB.match(lead):
            return True
    else:
        lead = text[_LIST_MARK.match(text).end() :]  # type: ignore[union-attr]
    fix = _FIXES.search(head)
    if fix is not None and _TURN.search(head, fix.end()) is None:
        return True
    end = re.search(r"[.!]\s", text[start:])
    clause = text[start : start + end.start()] if end else text[start:]
    if _FIXED_BY.search(clause):  # "crashed with X, which this PR avoids"
        return True
    return _ASKS.match(lead) is not None and "?" in clause


# words that end right before an error the run died of: "fails with X", "crashed due to X"
_DIED_OF = re.compile(
    r"(?i)(?:\b(?:crash\w*|fail\w*|dies|died|abort\w*|killed)\b[:,]?\s*"
    r"(?:(?:with|by|due to|because of|from|on)\s+)?(?:an?\s+|the\s+)?"
    r"|(?:崩溃|失败|挂掉|宕机)[，,]?\s*报?\s*)$"
)


def died_of(text: str, start: int) -> bool:
    """The words right before a bare exception name say the run died of it ("DeepSeek MTP
    fails with AssertionError when ..."): with no message after the name, only that
    adjacency tells a report from a sentence that merely names a class."""
    return _DIED_OF.search(text[:start].rstrip(" `*'\"“‘(")+" ") is not None


def _closing(head: str) -> str:
    """The quote that closes an error a title quotes (``reports “AttributeError: ...”``)."""
    head = head[: m.start()] if (m := _TYPE_BEFORE.search(head)) is not None else head
    return _QUOTES.get(head[-1:], "") if head else ""


def clip(message: str, close: str) -> str:
    """A quoted mention's message ends where its quote does."""
    return message.split(close, 1)[0].rstrip(" ,.") if close else message


def _quoted(before: str, rest: str, close: str) -> bool:
    """A quote that opens after sentence words, or one a list item opens whose closing quote
    sentence words follow (``1. `TypeError: ...` in `hook.py` unless ...``)."""
    if _sentence(before, words=2, small=1):
        return True
    end = rest.find(close)
    if end < 0 or _LIST_MARK.fullmatch(before) is None:
        return False
    after = re.findall(r"[A-Za-z']+", rest[end + 1 :])
    return any(w.lower() in _FUNCTION_WORDS for w in after)


def _sentence(text: str, *, words: int, small: int) -> bool:
    """Only sentence words (after a list marker): ``words`` or more, ``small`` of them small."""
    text = text[_LIST_MARK.match(text).end() :]  # type: ignore[union-attr]
    tokens = text.split()
    if len(tokens) < words or not all(_TOKEN.fullmatch(t) for t in tokens):
        return False
    found = sum(t.strip("(),;:.!?").lower() in _FUNCTION_WORDS for t in tokens)
    return found >= small
