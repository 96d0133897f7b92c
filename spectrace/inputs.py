"""Command-line inputs -> readable log paths: globs expanded, unusable files refused or skipped."""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spectrace import pipeline
from spectrace.errors import InputError
from spectrace.pipeline import Finding
from spectrace.read import STDIN, display_name
from spectrace.textfile import checked_path, problem

__all__ = ["Skipped", "expand", "problem", "skip_findings", "usable", "usable_stacks"]
# why a file was skipped, when it may hold text that was not read: the run cannot say OK
UNREAD = ("permission denied", "cannot read", "truncated or damaged", "zstd-compressed, and no")


@dataclass(frozen=True, slots=True)
class Skipped:
    """An input that was not read, and why (``problem``'s words)."""

    path: str
    why: str

    @property
    def unread(self) -> bool:
        """It may hold a log we could not read (unreadable, damaged): not a binary or empty file."""
        return self.why.startswith(UNREAD)


def expand(paths: Sequence[str]) -> list[str]:
    """Quoted globs expanded here (the shell did not); directories are walked by the pipeline."""
    expanded: list[str] = []
    for raw in map(checked_path, paths):
        if raw != STDIN and not Path(raw).exists() and glob.has_magic(raw):
            matches = sorted(m for m in glob.glob(raw, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputError(f"no file matches {raw!r}")
            expanded.extend(matches)
        else:
            expanded.append(raw)
    return pipeline.expand_inputs(list(dict.fromkeys(expanded)))


def usable(
    paths: Sequence[str], warn: Callable[[str], None], skipped: list[Skipped] | None = None
) -> list[str]:
    """Inputs worth scanning; others are skipped with a warning (and added to ``skipped``, for
    the reports), or refused when none is left."""
    problems = {p: why for p in paths if (why := problem(p))}
    if problems and len(problems) == len(paths):
        path, why = next(iter(problems.items()))
        more = f" (and {len(problems) - 1} more unusable input(s))" if len(problems) > 1 else ""
        raise InputError(f"{display_name(path)}: {why}{more}")
    for path, why in problems.items():
        warn(f"skipping {display_name(path)}: {why}")
        if skipped is not None:
            skipped.append(Skipped(display_name(path), why))
    return [p for p in paths if p not in problems]


def skip_findings(skipped: Sequence[Skipped]) -> list[Finding]:
    """Each skipped input named with why, in every report: ``unread_input`` (it may hold a
    crash nobody read, so the run fails) or ``skipped_input`` (binary, empty: said, not failed)."""
    return [
        Finding(kind="unread_input" if s.unread else "skipped_input",
                message=f"{s.path}: not read: {s.why}")  # fmt: skip
        for s in skipped
    ]


def usable_stacks(
    captures: Sequence[str], dumps: Sequence[str], warn: Callable[[str], None] | None
) -> tuple[list[str], list[str]]:
    """Stacks captures and flight dumps that load; a damaged one beside the logs is skipped with
    a warning, so it cannot hide the crashes the logs hold (``warn`` None: it is the error)."""
    from spectrace.stacks.flight import load_flight  # only a run given a capture pays for these
    from spectrace.stacks.model import load_capture

    problems: dict[str, str] = {}
    for path, load in [*((c, load_capture) for c in captures), *((d, load_flight) for d in dumps)]:
        try:
            load(path)
        except InputError as exc:
            if warn is None:
                raise
            problems[path] = str(exc)
    for why in problems.values():
        warn(f"skipping {why}")
    return [c for c in captures if c not in problems], [d for d in dumps if d not in problems]
