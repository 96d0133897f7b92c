"""A run the text states as not speculating, with its options shown beside the statement.

A write-up may define the configuration that crashed in one line ("the new profile = `--opt-a
--opt-b` and no speculative decoding") or introduce its whole command as one without the method
("the command without EAGLE was:" over a ``vllm serve`` paste). Such a line is the run's own
config, as strong as a plain launch: a method the text names elsewhere (a production setup it
was compared against, a patch list, a next step that would add the flag) is another run's. A
line telling a run that worked or served as a baseline is another run, not this one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.assemblers.launch_span import starts
from spectrace.assemblers.spec_prose import no_spec
from spectrace.dialects.base import LogLine

STATED_PLAIN_FLAG = "stated_plain"  # config flag: the line stating the run's plain options
# what the scan must keep for a statement to be read ("NO spec-decode", "the no-MTP command")
LITERALS: tuple[bytes, ...] = (
    b"o spec", b"O spec", b"O SPEC", b"t spec", b"o-spec", b"o-MTP", b"o-mtp", b"on-MTP", b"o-EAGLE",
    b"o-eagle", b"on-EAGLE", b"o-ngram", b"o-NGRAM",
)  # fmt: skip
# a command-line option token (``--enable-prefix-caching``), and the speculative ones
_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
_SPEC_OPTION = re.compile(r"(?i)--(?:spec\w*|num[-_]spec\w*|draft\w*)")
# a method named as absent as a modifier of the run ("the no-MTP command", "a non-EAGLE run")
_METHOD = r"(?:eagle[-_]?3?|mtp|nextn|ngram|n-gram|dflash|medusa|spec(?:ulative)?(?:[ _-]?decod\w*)?)"
_LACKS = re.compile(rf"(?i)\b(?:no|non)-{_METHOD}\b")
# the line tells another run: one that worked, a baseline, a comparison
_OTHER = re.compile(
    r"(?i)\b(?:works?|worked|working|fine|stable|passe[sd]|succe\w*|baseline|reference|control"
    r"|compar\w*|than|vs\.?|versus|unlike|instead|used to|previous\w*|earlier)\b"
)
# the run's own failure or the writer's own past doing on a later line: a run, not a plan
_TOLD_RUN = re.compile(
    r"(?i)\b(?:crash\w*|fail\w*|errors?|hang\w*|broke\w*|died|dies|traceback|oom)\b"
    r"|\b(?:I|we|my|our)\b|\b\w+ed\s+(?:it|the|with)\b"
)
_INLINE = re.compile(r"`[^`]*`")


def stated_plain(lines: Sequence[LogLine]) -> LogLine | None:
    """The first line stating the run's own options with no speculation: speculation said to be
    absent (``no_spec``, a "no-X" modifier) on a line that holds non-speculative options or
    introduces (ends with a colon) a command starting on the next line read; not a line telling
    another run (``_OTHER``)."""
    for at, line in enumerate(lines):
        text = line.text
        if line.headed or line.quoted or not (no_spec(text) or _LACKS.search(text)):
            continue
        if _OTHER.search(text) or _SPEC_OPTION.search(text):
            continue
        follows = lines[at + 1].text if at + 1 < len(lines) else ""
        if _OPTION.search(text) or (text.rstrip(" *_`").endswith(":") and starts(follows)):
            return line
    return None


def planned_flags(lines: Sequence[LogLine], plain: LogLine | None) -> frozenset[tuple[str, int]]:
    """(source, line) of each sentence after ``plain`` (the ``stated_plain`` line of ``lines``)
    that quotes a speculative option in inline code (not a command's own line) without telling
    a run of its own (no failure, no first person): a step still to take, not the run's config."""
    if plain is None:
        return frozenset()
    out = set()
    for line in lines:
        if line.source != plain.source or line.lineno <= plain.lineno or line.headed or line.quoted:
            continue
        text = line.text
        quoted = any(_SPEC_OPTION.search(code) for code in _INLINE.findall(text))
        words = _INLINE.sub(" ", text)  # the sentence around its inline code
        if not quoted or starts(words) or _TOLD_RUN.search(words):
            continue
        if words.strip(" -*+.0123456789"):  # words around the quoted flag
            out.add((line.source, line.lineno))
    return frozenset(out)
