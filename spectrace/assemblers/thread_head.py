"""A pasted thread's head -> where it was filed: the one reader of every way people copy it.

Why: a report's tracker names the framework whose run it reports (``thread_repo``), its kind
says whether the text is a pull request (the PR gates) and its title what the thread is about
(``thread_title``). Users and graders copy a thread in many forms, and each names these:

- the search index's header ``owner/repo · issue #N · open`` (its ``# title`` below);
- a citation ``owner/repo#N · issue · closed · labels: ...``, ``owner/repo#N · closed``,
  ``owner/repo pull request #N · merged``, ``owner/repo PR#N · pull request · open`` (the title
  usually the line above);
- a browser's page title ``<title> · Issue #N · owner/repo`` (`` · GitHub`` after it or not);
- the thread's URL alone on a line (``https://github.com/owner/repo/pull/N#issuecomment-1``);
- a notification mail's subject ``[owner/repo] <title> (Issue #N)`` / ``(PR #N)`` / ``(#N)``;
- ``Issue #N: <title>`` / ``PR #N: <title>`` (no repository);
- GitHub's web copy: ``<title> #N``, then ``Open``/``Closed``/``Merged`` or ``<user> opened this
  issue on <date>`` / ``<user> wants to merge N commits into main from ...`` (the repository
  only where the page's ``owner / repo`` breadcrumb or a URL line was copied with it).

The forms with `` · `` fields are read on any line: no sentence is written that way. The others
(a URL, a mail subject, ``Issue #N:``, a web copy) name the thread only in its head: its first
lines, before the first post's header. A link or ``owner/repo#N`` in a comment or sentence ("see
vllm-project/vllm#123", "fixed by https://github.com/vllm-project/vllm/pull/9") names another
thread, never this one's tracker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spectrace.assemblers.post_dates import post_author
from spectrace.dialects.base import LogLine

HEAD_LINES = 12  # a thread's head: its first lines (before the first post's header)
# Prefilter literals (config_literals, through thread_title): the head forms without " · "
HEAD_LITERALS: tuple[bytes, ...] = (b"github.com/", b"Issue #", b"PR #", b"Pull Request #",
                                    b"opened this", b"wants to merge", b"commits into")  # fmt: skip

_REPO = r"[A-Za-z0-9][\w-]*/[\w.-]*\w"
_KINDS = {"issue": "issue", "issues": "issue", "pull request": "pull", "pr": "pull", "pull": "pull",
          "pulls": "pull", "discussion": "discussion", "discussions": "discussion"}  # fmt: skip
_KIND = r"(?:issue|pull request|pr|discussion)"
_STATE = re.compile(r"(?i)^(open|opened|closed|merged|draft|locked|answered|unanswered)\b")

# ``owner/repo · issue #N · open · Python``
_INDEX = re.compile(rf"(?i)^\s*(?P<repo>{_REPO})\s+·\s+(?P<kind>{_KIND})\s+#(?P<num>\d{{1,9}})\b(?P<rest>.*)$")
# ``owner/repo#N · issue · closed``, ``owner/repo pull request #N · merged``, ``owner/repo PR#N``
_CITED = re.compile(
    rf"(?i)^\s*(?P<repo>{_REPO})\s*(?:(?P<kind>{_KIND})\s*)?#(?P<num>\d{{1,9}})(?P<rest>(?:\s+·\s+[^·]*)*)$"
)
# ``<title> · Issue #N · owner/repo`` (`` · GitHub``): a browser's page title
_PAGE = re.compile(
    rf"(?i)^\s*(?P<title>\S.*?)\s+·\s+(?P<kind>{_KIND})\s+#(?P<num>\d{{1,9}})\s+·\s+(?P<repo>{_REPO})"
    r"(?:\s+·\s+GitHub)?\s*$"
)
# a PR page's title ends with its author: "Fix MTP hang by alice · Pull Request #9 · ..."
_BY_AUTHOR = re.compile(r"\s+by\s+[\w-]+(?:\[bot\])?$")
# the thread's URL alone on a line, maybe labelled (``**Link**: <url>``, an issue digest's field;
# ``- **链接**：<url>`` in a dump's own language) or in angle brackets
_URL = re.compile(
    rf"(?i)^\s*(?:[-*]\s+)?(?:(?:\*\*|__)?(?:url|link|source|thread|issue|pr|pull request|链接|地址|来源|原文"
    r"|issue\s?链接|リンク|링크|ссылка|enlace)(?:\*\*|__)?\s*[:：]\s*)?"
    r"<?https?://(?:www\.)?github\.com/"
    rf"(?P<repo>{_REPO})/(?P<kind>issues|pulls?|discussions)/(?P<num>\d{{1,9}})(?:/[\w/-]*)?(?:[#?]\S*)?>?"
    r"(?:\s+(?:\*\*|__)\w[\w ]{0,20}(?:\*\*|__)\s*:.*)?\s*$"  # the digest's next fields, joined as one paragraph
)
# a notification mail's subject: "Re: [owner/repo] <title> (Issue #N)"
_MAIL = re.compile(
    rf"(?i)^\s*(?:(?:re|fwd?)\s*:\s*)*\[(?P<repo>{_REPO})\]\s+(?P<title>\S.*?)\s+"
    rf"\((?:(?P<kind>{_KIND})\s+)?#(?P<num>\d{{1,9}})\)\s*$"
)
# an issue wiki's or a notes file's heading: "# owner/repo#N: <title>", "owner/repo issue #N - <title>"
_CITED_TITLED = re.compile(
    rf"(?i)^\s*(?:#{{1,6}}\s+)?(?P<repo>{_REPO})\s*(?:(?P<kind>{_KIND})\s*)?#(?P<num>\d{{1,9}})"
    r"\s*[:–—-]\s+(?P<title>\S.*)$"
)
# "Issue #N: <title>", "PR #N - <title>"
# (an issue digest's heading "## Issue #N/A: <title>": its number left out, its URL on a line below)
_NAMED = re.compile(
    rf"(?i)^\s*(?:#{{1,6}}\s+)?(?P<kind>{_KIND})\s*#(?P<num>\d{{1,9}}|N/A)\s*[:–—-]\s+(?P<title>\S.*)$"
)
# GitHub's web copy: the title with its number, then its state or its opener's line
_WEB_TITLE = re.compile(r"^\s*(?P<title>\S.*?\S)\s+#(?P<num>\d{1,9})\s*$")
_WEB_STATE = re.compile(r"(?i)^\s*(open|closed|merged|draft)\s*$")
_WEB_OPENED = re.compile(
    r"(?i)\b(?:opened this (?P<kind>issue|pull request|discussion)"
    r"|(?P<merge>wants to merge|merged) \d+ commits? into)\b"
)
# the page's breadcrumb: "vllm-project / vllm"
_CRUMB = re.compile(r"^\s*(?P<owner>[A-Za-z0-9][\w-]*)\s+/\s+(?P<name>[\w.-]*\w)\s*$")


# a pull request's head line in the forms with `` · `` fields (``sections.PULL_HEADER``: the
# lines of such a thread are its code under review)
PULL_LINE = re.compile(
    rf"(?i)·\s*pull request\s*#\d|^\s*{_REPO}\s*(?:pull request|pr)\s*#\d+\s+·"
    rf"|^\s*{_REPO}#\d+\s+·\s+(?:pull request|pr)\s*(?:·|$)|^\s*{_REPO}#\d+(?:\s+·\s+[^·]*?)*\s+·\s+merged\b"
)


@dataclass(frozen=True, slots=True)
class Head:
    """A line that names the thread a text was copied from."""

    source: str
    lineno: int
    repo: str | None  # owner/repo as written; None where the form names none
    number: int
    kind: str | None  # "issue" | "pull" | "discussion"; None where the form does not say
    title: str | None  # the title the line itself holds; None: on a line of its own
    state: str | None  # "open", "closed", "merged", ... where written
    shape: str  # "index" | "cited" | "page" | "url" | "mail" | "named" | "web"

    @property
    def pull(self) -> bool:
        """The thread is a pull request."""
        return self.kind == "pull"


def _kind(word: str | None) -> str | None:
    return _KINDS.get(" ".join(word.lower().split())) if word else None


def _fields(rest: str) -> tuple[str | None, str | None]:
    """(kind, state) of a header's `` · `` fields after its number."""
    kind = state = None
    for field in (f.strip() for f in rest.split("·")):
        if kind is None and (k := _kind(field)) is not None:
            kind = k
        elif state is None and (s := _STATE.match(field)) is not None:
            state = s.group(1).lower()
    return kind, state


def head_line(text: str, source: str = "", lineno: int = 0) -> Head | None:
    """The head a line is by itself (the forms with `` · `` fields), wherever it stands."""
    if (m := _INDEX.match(text)) is not None:
        _, state = _fields(m.group("rest"))
        return Head(source, lineno, m.group("repo"), int(m.group("num")), _kind(m.group("kind")),
                    None, state, "index")  # fmt: skip
    if (m := _PAGE.match(text)) is not None:
        kind = _kind(m.group("kind"))
        title = _BY_AUTHOR.sub("", m.group("title")) if kind == "pull" else m.group("title")
        return Head(source, lineno, m.group("repo"), int(m.group("num")), kind, title, None, "page")
    if (m := _CITED.match(text)) is not None and m.group("rest").strip():
        kind, state = _fields(m.group("rest"))
        kind = _kind(m.group("kind")) or kind or ("pull" if state == "merged" else None)
        if kind is not None or state is not None:  # "· labels: x" alone is no header
            return Head(source, lineno, m.group("repo"), int(m.group("num")), kind, None, state, "cited")
    return None


def _positional(text: str, source: str, lineno: int) -> Head | None:
    """The head forms read only in a thread's head: a URL, a mail subject, ``Issue #N:``."""
    if (m := _URL.match(text)) is not None:
        return Head(source, lineno, m.group("repo"), int(m.group("num")), _kind(m.group("kind")),
                    None, None, "url")  # fmt: skip
    if (m := _MAIL.match(text)) is not None:
        return Head(source, lineno, m.group("repo"), int(m.group("num")), _kind(m.group("kind")),
                    m.group("title"), None, "mail")  # fmt: skip
    if (m := _CITED.match(text)) is not None:  # "owner/repo#N" alone on a head line
        return Head(source, lineno, m.group("repo"), int(m.group("num")), _kind(m.group("kind")),
                    None, None, "cited")  # fmt: skip
    if (m := _CITED_TITLED.match(text)) is not None:
        return Head(source, lineno, m.group("repo"), int(m.group("num")), _kind(m.group("kind")),
                    m.group("title").strip(), None, "cited")  # fmt: skip
    if (m := _NAMED.match(text)) is not None:
        number = int(m.group("num")) if m.group("num").isdigit() else 0  # N/A: the URL below gives it
        return Head(source, lineno, None, number, _kind(m.group("kind")), m.group("title").strip(), None, "named")
    return None


@dataclass(slots=True)
class _Source:
    posted: bool = False  # its first post's header has been read: the head is over
    crumb: str | None = None  # the web page's "owner / repo" breadcrumb
    url: Head | None = None  # the URL line of its head
    web: Head | None = None  # a web copy's "<title> #N" line, until its state line confirms it
    heads: list[Head] | None = None


class HeadReader:
    """Fed the lines of texts in order (all of them, or a filtered few: the head is told by
    line number); ``feed`` answers the head a line completes, ``heads`` every one found."""

    def __init__(self) -> None:
        self._sources: dict[str, _Source] = {}
        self.heads: list[Head] = []

    def feed(self, line: LogLine) -> Head | None:
        """The head this line names or completes, if any."""
        text = line.raw.rstrip("\n") if line.raw else line.text
        state = self._sources.setdefault(line.source, _Source())
        head = head_line(text, line.source, line.lineno)
        if head is None and not line.quoted and not state.posted and line.lineno <= HEAD_LINES:
            head = self._head_only(text, line, state)
        if head is None and post_author(text) is not None:
            state.posted = True
        if head is not None:
            self.heads.append(head)
        return head

    def _head_only(self, text: str, line: LogLine, state: _Source) -> Head | None:
        if (head := _positional(text, line.source, line.lineno)) is not None:
            if head.shape == "url":
                state.url = head
                if state.web is not None:  # the page's title was read above it: one head
                    return self._web(state, None, head.repo)
            return head
        if (crumb := _CRUMB.match(text)) is not None:
            state.crumb = f"{crumb.group('owner')}/{crumb.group('name')}"
            return None
        if (web := _WEB_TITLE.match(text)) is not None and state.web is None:
            state.web = Head(line.source, line.lineno, None, int(web.group("num")), None,
                             web.group("title"), None, "web")  # fmt: skip
            return None
        if state.web is None:
            return None
        if (shown := _WEB_STATE.match(text)) is not None:
            status = shown.group(1).lower()
            return self._web(state, "pull" if status == "merged" else None, None, status)
        if (opened := _WEB_OPENED.search(text)) is not None:
            return self._web(state, "pull" if opened.group("merge") else _kind(opened.group("kind")), None)
        return None

    def _web(self, state: _Source, kind: str | None, repo: str | None, status: str | None = None) -> Head:
        """A web copy's head, its title line confirmed by the state or opener line under it."""
        web = state.web
        assert web is not None
        url = state.url if state.url is not None and state.url.number == web.number else None
        repo = repo or (url.repo if url is not None else state.crumb)
        head = replace(web, repo=repo, kind=kind or (url.kind if url else None), state=status)
        state.web = head if kind is None else None  # an opener line below may still say its kind
        return head


def issue_head(text: str) -> bool:
    """A head line of an issue (a citation that names no kind is an issue: a pull request's
    says so), for the gates that read only issues. Called on lines the head reader already
    took for a thread's head, so the forms it reads only in a head count too (a wiki's
    ``# owner/repo#N: title``, a URL line, ``Issue #N: title``)."""
    head = head_line(text) or _positional(text, "", 0)
    return head is not None and head.kind in ("issue", None) and head.state != "merged"


def opens_head(text: str) -> bool:
    """The line is a head whose title stands on a line of its own below it (the index's header,
    a citation, a URL line): the collector keeps the lines under it for the title reader."""
    head = head_line(text)
    return (head is not None and head.title is None) or _URL.match(text) is not None


# a traceback's, a frame's or an exception's line: never a thread's title
_NO_TITLE = re.compile(
    r"^\s*(?:Traceback \(most recent call last\)|File \"|at [\w.$]+\(|\w[\w.]*(?:Error|Exception|Exit|Interrupt)\b)"
)


def title_line(line: LogLine) -> bool:
    """A text's first line may be the title of a head under it: no log record (a server's
    stamped line), no traceback, frame or exception line, no head of its own."""
    text = line.text
    return (not line.headed and bool(text.strip()) and _NO_TITLE.match(text) is None
            and head_line(text) is None)  # fmt: skip
