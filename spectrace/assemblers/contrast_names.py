"""An algorithm a text names only to set it against the one its run used.

Why: the config reads the run's algorithm from prose only where every name the text gives is of
one worker family. A write-up of a STANDALONE, NGRAM or DFlash run usually explains itself
against EAGLE ("Standard EAGLE heads share the target's width by construction; STANDALONE does
not", "Unlike EAGLE3, ...", "与 EAGLE 不同"), so such a text named two families, no algorithm was
read, and a frame of a file both families run decided EAGLE's worker. Here a family is the
text's own where some line names it alone and every clause naming another family sets that
family apart without naming it; a clause naming both ("switched from STANDALONE to EAGLE3",
"STANDALONE vs EAGLE3") or a comparison that measured both ("faster than EAGLE3") sets nothing
apart, so the names stay as they were.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.assemblers.spec_prose import eagle_family, named_algorithms
from spectrace.dialects.base import LogLine

# a clause's marks that the family it names is the contrast, not the run: a generic reference
# ("standard EAGLE"), "unlike", "instead of", "rather than", "whereas", a denial that it is
# affected ("EAGLE3 don't trip on this", "is not affected", "never"), a property it has by
# design; Chinese "不同于" / "与 X 不同" / "而不是". Not "than" or "compared with": those measure both.
_APART = re.compile(
    r"(?i)\b(?:standard|regular|vanilla|ordinary|unlike|instead\s+of|rather\s+than|whereas"
    r"|by\s+(?:design|construction)|unaffected|never"
    r"|(?:do|does|did|is|are|was|were)(?:n't|\s+not)\b)"
    r"|不同于|不同|而不是|而非"
)
# clause bounds: sentence ends, semicolons, commas (both widths), dashes, parentheses, "but"
_CLAUSE = re.compile(r"[.;!?。；！？,，:：()（）—]|\s-\s|\bbut\b|\bwhile\b")


def _family(names: Sequence[str]) -> str | None:
    """The one worker family ``names`` are of (EAGLE, EAGLE3 and NEXTN are EAGLE's), else None."""
    found = {"EAGLE" if eagle_family(name) else name for name in names}
    return found.pop() if len(found) == 1 and "OFF" not in found else None


def _clauses(text: str) -> list[list[str]]:
    """The algorithm names of each clause of ``text`` that names any."""
    return [names for part in _CLAUSE.split(text) if (names := named_algorithms(part))]


def _apart(text: str, family: str) -> bool:
    """Every clause of ``text`` naming ``family`` names nothing else and sets it apart."""
    found = False
    for part in _CLAUSE.split(text):
        names = named_algorithms(part)
        if not names or not any(_family([n]) == family for n in names):
            continue
        found = True
        if _family(names) != family or _APART.search(part) is None:
            return False
    return found


def contrasted(said: list[tuple[str, LogLine]]) -> list[tuple[str, LogLine]]:
    """``said`` (name, line) narrowed to the one family the text states as its run's, where
    every other family is named only as a contrast; else ``said`` unchanged."""
    families = {f for name, _ in said if name != "OFF" and (f := _family([name])) is not None}
    if len(families) < 2:
        return said
    lines = {(line.source, line.lineno): line for _, line in said}
    own = [f for f in families if any(
        any(_family(names) == f for names in _clauses(line.text)) and not _apart(line.text, f)
        for line in lines.values())]  # fmt: skip
    runs = [f for f in own if all(
        _apart(line.text, other)
        for other in families - {f}
        for line in lines.values()
        if any(_family([n]) == other for n in named_algorithms(line.text)))]  # fmt: skip
    if len(runs) != 1:
        return said
    return [(name, line) for name, line in said if name == "OFF" or _family([name]) == runs[0]]
