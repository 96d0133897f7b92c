"""A run shown by what it measured or verified, told in the text's own words.

Why: feature and fix pull requests (an engine's own, an RL trainer's, a cookbook's) and
benchmark comments rarely paste a launch; they show their run by its outcome: "Verified with
the new integration test on 1x H100", "Tested with MiMo-7B on 8x H200, using vLLM 0.24.0", "the
hang reproduced at c>=16", "EAGLE has since been verified on gfx942", "acceptance metrics scraped
from vLLM's Prometheus endpoint", "58.6% acceptance, 1.5x speedup". Such a line is a run line
(``run_shown.run_line``). What was not done is no run: a check still to do or asked for ("needs
to be verified on H100", "can you test with PP2?", "not reproduced", "unverified"), and a number
the writer expects or targets ("you should see about 3.0 acceptance length", "target: 2x").
"""

from __future__ import annotations

import re

# the writer's check done on a setup: a past participle of checking, then where or with what
_CHECKED = re.compile(
    r"(?i)(?<![\w-])(?:verified|validated|tested|reproduced|re-?ran|benchmarked|evaluated|profiled)"
    r"(?:\s+(?:it|this|them|that|the\s+(?:fix|change|recipe|setup|config\w*|pr|patch|feature|branch)"
    r"|end[- ]to[- ]end|e2e|locally|again|manually|successfully|fine|\w+ing)){0,2}"
    r"\s+(?:on|with|using|at|against|via|under|across|in\s+(?:a|an|the|our|my)\b)"
)
# measured numbers said to come from a run: "metrics scraped from vLLM's Prometheus endpoint",
# "numbers were collected on 8x B200"
_SOURCED = re.compile(
    r"(?i)\b(?:metrics|numbers|results|figures|stats|statistics|measurements|data)\s+(?:were\s+|are\s+)?"
    r"(?:scraped|read|collected|taken|obtained|measured|gathered|pulled|recorded|captured)\s+"
    r"(?:from|on|with|via|using)\b"
)
# a metric beside a number, either order ("58.6% acceptance", "speedup of 1.8x", "TTFT 120 ms",
# "GSM8K accuracy: 0.93"); ``run_shown._RUN_LINE`` keeps its own older spellings
_METRIC = (r"(?:acceptance(?:\s+(?:rate|length|len|ratio))?|accept(?:ed)?\s+(?:rate|length|len)"
           r"|mean\s+accepted\s+tokens|speed-?ups?|ttft|tpot|itl|accuracy|gsm8k|mt-?bench|humaneval)")
_NUMBER = r"\d+(?:\.\d+)?\s*(?:%|x|ms|s)?"
_MEASURED = re.compile(
    rf"(?i)\b{_METRIC}\b\W{{0,4}}(?:(?:of|is|was|were|at|from|to|by|around|about|~)\W{{0,3}}){{0,2}}\d"
    rf"|(?<![\w.]){_NUMBER}\s*(?:\w+\s+)?{_METRIC}\b"
)
# a number or check the writer expects, targets or promises ("you should see about 3.0", "target:
# 2x", "up to 1.8x"): no run, wherever the line's other words point
EXPECTED = re.compile(
    r"(?i)\b(?:expect\w*|should|would|targets?\s*[:=]|target(?:ed|ing)\b|goals?\s*[:=]|aim\w*|hope\w*"
    r"|up\s+to|can\s+reach|promis\w*)"
)
# what was not done, not yet, or only asked or planned, in the same sentence
_UNDONE = re.compile(
    r"(?i)\b(?:not|never|no|yet|will|shall|could|might|may|must|plan\w*|todo|tbd|pending|unverified"
    r"|untested|please|if|once|unless|whether|needs?\s+to|has\s+to|have\s+to|to\s+be|going\s+to"
    r"|can\s+(?:you|someone|anyone)|anyone)\b|n't\b|\?"
)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|\s+[-—–]\s+")
# what the scan must keep for these lines to be read (``run_shown.RUN_LITERALS``); nothing a
# server prints on its own load lines
LITERALS = ("erified ", "alidated ", "ested on", "ested with", "ested using", "eproduced",
            "enchmarked ", "valuated ", "e-ran", "eran ", "craped from", "ollected from",
            "ollected on", " read from", "easured on", "easured with", "ccuracy", "peedup",
            "peed-up", "TTFT", "TPOT", "GSM8K", "gsm8k", "MT-Bench", "MT-bench", "ccepted tokens",
            "% acceptance", "% accept")  # fmt: skip


def result_line(text: str) -> bool:
    """A sentence of the line reports a check done on a setup, numbers sourced from a run, or a
    measured metric, and says nothing of it undone, asked, planned or expected."""
    for sentence in _SENTENCE.split(text):
        if _UNDONE.search(sentence) or EXPECTED.search(sentence):
            continue
        if _CHECKED.search(sentence) or _SOURCED.search(sentence) or _MEASURED.search(sentence):
            return True
    return False
