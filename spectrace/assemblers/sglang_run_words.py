"""A run report's words read more loosely, for the era join's last look at an SGLang report:
families named in sentences whose line-wide guards dropped them, and "spec v2" named for the run.

Why: the word readers (``path_base.family_words``, ``spec_prose.set_apart``) judge a whole line,
so a guard word anywhere on it drops every family it names: "I ran X with and without NEXTN"
reads as "without NEXTN", "the value [passed here](...) is wrong for EAGLE" as a passed test,
"Output is fine (EAGLE accept length 2.0)" as another run that works. Session 14's sealed rounds
lost most SGLang bug reports this way. These readers judge each sentence on its own, lift the
pairings that name both runs, and count an acceptance figure as the family having run. Their
words are weaker than the strict readers': ``path_era`` reads them only on SGLang's own tracker
(or a run's SGLang lines), in a report of a run, where one family is the text's only one.
"""

from __future__ import annotations

import re

from spectrace.assemblers.spec_prose import V2_TAG, planned, stated_v2
from spectrace.assemblers.thread_title import guard, methods_in
from spectrace.path_base import family_words, line_guard

# "with and without NEXTN", "with or without EAGLE", "with/without MTP", "both with and without":
# two runs, one of them with the family (the writer ran it)
_BOTH = re.compile(r"(?i)\bwith\s*(?:and|or|/|&)\s*without\b")
# "X on and off", "X on/off": the same two runs
_ON_OFF = re.compile(r"(?i)\b(on)\s*(?:and|/|&)\s*off\b")
# "passed here", "passed to f", "passed in": an argument handed over, not a test that passed
_PASSED_ARG = re.compile(
    r"(?i)\bpass(?:ed|es)?\s+(?=here\b|to\b|in(?:to)?\b|as\b|through\b|via\b|down\b)"
)
# a family's acceptance figure ("EAGLE accept length ≈ 2.0", "MTP acceptance rate: 0.71",
# "NEXTN acc len 3.1"): the family ran, whatever the sentence says of the output
_METRIC = re.compile(
    r"(?i)(?<![\w/.-])(eagle[-_ ]?3|eagle|nextn|mtp|dflash|dspark|ngram|standalone)[\s*`'\"]*"
    r"(?:spec(?:ulative)?[ _-]?)?(?:accept(?:ance|ed)?[ _-]?(?:length|len|rate)|acc[ _-]?len)"
    r"[\s*`'\":=]*(?:≈|~|=|of|is|was|at|around|about)?[\s*`'\"]*\d"
)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=\S)")
# what still sets a clause's family apart from the writer's run: another issue or report, a run
# that used to be, a capability or a recommendation, a quoted title
_APART = re.compile(
    r"(?i)#\d|\bused to\b|\bunlike\b|\b(?:another|other|separate|different)\s+(?:issue|report|thread"
    r"|bug|node|cluster|machine|setup|server)|\b(?:supported|unsupported|compatible|available"
    r"|recommend\w*|optional|tracked|model card)\b|\bsame\s+(?:crash|bug|error|issue|problem)\b"
    r"|[\"“][^\"”]*\b(?:eagle|ngram|nextn|mtp)"
)
# a clause turning from another run to the reported one ("The plain server is fine ..., but the
# moment I add NEXTN it crashes"; "triton works; NEXTN faults"): each side is judged apart
_CLAUSE = re.compile(r"(?i);|\s[—–]\s|,?\s+but\s+|,?\s+whereas\s+|,\s+while\s+")
# the issue a fix closes is the run it fixes ("Fix [#16274](url): X degraded", "Fixes #123")
_FIXES = re.compile(r"(?i)\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*\[?#\d+\]?(?:\([^)\s]*\))?")
# what turns a sentence from a report into a question, wish, plan, counterfactual
_ASKS = re.compile(r"(?i)\?|\b(?:whether|should|could|would|might|plan\w*|will|wish|hope|want)\b")


def loose_families(text: str) -> set[str]:
    """The families the sentences of ``text`` name for the writer's run, each clause judged on
    its own by ``family_words`` after lifting "with and without X" and "passed here", plus the
    family of any acceptance figure; none from a sentence that asks, plans or supposes, and
    none where the text names more than one."""
    found: set[str] = set()
    for sentence in _SENTENCE.split(text):
        if _ASKS.search(sentence) or len(set(methods_in(sentence))) > 1:
            continue  # a question or plan; "EAGLE3 vs STANDALONE": two runs, neither said
        lifted = _PASSED_ARG.sub("handed ", _ON_OFF.sub(r"\1", _BOTH.sub("with", sentence)))
        lifted = _FIXES.sub("fixes ", lifted)  # "Fix [#16274](url): ...": the report it fixes
        for clause in _CLAUSE.split(lifted):
            found |= set() if _APART.search(clause) else family_words(clause)
        for m in _METRIC.finditer(sentence):
            found |= family_words(m.group(1))
    return found if len(found) == 1 else set()


# words for the v2 worker a run report names ("spec v2", "spec-v2", "SPEC_V2", "overlap spec",
# "spec overlap", "SGLANG_ENABLE_SPEC_V2=1" as a setting is config_facts')
_V2_WORD = re.compile(
    r"(?i)(?<![\w/.])(?:spec(?:ulative)?[ _-]?v2|overlap[ _-]spec\w*|spec[ _-]overlap)\b(?![.\d])"
)
# prefilter literals of the lines these words stand on
V2_LITERALS = ("SPEC_V2", "Spec V2", "spec v2", "spec-v2", "Spec-V2", "SpecV2", "spec_v2",
               "SPEC V2", "specv2", "Specv2", "SPECV2", "verlap spec", "verlap-spec", "pec-overlap",
               "pec overlap", "Spec-Overlap")  # fmt: skip


def v2_named(text: str, title: bool) -> bool:
    """The line names SGLang's spec v2 (overlap) worker as the run's: a title's tag, whatever
    the title fixes, or a sentence of a run report (``spec_prose.stated_v2``'s guards: not a
    plan, a switch to it, a suggestion or another run)."""
    if V2_TAG.search(text) is not None:
        return True
    if title:  # "[Bug] Deepseek 3.2 NVFP4 SpecV2 seqlens_k ...": the mode the title reports
        return _V2_WORD.search(text) is not None and not _ASKS.search(text) and guard(text) is None
    for sentence in _SENTENCE.split(text):  # "crash with specv2. Does not occur with specv1."
        sentence = sentence.rstrip(" .!;:")  # its own full stop is no version's dot ("specv2.")
        if _V2_WORD.search(sentence) is None or _ASKS.search(sentence):
            continue
        if stated_v2(re.sub(r"(?i)overlap[ _-]spec\w*|spec[ _-]overlap", "spec v2", sentence)):
            return True
    return False


# the mention kind of a line naming speculation for the run with no algorithm (path_words writes
# it, path_era's one-worker rule reads it; it never votes for a worker on its own)
SPEC_KIND = "speculation named for the run, no algorithm"
# speculation named with no algorithm: "speculative decoding / sampling / inference", "spec
# decode", SGLang's own benchmark script bench_speculative.py, an acceptance length or rate, the
# draft model or its tokens (read only on the lines the scan keeps for other literals: a load
# line never reaches the word readers)
_SPECULATION = re.compile(
    r"(?i)(?<![\w-])(?:spec(?:ulative)?[ _-]?(?:decod\w*|sampling|inference)|bench_speculative"
    r"|accept(?:ance|ed)?[ _-]?(?:length|len|rate)|draft[ _-](?:model|tokens?))\b"
)
# speculation named as off: "without speculative decoding", "no spec decode", "speculative
# decoding disabled / is off"
_SPEC_OFF_BEFORE = re.compile(
    r"(?i)\b(?:without|w/o|no|not|non|disabl\w*|turn\w* off|instead of)\b[^.;,]{0,24}$"
)
_SPEC_OFF_AFTER = re.compile(r"(?i)^[\s`*'\")]*(?:is |was |being )?(?:disabled|off|turned off)\b")


def speculation_named(text: str) -> bool:
    """The line says the writer's run speculates without naming its algorithm ("When using
    speculative decoding, the draft's topk_index is wrong", "[Bug] bench_speculative.py got
    error"): not a question, plan or wish, no other run's (``line_guard``), not named as off."""
    if _ASKS.search(text) or planned(text) or line_guard(text) is not None:
        return False
    return any(
        not _SPEC_OFF_BEFORE.search(text[: m.start()]) and not _SPEC_OFF_AFTER.match(text[m.end() :])
        for m in _SPECULATION.finditer(text)
    )
