"""The vllm-ascend release a line of the plugin's own thread states without naming the plugin.

The plugin's threads give their release in spellings ``vllm_config.ascend_release`` (which
needs the plugin's name beside it) does not read: a bare version heading right above the launch
script it ran (``0.13.0rc3:``, ``**v0.18.0rc1**``, ``### 0.11.0``), and a title's bracketed tag
naming the release branch a pull request targets (``# [0.11.0][MTP] Fix ...``,
``# [v0.9.1-dev][Bugfix] ...``). On the plugin's tracker both are the plugin's release (its
numbers follow vLLM's, so a vLLM release there pairs with the same plugin classes). Only read
where the run is already placed on Ascend (the platform flag), never on another tracker.
"""

from __future__ import annotations

import re

from spectrace.assemblers.thread_title import Title
from spectrace.assemblers.vllm_plugins import newest_plugin_release

# a release as the plugin numbers them: 0.13.0rc3, v0.11.0, 0.9.2rc1, 0.7.3.post1
_RELEASE = r"v?(\d+\.\d+\.\d+(?:rc\d+|\.post\d+)?)"
# a line that is only a release: Markdown heading or emphasis around it, a colon after it
_HEADING = re.compile(rf"^\s*(?:#{{1,6}}\s*)?(?:\*\*|__)?{_RELEASE}(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*$")
# a title's leading bracketed tags, one of them a release or a release branch (``v0.11.0-dev``)
_TITLE_TAGS = re.compile(r"^\s*#\s*((?:\[[^\[\]\n]{1,40}\]\s*)+)")
_TAG_RELEASE = re.compile(rf"^\s*{_RELEASE}(?:-dev)?\s*$")


def heading_release(text: str) -> str | None:
    """``0.13.0rc3`` for a line that is only that release (a heading over the script it ran)."""
    m = _HEADING.match(text)
    return m.group(1) if m is not None else None


def title_tag_release(text: str) -> str | None:
    """The one release a title's leading bracketed tags name (``# [0.11.0][MTP] ...``)."""
    m = _TITLE_TAGS.match(text)
    if m is None:
        return None
    tags = re.findall(r"\[([^\[\]\n]*)\]", m.group(1))
    found = {t.group(1) for tag in tags if (t := _TAG_RELEASE.match(tag)) is not None}
    return found.pop() if len(found) == 1 else None


# words right before a title's release that make it another's than the run's: the fix, a
# comparison, where a regression began or what an upgrade left ("fixed in 0.18.0rc1", "slower
# than on 0.13.0rc1", "since v0.16.0rc1", "from 0.11.0")
_BEFORE_OTHER = re.compile(
    r"(?i)\b(?:fix\w*|resolv\w*|since|before|until|than|vs\.?|versus|from|compar\w*|instead"
    r"|upgrad\w*|downgrad\w*|roll(?:ed|ing)?[ -]?back|revert\w*|worked|works|fine|ok)\W+(?:\w+\W+)?v?$"
)
# the plugin's releases run from 0.7 (its first tag): an X.Y.Z outside them in a title is
# another package's (torch 2.5.1, transformers 4.57.0, CANN 8.1.0, Python 3.11.0)
_FIRST_MINOR = 7


def title_release(title: Title) -> str | None:
    """The one release a vllm-ascend run's thread title names (``[Bug]: 0.23.0rc1 GLM5.2 ...``,
    ``[Performance]: MTP slow on v0.18.0rc1``): the release of the report, as for an issue
    form's environment, whatever the title says of the method (``[Performance]``, "slower",
    "without MTP": the title reader's guards are about the method's names); a vLLM release
    there pairs with the plugin's of the same number. None when the title names several, asks
    a question, names one as the fix, a comparison or a regression's start, or names only
    another package's version (outside the plugin's 0.x
    releases up to one minor past the newest tag read)."""
    found = {r.removeprefix("v") for r in title.releases}
    if "?" in title.text or len(found) != 1:  # a question may ask about another release
        return None
    release = found.pop()
    at = title.text.find(release)
    if _BEFORE_OTHER.search(title.text[max(0, at - 40) : at]):
        return None
    major, minor = (int(p) for p in release.split(".")[:2])
    newest = newest_plugin_release()
    top = newest.minor + 1 if newest is not None else _FIRST_MINOR - 1
    return release if major == 0 and _FIRST_MINOR <= minor <= top else None


# the pre-filter's literals (config_literals): a heading line holds one (``0.13.0rc3:``, ``0.11.0:``)
HEADING_LITERALS: tuple[bytes, ...] = tuple(f"{d}rc".encode() for d in range(10)) + (
    b".0:",
    ".0：".encode(),
)
