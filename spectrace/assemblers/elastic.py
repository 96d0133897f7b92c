"""torchrun's ``ChildFailedError`` summary table: which rank failed first, when, how.

torch.distributed.elastic prints, under the exception line, a table of failed workers and a
``Root Cause (first observed failure):`` block::

    [0]:
      time      : 2024-10-15_17:54:04
      host      : node-3
      rank      : 4 (local_rank: 0)
      exitcode  : -9 (pid: 44710)

The launcher's own traceback names neither; this block does, so the crash takes its rank and
time (the launcher prints no stamp of its own) and the message says what the rank did.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from spectrace.assemblers.crash import Crash
from spectrace.assemblers.tb_lines import exception_message
from spectrace.dialects._time import make_ts

_ROOT = "Root Cause (first observed failure):"
_FIELD = re.compile(r"\s*(time|rank|exitcode)\s*: (\S+)")
_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)_(\d\d:\d\d:\d\d)$")
_BLOCK_LINES = 8  # "[0]:" and the fields under it
TABLE_LINES = 40  # a bare ``ChildFailedError:`` line takes at most this many table lines


@dataclass(frozen=True, slots=True)
class RootFailure:
    """The first failed worker as torchrun's table names it."""

    rank: str | None  # "rank4"
    ts: datetime | None
    ts_text: str | None
    exitcode: str | None

    def describe(self, message: str) -> str:
        """The launcher's message with what the first failed rank did."""
        parts = [p for p in (self.rank, self.exitcode and f"exitcode {self.exitcode}") if p]
        return f"{message} (first failure: {', '.join(parts)})" if parts else message


def root_failure(lines: Sequence[str]) -> RootFailure | None:
    """The last ``Root Cause`` block in the lines (the table under the exception), if any."""
    starts = [n for n, line in enumerate(lines) if line.strip() == _ROOT]
    if not starts:
        return None
    fields: dict[str, str] = {}
    for line in lines[starts[-1] + 1 : starts[-1] + 1 + _BLOCK_LINES]:
        if m := _FIELD.match(line):
            fields.setdefault(m.group(1), m.group(2))
    if not fields:
        return None
    stamp = _TIME.match(fields.get("time", ""))
    return RootFailure(
        rank=f"rank{fields['rank']}" if fields.get("rank", "").isdigit() else None,
        ts=make_ts(*stamp.groups()) if stamp else None,
        ts_text=stamp.group() if stamp else None,
        exitcode=fields.get("exitcode"),
    )


def with_root_failure(crash: Crash) -> Crash:
    """A ``ChildFailedError`` crash placed by its table: rank and time when its own line gave
    none, and the first failed rank's exit code in the message."""
    found = root_failure(crash.lines)
    if found is None:
        return crash
    return replace(
        crash,
        message=found.describe(crash.message),
        rank=crash.rank or found.rank,
        ts=crash.ts or found.ts,
        ts_text=crash.ts_text if crash.ts else found.ts_text,
    )


def is_child_failure(crash: Crash) -> bool:
    """The crash is torchrun's ``ChildFailedError`` (its table follows the exception line)."""
    return crash.exception_type.endswith("ChildFailedError")


def continues_table(taken: Sequence[str], text: str) -> bool:
    """``text`` is the next line of the table under a bare ``ChildFailedError:`` line
    (accelerate prints that line without the launcher's traceback): a ``====`` rule opens the
    table, the rule after its ``Root Cause`` block closes it."""
    if len(taken) == 1:
        return _is_rule(text)
    if len(taken) > TABLE_LINES:
        return False
    roots = [n for n, line in enumerate(taken) if line.strip() == _ROOT]
    return not (roots and any(_is_rule(line) for line in taken[roots[-1] + 1 :]))


def with_table(crash: Crash) -> Crash:
    """A bare ``ChildFailedError:`` line crash with the table it took: its message is the
    table's title (``train.py FAILED``), then as :func:`with_root_failure` places it."""
    if len(crash.lines) < 2:
        return crash
    title = exception_message("", list(crash.lines[1:]))
    bare = crash.message.rstrip(": ") == crash.exception_type
    return with_root_failure(replace(crash, message=title) if bare and title else crash)


def _is_rule(text: str) -> bool:
    return len(text.strip()) >= 3 and not text.strip().strip("=")
