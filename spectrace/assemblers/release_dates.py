"""The day each release of a framework was first published, and the newest release a run on a
given day can hold (rules/paths/published.toml; SGLang's days are sglang_eras.toml's
``[published]``).

Why: a log with no version line still carries dates (its own timestamps, the thread's), and
a run on day D ran code no newer than the framework's main branch on D. That code ships in
the next release cut from main after D at the latest, or the one after when the first was
branched before D, so the date bounds the release from above and a verdict can drop the
rows of releases the run cannot be.
"""

from __future__ import annotations

import re
import tomllib
from datetime import date, datetime
from functools import cache
from importlib import resources

from packaging.version import InvalidVersion, Version

from spectrace.errors import RuleError

# framework -> (table file under spectrace.rules, the TOML table holding its days)
TABLES = {
    "vllm": ("paths/published.toml", "vllm"),
    "vllm_ascend": ("paths/published.toml", "vllm_ascend"),
    "trtllm": ("paths/published.toml", "trtllm"),
    "sglang": ("paths/sglang_eras.toml", "published"),
}


def rules_table(name: str) -> dict[str, object]:
    """A bundled rules file (``paths/templates.toml``) read as TOML; callers cache what they build from it."""
    return read_table(resources.files("spectrace.rules").joinpath(name).read_text("utf-8"), name)


_load = cache(rules_table)


def read_table(text: str, name: str) -> dict[str, object]:
    """The TOML text of a table file; a syntax error is a one-line RuleError naming it."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{name}: {' '.join(str(exc).split())}") from None


def any_of(patterns: object, flags: int = 0) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of a table's ``patterns`` (a list of regexes)."""
    if not isinstance(patterns, list):
        raise RuleError(f"expected a list of patterns, got {type(patterns).__name__}")
    return re.compile("(?i)" + "|".join(f"(?:{p})" for p in patterns), flags)


def parse_days(raw: object, where: str) -> tuple[tuple[Version, date], ...]:
    """``{"0.11.0": 2025-10-02, ...}`` -> (release, day) pairs ordered by day, then release;
    anything else is a one-line RuleError naming ``where`` and the key."""
    if not isinstance(raw, dict):
        raise RuleError(f'{where}: must be a table of "release" = YYYY-MM-DD rows')
    rows = []
    for text, day in raw.items():
        if not isinstance(day, date) or isinstance(day, datetime):  # a datetime is a date too
            raise RuleError(f"{where}: {text!r} needs a date like 2026-01-23")
        try:
            rows.append((Version(text), day))
        except InvalidVersion:
            raise RuleError(f"{where}: {text!r} is not a release like 0.11.0 or 1.3.0rc5") from None
    return tuple(sorted(rows, key=lambda row: (row[1], row[0])))


@cache
def published(framework: str) -> tuple[tuple[Version, date], ...]:
    """(release, the day it was first published) of ``framework``, oldest day first; ()
    for a framework with no table."""
    if framework not in TABLES:
        return ()
    name, key = TABLES[framework]
    return parse_days(_load(name).get(key, {}), f"{name}: [{key}]")


def mainline(rows: tuple[tuple[Version, date], ...]) -> tuple[tuple[Version, date], ...]:
    """The releases cut from main: no post release, each newer than every release published
    before it (a late patch of an old line, 0.10.1.1 or 1.2.1, holds no code main had)."""
    out: list[tuple[Version, date]] = []
    for release, day in rows:
        if not release.is_postrelease and (not out or release > out[-1][0]):
            out.append((release, day))
    return tuple(out)


def bound(rows: tuple[tuple[Version, date], ...], day: date) -> Version | None:
    """The newest main-line release of the second day with one published after ``day`` (the
    first day's may have been branched before ``day``; releases of one day are one cut).
    None when there are fewer than two such days, or ``day`` is before the first row (a
    clock that was never set). A post release of the bound (X.post1) counts as X."""
    if not rows or day < rows[0][1]:
        return None
    after = [(first, release) for release, first in mainline(rows) if first > day]
    days = sorted({first for first, _ in after})
    if len(days) < 2:
        return None
    return max(release for first, release in after if first <= days[1])


def newest_at(framework: str, day: date) -> Version | None:
    """The newest release of ``framework`` whose code a run on ``day`` can hold; None when
    the table cannot bound it (see ``bound``) or the framework has no table."""
    return bound(published(framework), day)


# how far before a table's first row a day still bounds the release: the tables start at the
# oldest release their frame rows were read from (vLLM 0.6.0, Sept 2024), while threads about
# vLLM's V0 spec decode go back to mid-2024; older days (a clock never set) bound nothing
_BEFORE_TABLE_DAYS = 730


def newest_held(framework: str, day: date) -> Version | None:
    """``newest_at``, and for a day up to two years before the table's first release the bound
    the table still gives (its second main-line release: the run is older than both)."""
    found = newest_at(framework, day)
    rows = published(framework)
    if found is not None or not rows or day >= rows[0][1]:
        return found
    if (rows[0][1] - day).days > _BEFORE_TABLE_DAYS:
        return None
    return bound(((rows[0][0], day), *rows[1:]), day) if len(rows) > 1 else None
