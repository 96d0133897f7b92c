"""The words of one family's own code and options, read as that family's words.

Why: a writer often names the family only through its code: a flag in prose ("every other
consumer honors `--speculative-dspark-block-size`"), a traceback through a model hook only the
family's runs call (``set_dflash_layers_to_capture``), or a name the tables do not spell
("EAGLE2" for the EAGLE algorithm, an "SPS table" for DSpark's). The family-word reader
(``path_base._sentence_words``) found no family in such a text, and the verdict stayed
unknown. ``rules/paths/family_terms.toml`` (generated from SGLang's option and method tables,
plus hand rows read from the trees) lists each term with its families: one where the trees
show the term is that family's alone across releases, several where another family's runs
reach it too (the linker then gives a condition over them, never one of them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.release_dates import rules_table

TABLE = "paths/family_terms.toml"


@dataclass(frozen=True, slots=True)
class Term:
    """One row: the term as written, how it is read, and the families it names."""

    term: str
    kind: str  # "flag" | "hook" | "alias"
    framework: str  # the framework whose tree holds it ("" for an alias)
    families: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TermMatch:
    """Where a term stands in a text and the families it names."""

    start: int
    end: int
    kind: str
    framework: str
    families: tuple[str, ...]


@cache
def terms() -> tuple[Term, ...]:
    rows = rules_table(TABLE)["term"]
    return tuple(Term(str(r["term"]), str(r["kind"]), str(r["framework"]),  # type: ignore[index]
                      tuple(map(str, r["families"])))  # type: ignore[index]
                 for r in rows)  # type: ignore[union-attr]


def _spelled(term: Term) -> str:
    """A term's pattern: a flag or a hook exactly, an alias with its blank or hyphen as either
    or none ("EAGLE-2", "EAGLE 2", "Eagle2"), in any case."""
    if term.kind != "alias":
        return re.escape(term.term)
    return "(?i:" + "[-_ ]?".join(re.escape(part) for part in re.split(r"[- ]", term.term)) + ")"


# a hook is read where the code calls it (a frame's function, ``model.set_..._to_capture(``),
# not in its definition (``def set_...``: a model gaining support for the family)
_LEADS = {"flag": r"(?<![\w-])", "hook": r"(?<![\w])(?<!def )", "alias": r"(?<![\w./-])"}
# an alias ends its token ("EAGLE2," "EAGLE-2)"), not inside a model id or a release
# ("Eagle2-9B", "Eagle2.5"); a flag ends where its name does
_TAILS = {"flag": r"(?![\w-])", "hook": r"(?!\w)", "alias": r"(?![\w/-]|\.\d)"}


@cache
def _pattern() -> re.Pattern[str]:
    """One alternation of every term, longest first, each in a named group by row index."""
    rows = sorted(enumerate(terms()), key=lambda r: len(r[1].term), reverse=True)
    parts = [f"(?P<t{i}>{_LEADS[t.kind]}{_spelled(t)}{_TAILS[t.kind]})" for i, t in rows]
    return re.compile("|".join(parts))


def term_literals() -> tuple[str, ...]:
    """What the line scan keeps a line for: each flag and hook as written, each alias's first
    spelling's upper-case head (the scan is case-sensitive; no term is in a load line)."""
    out = {t.term for t in terms() if t.kind != "alias"}
    out |= {re.split(r"[- ]", t.term)[0] for t in terms() if t.kind == "alias"}
    return tuple(sorted(out))


def term_matches(text: str) -> Iterator[TermMatch]:
    """Each term the text holds, with the families it names."""
    if not _maybe(text):
        return
    rows = terms()
    for m in _pattern().finditer(text):
        index = int(next(k for k, v in m.groupdict().items() if v is not None)[1:])
        row = rows[index]
        yield TermMatch(m.start(), m.end(), row.kind, row.framework, row.families)


def flag_frameworks(text: str) -> set[str]:
    """The frameworks whose own family-only options the text names (``--speculative-dspark-*``
    is SGLang's spelling alone: vLLM and TensorRT-LLM take a method in a config, and no other
    engine's tree has these names; another engine's command is set apart by its reader)."""
    return {t.framework for t in term_matches(text) if t.kind == "flag" and t.framework}


def _maybe(text: str) -> bool:
    """A cheap test before the pattern: the text holds a term's head in some case."""
    low = text.lower()
    return any(head.lower() in low for head in _heads())


@cache
def _heads() -> tuple[str, ...]:
    return tuple(sorted({re.split(r"[- ]", t.term)[0] if t.kind == "alias" else t.term[:16]
                         for t in terms()}))  # fmt: skip
