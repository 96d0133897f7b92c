"""A frame in a proposer base class several proposers share -> the subclass that ran.

vLLM (``v1/spec_decode/llm_base_proposer.py``, ``SpecDecodeBaseProposer``) and vllm-ascend
(``spec_decode/llm_base_proposer.py``, ``AscendSpecDecodeBaseProposer``) keep the drafting loop
in a base class; the method's proposer (``EagleProposer``, ``DraftModelProposer``...) only
subclasses it, so a traceback through ``_propose`` names the base, never the class. Such a
frame (or the file named with a line number, as a sentence quotes where the log pointed)
proves the run drafted through one of the base's subclasses. The method the text names (a
config's, or a family word in the title: "MTP", "DSpark") picks which, from the engine's
``[[method]]`` and ``[[frame]]`` rows of the releases that hold the base file, bounded above by
the crash's date (``release_dates.newest_at``): one class decides, several are the condition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from types import MappingProxyType

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.pyconfig import commented, commented_key
from spectrace.assemblers.release_dates import newest_at
from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.run_prose import code_named
from spectrace.assemblers.sentences import contrast_clauses, sentences
from spectrace.assemblers.thread_title import multi_layer_before
from spectrace.assemblers.spec_prose import measures_gain, removal_avoids
from spectrace.assemblers.trtllm_words import WORD_LITERALS, trtllm_word_matches
from spectrace.path_evidence import StackFrame
from spectrace.path_frames import (
    FrameSignature,
    class_bases,
    draft_model_classes,
    family_methods,
    frame_signature,
    frame_signatures,
    method_signature,
    worker_spans,
)
from spectrace.path_terms import term_matches

# the class a base file defines: SpecDecodeBaseProposer, AscendSpecDecodeBaseProposer310
_BASE_CLASS = re.compile(r"\w*Base(?:Proposer|Speculator)\w*")
# a family as a word of the text: "MTP", "Eagle-3", "DSpark", "n-gram"; not a file name
_WORD = re.compile(
    # EAGLE-3's point releases ("eagle3.1", "EAGLE-3.1") are EAGLE3; not a file "eagle3.py"
    # MTP with its draft depth ("MTP-3", "MTP2": three or two speculative tokens) is MTP
    # SGLang's FROZEN_KV_MTP ("Frozen-KV MTP") is an algorithm of its own, not MTP (NEXTN)
    # P-EAGLE ("PEagle", "P EAGLE"): an EAGLE-3 head trained for parallel drafting, which vLLM runs
    # as eagle3 with parallel_drafting; not the bare words "parallel drafting" (DFlash and DSpark
    # set parallel_drafting too, and vLLM's draft-model refusal names it)
    r"(?i)(?<![A-Za-z0-9/._-])(frozen[-_ ]?kv[-_ ]?mtp|p[-_ ]?eagle(?:[-_ ]?3)?|eagle[-_ ]?3(?:\.\d(?![\d.]))?|eagle|mtp(?:-?\d(?![\d.]))?|nextn|n-?gram|dflash2?"
    r"|dspark|medusa"
    r"|suffix(?:[ _-]speculative)?[ _-]decoding|(?-i:Draft[ _-]Model|DRAFT[ _-]MODEL|draft_model)"
    # its end is an ASCII word's: CJK text may follow with no blank ("MTP3叠加flashcomm", "开MTP后")
    r"|arctic(?:[ _-](?:lstm|mlp))?[ _-]speculator|mlp[ _-]?speculator)(?![A-Za-z0-9_./-])"
    # lookahead also as the stem of its config's names (lookAheadRuntimeConfig, lookahead_config);
    # not a scheduler's or a sampler's "lookahead window / slots / steps" (an ordinary word)
    r"|(?<![A-Za-z0-9/.])(look[-_ ]?ahead)(?=(?-i:[A-Z_])|(?![\w.]))"
    r"(?!\s+(?:window|slots?|steps?|buffer|limit|depth|budget)\b)"
    # a spec-decode test of the method: ``test_ngram_correctness``, ``test_eagle_correctness[...]``
    # TensorRT-LLM's ``test_draft_target_model``, a parametrized id ``test_eagle3[eagle3_one_model=True]``
    r"|\btest_(?:v\d_)?(?P<test>eagle3|eagle|mtp|ngram|dflash|dspark|medusa|suffix|draft_model|draft_target)"
    r"\d?(?:_\w*|\[)"  # also ``test_v1_mtp_correctness``, ``test_mtp1_correctness_eager``
    # vLLM's model-named MTP methods (``qwen3_next_mtp``, ``deepseek_mtp``) written as the value
    r"|(?<![\w/.-])(?:[a-z][a-z0-9]*_)+(?P<method>mtp)(?![\w./-])"
)
# family words joined by slashes ("MTP/EAGLE speculative decoding"): a list of words, not a path
_ONE = r"(?:eagle[-_ ]?3|eagle|mtp|nextn|n-?gram|dflash2?|dspark|medusa)"
_LISTED = re.compile(rf"(?i)(?<![\w./-]){_ONE}(?:/{_ONE})+(?![\w./-])")
# families whose proposers draft without a model (n-gram lookup, suffix trees) or with heads of
# their own (Medusa): vLLM's and the plugin's classes for them stand apart from the base that
# runs a draft model's forward steps
_APART = ("NGRAM", "SUFFIX", "MEDUSA")
_FAMILIES = {"eagle3": "EAGLE3", "eagle": "EAGLE", "mtp": "MTP", "nextn": "MTP",
             "peagle": "EAGLE3", "peagle3": "EAGLE3",
             "ngram": "NGRAM", "dflash": "DFLASH", "dflash2": "DFLASH", "dspark": "DSPARK",
             "medusa": "MEDUSA", "frozenkvmtp": "FROZEN_KV_MTP",
             "suffixdecoding": "SUFFIX", "suffixspeculativedecoding": "SUFFIX",
             "suffix": "SUFFIX", "draftmodel": "DRAFT_MODEL", "drafttarget": "DRAFT_MODEL",
             "lookahead": "LOOKAHEAD", "arcticlstmspeculator": "ARCTIC",
             "arcticmlpspeculator": "ARCTIC", "arcticspeculator": "ARCTIC",
             "mlpspeculator": "MLP_SPECULATOR"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class BaseSite:
    """Where the text shows the base: a frame, or its file named with a line number."""

    source: str
    lineno: int
    text: str
    kind: str  # "traceback frame", "file named in the text", ...
    signature: FrameSignature


def is_base(sig: FrameSignature | None) -> bool:
    """A shared row (no worker, no family) whose file defines a proposer base class."""
    return (
        sig is not None
        and sig.points_to is None
        and not sig.family
        and sig.function is None
        and any(_BASE_CLASS.fullmatch(c) for c in sig.classes)
    )


def family_words(text: str) -> set[str]:
    """The speculative families a line names as words (in the tables' spelling); none from a
    question or a suggestion ("does it happen with MTP?", "try ngram instead"), nor a family
    named as off ("without MTP", "MTP disabled"). TensorRT-LLM's own mode names ("MTP Eagle",
    "Suffix Automaton", "ReDrafter": ``trtllm_words``) are one word each. A question, an aside
    or another run read in one sentence sets apart only that sentence's words (``sentences``:
    "I serve X with EAGLE3 on 0.10.1 and it crashes. Any idea?" names EAGLE3)."""
    if _whole_guard(text) is not None:
        return set()
    found = {family for family, why in word_guards(text) if why is None}
    return found if len(found) < 3 else set()  # a list of methods (a PR's scope) names no run


LISTED_GUARD = "three or more methods listed: a scope or a category, not one run's"
REGISTRY_GUARD = "a model registry's line: a model class registered (a plugin's, at start-up), not a run of it"
# a model registry at work: vLLM's ``ModelRegistry.register_model(...)`` in code, its warning that a
# plugin's class replaces one already registered ("... XMTPModel is already registered ... new model
# class ..."): a plugin registers its MTP and EAGLE classes in every run, speculative or not
_REGISTRY = re.compile(r"\bregister_model\b|\bModelRegistry\b|\bis already registered\b|\bnew model class\b")


def line_guard(text: str) -> str | None:
    """Why none of the line's family words is a run's, in the reader's terms (None: they may
    be): a guard of the whole line (labels, code), else the guard of each sentence naming a
    family where every one has one (a line naming none: its own sentence guard)."""
    if (guard := _whole_guard(text)) is not None:
        return guard
    guards = [None if removal_avoids(s) else _sentence_guard(s) for s in sentences(text) if _sentence_words(s)]
    if not guards:
        return _sentence_guard(text)
    return guards[0] if all(guards) else None


def _whole_guard(text: str) -> str | None:
    """The guards that hold for every sentence of the line: a thread's labels, a code comment,
    a conditional expression, a commented-out command."""
    if _LABELS.match(text):
        return "the thread's labels"
    if _REGISTRY.search(text):
        return REGISTRY_GUARD
    if commented_key(text) or _CHOSEN.search(text):
        return "a code comment or a conditional expression"
    if commented(text) and " --" in text:  # ``# medusa run needs: --medusa_choices=...``
        return "a commented-out command"
    return None


def _sentence_guard(text: str) -> str | None:
    """Why a sentence's family words are not the run's: it asks or suggests, or it is about
    another run or a plain one; a comparison of two releases of the engine ("eagle3 in vLLM
    0.9.0 is worse compared to vLLM 0.9.2") ran the method on both arms."""
    if _ASKED.search(text):
        return "a question or a suggestion ('?', 'try', 'should', 'maybe')"
    if _OTHER_RUN.search(text) and (said := _OTHER_RUN.search(_RELEASES_COMPARED.sub(" ", _FAILS.sub(" ", text)))):
        if _method_gains(text) or _plain_arm_beside(text):
            return None
        return f"about another run or a plain one ('{said.group(0)}')"
    return None


def _plain_arm_beside(text: str) -> bool:
    """The sentence's other-run words all sit in clauses of the plain arm of a comparison it
    draws ("MTP garbles the output, while the same wheel without speculative decoding is
    coherent", "EAGLE3 hangs; without speculation the server is fine"): the clauses naming a
    family tell the speculative run, and none of them is set apart itself."""
    clauses = contrast_clauses(text)
    if len(clauses) < 2:
        return False
    named = [bool(_sentence_words(c)) for c in clauses]
    hits = [_OTHER_RUN.search(_RELEASES_COMPARED.sub(" ", _FAILS.sub(" ", c))) is not None for c in clauses]
    arms = [not n and h for n, h in zip(named, hits, strict=True)]
    return (any(named) and any(arms) and not any(n and h for n, h in zip(named, hits, strict=True))
            and all(_PLAIN_ARM.search(c) for c, arm in zip(clauses, arms, strict=True) if arm))


# the plain arm of a comparison, as ``_OTHER_RUN`` finds it ("without speculative", "no spec",
# "plain server", "not using")
_PLAIN_ARM = re.compile(r"(?i)no spec\w*|without spec\w*|plain (?:server|engine|run|decoding|deployment|tensor)"
                        r"|not using")


def _method_gains(text: str) -> bool:
    """The sentence measures the method's own gain ("MTP finally works on Spark, with a real
    speedup", "EAGLE3 passed: 1.8x over the baseline", "works with accept length 2.7"): a
    speedup or an acceptance figure only a run with the method shows, so its "works",
    "passed" or "baseline" is that run's result, not another run's. Only those words: "than",
    "unlike", a plan or a fix still set the sentence apart."""
    if not measures_gain(text):
        return False
    cleared = _RELEASES_COMPARED.sub(" ", _FAILS.sub(" ", text))
    return all(m.group(0).lower() in _RESULT_WORDS for m in _OTHER_RUN.finditer(cleared))


_RESULT_WORDS = frozenset({"works", "work", "worked", "working", "fine", "passed", "baseline", "compared",
                           "comparison"})


def word_guards(text: str) -> list[tuple[str, str | None]]:
    """Each family word of the line with the guard that sets it apart (None: kept): its
    sentence's guard (``_sentence_guard``), named as off ("without MTP"), or part of a model id,
    a path or a file name."""
    out: list[tuple[str, str | None]] = []
    cut = sentences(text)
    doubted = {family for s in cut if _CAUSE_ASKED.search(s) for family, _why in _sentence_words(s)}
    for sentence in cut:
        words = _sentence_words(sentence)
        if words and removal_avoids(sentence):  # "Removing X avoids it": X was the failing run's
            out += [(family, None) for family, _why in words]
            continue
        said = _sentence_guard(sentence) if words else None
        out += [(family, said or why or (_DOUBTED if family in doubted else None)) for family, why in words]
    return out


# a question whether the method is behind the failure ("Is it MTP related?", "Could this be
# caused by EAGLE?"): the line's other sentences naming it do not make it the run's ("Is it MTP
# related? In my MTP run the log says ...": the asker's own run)
_CAUSE_ASKED = re.compile(
    r"(?i)\b(?:is|was|could|might|can|may)\s+(?:it|this|that)\b[^?]{0,60}?\b(?:related|caused|due|because"
    r"|the\s+cause|from|about)\b[^?]*\?|\brelated\s+to\b[^?]{0,40}\?"
)
_DOUBTED = "asked whether it is behind the failure ('Is it MTP related?')"


_MTP_DEPTH = re.compile(r"^mtp\d$")  # "mtp3" ("MTP-3"): MTP drafting three tokens


def _sentence_words(text: str) -> list[tuple[str, str | None]]:
    """Each family word of a sentence with the word's own guard (named as off, inside a
    token)."""
    if "/" in text:  # "MTP/EAGLE": two words
        text = _LISTED.sub(lambda m: m.group(0).replace("/", " / "), text)
    low = text.lower()
    own = trtllm_word_matches(text) if any(w in low for w in _TRT_WORDS) else []
    for w in own:  # "MTP Eagle" names MTP, not EAGLE beside it
        text = text[: w.start] + " " * (w.end - w.start) + text[w.end :]
    out = [(_FAMILIES[_MTP_DEPTH.sub("mtp", re.sub(r"[-_ ]|\.\d$", "", next(g for g in m.groups() if g).lower()))],
            _word_guard(text, m)) for m in _WORD.finditer(text)]  # fmt: skip
    out += [(w.family, _OFF_GUARD if _off(text, w.start, w.end) else None) for w in own]
    out += [(family, None) for family in _architectures(text) | _labelled(text)]
    # a family's own option, model hook or alias (``path_terms``): each of its families
    out += [(family, _OFF_GUARD if _off(text, t.start, t.end) else None)
            for t in term_matches(text) for family in t.families]  # fmt: skip
    return out


# a draft model's architecture as a loader, a config or a note names it ("Resolved architecture:
# Eagle3LlamaForCausalLM", ``"architectures": ["DeepSeekMTPModel"]``, "Draft: Eagle3DraftModel"):
# one CamelCase word whose family part the word reader cannot split off
# (or any key a record gives the draft's class under: ``"drafter": {"arch": ...}``, ``draft_arch:``,
# ``speculator_class:``, ``model_class:``)
_ARCH_AT = re.compile(
    r"(?i)\b(?:resolved architecture|architectures?|arch|(?:model|draft|head)_?class"
    r"|(?:draft(?:er)?|speculator|spec)(?:[ _](?:model|head|arch\w*|class|type))?)(?-i:\W{1,6}([A-Z][A-Za-z0-9_]{3,80}))"
)
# the family part as draft architectures spell it (Eagle3LlamaForCausalLM, LlamaForCausalLMEagle,
# EagleDeepSeekMTPModel, Qwen3_5MTP, Qwen3DFlashDraftModel), not a target's own name that holds
# the word (NVIDIA's Eagle2_5_VLForConditionalGeneration, an "Eagle2.5" model: no EAGLE draft)
_ARCH_PART = re.compile(
    r"(?:Eagle3|EAGLE3|Eagle|EAGLE)(?=[A-Z]|$)|MTP|NextN|DFlash|DSpark|Medusa|MLPSpeculator"
)
_ARCH_FAMILIES = {"eagle3": "EAGLE3", "eagle": "EAGLE", "mtp": "MTP", "nextn": "MTP", "dflash": "DFLASH",
                  "dspark": "DSPARK", "medusa": "MEDUSA", "mlpspeculator": "MLP_SPECULATOR"}  # fmt: skip


# a draft model's id told as the draft ("the `EAGLE3-Coder-30B` draft", "draft model:
# `org/Qwen3-8B-DFlash`"): a model id (a hub name, one token) right before "draft" or right after
# "draft" / "draft model" and a colon or blank; or the value of the option or key a launch,
# compose file or config gives the draft under ("--speculative-draft-model-path org/X-DFlash2",
# "speculative_draft_model_path: org/X", '"draft_model_path": "org/X"')
_ID = r"[`'\"]?((?:[\w.-]+/)?[A-Za-z][\w.]*(?:[-_][\w.]+)+)[`'\"]?"
_DRAFT_ID = re.compile(rf"(?i)(?<![\w/.-]){_ID}\s+draft(?:[ _-]?model)?\b(?![\w-])"
                       rf"|\bdraft(?:[ _-]?model)?\s*[:=]?\s+{_ID}(?![\w/-])"
                       rf"|\bdraft[ _-]?model[ _-](?:path|dir|id|name|repo)[`'\"]?(?:\s*[:=]\s*|\s+){_ID}(?![\w/-])")
# the family segment of a draft id (``EAGLE3-Coder-30B``, ``Qwen3-8B-DFlash``, ``yuhuili/EAGLE-LLaMA3``,
# ``Qwen3.8-27B-DFlash2``: DFlash's second version is its family's): a whole segment between the
# id's dashes, underscores or slash
_ID_PART = re.compile(r"(?i)(?:^|[-_/])(eagle3|eagle|mtp|nextn|dflash2?|dspark|medusa)(?=[-_/]|$)")
_LETTER = re.compile(r"[A-Za-z]")


def _architectures(text: str) -> set[str]:
    """The families of the draft architectures the text names (``Qwen3_5MTP`` -> MTP), and of
    a draft model whose id holds its family as a segment of its own, told as the run's draft
    (``the `EAGLE3-Coder-30B-A3B` draft`` -> EAGLE3)."""
    found = {family for name in _CAMEL.findall(text) if (family := _draft_class_families().get(name))}
    if not any(key in text for key in ("rchitecture", "raft", "arch", "lass", "peculator", "spec")):
        return found
    found |= {_ARCH_FAMILIES[part.group(0).lower()] for m in _ARCH_AT.finditer(text)
              if (part := _ARCH_PART.search(m.group(1))) is not None}  # fmt: skip
    for m in _DRAFT_ID.finditer(text):
        model = m.group(1) or m.group(2) or m.group(3)
        parts = {p.group(1).lower().removesuffix("2") for p in _ID_PART.finditer(model)}
        named = [seg for seg in re.split(r"[-_/]", model)
                 if seg.lower().removesuffix("2") not in _ARCH_FAMILIES and _LETTER.search(seg)]
        if len(parts) == 1 and named:  # a model's own name beside the family ("MTP-1.5" is a depth)
            found.add(_ARCH_FAMILIES[parts.pop()])
    return found


# the name a report's field gives the measured arm ("**Profile:** mtp-v23", "variant = eagle3-k4",
# "- arm: dflash_b16", "Preset: qwen3-nextn-tp8"): one identifier of dash- or underscore-joined
# segments, the method one segment of its own (the word reader stops at a dash)
_LABEL_FIELD = re.compile(
    r"(?i)(?<![\w-])(?:profile|preset|variant|arm|scenario|run[ _-]?(?:name|label|profile)|config(?:uration)?[ _-]?name)"
    r"[*_`]*\s*[:=][*_`]*\s*[*_`'\"]*([A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+)[*_`'\"]*\s*(?:[,;|)]|$)"
)
# a segment saying the arm runs without the method ("baseline-no-mtp", "non-eagle", "mtp-off")
_UNSET_PART = frozenset({"no", "non", "wo", "without", "off", "disabled", "disable", "nospec", "baseline",
                         "vanilla", "plain", "ar"})


def _labelled(text: str) -> set[str]:
    """The family a report's field names its measured arm by (``_LABEL_FIELD``), where one
    segment of the arm's name is a family's and none says the arm runs without it."""
    found: set[str] = set()
    for m in _LABEL_FIELD.finditer(text):
        segments = [seg.lower() for seg in re.split(r"[-_]", m.group(1))]
        parts = {seg for seg in segments if seg in _ARCH_FAMILIES}
        if len(parts) == 1 and not _UNSET_PART.intersection(segments):
            found.add(_ARCH_FAMILIES[parts.pop()])
    return found


# a CamelCase class name, as a record's field or a sentence writes it
_CAMEL = re.compile(r"(?<![\w.])[A-Z][a-z0-9]+[A-Z][A-Za-z0-9_]{2,80}(?![\w.])")


@cache
def _draft_class_families() -> Mapping[str, str]:
    """Each draft model class of the tables (``draft_model_classes``: ``Eagle3LlamaForCausalLM``,
    ``DeepseekV3ForCausalLMNextN``) -> its family in the words' spelling, where every engine
    whose tables define the class gives it one family (a class SGLang runs on EAGLE and vLLM on
    MTP names neither): only a run that loads a draft builds one, whatever key a record files it under."""
    seen: dict[str, set[str]] = {}
    for framework in ("sglang", "vllm", "vllm_ascend", "trtllm"):
        for cls, family in draft_model_classes(framework).items():
            seen.setdefault(cls, set()).add(_FAMILIES.get(family.lower().replace("_", ""), family))
    return MappingProxyType({cls: next(iter(f)) for cls, f in seen.items() if len(f) == 1})


_OFF_GUARD = "named as off ('without', 'disabled')"


# vLLM's KV-cache mechanism named after EAGLE that every drafting method with a draft KV or
# hidden states shares (``use_eagle_block_drop``, ``is_eagle_group``, ``eagle_group_ids`` in
# vllm/v1/core): "the EAGLE drop", "EAGLE/MTP block drop", "an eagle group" name code, not a run's method
_MECHANISM_AFTER = re.compile(r"(?i)(?:\s*/\s*\w+)?[-\s]*(?:(?:last[-\s]+)?block[-\s]+)?(?:drop(?!\s+(?:in|of|to|from|after|when)\b)|groups?)\b")
_CODE_GUARD = "source files named after the family ('the MTP/Eagle sampler files'): code, not a method a run used"
_MECHANISM_GUARD = "the KV-cache mechanism named after EAGLE (block drop, eagle group): code, not a method"
# SGLang's multi-layer EAGLE ("built-in 8-layer multi-layer EAGLE", "MTP (multi-layer EAGLE)"):
# its own workers (MultiLayerEagleWorker, MultiLayerEagleWorkerV2, turned on by
# --enable-multi-layer-eagle or a model override), not EAGLEWorker(V2), as thread_title.methods_in
# reads the same words
_MULTI_LAYER_GUARD = "multi-layer EAGLE: the multi-layer workers, not EAGLE's"


def _word_guard(text: str, m: re.Match[str]) -> str | None:
    if _off(text, m.start(), m.end()):
        return _OFF_GUARD
    if _MECHANISM_AFTER.match(text, m.end()):
        return _MECHANISM_GUARD
    if code_named(text, m.end()):
        return _CODE_GUARD
    if multi_layer_before(text, m.start()):
        return _MULTI_LAYER_GUARD
    if m.group("test") or m.group("method") or not _inside(_token(text, m), m.group(0)):
        return None
    return "part of a model id, a path or a file name"


def _off(text: str, start: int, end: int) -> bool:
    """The word at ``start:end`` is named as off ("without MTP", "MTP disabled", "MTP on vLLM
    turned off")."""
    return bool(_OFF_BEFORE.search(text[max(0, start - 40) : start]) or _OFF_AFTER.match(text, end)
                or _OFF_LATER.match(text, end))  # fmt: skip


def _token(text: str, m: re.Match[str]) -> str:
    """The whitespace-delimited token the word sits in (a model id, a path, a file name)."""
    start = max(text.rfind(" ", 0, m.start()), text.rfind("\t", 0, m.start())) + 1
    end = len(text) if (stop := text.find(" ", m.end())) < 0 else stop
    # ids, paths and file names are ASCII: a CJK sentence writes its words with no blank between
    # ("使用FROZEN_KV_MTP时"), so the token ends where the ASCII run around the word does
    before = _NOT_ASCII.findall(text, start, m.start())
    if before:
        start = text.rfind(before[-1], start, m.start()) + 1
    after = _NOT_ASCII.search(text, m.end(), end)
    return text[start : after.start() if after is not None else end]


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _inside(token: str, word: str) -> bool:
    """The word is part of a longer id, path or file name (not the token itself: ``N-gram``)."""
    return token.strip("`'\"()[]{},.;:!*") != word and _IN_TOKEN.match(token) is not None


# a word inside a model id, a path or a file name (``org/Model-MTP``, ``serve_mtp_off.sh``)
_IN_TOKEN = re.compile(r"[`'\"(]*[\w.-]*/|.*\.(?:sh|py|yaml|yml|json)\b|[\w.-]+[-_]\w")
# a line about another run or a run without speculation: it works, it passed, a baseline, a
# separate script, a comparison, a fixed bug, a feature not supported
_OTHER_RUN = re.compile(
    r"(?i)\b(?:works?|worked|working|fine|passed|separate|comparison|compared|baseline|staging"
    r"|used to|fixed|unlike|same (?:crash|bug|error|issue) as|not supported|unsupported"
    r"|\b(?:faster|slower|better|worse) than\b|\bplain beam\b|\broadmap\b|\bplan(?:s|ned)?\b"
    r"|\bremov(?:e|ed|es|ing)\b|\bdeprecat\w*|\bunrelated\b|\bexample\b|\breadme\b"
    # a counterfactual or an instruction ("if you were using MTP you would see", "how to check")
    r"|\bif (?:you|we|I|it) (?:were|had|was)\b|\byou(?:'d| would) (?:see|get|have)\b"
    r"|\b(?:would|might|could) (?:probably |likely |possibly )?(?:be|have|help|improve|expect|double"
    r"|triple|give|make|speed)\b|\bwould (?:probably|likely|possibly)\b"  # "with MTP it would double"
    r"|\bhow to (?:check|enable|use|verify|tell|configure|set|turn)\b|\bexplain\w*"
    r"|\bmodel[ -]?cards?\b|\brecommend\w*|\bplainly\b"  # a card's advice, a plain run
    r"|n't support|no spec\w*|without spec\w*|plain (?:server|engine|run|decoding|deployment"
    r"|tensor)|not using|not use|don'?t use|do not use)\b"
)


# what a line holds where TensorRT-LLM's own mode names can stand (any case: the words are)
_TRT_WORDS = frozenset(word.lower() for word in WORD_LITERALS)
# the run's own failure ("ReDrafter not working", "MTP stopped working"), or the same run that
# works only with the method off ("works fine when disabled"), not another run that works
_FAILS = re.compile(
    r"(?i)\b(?:not|n't|never|stopped|no longer)\s+work(?:s|ing|ed)?\b"
    r"|\bworks?\s+(?:fine\s+|well\s+|ok\s+)?(?:when|if|once)\s+(?:it\s+is\s+|it's\s+|is\s+)?"
    r"(?:disabled|turned\s+off|switched\s+off|off)\b"
)
# the other arm of a comparison is another release of the engine ("worse compared to vLLM
# 0.9.2", "slower than on 0.10.1", "vs. v0.5.9"): the same method ran on both; a bare number
# ("lower than 2.5") is no release
_RELEASES_COMPARED = re.compile(
    r"(?i)\b(?:(?:faster|slower|better|worse|higher|lower)\s+)?(?:compared\s+(?:to|with|against)|than"
    r"|vs\.?|versus)\s+(?:(?:on|in|with|at|using)\s+)?(?:the\s+)?"
    r"(?:(?:vllm|sglang|tensorrt[- ]?llm|trt[- ]?llm|vllm-ascend)\s*v?\d+\.\d+|v\d+\.\d+|\d+\.\d+\.\d+)"
    r"(?:\.\d+)?(?:\.?(?:post|rc|dev)\d*)?(?![\w.]*\d)"
)
# a conditional expression choosing a value in code: the run may have taken either branch
_CHOSEN = re.compile(r"\sif\s[^:]{1,80}?\selse\s")
# a thread's labels (``labels: mtp/speculative-decode``) say what the tracker files it under
_LABELS = re.compile(r"\s*labels?\s*:", re.I)
# a line that asks or suggests rather than reports (a question mark ends its sentence); the
# writer's own "I try" / "we try" tells what they did ("When I try to deploy X, it throws:")
_ASKED = re.compile(r"(?i)\?(?:\s|$)|(?<!\bi )(?<!\bwe )\b(?:try|trying)\b|\b(?:suggest\w*|should|could you|maybe)\b")
# (a "not" that negates the run's working, "does not work with MTP", "its not working with NGRAM":
# the failing run had the method; "not using MTP", "did not run it with MTP" are off)
_OFF_BEFORE = re.compile(
    r"(?i)\b(?:not(?!\s+work(?:s|ed|ing)?\b)|no|without|w/o|instead of|disabl\w*|turn\w* off)\b[^.;]*$"
    r"|(?:关闭|关掉|禁用|不开启?|不启用|不使用|不用|没有|未开启|未启用|去掉|无)\s*$"  # zh: off / without
)
_OFF_AFTER = re.compile(
    r"(?i)\s*(?:is |was )?(?:disabled|off|turned off)\b|\s*(?:已)?(?:关闭|关掉|禁用)"
    # ja / ko, the word's particle first ("MTPを無効にすると", "MTP를 끄면"): read now that a
    # family word may run into CJK text
    r"|\s*[をはが]?\s*(?:無効|オフ|切る|切った|切ると|使わ)|\s*[를을은는이가]?\s*(?:끄|끈|꺼|비활성|사용하지|안\s*쓰)"
)
# "off" up to four words on, in the same clause ("MTP on vLLM turned off", "MTP in the config is
# disabled"); not past a word opening another clause or subject ("EAGLE3 with overlap
# disabled", "MTP crashes when the cache is disabled"); a bare "off" only right after the word
_OFF_LATER = re.compile(
    r"(?i)(?:\s+(?!(?:with|when|if|and|but|while|once|after|because|since|as|so|then|or|unless"
    r"|until|even)\b)[^\s.;,:!?()]+){0,4}?\s+(?:disabled|turned off|switched off|(?:is|was|were"
    r"|are) off)\b"
)


def frame_sites(frames: Iterable[StackFrame]) -> list[BaseSite]:
    """The frames in a proposer base file."""
    return [BaseSite(sf.source, sf.lineno, sf.text, sf.kind, sig)
            for sf in frames if is_base(sig := frame_signature(sf.frame))]  # fmt: skip


def base_evidence(
    sites: Sequence[BaseSite], config: RunConfig, families: set[str], day: date | None
) -> list[Evidence]:
    """The first base site's verdict: the subclass the named families run on in the releases
    that hold the file (no later than the day allows), a condition over several, or the
    family-less fact that the run speculates through the base."""
    if not sites:
        return []
    site = sites[0]
    sig = site.signature
    base = next(c for c in sig.classes if _BASE_CLASS.fullmatch(c))
    method = config.flags.get("speculative_config.method")
    named = method_signature(sig.framework, str(method.value)) if method is not None else None
    wanted = {named[0]} if named and named[0] else families
    low, high, why = _span(sig, day)
    reason = (f"{site.kind} in {sig.name}: {sig.what}: the run drafts through a subclass of "
              f"{base} ({_releases(low, high)}{why})")  # fmt: skip
    if not wanted or low is None or high is None:
        return [Evidence(site.source, site.lineno, site.text, reason + "; no method named")]
    found = {fam: _subclasses(sig.framework, fam, low, high, base) for fam in sorted(wanted)}
    said = "/".join(sorted(wanted))
    if not all(found.values()):  # a family no release read runs on a subclass of the base
        missing = ", ".join(f for f, c in found.items() if not c)
        return [Evidence(site.source, site.lineno, site.text,
                         f"{reason}; the text names {said}; no release read runs {missing} "
                         f"on a subclass of {base}")]  # fmt: skip
    classes = {cls: span for spans in found.values() for cls, span in spans.items()}
    if len(classes) == 1:
        (cls,) = classes
        return [Evidence(site.source, site.lineno, site.text,
                         f"{reason}; the text names {said}: {cls} -> other ({cls})",
                         "other", cls)]  # fmt: skip
    condition = ", or ".join(f"{cls} ({_releases(*span)})" for cls, span in classes.items())
    return [Evidence(site.source, site.lineno, site.text,
                     f"{reason}; the text names {said}: {condition}", None, None,
                     f"{condition}: the method's proposer (the config is not in the text)")]  # fmt: skip


def _version(text: str) -> Version | None:
    try:
        return Version(text.removeprefix("v")) if text else None
    except InvalidVersion:
        return None


def _releases(low: Version | None, high: Version | None) -> str:
    return f"releases {low}-{high}" if low and high else "releases unknown"


def _span(sig: FrameSignature, day: date | None) -> tuple[Version | None, Version | None, str]:
    """The releases holding the file, the newest cut to what the crash's day allows."""
    low, high = _version(sig.releases[0]), _version(sig.releases[1])
    newest = newest_at(sig.framework, day) if day is not None else None
    if newest is not None and high is not None and newest < high:
        if low is not None and newest < low:
            return low, high, f"; the day {day} is before them: not bounded"
        return low, newest, f"; the crash's day {day} bounds it"
    return low, high, ""


def _overlaps(first: str, last: str, low: Version, high: Version) -> tuple[Version, Version] | None:
    a, b = _version(first), _version(last)
    if a is None or b is None or b < low or a > high:
        return None
    return max(a, low), min(b, high)


def _subclasses(
    framework: str, family: str, low: Version, high: Version, base: str
) -> dict[str, tuple[Version, Version]]:
    """Classes that run ``family`` in ``low``-``high`` and are the base's kind (a Proposer
    base's subclasses are proposers, not runner v2's speculators), from method and frame rows."""
    known = class_bases(framework)
    if family in _APART and not known:  # a table without base classes: the families apart
        return {}
    kind = "Proposer" if base.endswith("Proposer") else "Speculator"
    rows = list(family_methods(framework, family))
    rows += [span for s in frame_signatures()  # a renamed file's class release by release
             if s.framework == framework and s.family == family and s.points_to
             and s.function is None for span in worker_spans(s)]  # fmt: skip
    out: dict[str, tuple[Version, Version]] = {}
    for cls, first, last in rows:
        span = _overlaps(first, last, low, high)
        if span is None or not cls.endswith(kind) or (known and not _descends(cls, base, known)):
            continue
        old = out.get(cls)
        out[cls] = span if old is None else (min(old[0], span[0]), max(old[1], span[1]))
    return out


def _descends(cls: str, base: str, known: Mapping[str, frozenset[str]]) -> bool:
    """``cls`` has ``base`` among its ancestors (a cycle the union of releases makes ends)."""
    seen, todo = {cls}, [cls]
    while todo:
        for parent in known.get(todo.pop(), ()):
            if parent == base:
                return True
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return False
