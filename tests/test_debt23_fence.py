"""Session 23's debt: one Markdown fence for the prose readers (prose_wrap, not_run's guide
reader): a fence at any indent (a list item's fenced block is indented 4 or more) or inside
``>`` quoting opens a block of code or output, never prose."""

from __future__ import annotations

import pytest

from spectrace.assemblers.prose_wrap import ProseWrap
from spectrace.dialects.base import LogLine


def _plain(n: int, text: str) -> LogLine:
    return LogLine("a.md", n, 0, text, text, "plain", "")


@pytest.mark.parametrize("indent", ["", "   ", "    ", "      ", "> "])
def test_output_pasted_in_a_fenced_block_is_never_joined_as_prose(indent: str) -> None:
    """A fenced block, also one a list item indents 4 or more spaces or a quote holds: the
    output lines in it are no hard-wrapped sentence, at any indent of the fence."""
    lines = ["1. Start the server and send one request, then watch the output below:", f"{indent}```text",
             "  the engine loads the draft weights and then it waits for a long time before",
             "  it starts to answer any of the requests we send to it over the network port",
             f"{indent}```"]  # fmt: skip
    wrap = ProseWrap()
    assert [wrap.feed(_plain(n, text)) for n, text in enumerate(lines, 1)] == [[]] * len(lines)
