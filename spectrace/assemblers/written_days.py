"""The day a writer gives as the moment of writing: "As of today (July 3, 2025)", "Today is
2026-06-08", "on current vLLM (8th of June, 26)", "at the time of writing, 2025-11-02", and a
copied page's dateline ("Published on June 8, 2026", "Last updated: Jan 5, 2026").

Why: a text saved without its thread header (a bare comment, a PR body, a forum post) often
has no post header's day, and then nothing bounds the release its run held: the era join and
the framework-in-words reader stop ("no version line and no day bound the release", rounds 43
19 and 44 22). A day the writer ties to their present is no older than what they ran, so it
bounds the release like a post header's day does (``ConfigCollector.text_day``), never from
below. A date in any other sentence ("broken since 2025-05-01", "released on July 3, 2025",
"as of v0.5.3", a checkpoint's or a nightly's date) can be older than the run and is no such
day; a year-less day ("today, July 3") is never guessed.
"""

from __future__ import annotations

import re
from datetime import date

# Prefilter literals: every line written_day reads contains one (never a load line's word:
# SGLang's "Decode batch" and vLLM's metrics lines hold none of them)
WRITTEN_DAY_LITERALS: tuple[bytes, ...] = (
    b"today", b"Today", b"TODAY", b"current", b"Current", b"time of writing", b"s of writing",
    b"s of this writing", b"s of now", b"S OF NOW", b"Published", b"PUBLISHED", b"Posted",
    b"ast updated", b"ast Updated", b"Updated", b"Written", b"Date", b"DATE", b"date:",
    b"readings", b"easurements", b"umbers", b"esults", b"igures", b"easured on",
)  # fmt: skip

_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}  # fmt: skip
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# a year: four digits, or two after a comma or an apostrophe ("8th of June, 26", "June 8 '26")
_YEAR = r"(?:\d{4}|(?<=, )\d{2}|'\d{2})(?![\d:])"
# 2026-06-08 / 2026/06/08; July 3, 2025 / Jul 3rd 2025; 3 July 2025 / 8th of June, 26
_DAY = re.compile(
    r"(?i)(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})(?!\d)"
    r"|(?P<mm>" + _MONTH + r")\s+(?P<md>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<my>" + _YEAR + r")"
    r"|(?P<dd>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>" + _MONTH + r"),?\s+(?P<dy>" + _YEAR + r")"
)
_ANY_DAY = "(?:" + re.sub(r"\(\?P<\w+>", "(?:", _DAY.pattern.removeprefix("(?i)")) + ")"
# what "current" may qualify for its day to be the writer's: the engine's code, not a release,
# an image or a checkpoint, which carry days of their own ("the current release (2026-03-01)")
_CODE = (r"(?:the|of|upstream|main|master|nightly|head|trunk|tip|dev|branch|build|code|git|"
         r"vllm|sglang|tensorrt[-_ ]?llm|trt[-_]?llm|vllm[-_]ascend)")
_WRITTEN = re.compile(
    r"(?i)\btoday(?:\s+is|\s*[(,:\u2013\u2014-])\s*(?:the\s+)?" + _ANY_DAY
    + r"|\b(?:as\s+of\s+now|at\s+(?:the\s+)?time\s+of\s+writing|as\s+of\s+(?:this\s+)?writing)"
    r"\s*[(,:]?\s*" + _ANY_DAY
    + r"|\bcurrent(?:ly)?(?:\s+" + _CODE + r"){0,3}\s*\(\s*(?:as\s+of\s+)?" + _ANY_DAY + r"\s*\)"
    + r"|" + _ANY_DAY + r"\s*\(\s*today\s*\)"
)
# a copied page's own dateline, the whole line ("Published on June 8, 2026", "Posted by ana on
# 2026-06-08 · 5 min read", "Last updated: Jan 5, 2026"): the day the page was written or last
# changed, as a post header is; never "Released: ..." (a release's day, older than its runs)
_DATELINE = re.compile(
    r"(?i)^\s*[*_>#]*\s*(?:published|posted|last\s+updated|updated|written)\b"
    r"(?:\s+by\s+[^\s,]{1,40})?(?:\s+on)?\s*:?\s*[*_]*\s*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?"
    + _ANY_DAY + r"[*_]*\s*(?:[\u00b7\u2022|,-].{0,40})?$"
)


# a document's own date: its "Date:" label opening a line (a notes file's, a journal's head,
# "Date: 2026-06-27. Manager: ..."), a "Last updated <day>" opening a line whatever follows it;
# and the writer's dated readings ("Our readings (2026-08-06 UTC):", "My measurements (June 3,
# 2026)", "we measured on 2026-05-14", "numbers below were measured on ..."): a day no older than
# the run they tell of (round 49 11, 17, 22). Not "Release date:", a "Date range", another's
# measurement ("it was measured on ... by the vendor")
_DOCUMENT = re.compile(
    r"(?i)^\W*(?:date|last\s+updated)\s*:?[\s*_]*" + _ANY_DAY
    + r"|\b(?:our|my)\s+(?:readings|measurements|numbers|results|figures)\s*\(\s*" + _ANY_DAY
    + r"|\b(?:we|I)\s+(?:measured|benchmarked|recorded)(?:\s+(?:it|them|this|these))?\s+on\s+"
    + _ANY_DAY
    + r"|\b(?:numbers|results|readings|figures|measurements)\b(?:\s+\w+){0,2}\s+(?:were|was)"
    r"\s+(?:measured|taken|recorded)\s+on\s+" + _ANY_DAY
)


def written_day(text: str) -> date | None:
    """The day the line's writer gives as their present, or None."""
    m = _WRITTEN.search(text) or _DATELINE.match(text) or _DOCUMENT.search(text)
    said = _DAY.search(m.group(0)) if m is not None else None
    if said is None:
        return None
    if said["iy"] is not None:
        return _day(said["iy"], int(said["im"]), said["id"])
    if said["mm"] is not None:
        return _day(said["my"], _MONTHS[said["mm"][:3].lower()], said["md"])
    return _day(said["dy"], _MONTHS[said["dm"][:3].lower()], said["dd"])


def _day(year: str, month: int, day: str) -> date | None:
    number = int(year.lstrip("'"))
    try:
        return date(number + 2000 if number < 100 else number, month, int(day))
    except ValueError:
        return None
