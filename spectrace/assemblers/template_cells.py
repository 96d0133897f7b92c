"""Whether a text is a results template: its result fields are left for the reader to fill in.

Why: a report template, a benchmark record sheet or an evaluation form carries a whole launch
command and a speculative config beside tables whose result cells say "TBD", "_to be
measured_", "<fill>", "待填" or "未測定". Read as a run's, its command gave a path to a text that
shows none (a Japanese "final report" whose every benchmark cell was still to be measured got
one condition per config). The words of both sides, a value left to fill and a value a run
gave, are the table ``rules/paths/templates.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.release_dates import any_of, rules_table
from spectrace.dialects.base import LogLine

TABLE = "paths/templates.toml"
PLACEHOLDERS = 3  # fields left to fill, none filled, that make a text a template


@dataclass(frozen=True, slots=True)
class Templates:
    """The table's rows, compiled: whole-value patterns, and a figure's pattern within a value."""

    placeholder: re.Pattern[str]  # a value (markup taken off) left to fill
    placeholder_raw: re.Pattern[str]  # a value as written left to fill ("___")
    statement: re.Pattern[str]  # a line saying the text's values are to be filled in
    filled: re.Pattern[str]  # a value a run gave
    filled_within: re.Pattern[str]  # a figure with its unit, anywhere in a value
    literals: tuple[bytes, ...]


@cache
def _table() -> Templates:
    data = rules_table(TABLE)
    held, said, filled = data["placeholder"], data["statement"], data["filled"]
    assert isinstance(held, dict) and isinstance(said, dict) and isinstance(filled, dict)
    return Templates(
        placeholder=any_of(held["cells"]),
        placeholder_raw=any_of(held["raw"]),
        statement=any_of(said["words"]),
        filled=any_of(filled["cells"]),
        filled_within=any_of(filled["within"]),
        literals=tuple(str(w).encode() for w in held["literals"]),
    )


def literals() -> tuple[bytes, ...]:
    """What the scan must keep for a placeholder's line to be read (none occurs in a load line)."""
    return _table().literals


# a "key: value" field, bulleted or bold or not ("- TPOT: TBD", "**Accept length**: 待测")
_FIELD = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?[^:：|`]{1,48}?(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(\S.*?)\s*$")
_MARKUP = re.compile(r"^[\s*_`~()（）\[\]【】「」]+|[\s*_`~()（）\[\]【】「」]+$")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}")  # a table's |---|---| row


def _values(raw: str) -> list[str]:
    """The values a line holds as a field: a table row's cells after its label (the first cell),
    or a "key: value" field's value."""
    if raw.lstrip().startswith("|"):
        if _SEPARATOR.match(raw):
            return []
        cells = raw.strip().strip("|").split("|")
        return [c.strip() for c in cells[1:]]
    field = _FIELD.match(raw)
    return [field.group(1)] if field else []


def _left_to_fill(value: str) -> bool:
    table = _table()
    if table.placeholder_raw.fullmatch(value.strip()):
        return True
    bare = _MARKUP.sub("", value)
    return bool(bare) and table.placeholder.fullmatch(bare) is not None


def _given(value: str) -> bool:
    table = _table()
    bare = _MARKUP.sub("", value)
    return table.filled.fullmatch(bare) is not None or table.filled_within.search(value) is not None


def template_field(held: Sequence[LogLine]) -> LogLine | None:
    """The first field a template leaves to fill, where the text holds ``PLACEHOLDERS`` such
    fields or more, no field a run filled (a decimal, a figure with its unit) and a line saying
    its values are to be filled in: a report template or a record sheet, whose commands and
    configs are what its reader will run. A partly filled sheet ("| MTP=1 | 45.2 | TBD |")
    shows its run; so may a report's "TBD" rows beside the measured rows the scan did not keep,
    where nothing says the text is to be filled."""
    first: LogLine | None = None
    left = 0
    said = False
    for line in held:
        said = said or _table().statement.search(line.text) is not None
        for value in _values(line.raw):
            if _left_to_fill(value):
                left += 1
                first = first or line
            elif _given(value):
                return None
    return first if left >= PLACEHOLDERS and said else None
