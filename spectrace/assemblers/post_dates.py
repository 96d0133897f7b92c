"""The day a thread says a post was written: the header of an issue, a comment or a review as
GitHub prints it (``opened this issue on Apr 14, 2026``, ``commented on Jan 3, 2025``) or as a
saved thread heads each post (``alice · comment · 2026-04-14``).

Why: a log pasted into a post ran before the post was written, so the post's day bounds the
release the run could hold (``sglang_eras.newest_at``) when no line names it. Only a post's own
header counts: a date inside a sentence ("broken since 2024-05-01", a checkpoint's name) can
be older than the run and would bound it wrongly. A header without a year (GitHub leaves the
current year out) gives no day; it is never guessed.
"""

from __future__ import annotations

import re
from datetime import date

# Prefilter literals: every line post_date reads contains one.
POST_DATE_LITERALS: tuple[bytes, ...] = (
    b" \xc2\xb7 ", b"opened ", b"commented ", b"posted ", b"merged ", b"Opened ", b"Posted ", b"Created",
    *(w.encode() for w in ("创建", "提交时间", "作成日", "작성일", "생성일", "Создано", "Дата создания", "Creado")),
)  # fmt: skip
_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}  # fmt: skip
_ISO = r"(\d{4})-(\d{2})-(\d{2})"
_WORDS = r"([A-Z][a-z]{2})[a-z]*\.? (\d{1,2}),? (\d{4})"  # Apr 14, 2026 / April 14 2026
# "bob · description · 2026-04-14", "· review thread · 2025-12-03T10:00:00Z" (a saved thread)
_HEADER = re.compile(
    r"^\s*\S[^·\n]{0,80} · [a-z][a-z ]{2,30} · " + _ISO + r"(?:[T ][\d:.]+Z?)?\s*$"
)
# GitHub's own: "bob opened this issue on Apr 14, 2026 · 3 comments", "alice (Member) commented
# on 2025-01-03 • edited", "merged 1 commit into main on Mar 3, 2026": the header is the whole
# line; a sentence ("I opened a similar issue on Jan 10, 2026 but ...", "the PR that was
# merged on Feb 2") dates another post or a change, not this one
_VERB = re.compile(
    r"(?i)^\s*(?:(?:\*\*)?@?(?!(?:I|we|you|they|he|she|it|this|that|the|a|an|my|our)\b)\w[\w.-]{0,38}"
    r"(?:\*\*)?\s+"
    r"(?:\((?:member|contributor|author|collaborator|owner)\)\s+)?)?"
    r"(?:opened|commented|posted|merged|replied)\b[^.\n]{0,60}?\bon\s+(?:"
    + _WORDS
    + "|"
    + _ISO
    + r")\b\s*(?:\(edited\)|[·•–—|-].*)?\s*$"
)


_YEARLESS = re.compile(
    r"(?i)\b(?:opened|commented|posted|replied)\b[^.\n]{0,60}?\bon\s+[A-Z][a-z]{2}[a-z]*\.? \d{1,2}\b(?!,? \d{4})"
)


def yearless_post(text: str) -> bool:
    """A GitHub header printed without its year (``commented on Jul 2``: this year's)."""
    return _YEARLESS.search(text) is not None


# GitHub's header, its year left out or not: "bob commented on Jul 2", "alice opened this issue
# on Nov 2, 2025 · 3 comments" (whose post it is, not when)
_BY = re.compile(
    r"^\s*(?:\*\*)?@?(?!(?:I|we|you|they|he|she|it|this|that|the|a|an|my|our)\b)(\w[\w.-]{0,38})"
    r"(?:\*\*)?\s+"  # a web copy's bold name: "**bob** commented on ..."
    r"(?:\((?:member|contributor|author|collaborator|owner)\)\s+)?"
    r"(?:opened|commented|posted|replied)\b",
    re.I,
)

# the header ends at the year-less day ("... on Jul 2", "... on Jul 2 · edited"): a sentence goes on
_YEARLESS_END = re.compile(r"\bon\s+[A-Z][a-z]{2}[a-z]*\.? \d{1,2}\s*(?:\(edited\)|[·•–—|-].*)?\s*$")

# a web copy's relative day: "bob commented 2 days ago", "ana opened this issue last week"
_RELATIVE_END = re.compile(
    r"(?i)\b(?:opened|commented|posted|replied)\b[^.\n]{0,40}?\s(?:(?:an?|\d{1,3})\s+(?:second|minute|hour"
    r"|day|week|month|year)s?\s+ago|yesterday|today|just now|last\s+(?:week|month|year))"
    r"\s*(?:\(edited\)|[·•–—|-].*)?\s*$"
)


def post_author(text: str) -> str | None:
    """The writer a post header on this line names ("alice · comment · 2026-01-12", "bob
    commented on Jul 2"), or None: a thread's posts are told apart by it (``config_posts``)."""
    if _HEADER.match(text) is not None:
        return text.split(" · ", 1)[0].strip().lstrip("@")
    by = _BY.match(text)
    ended = _YEARLESS_END.search(text) or _RELATIVE_END.search(text)
    if by is None or (_VERB.search(text) is None and ended is None):
        return None
    return by.group(1)


_OPENER = re.compile(r"(?i) · (?:description|issue|pull request|discussion) · |\bopened\b")


def opens_thread(text: str) -> bool:
    """The post header is the thread's first post, its reporter's ("ana · description · ...",
    "bob opened this issue on ..."), not a comment or review under it."""
    return post_author(text) is not None and _OPENER.search(text) is not None


# an issue digest's field (a dataset or a notes file listing threads: "## Issue #N: title",
# "**Link**: <url>", "**State**: closed", "**Created**: 2025-03-13T03:44:18+00:00"): the day the
# thread was opened, its first post's; a field (a line's start, or bold among fields a Markdown
# paragraph joined) holding a stamp with its time, so that no sentence or a card's "created" is read
_CREATED = re.compile(
    r"(?:^\s*(?:[-*]\s+)?(?:\*\*|__)?|(?:^|\s)(?:\*\*|__))(?:Created|Opened|创建时间|创建于|创建日期|提交时间"
    r"|作成日時?|작성일|생성일|Создано|Дата создания|Creado)(?: at)?(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__|`)?"
    + _ISO + r"[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2}| UTC)?(?:\*\*|__|`)?(?:\s|$)"
)


def post_date(text: str) -> date | None:
    """The day a post header on this line was written, or None."""
    if (header := _HEADER.match(text)) is not None:
        return _day(*header.groups())
    if (created := _CREATED.search(text)) is not None:
        return _day(*created.groups())
    if (verb := _VERB.search(text)) is None:
        return None
    month, day, year, iso_y, iso_m, iso_d = verb.groups()
    if iso_y is not None:
        return _day(iso_y, iso_m, iso_d)
    number = _MONTHS.get(month.lower())
    return _day(year, str(number), day) if number is not None else None


def _day(year: str, month: str, day: str) -> date | None:
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None
