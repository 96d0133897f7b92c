"""When a line's TensorRT-LLM config is not the run's: the sentence around it asks, supposes,
negates or sets it apart ("we do not set `speculative_config: {...}`", "should I try ...?"),
or a bare mode name sits in a sentence that compares or plans. Read only for lines that hold a
config (most lines hold none)."""

from __future__ import annotations

import re

from spectrace.assemblers.spec_prose import set_apart


def unless_apart(text: str, flags: dict[str, object]) -> dict[str, object]:
    """``flags``, or none where the line's sentence sets its config apart."""
    return {} if _sentence_apart(text) else flags


# code spans, brackets (a mapping, a call's arguments) and ``key: value`` / ``key=value`` pairs:
# what is left of a line once the config it holds is taken out
_NOT_WORDS = re.compile(r"`[^`]*`|\{[^{}]*\}|\([^()]*\)|\[[^\[\]]*\]|[\w.-]+\s*[:=]\s*\S+")
_PROSE = re.compile(r"\b[A-Za-z']+\s+[A-Za-z']+\s+[A-Za-z']+\b")  # three words: a sentence


def _sentence_apart(text: str) -> bool:
    """The config a line holds sits in a sentence that asks, supposes, negates or sets it
    apart ("we do not set `speculative_config: {...}`", "should I try ...?"): not the run's.
    A line with no sentence around its config (YAML, a dump, a table cell) is never apart."""
    rest = text
    for _ in range(4):  # nested brackets, innermost first
        rest, n = _NOT_WORDS.subn(" ", rest)
        if not n:
            break
    return _PROSE.search(rest) is not None and set_apart(rest)


def mode_apart(text: str, at: int) -> bool:
    """The sentence naming a bare mode asks, supposes or sets it apart (its code spans aside:
    ``if self.drafter is not None`` is the code's condition, not the writer's)."""
    start = max(text.rfind(". ", 0, at) + 1, 0)
    end = len(text) if (stop := text.find(". ", at)) < 0 else stop
    return _MODE_APART.search(re.sub(r"`[^`]*`", " ", text[start:end])) is not None


# a sentence that asks about a mode or names it beside another run (the words of a technical
# sentence, "never reserved" / "is not None", are the bug's, not a contrast)
_MODE_APART = re.compile(
    r"(?i)\?|\b(?:without|unlike|instead of|not using|rather than|compared|vs\.?|versus|whether"
    r"|support(?:s|ed)?|plan\w*|roadmap|would|could|should)\b"
)

