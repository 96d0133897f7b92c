"""The one reading of a release as the text or a table writes it, for vLLM's readers.

Logs and tables write releases as ``v0.26.1rc1``, ``0.9.2.dev121+g4c8f64faa``,
``0.6.3.post1`` or a cut ``0.``; rows keep their rc tags (``v0.28.0rc1`` is a vllm-ascend
release of its own), while the rules of a release hold for its dev builds, rcs and posts alike.
So there are two readings: ``parse_release`` keeps the tag, ``base_release`` drops it.
"""

from __future__ import annotations

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


def base_release(text: object) -> Version | None:
    """``0.9.2.dev121+g4c8f64faa`` / ``0.9.2rc1`` / ``0.9.2.post1`` -> 0.9.2: the release
    whose rules a dev build, a candidate or a post release runs."""
    found = parse_release(text)
    return Version(found.base_version) if found is not None else None
