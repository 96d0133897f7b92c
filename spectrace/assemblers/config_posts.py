"""A saved thread's posts, each read as the run a crash pasted in it belongs to.

Why: in a thread, one writer's crash is often pasted under another writer's launch ("same
traceback on my side, but I don't use speculative decoding", a maintainer's reproduction on a
plain server, a commenter's NGRAM run under an EAGLE3 report). Read as one text, the whole
thread gives that crash the reporter's method. A crash reads its own post first: the post's
own launch, dump, config or stated algorithm, or its writer's words that the run is plain
(then nothing else of the thread speaks for it). A post with nothing of its own reads its
writer's other posts, then the reporter's (the title and the description: the thread's
subject), since nothing in it contradicts them.

The posts are told apart by their headers (``post_dates.post_author``); lines before a file's
first header (the tracker's header, labels, the title) are shared by every post, the title
only by the reporter's scope.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from spectrace.assemblers.post_dates import opens_thread, post_author
from spectrace.assemblers.quotes import plain_run
from spectrace.assemblers.run_config import PostRun, RunConfig
from spectrace.assemblers.run_shown import shows_run
from spectrace.dialects.base import LogLine

Collect = Callable[[Sequence[LogLine]], RunConfig]
MAX_POSTS = 200  # a longer thread is read whole: each post's scope costs a pass over its lines
_SPEC_NAMES = ("specul", "SGLANG_ENABLE_SPEC_V2", "num_spec", "draft", "named_algorithm")


@dataclass(frozen=True, slots=True)
class Post:
    """One post of a thread: its header line, its writer and its lines (header included)."""

    source: str
    lineno: int
    author: str
    lines: tuple[LogLine, ...]
    opens: bool  # the thread's first post, its reporter's (an excerpt may start at a comment)

    def holds(self, source: str, lineno: int) -> bool:
        last = self.lines[-1].lineno
        return source == self.source and self.lineno <= lineno <= last


def split_posts(lines: Sequence[LogLine]) -> tuple[list[LogLine], dict[str, list[Post]]]:
    """(the lines no post holds, each file's posts in order); a quoted header is another
    post's words, not a new post."""
    heads: dict[tuple[str, int], str] = {}
    for line in lines:
        if not line.quoted and (author := post_author(line.text)) is not None:
            heads[(line.source, line.lineno)] = author
    shared: list[LogLine] = []
    bodies: dict[str, list[tuple[int, str, list[LogLine]]]] = {}
    for line in lines:
        author = heads.get((line.source, line.lineno))
        posts = bodies.setdefault(line.source, [])
        if author is not None:
            posts.append((line.lineno, author, [line]))
        elif posts:
            posts[-1][2].append(line)
        else:
            shared.append(line)
    found = {src: [Post(src, n, who, tuple(body), opens_thread(body[0].text)) for n, who, body in posts]
             for src, posts in bodies.items() if posts}  # fmt: skip
    return shared, found


def post_runs(
    lines: Sequence[LogLine], titles: set[tuple[str, int]], collect: Collect, whole: RunConfig
) -> tuple[PostRun, ...]:
    """The config a crash in each post reads, for every file holding two posts or more
    (``titles``: the thread titles' lines, the reporter's words); ``whole`` (the whole text's)
    where the post's scope names the method it names (its other lines tell the release)."""
    shared, by_source = split_posts(lines)
    out: list[PostRun] = []
    whole = replace(whole, posts=())
    for source, posts in by_source.items():
        if not 2 <= len(posts) <= MAX_POSTS:
            continue
        scopes = _Scopes(shared, posts, titles, collect, whole)
        for post in posts:
            config, disowned = scopes.config(post)
            agrees = not disowned and _agrees(post, config, whole, posts)
            mine = scopes.reporter in (None, post.author)  # None: the description was cut
            out.append(PostRun(source, post.lineno, whole if agrees else config, mine))
    return tuple(out)


def _agrees(post: Post, scope: RunConfig, whole: RunConfig, posts: Sequence[Post]) -> bool:
    """The whole text names the method the post's scope names, and its verdicts rest on the
    post's own lines (or lines no post holds): the other posts' lines (the reporter's
    release, the platform) then only tell the post's run more."""
    lines = [(e.source, e.lineno) for e in whole.path_evidence
             if e.points_to or e.worker_class or e.condition]  # fmt: skip
    elsewhere = any(p is not post and p.holds(*at) for at in lines for p in posts)
    return _method(scope) == _method(whole) and not elsewhere


def _method(config: RunConfig) -> str | None:
    """The method a config names: a command's or config's, else the text's."""
    names = ("speculative_algorithm", "speculative_config.method", "named_algorithm")
    flag = next((config.flags[name] for name in names if name in config.flags), None)
    return None if flag is None else str(flag.value).upper()


class _Scopes:
    """The scopes of one file's posts, each collected once (a writer's posts serve each of
    their posts alike)."""

    def __init__(self, shared: list[LogLine], posts: list[Post], titles: set[tuple[str, int]],
                 collect: Collect, whole: RunConfig) -> None:  # fmt: skip
        self._shared, self._posts, self._collect, self._whole = shared, posts, collect, whole
        self._untitled = [ln for ln in shared if (ln.source, ln.lineno) not in titles]
        self.reporter = posts[0].author if posts[0].opens else None  # None: cut before it
        self._by: dict[frozenset[str], RunConfig] = {}

    def config(self, post: Post) -> tuple[RunConfig, bool]:
        """The post alone (the description with the title) where it shows a run or says its
        run is plain (then True); else its writer's posts where they show one; else the
        reporter's with them; else, where neither shows a run, the whole thread's."""
        first = post is self._posts[0] and post.opens  # the description: the title is its subject
        alone = self._collect([*(self._shared if first else self._untitled), *post.lines])
        if (disowned := _disowns(post)) or _shows_run(alone, [post]):
            start = (post.source, post.lineno)  # names before the post are another writer's
            return replace(alone, start=start), disowned
        for authors in ({post.author}, {post.author, self.reporter} - {None}):
            scoped = self._writers(frozenset(authors))
            if _shows_run(scoped, [p for p in self._posts if p.author in authors]):
                return scoped, False
        return self._whole, False  # neither writer shows a run: the thread's, read as one text

    def _writers(self, authors: frozenset[str]) -> RunConfig:
        if authors not in self._by:
            titled = self.reporter in authors
            lines = [ln for p in self._posts if p.author in authors for ln in p.lines]
            self._by[authors] = self._collect([*(self._shared if titled else self._untitled), *lines])
        return self._by[authors]


def _disowns(post: Post) -> bool:
    """The writer says the run of this post speculates not at all (``quotes.plain_run``)."""
    return any(plain_run(line) for line in post.lines)


def _shows_run(config: RunConfig, posts: Sequence[Post]) -> bool:
    """A line of ``posts`` shows a run of their own (``run_shown.shows_run``: a command, a
    dump, a config, a server's warning) or says what their run is: a speculative setting or an
    algorithm a sentence names as the run's, or a path verdict resting on one of their lines."""

    def held(source: str, lineno: int) -> bool:
        return any(post.holds(source, lineno) for post in posts)

    if shows_run(config, held):
        return True
    if any(held(f.source, f.lineno) and name.startswith(_SPEC_NAMES)
           for name, f in config.flags.items()):  # fmt: skip
        return True
    return any(held(e.source, e.lineno) and (e.points_to or e.worker_class or e.condition)
               for e in config.path_evidence)  # fmt: skip
