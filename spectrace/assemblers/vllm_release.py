"""The one reading of a release as the text or a table writes it, for vLLM's readers.

Logs and tables write releases as ``v0.26.1rc1``, ``0.9.2.dev121+g4c8f64faa``,
``0.6.3.post1`` or a cut ``0.``; rows keep their rc tags (``v0.28.0rc1`` is a vllm-ascend
release of its own), while the rules of a release hold for its dev builds, rcs and posts alike.
So there are two readings: ``parse_release`` keeps the tag, ``base_release`` drops it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from packaging.version import InvalidVersion, Version


def parse_release(text: object) -> Version | None:
    """``v0.26.1rc1`` -> 0.26.1rc1 as written (a leading ``v`` dropped); None for an empty or
    unreadable value (``0.``, ``main``, a shell variable)."""
    if not text:
        return None
    try:
        return Version(str(text).strip().removeprefix("v"))
    except InvalidVersion:
        return None


def untagged_build(text: object) -> bool:
    """``0.1.dev1+g6804e1b81``: what setuptools-scm writes for a checkout it finds no tag in (a
    shallow clone: version 0.0 assumed, the next one 0.1, dev counted from the first commit it
    sees). vLLM versions its builds with setuptools-scm and never tagged a 0.1 dev release, so the
    string says the build is vLLM's and nothing of its release."""
    found = parse_release(text)
    return found is not None and found.is_devrelease and found.release[:2] == (0, 1)


# what a paste leaves where it cut or elided a release ("version 0.x...", "0.2[...]", "0.25…")
_CUT = re.compile(r"\.\.\.|…|\[|^\d+\.(?!\d)")


def cut_release(shown: str, after: str) -> bool:
    """The banner's release was cut or elided (``shown`` the digits the banner's pattern took,
    ``after`` the text right after them): what is left is a prefix of the release, not the
    release, and reading it as one names a release years older (``0.2``) or none (``0.x...``)."""
    return _CUT.search(shown) is not None or after.startswith(("[", "…", ".."))


def base_release(text: object) -> Version | None:
    """``0.9.2.dev121+g4c8f64faa`` / ``0.9.2rc1`` / ``0.9.2.post1`` -> 0.9.2: the release
    whose rules a dev build, a candidate or a post release runs."""
    found = parse_release(text)
    return Version(found.base_version) if found is not None else None


def spans_holding(
    release: Version, spans: Sequence[tuple[str, str, str]], newest: Version | None = None
) -> tuple[tuple[str, str, str], ...]:
    """The ``(class, first, last)`` spans whose code a build of ``release`` may hold: the span
    of its tag (a tag's local build ``0.14.0rc1+gabc`` is that tag; a release past ``newest``,
    the newest tag read, stays with the span reaching it). A dev build ``0.14.0rc2.dev150``
    lies after the tag before it and before the next tag, so inside one span it is that span,
    and between two it is both: never rounded onto the later tag alone. A build before the
    first span or between spans of no tag holds none."""
    at = Version(release.public)
    read = [(s, lo, hi) for s in spans
            if (lo := parse_release(s[1])) is not None and (hi := parse_release(s[2])) is not None]  # fmt: skip
    inside = tuple(s for s, lo, hi in read if lo <= at <= hi or (hi == newest and at > hi))
    if inside or not at.is_devrelease:
        return inside
    before = max((r for r in read if r[2] < at), key=lambda r: r[2], default=None)
    after = min((r for r in read if r[1] > at), key=lambda r: r[1], default=None)
    return (before[0], after[0]) if before is not None and after is not None else ()
