"""What a page shows its reader to expect, and the steps it gives the reader: the words table
``rules/paths/shown_output.toml`` read once.

Why: a vendor's performance doc, a README or a tutorial gives the reader a command and then the
output the reader's run should print, captioned as such ("#### Expected Results", "Sample
output:", "预期结果", "出力例："). Its figures and log records are what the reader will see, not a
run of the page's own; read as a run's, they bound the page to a run and its speculative config
got a path. ``expected_lines`` finds those lines, so that the page readers (``not_run``) read the
page by the rest of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.documents import heading_level
from spectrace.assemblers.post_dates import post_author
from spectrace.assemblers.release_dates import any_of, rules_table
from spectrace.assemblers.run_bound import SELF_RUN
from spectrace.dialects.base import LogLine

TABLE = "paths/shown_output.toml"
# a caption's colon at its end, its markup after it ("Actual:**"): a caption over other lines
_CAPTION_END = re.compile(r"[:：]\W{0,3}$")


@dataclass(frozen=True, slots=True)
class ShownOutput:
    """The table's rows, compiled: each a pattern over one line."""

    expected: re.Pattern[str]
    actual: re.Pattern[str]
    steps: re.Pattern[str]
    literals: tuple[bytes, ...]


@cache
def _table() -> ShownOutput:
    data = rules_table(TABLE)
    parts = ("expected_output", "actual_output", "reader_steps")
    words = [w for part in parts for w in data[part]["literals"]]  # type: ignore[index]
    return ShownOutput(
        expected=any_of(data["expected_output"]["lines"]),  # type: ignore[index]
        actual=any_of(data["actual_output"]["lines"]),  # type: ignore[index]
        steps=any_of(data["reader_steps"]["lines"]),  # type: ignore[index]
        literals=tuple(str(w).encode() for w in words),
    )


def literals() -> tuple[bytes, ...]:
    """What the scan must keep for these rows to be read."""
    return _table().literals


def expected_caption(text: str) -> bool:
    """The line heads or captions output the reader should expect (expected, sample or example
    output or results, in any language seen), and no output a run actually printed."""
    t = _table()
    return t.expected.search(text) is not None and t.actual.search(text) is None


def reader_step(text: str) -> bool:
    """The line is an imperative step to the reader in a language other than English ("运行以下
    命令", "次のコマンドを実行します", "다음 명령을 실행합니다", "Выполните команду")."""
    return _table().steps.search(text) is not None


def expected_lines(held: Sequence[LogLine]) -> frozenset[int]:
    """The numbers of the lines a page shows as output for its reader to expect: below a heading
    that names expected, sample or example output (``expected_caption``), to the next heading of
    its level or above; below such a caption, to the next caption, heading or post. A caption of
    what a run actually printed ("Actual output:", "but I got:") or a line of the writer's own
    run ends either: what follows is the run's."""
    out: set[int] = set()
    level = 0  # the level of an open heading's block, 0 for none
    caption = False  # below an expected caption that is no heading
    for line in held:
        text = line.text
        if not line.headed and (lv := heading_level(text)):
            if level and lv > level and not _table().actual.search(text):
                out.add(line.lineno)  # a sub-heading of the expected section ("##### B200")
                continue
            level = lv if expected_caption(text) else 0
            caption = False
            continue
        if not line.headed and not line.quoted and post_author(text) is not None:
            level, caption = 0, False
            continue
        if not line.headed:
            if _table().actual.search(text) or SELF_RUN.search(text):
                level, caption = 0, False
                continue
            if expected_caption(text):
                caption = True
                continue
            if caption and _CAPTION_END.search(text):
                caption = False  # another caption: the expected block ended above it
        if level or caption:
            out.add(line.lineno)
    return frozenset(out)
