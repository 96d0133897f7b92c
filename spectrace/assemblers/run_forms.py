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
    # a sentence told beside a list of the writer's setup: each of ``also`` is found in the
    # sentence or in the list's items (the list lines next to it, within ``near`` lines), one at
    # least in an item, and no item counts that one of ``item_unless`` finds (a requirement, a
    # placeholder, a setting off)
    near: int = 0
    item_unless: tuple[str, ...] = ()


@cache
def forms() -> tuple[RunForm, ...]:
    rows = rules_table(TABLE).get("form", [])
    out = []
    for row in rows:  # type: ignore[union-attr]
        if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in ("name", "pattern", "why")):
            raise RuleError(f"{TABLE}: every [[form]] needs string keys name, pattern and why")
        near = row.get("near", 0)
        if not isinstance(near, int) or near < 0:
            raise RuleError(f"{TABLE}: [[form]] {row['name']}: near must be a count of lines")
        out.append(RunForm(row["name"], row["pattern"], row["why"], tuple(map(str, row.get("examples", ()))),
                           tuple(map(str, row.get("literals", ()))), row.get("record") is True,
                           tuple(map(str, row.get("also", ()))), tuple(map(str, row.get("unless", ()))),
                           near, tuple(map(str, row.get("item_unless", ())))))
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
                     for f in forms() if (f.also or f.unless) and not f.near)  # fmt: skip
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


@dataclass(frozen=True, slots=True)
class _Listed:
    """A form told by a sentence and the list of the writer's setup beside it (``near``)."""

    name: str
    near: int
    pattern: re.Pattern[str]
    also: tuple[re.Pattern[str], ...]
    unless: tuple[re.Pattern[str], ...]
    item_unless: tuple[re.Pattern[str], ...]


@cache
def _listed() -> tuple[_Listed, ...]:
    try:
        return tuple(_Listed(f.name, f.near, re.compile(f.pattern), tuple(map(re.compile, f.also)),
                             tuple(map(re.compile, f.unless)), tuple(map(re.compile, f.item_unless)))
                     for f in forms() if f.near)  # fmt: skip
    except re.error as exc:
        raise RuleError(f"{TABLE}: a pattern is not a valid regex ({exc})") from None


# a list's item: a bullet, a numbered item, a table row, a "key: value" line, a short bare line
# with no sentence's end (a list whose bullets a copy dropped), or the list's caption
# ("Environment:"); never a thread's post header
_ITEM = re.compile(
    r"^\s*(?:[-*+•]\s+\S|\d{1,2}[.)]\s+\S|\|.*\|\s*$|[^\s:|][^:|]{0,40}:\s+\S[^\n]{0,60}$)"
    r"|^(?![^\n]*\s·\s)(?=\S)(?:[^\n]{1,80}(?<![.!?。！？:：])|[^\n]{1,40}[:：])\s*$"
)


def _items(held: Sequence[LogLine], at: int, near: int) -> list[LogLine]:
    """The list items next to ``held[at]``: the lines above and below it, within ``near`` lines
    of it, each an item (``_ITEM``) or blank, up to the first line that is neither."""
    line = held[at]
    out: list[LogLine] = []
    for step in (-1, 1):
        i = at + step
        while 0 <= i < len(held) and held[i].source == line.source \
                and abs(held[i].lineno - line.lineno) <= near \
                and (not held[i].text.strip() or _ITEM.search(held[i].text)):  # fmt: skip
            out += [held[i]] if held[i].text.strip() else []  # (a blank line between items)
            i += step
    return out


def listed_form(held: Sequence[LogLine], at: int) -> str | None:
    """The name of the first form told by a sentence of ``held[at]`` and the list of the
    writer's setup beside it (``near``): "I was able to reproduce it." over a list naming the
    engine's release and the speculative setting the run had. None where no such form is."""
    line = held[at]
    if line.quoted:
        return None
    for form in _listed():
        if form.pattern.search(line.text) is None:
            continue
        items = None
        for sentence in sentences(line.text):
            if form.pattern.search(sentence) is None or any(u.search(sentence) for u in form.unless):
                continue
            if items is None:
                items = [ln.text for ln in _items(held, at, form.near)
                         if not any(u.search(ln.text) for u in form.item_unless)]  # fmt: skip
            if all(a.search(sentence) or any(a.search(item) for item in items) for a in form.also) \
                    and any(a.search(item) for a in form.also for item in items):  # fmt: skip
                return form.name
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
    for at, line in enumerate(held):
        if (name := form_of(line) or listed_form(held, at)) is not None:
            return line, name
    line = first_run_line(held)
    return (line, OWN_RUN) if line is not None else None
