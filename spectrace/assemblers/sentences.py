"""A line of prose cut into its sentences: the unit a word reader judges.

Why: a report's line often holds a statement of the run and a question or an aside beside it
("I serve Qwen3 with EAGLE3 on vLLM 0.10.1 and it crashes at the first request. Any idea?",
"MTP hangs after 200 requests on 0.5.9. The plain server is fine."). A guard read over the whole
line (a '?', "should", "fine") sets apart the family the statement names; read sentence by
sentence, the question keeps only its own words. A sentence ends at ``.``, ``!`` or ``?`` before a
blank and a capital, a digit, a quote, a bracket or a code span (or at the line's end), and at
a CJK full stop; never inside a release ("0.9.2"), a file name ("eagle.py"), an abbreviation
("e.g.", "vs."), a URL's query ("?a=1") or a backticked code span.
"""

from __future__ import annotations

import re

# an end mark, then a blank and what opens a sentence; or a CJK end mark
_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“‘`(\[*_]|[^\x00-\x7f])|(?<=[。！？])\s*(?=\S)")
# a word that a full stop ends without ending the sentence ("e.g. EAGLE3", "vs. MTP", "Fig. 2")
_ABBREVIATION = re.compile(
    r"(?i)(?:^|[\s(])(?:e\.g|i\.e|vs|etc|cf|approx|fig|figs|no|nos|nr|eq|sec|ch|vol|ver|ca|resp"
    r"|incl|esp|mr|mrs|ms|dr|st|jr|sr|al|et al)\.$"
)
# a list item's number or letter alone before the cut ("1. Launch ...", "a) ..."): no sentence
_ITEM = re.compile(r"^\W*(?:\d{1,3}|[A-Za-z])[.)]?$")


def sentences(text: str) -> list[str]:
    """The sentences of one line, in order, their text unchanged (a line with one sentence: the
    line itself)."""
    if not any(mark in text for mark in ".!?。！？"):
        return [text]
    out: list[str] = []
    start = 0
    for cut in _END.finditer(text):
        head = text[start : cut.start()]
        if _ABBREVIATION.search(head) or _ITEM.match(head) or head.count("`") % 2:
            continue  # "e.g. X", "1. X", inside `code. Spans`: one sentence goes on
        out.append(head)
        start = cut.end()
    out.append(text[start:])
    return [s for s in out if s.strip()] or [text]


# where a sentence turns to the other arm of a comparison it draws ("X garbles its output, while
# the same build without speculation is coherent", "MTP hangs; without it the server is fine",
# "EAGLE3 crashes, but the plain server does not"): a dash between blanks, a semicolon, or a
# "while", "whereas" or ", but"
_CONTRAST = re.compile(r"(?i),?\s+(?:while|whereas)\s+|[,;]\s+but\s+|;\s+|\s+[—–]\s+")


def contrast_clauses(sentence: str) -> list[str]:
    """The clauses of a sentence, cut where it turns to the other arm of a comparison (one
    clause where it draws none). Each arm's words say what that arm is: a guard one arm holds
    ("without speculation", "not", "removed") is not the other arm's."""
    return [c for c in _CONTRAST.split(sentence) if c.strip()]
