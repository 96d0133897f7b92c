"""Every message the TUI's workers and widgets send, each a dataclass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis
    from spectrace.ruleset import RuleSet


@dataclass
class IndexProgress(Message):
    """More lines were indexed (or the index finished)."""

    done: bool


@dataclass
class RulesLoaded(Message):
    """The built-in rules, loaded off the start-up path; their benign patterns dim noise."""

    rules: RuleSet


@dataclass
class CrashesFound(Message):
    """The scan met crashes (the first alone, at once; then batches), each with the core's
    signature; shown as they come, replaced by incidents when the analysis ends."""

    crashes: list[tuple[str, Crash]]


@dataclass
class AnalysisDone(Message):
    """The core finished; its incidents replace the provisional crash list."""

    analysis: Analysis


@dataclass
class AnalysisFailed(Message):
    """The core raised; the app shows the one-line reason instead of a traceback."""

    reason: str


@dataclass
class JumpTo(Message):
    """Show a log line: ``source`` as the core names it, ``lineno`` 1-based; ``mark`` the text
    to pan to and highlight there (a flag's name, an evidence line's words)."""

    source: str
    lineno: int
    mark: str | None = None
