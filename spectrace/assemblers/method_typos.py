"""A speculative method's name misspelt by one keystroke ("eagles3", "egale3", "dsaprk").

Why: reports are typed in a hurry, and a title such as "[Bug] Egale3 crashes on H20" names
the method its run used as surely as a correct one. A word counts as a method here only when
it is one edit (a letter added, dropped, changed, or two neighbours swapped) away from one
method name and from no other, is at least five characters long, is no name with a number
("eagle2" is EAGLE-2, not a misspelt EAGLE3; "DFlash2" a variant, "medusa0" a head), and is
no English word that lies one edit from a name ("flash", "spark", "engram", "eagles"):
those are the words the text means. Readers apply it only to words their exact patterns
did not read.
"""

from __future__ import annotations

import re
from functools import lru_cache

# method names as typed (letters and digits), each with the canonical name readers use
_METHODS = {"eagle3": "EAGLE3", "eagle": "EAGLE", "nextn": "NEXTN", "ngram": "NGRAM",
            "dflash": "DFLASH", "dspark": "DSPARK", "medusa": "MEDUSA"}  # fmt: skip
# English words one edit from a name (every such word of five letters or more in the web2 and
# GCIDE word lists, read with english-words 2.0.2), and the plurals those lists leave out
_ENGLISH = frozenset({
    "aegle", "beagle", "eaglet", "eagre", "earle", "engle", "teagle", "eagles", "eaglets",
    "engram", "ingram", "engrams", "flash", "flashes", "depark", "dispark", "spark", "sparks",
    "medusal", "medusan", "medusae",
})  # fmt: skip
MIN_LENGTH = 5
MAX_LENGTH = max(map(len, _METHODS)) + 1  # one letter added to the longest name
# a word of 4 to MAX_LENGTH letters: a longer one is no name's typo, and none starts inside a word
_WORD = re.compile(rf"(?<![\w/.-])[A-Za-z][A-Za-z0-9]{{3,{MAX_LENGTH - 1}}}(?![\w/]|\.\w|-\w*worker)")
# a name and a number: another release or variant (EAGLE-2, DFlash2), or a head's index (medusa0)
_NUMBERED = re.compile(r"(?i)^(?:eagle|nextn|ngram|dflash|dspark|medusa)\d+$|^eagle[12]")


def one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by exactly one insertion, deletion, substitution or swap of two
    neighbouring letters."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[i:] == long[i + 1 :]


@lru_cache(maxsize=4096)
def near_method(word: str) -> str | None:
    """The canonical method a word misspells by one edit, or None (a name spelt right, a
    short word, an English word, a plural, another release of EAGLE, or two names within
    reach)."""
    low = word.lower()
    if not MIN_LENGTH <= len(low) <= MAX_LENGTH or low in _METHODS or low in _ENGLISH or _NUMBERED.match(low):
        return None
    if low.endswith("s") and low[:-1] in _METHODS:
        return None  # "ngrams" are the n-grams a text speaks of, no misspelt name
    near = {name for typed, name in _METHODS.items() if one_edit(low, typed)}
    return near.pop() if len(near) == 1 else None


def misspelt_methods(text: str) -> list[tuple[int, str]]:
    """(position, canonical method) for each word of ``text`` that misspells one method name;
    a word inside a path, a file name or a dotted or dashed name is not read."""
    return [(m.start(), name) for m in _WORD.finditer(text) if (name := near_method(m.group(0)))]
