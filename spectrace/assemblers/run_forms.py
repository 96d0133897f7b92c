"""The forms a run's own lines take, and the first line of a text in one of them.

Why: a text shows a run only by lines a run wrote or its user copied from it: a log record, a
frame, a version or environment report, a benchmark's result, a terminal prompt, the writer
telling their own run. Docs, model cards, recipes, plans and pull requests name methods and
flags in every other shape, and no list of their shapes is ever whole; the list of a run's
forms is short. ``rules/paths/run_forms.toml`` holds the forms a pattern tells, each with why
and examples; a line a log dialect headed and ``run_bound.first_run_line`` are read in code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.release_dates import rules_table
from spectrace.assemblers.run_bound import first_run_line
from spectrace.assemblers.sentences import sentences
from spectrace.dialects.base import LogLine
from spectrace.errors import RuleError

TABLE = "paths/run_forms.toml"
# the dialects whose headed lines are an engine's own log records
ENGINE_DIALECTS = frozenset({"sglang", "vllm", "trtllm"})
ENGINE_RECORD = "engine log record"
OWN_RUN = "the writer's own run, an engine frame or a failure met (run_bound)"


@dataclass(frozen=True, slots=True)
class RunForm:
    """One row of the table."""

    name: str
    pattern: str
    why: str
    examples: tuple[str, ...]
    literals: tuple[str, ...] = ()
    record: bool = False  # a record only a run's process or job writes: a document holding one ran
    # a form told in one sentence: each of ``also`` is found in the sentence ``pattern`` is found
    # in, and none of ``unless`` (a plan's, a guide's or a condition's words) is
    also: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()


@cache
def forms() -> tuple[RunForm, ...]:
    rows = rules_table(TABLE).get("form", [])
    out = []
    for row in rows:  # type: ignore[union-attr]
        if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in ("name", "pattern", "why")):
            raise RuleError(f"{TABLE}: every [[form]] needs string keys name, pattern and why")
        out.append(RunForm(row["name"], row["pattern"], row["why"], tuple(map(str, row.get("examples", ()))),
                           tuple(map(str, row.get("literals", ()))), row.get("record") is True,
                           tuple(map(str, row.get("also", ()))), tuple(map(str, row.get("unless", ())))))
    return tuple(out)


def literals() -> tuple[bytes, ...]:
    """What the scan keeps a line in a form by, where no other reader's word does."""
    return tuple(dict.fromkeys(lit.encode() for form in forms() for lit in form.literals))


@cache
def _alternation() -> re.Pattern[str]:
    """Every form a line's own pattern tells, in one pattern, each in a group named by its row
    index."""
    try:
        return re.compile("|".join(f"(?P<f{i}>{_scoped(f.pattern)})" for i, f in enumerate(forms())
                                   if not (f.also or f.unless)))
    except re.error as exc:
        raise RuleError(f"{TABLE}: a pattern is not a valid regex ({exc})") from None


@cache
def _told() -> tuple[tuple[str, re.Pattern[str], tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]], ...]:
    """The forms told in one sentence (``also`` / ``unless``): name, pattern, also, unless."""
    try:
        return tuple((f.name, re.compile(f.pattern), tuple(map(re.compile, f.also)), tuple(map(re.compile, f.unless)))
                     for f in forms() if f.also or f.unless)  # fmt: skip
    except re.error as exc:
        raise RuleError(f"{TABLE}: a pattern is not a valid regex ({exc})") from None


def told_form(text: str) -> str | None:
    """The name of the first form told in one sentence of ``text`` (a wrapped sentence comes
    whole: ``prose_wrap``), or None: the writer's deployment with its release and its method,
    a run of theirs told in prose (``run_shown.run_line`` reads it as a run's line too)."""
    for name, pattern, also, unless in _told():
        if pattern.search(text) is None:
            continue
        for sentence in sentences(text):
            if pattern.search(sentence) and all(a.search(sentence) for a in also) \
                    and not any(u.search(sentence) for u in unless):  # fmt: skip
                return name
    return None


def _scoped(pattern: str) -> str:
    """A row's leading flags (``(?i)``) scoped to its own group, as an alternation needs."""
    m = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    return f"(?{m.group(1)}:{pattern[m.end():]})" if m else pattern


def form_of(line: LogLine) -> str | None:
    """The name of the run form the line has, or None."""
    if line.headed and line.dialect in ENGINE_DIALECTS:
        return ENGINE_RECORD
    m = _alternation().search(line.raw)
    return forms()[int(m.lastgroup[1:])].name if m is not None and m.lastgroup else told_form(line.raw)


def record_named(name: str) -> bool:
    """``name`` is a form the table marks ``record``: only a run's process or job writes it."""
    return any(f.record and f.name == name for f in forms())


def record_form(line: LogLine) -> bool:
    """The line has a form the table marks ``record`` (a table of the writer's processes, an
    engine's record cut to its message): a document of sections that holds it ran, whatever
    its other lines tell."""
    name = form_of(line)
    return name is not None and record_named(name)


def first_form(held: Sequence[LogLine]) -> tuple[LogLine, str] | None:
    """The first of ``held`` (lines no block sets apart) in a run's form, and the form's name;
    else the first line ``run_bound.first_run_line`` binds to a run."""
    for line in held:
        if (name := form_of(line)) is not None:
            return line, name
    line = first_run_line(held)
    return (line, OWN_RUN) if line is not None else None
