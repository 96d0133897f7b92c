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


# the pre-filter's literals (config_literals): a heading line holds one (``0.13.0rc3:``, ``0.11.0:``)
HEADING_LITERALS: tuple[bytes, ...] = tuple(f"{d}rc".encode() for d in range(10)) + (
    b".0:",
    ".0：".encode(),
)
