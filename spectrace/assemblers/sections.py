"""A Markdown section heading or list caption that sets the lines under it apart from the
reported run (``### Previous setup (worked)``, ``Old env:``).

Reports keep an earlier or another setup beside their own under a heading; a method named under
it is not the crashed run's. Shared by the vLLM environment-bullet reader (``vllm_stated``) and
the family words of ``path_mentions``, so both read a section the same way.
"""

from __future__ import annotations

import re

HEADING_LITERALS: tuple[bytes, ...] = (b"## ",)  # a Markdown section heading reaches the reader
# a section heading or a caption over a list (``### Previous setup (worked)``, ``Old env:``);
# a saved thread's ``# title`` is the thread's subject, not a section
_HEADING = re.compile(r"^\s*(?:#{2,6}\s|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][^:]{0,60}:\s*$)")
_ASIDE = re.compile(
    r"(?i)\b(?:previous|old|older|earlier|before|worked|working|works|baseline|reference"
    r"|expected|other|another|colleague|their|his|her)\b"
)


def heading_aside(text: str, before: bool) -> bool:
    """Whether the lines after ``text`` sit under a heading that sets them apart from the
    reported run (``### Previous setup (worked)``); ``before``: the state above ``text``."""
    return _ASIDE.search(text) is not None if _HEADING.match(text) else before
