"""What a report's own sentences say about an SGLang run's speculation, when no launch command
or server_args dump shows it: the ``SGLANG_ENABLE_SPEC_V2`` setting named in prose, Markdown
or an env listing, and the algorithm named beside it ("eagle3 speculative decoding").

Users describe the run they report in the title and the first paragraph; SGLang never logs
the env var, and a pasted launch line is often cut. Such statements are weaker than a command
(``RANK`` in config.py): they decide only where nothing stronger says otherwise, and a text
that names two settings or two worker families names neither.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from spectrace.assemblers.dump_path import DumpVerdict, verdict_from_launch
from spectrace.assemblers.method_typos import misspelt_methods
from spectrace.assemblers.sentences import sentences
from spectrace.assemblers.sglang_eras import Version

# Prefilter literals of the lines the collector reads for an algorithm named in prose.
PROSE_LITERALS: tuple[bytes, ...] = (
    b"agle", b"AGLE", b"extN", b"EXTN", b"extn", b"tandalone", b"TANDALONE", b"gram", b"Gram", b"GRAM",
    b"Flash", b"FLASH", b"flash", b"Spark", b"SPARK", b"spark", b"rozen", b"ROZEN",
)  # fmt: skip

# `SGLANG_ENABLE_SPEC_V2=1`, SGLANG_ENABLE_SPEC_V2: "true" (compose), "SGLANG_ENABLE_SPEC_V2":
# "0" (JSON); the value ends at punctuation a sentence puts after it ("=1).")
# and in Python: os.environ["SGLANG_ENABLE_SPEC_V2"] = "1", setenv("SGLANG_ENABLE_SPEC_V2", "1"),
# SGLang's own envs.SGLANG_ENABLE_SPEC_V2.set(True) / .override(False)
_SETTING = re.compile(
    r"\bSGLANG_ENABLE_SPEC_V2\b(?:[`'\"]?\]?\s*(?:=|:|,)|\.(?:set|override)\()\s*[`'\"]?"
    r"(true|false|yes|no|on|off|1|0)\b",
    re.I,
)
# in words: "with SGLANG_ENABLE_SPEC_V2 enabled", "SGLANG_ENABLE_SPEC_V2 is off", "enable
# SGLANG_ENABLE_SPEC_V2", "without SGLANG_ENABLE_SPEC_V2" (never the name before "=" or ":")
_AFTER = re.compile(r"\bSGLANG_ENABLE_SPEC_V2\b[`'\"]?\s+(?:is\s+|was\s+|set\s+)?(?:to\s+)?"
                    r"(enabled|disabled|on|off|true|false)\b", re.I)  # fmt: skip
_BEFORE = re.compile(r"\b(enabl(?:e|ed|ing)|turn(?:ed|ing)? on|disabl(?:e|ed|ing)|turn(?:ed|ing)? "
                     r"off|unset(?:ting)?|without)\s+(?:the\s+)?[`'\"]?SGLANG_ENABLE_SPEC_V2\b"
                     r"(?![`'\"]?\s*[=:])", re.I)  # fmt: skip
PROSE_REASON = "named in the text, not a launch command"  # every verdict of this module
_TRUTH = {"true": True, "1": True, "yes": True, "on": True, "enabled": True}
# an algorithm as a word: "eagle3 speculative decoding", "Eagle-3", "NEXTN", a draft
# checkpoint's "-Eagle3"; not a file or class name (eagle_worker.py, EAGLEWorker, llama_eagle3)
_ALGORITHM = re.compile(  # ASCII word edges: "使用EAGLE3投机解码" names EAGLE3 too
    r"(?i)(?<![A-Za-z0-9_/.])(eagle[-_ ]?3(?:\.\d(?![\d.]))?|eagle|nextn|standalone|ngram|dflash(?:[-_ ]?2)?|dspark|frozen_kv_mtp)"
    r"(?![A-Za-z0-9_]|\.\w|-\w*worker)"  # a sentence's full stop ends it; ".py" does not
)
# what each spelling runs as: NEXTN reads as EAGLE; EAGLE and EAGLE3 share EAGLEWorker
_CANONICAL = {"eagle": "EAGLE", "nextn": "NEXTN", "standalone": "STANDALONE", "ngram": "NGRAM",
              "dflash": "DFLASH", "dflash2": "DFLASH", "dspark": "DSPARK", "frozenkvmtp": "FROZEN_KV_MTP"}  # fmt: skip
_WORKER_FAMILY = {"EAGLE": "EAGLE", "EAGLE3": "EAGLE", "NEXTN": "EAGLE", "STANDALONE":
                  "STANDALONE", "NGRAM": "NGRAM", "DFLASH": "DFLASH", "DSPARK": "DSPARK",
                  "FROZEN_KV_MTP": "FROZEN_KV_MTP", "OFF": "OFF"}  # fmt: skip
# words before a name that say the run did not use it
_NEGATION = re.compile(
    r"(?i)\b(?:not|no|without|w/o|instead of|disabl\w*|turn\w* off|switch\w* off|off)\b[^.;!?]*$"
)
# "no" quantifying what serves the method, not the method: "no version serves X + DFlash
# together", "no release supports MTP with FP8", "no build runs it with EAGLE": a failure told
# of every release, the method still the run's
_NO_SERVER = re.compile(
    r"(?i)^no\s+(?:[\w.-]+\s+){0,2}?(?:versions?|releases?|builds?|images?|wheels?|nightl(?:y|ies)"
    r"|combinations?|setups?|configs?|configurations?|backends?|kernels?)\s+(?:\w+\s+)?"
    r"(?:serves?|supports?|runs?|works?|handles?|can|could|will|is able)\b"
)


# a line naming the switch as the fix, a suggestion or another run's setting ("setting
# SGLANG_ENABLE_SPEC_V2=1 makes the crash go away", "you can set ... to use the overlap worker",
# "... is what #15000 used; we did not set it")
_SWITCH_APART = re.compile(
    r"(?i)\bgo(?:es)? away\b|\bfix\w*|\bavoid\w*|\bworkaround\b|\byou can\b|\bcan set\b"
    r"|\binstead\b|\bdo(?:es)?(?: not|n't) have\b|\bdid(?: not|n't) set\b|\bwould\b|\bshould\b"
    r"|\btry\b|\bsuggest\w*|\bused\b|#\d|\bif\b|\?"
)
# "with SGLANG_ENABLE_SPEC_V2=1 it works fine": the fix; "when it works with ... enabled, it
# crashed" is the run (a failure after the word)
_SWITCH_WORKS = re.compile(r"(?i)\b(?:works?|worked|fine)\b(?!.*\b(?:crash|fail|error|hang|die))")


# an error's or a check's advice naming the switch ("... please use extra_buffer and set
# SGLANG_ENABLE_SPEC_V2=1.", "ValueError: X requires SGLANG_ENABLE_SPEC_V2=1", "the error asks
# users to set ..."): what the code tells a user to do, not what the run set
_ADVICE = re.compile(
    r"(?i)\bplease\s+(?:\w+\s+){0,8}?(?:set|use|enable|export|add)\b|\basks?\s+(?:the\s+)?"
    r"(?:users?|you|people|one)\s+to\b|\brequir(?:e|es|ed)\b|\bmust\s+(?:set|use|enable|be)\b"
    r"|\bneeds?\s+to\s+be\b"
)
# the switch inside an error's own text ("ValueError: X ... set SGLANG_ENABLE_SPEC_V2=1")
_ERROR_ADVICE = re.compile(r"\b\w+(?:Error|Exception|Warning)\b:.*SGLANG_ENABLE_SPEC_V2")
# the name inside a quoted sentence (a string literal of code: ``raise ValueError("Use
# extra_buffer with SGLANG_ENABLE_SPEC_V2=1.")``): an opening quote before it with words between
_IN_STRING = re.compile(r"[\"'][^\"'`]*\s[^\"'`]*\bSGLANG_ENABLE_SPEC_V2\b")


def switch_apart(text: str) -> bool:
    """The line names SGLANG_ENABLE_SPEC_V2 as the fix, a suggestion, another run's, an error's
    or a check's advice, or inside a string literal of code."""
    if "SGLANG_ENABLE_SPEC_V2" not in text:
        return False
    return advised(text) or bool(_SWITCH_APART.search(text) or _SWITCH_WORKS.search(text))


def advised(text: str) -> bool:
    """The line names SGLANG_ENABLE_SPEC_V2 as an error's or a check's advice, or inside a
    string literal of code: never the run's setting, even where a reader took the line for a
    command (a sentence quoting ``--flag`` and ``SGLANG_ENABLE_SPEC_V2=1`` side by side)."""
    if "SGLANG_ENABLE_SPEC_V2" not in text:
        return False
    if (_PURPOSE.search(text) or _ADVICE.search(text)) and not _FIRST_PERSON.search(text):
        return True  # "... please set SGLANG_ENABLE_SPEC_V2=1 to use it": said to someone
    if _CHANGE.search(text):
        return True  # "# Add SGLANG_ENABLE_SPEC_V2=1 for X", "prepending it to the generated command"
    return _ERROR_ADVICE.search(text) is not None or _in_string(text)


# a change that writes the switch into code or emitted commands: a title wording the change
# ("# Add SGLANG_ENABLE_SPEC_V2=1 for Qwen3.5 MTP", "# [Cookbook] Set ... by default"), or a
# sentence prepending, appending or emitting it (a config generator, a template, a recipe file)
_CHANGE = re.compile(
    r"(?i)^\W*#\s+(?:\[[^\]]*\]\s*)*(?:add|set|enable|prepend|use|default|turn|switch|pass|export"
    r"|introduc|remov|drop|disabl)\w*\b|\b(?:prepend|append|inject|emit)\w*\b|generator\b"
)


# the switch followed by what it is for ("set SGLANG_ENABLE_SPEC_V2=1 and the extra buffer to use
# radix cache"): an instruction, unless the writer says they did it ("we set ... to use X")
_PURPOSE = re.compile(
    r"SGLANG_ENABLE_SPEC_V2\S*(?:\s+and\s+[^.;]{0,60}?)?\s+(?:in order\s+)?to\s+(?:use|enable|run|get"
    r"|avoid|fix|make|support|allow|turn)\b"
)
_FIRST_PERSON = re.compile(r"(?i)\b(?:I|we|I've|we've|I'm|we're|my|our)\b")


def _in_string(text: str) -> bool:
    """The switch sits in a quoted sentence: an odd count of double quotes before it on the line
    (or a line opening with one: a literal's next line), with words between quote and name."""
    at = text.find("SGLANG_ENABLE_SPEC_V2")
    before = text[:at]
    if before.count('"') % 2 == 1 or before.lstrip().startswith(('f"', '"', "f'", "'")):
        return _IN_STRING.search(text) is not None
    return False


def spec_v2_settings(text: str) -> set[bool]:
    """The SGLANG_ENABLE_SPEC_V2 values a line states (SGLang's boolean spellings, or words)."""
    found = {_TRUTH.get(m.group(1).lower(), False) for m in _SETTING.finditer(text)}
    found |= {_TRUTH.get(m.group(1).lower(), False) for m in _AFTER.finditer(text)}
    for m in _BEFORE.finditer(text):
        found.add(m.group(1).lower().startswith(("enabl", "turn on", "turned on", "turning on")))
    return found


def named_algorithms(text: str) -> list[str]:
    """The speculative algorithms a sentence names, in SGLang's spelling (EAGLE3, NEXTN...);
    one named as off ("turning off EAGLE", "without NGRAM") reads as OFF, which names none."""
    label = _LABEL.match(text)
    off = label is not None and (label.group("off") is not None or _OFF_WORD.search(text) is not None)
    out = ["OFF"] if off else []  # "spec: none", "spec: EAGLE3 on node A, none on node B"
    found: list[tuple[int, str]] = []
    for m in _ALGORITHM.finditer(text):
        word = re.sub(r"[-_ ]|\.\d$", "", m.group(1).lower())  # EAGLE3.1 drafts run as EAGLE3
        if word == "standalone" and not _standalone_spec(text, m):
            continue  # "standalone client mode": the English word, not the algorithm
        found.append((m.start(), "EAGLE3" if word == "eagle3" else _CANONICAL[word]))
    # "we serve it with egale3": one keystroke off a name SGLang runs (method_typos)
    found += [(at, name) for at, name in misspelt_methods(text) if name in _WORKER_FAMILY]
    for at, name in sorted(found):
        if _EXAMPLE.search(text[max(0, at - 40) : at]):
            continue  # "speculative decoding (e.g., EAGLE)": an instance of a kind, no run's
        negated = _NEGATION.search(text[max(0, at - 40) : at])
        if negated is not None and _NO_SERVER.match(negated.group(0)):
            negated = None  # "no version serves FP8 + DFlash": a failure, not the method off
        out.append("OFF" if negated else name)
    return out


# a name given as an instance of a kind ("speculative decoding (e.g., EAGLE)", "methods such as
# NGRAM"), in its own clause: it says what kind the text is about, not which algorithm ran
_EXAMPLE = re.compile(r"(?i)(?:\be\.\s?g\.?|\bsuch as|\bfor instance)[,:]?\s*[^.;:)(]{0,12}$")


# A sentence saying the run had the algorithm on ("serving M with `EAGLE3` speculative decoding
# enabled", "after enabling EAGLE", "when using EAGLE ..."), not one asking, suggesting or
# supposing it
# ... or one it says failed ("EAGLE speculative decoding crashes with X", "crash with EAGLE3"),
# or the reporter says they ran ("we run EAGLE", "I'm using EAGLE3")
_FAILED = (
    r"(?:fails?|failed|failing|crash\w*|hangs?|hung|errors?\b|breaks|broke|segfault\w*|OOMs?\b"
    r"|illegal memory access|out of memory|IMA\b|deadlocks?\b|NaNs?\b)"
)
# ... or a setup list's item setting it on ("(2P2D, DP attention on, EAGLE MTP on)", "EAGLE3: on,",
# "| MTP | on |"): the word "on" closes the item, not "on Blackwell" or "on the draft"
_ENABLED_AFTER = re.compile(
    r"(?i)^[^.;!?]{0,60}?\b(?:enabled|turned on|switched on)\b|^[^.;!?]{0,40}?\b" + _FAILED
    + r"|^(?:[ -][\w-]+)?\s*(?:[:=|]\s*)?on\b(?=\s*(?:[),;|）,，；、。]|$))"
)
_ENABLED_BEFORE = re.compile(
    r"(?i)\b(?:enabl(?:e|ed|ing)|turn(?:ed|ing)? on|(?:when|while|after|I'm|I am|we're|we are)\s+"
    r"(?:using|running|serving with)|(?:I|we)\s+(?:use|used|run|ran|serve|served|deploy(?:ed)?)|"
    + _FAILED
    + r"\s+(?:with|when using|using|under|during|in))\b[^.;!?]{0,30}$"
    # "crashes when serving gpt-oss-120b with the org/gpt-oss-Eagle3 head" (a model id's dots)
    r"|" + _FAILED + r"\s+(?:when|while)\s+(?:serving|running|using|launching|loading)\b"
    r"(?:[^.;!?]|\.(?=\S)){0,80}$"
    r"|(?:开启|启用|使用|打开|采用|用了)\s*[`'\"]?$"  # the same in Chinese reports: "使用EAGLE3"
)
# "We are running GLM-5.1 FP8 with TP=8, FP8 KV cache, HiCache, and EAGLE speculative decoding":
# the run's setup listed, a model id's dots inside it; nothing in the list compares or negates
_WE_RUN = re.compile(
    r"(?i)\b(?:I|we)(?:'re|'m|\s+are|\s+am)\s+(?:running|serving|deploying)\b((?:[^.;!?]|\.(?=\S)){0,90})$"
)
_GAP_APART = re.compile(r"(?i)\b(?:compar\w*|than|vs|versus|instead|not|no|without|except|other|another)\b")
# "在 STANDALONE 推测解码下" (under STANDALONE speculative decoding), a Chinese sentence's frame
_CJK_UNDER = re.compile(r"在\s*[`'\"]?$")
_CJK_UNDER_AFTER = re.compile(r"^[`'\"]?\s*(?:推测解码|投机解码|投机采样|推测采样|模式)?\s*(?:下|时|中)")
# "NGram Spec Decoding Doesn't Work With HiCache": a failure, not a negation
_NOT_WORKING = re.compile(
    r"(?i)\b(?:does(?:n't| not)|do(?:n't| not)|is(?:n't| not)|are(?:n't| not)|can(?:'t|not)|won't)"
    r"\s+(?:work|run|start|load|launch)\w*|\bnot working\b"
)
_OFF_AFTER = re.compile(r"(?i)^[^.;!?]{0,40}?\b(?:off|disabled|removed|not used|unset)\b")
_SUPPOSED = re.compile(
    r"(?i)\?|\b(?:if|whether|should|could|would|try|trying|suggest\w*|plan\w*)\b"
)


# a plan or a wish: the method is to come ("we will enable MTP next week", "would EAGLE3
# help?", "going to try ngram"), so the run the text reports has not used it
_PLANNED = re.compile(
    r"(?i)\b(?:will|going to|gonna|plan(?:ning)? to|intend(?:s|ing)? to|about to|hope to)\s+"
    r"(?:\w+\s+)?(?:enable|try|turn on|use|add|switch|adopt|deploy|evaluate|test)\b"
    r"|\bwould\s+(?:\w+\s+){0,4}help\b|\bnext (?:week|month|sprint|quarter|release)\b"
    # work still going on to support the method ("I am still debugging and tuning PP+DSpark
    # compatibility", "we're working on MTP support"): it does not run yet
    r"|\b(?:debugging|tuning|working\s+on|adding|implementing|enabling|porting)\b[^.;!?]{0,40}"
    r"\b(?:compatibility|support|integration|combination)\b"
    # a feature list's item offering the method to the reader ("- Optional EAGLE-3 speculative
    # decoding", "MTP drafting (optional)"): what the reader may turn on, not what a run had
    r"|^\W{0,6}optional\s+(?![\[(])|\((?:optional|opt-in)\)"
)


def planned(text: str) -> bool:
    """The line says the methods it names are a plan or a wish, not what the run had."""
    return _PLANNED.search(text) is not None


def unplanned(text: str) -> str:
    """The line without its sentences of a plan or a wish ("MTP crashes on 0.11.0. We will try
    EAGLE3 next week." keeps the first): a plan beside a statement of the run names only its own
    methods apart."""
    if _PLANNED.search(text) is None:
        return text
    return " ".join(s for s in sentences(text) if not planned(s))


# words that put the named algorithm beside, before or apart from the reported run ("used to
# run EAGLE", "before enabling EAGLE", "unlike the EAGLE crash in #5000", "fine with EAGLE; the
# plain server crashes", "a plain server in prod", "without any speculation", a quoted title)
_CONTRARY = re.compile(
    r"(?i)\bwithout\b|\bno\s+spec|\bplain\b|\bnon-spec|\bdisabl|n't\b|\bnot\b|\bnever\b"
    r"|\bused to\b|\bbefore\b|\bunlike\b|\bfixed\b|\bfine\b|\bworks?\b|\bworked\b|\bstaging\b"
    r"|\bsame\s+(?:crash|bug|error|issue|problem)\b|#\d|[\"“][^\"”]*\b(?:eagle|ngram|nextn)"
    r"|\b(?:another|other|separate|different)\s+(?:issue|report|thread|bug|node|cluster|machine)"
    r"|\btracked\b|\bthis one\b|\bok\b|\bsupported\b|\bavailable\b|\bcompatible\b"
    r"|\boptional\b|\bplanned\b|\brecommended\b|\bmodel card\b"
)


# an environment list's or an issue template's label for the run's algorithm ("- Speculative
# Algorithm: EAGLE-2 with FR-Spec", "**spec decoding**: EAGLE3, topk 1", "spec: NEXTN")
_LABEL = re.compile(
    r"(?i)^\s*(?:[-*+]\s+|\d{1,2}[.)]\s+)?(?:\*\*|__)?(?:speculative|spec)(?:[ _-]?decod\w*)?"
    r"(?:[ _-]?(?:algorithm|algo|method|mode))?(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?[`'\"]?"
    r"(?=(?:eagle|nextn|standalone|ngram|dflash|dspark|frozen_kv_mtp)(?![A-Za-z_])|(?P<off>none|"
    r"off|disabled|no\b|n/a\b|-\s*$))"
)


_OFF_WORD = re.compile(r"(?i)\b(?:none|off|disabled|plain)\b")


# The one reading of "this run does not speculate" for every framework's reader (titles, vLLM's
# environment bullets, SGLang's prose): a method named as off ("turning MTP off", "with EAGLE
# disabled"), speculation said to be absent ("no speculative decoding", "not using spec
# decoding", "spec decoding: none"), and the off-words of Chinese, Japanese and Korean reports
# ("关闭MTP", "MTPを無効にすると", "MTP를 끄면": a line holding one names no method of its run)
_METHOD_WORD = r"(?:eagle[-_ ]?3?|mtp|nextn|ngram|n-gram|dflash|dspark|medusa|standalone)"
# speculation itself said to be absent, whatever the method ("no speculative decoding")
_NO_SPEC = (
    r"\b(?:no|without|w/o|disabled?|not using|no longer using)\s+(?:any\s+)?spec(?:ulative)?"
    r"[ _-]?(?:decod|config)|\bspec(?:ulative)?[ _-]?decod\w*\s*[:=]\s*[`'\"]?(?:none|off|no|disabled"
    r"|false)\b"
)
_SPEC_OFF = re.compile(
    rf"(?i)\b{_METHOD_WORD}\s+(?:is\s+|was\s+)?(?:off|disabled|removed|turned off|switched off)\b"
    # a relative clause saying so: "EAGLE3 (which we disabled)", "NGRAM, which is turned off"
    rf"|\b{_METHOD_WORD}\s*[,(]?\s*(?:which|that)\s+(?:\w+\s+){{0,3}}?"
    r"(?:off|disabled|removed|turned off|switched off)\b"
    rf"|{_NO_SPEC}"
    r"|关闭|关掉|禁用|不开启|未开启|不使用|不用|没有开启|去掉|去除|取消|无效|無効|オフ|切る|切った|使わ"
    r"|끄|끈|꺼|비활성|사용하지|안 쓰"
)


def spec_off(text: str) -> bool:
    """The line says its run (or the method it names) does not speculate (``_SPEC_OFF``)."""
    return _SPEC_OFF.search(text) is not None


_NO_SPEC_RE = re.compile("(?i)" + _NO_SPEC)


def no_spec(text: str) -> bool:
    """The line says its run does not speculate at all, naming no method (``_NO_SPEC``): the
    narrower reading for a text whose other lines may name the method of another run."""
    return _NO_SPEC_RE.search(text) is not None


# a sentence that puts its named algorithm beside a plain or earlier run (titles' "#N", "works
# on <date>" and "never" are left to stated_enabled: they also head real reports of the run)
_SET_ASIDE = re.compile(
    r"(?i)\bused to\b|\bplain\b|\bnon-spec\w*|\bstaging\b|\bfine\b|\b(?:no|without(?: any)?)\s+spec"
)


def run_names(text: str) -> list[str]:
    """``named_algorithms`` of the line, each read as OFF where its sentence sets it apart from
    the reported run (``_SET_ASIDE``: "we used to run EAGLE, ...", "EAGLE works fine; the plain
    server crashes"): such a line leaves the text no name of its own. A question or supposition
    still names the thread's algorithm; a Chinese line is judged sentence by sentence (。)."""
    out = []
    for sentence in text.split("。"):
        names = named_algorithms(sentence)
        apart = bool(names) and (_SET_ASIDE.search(sentence) is not None or spec_off(sentence))
        out += ["OFF" if apart else name for name in names]
    return out


def aside_only(text: str) -> bool:
    """The line's names read OFF in ``run_names`` only because their sentence sets them aside
    (not a label's "none", not "without EAGLE"): it says nothing of the run's own algorithm,
    so a title or sentence that states one still stands (the guard is the line's own)."""
    names = run_names(text)
    said = [name for sentence in text.split("。") for name in named_algorithms(sentence)]
    return "OFF" in names and "OFF" not in said


def removal_avoids(sentence: str) -> bool:
    """The writer says taking the method away makes the failure go away ("Removing
    --speculative-algorithm EAGLE avoids it", "Without MTP it does not happen", "disabling the
    eagle3 config makes the crash go away"): the method was on in the run that failed. Not a
    question, advice or a condition ("if you hit this, disabling MTP avoids it"), nor a failure
    that stays ("removing EAGLE does not fix it", "without MTP it still crashes"). The same said in
    Chinese or Japanese (``_CJK_REMOVAL_WORKS``: "关闭 MTP 之后不报错了", "MTP を外すと正常に起動する")."""
    if _CJK_REMOVAL_WORKS.search(sentence) is not None:
        return True
    if _QUESTION.search(sentence) or _STAYS.search(sentence) or (gone := _GOES_AWAY.search(sentence)) is None:
        return False
    # (a plea after the failure's going away, "..., it works. please fix", is the writer's, no advice)
    advice = [m for m in _ADVICE_TO_OTHERS.finditer(sentence)
              if not (m.start() >= gone.end() and m.group(0).lower() == "please")]  # fmt: skip
    return _REMOVAL.search(sentence) is not None and not advice


# the method taken away ("removing", "dropping", "disabling", "without", "turning off"), and the
# failure said to go away after it ("avoids it", "fixes it", "goes away", "does not happen",
# "no crash", "works fine"); advice to others and failures that stay are neither
_REMOVAL = re.compile(
    r"(?i)\b(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|disabl(?:e|es|ed|ing)"
    r"|comment(?:s|ed|ing)?\s+out|(?:take|takes|took|taking)\s+out|(?:get|got|getting)\s+rid\s+of"
    r"|omit(?:s|ted|ting)?|turn(?:s|ed|ing)?\s+off"
    r"|switch(?:es|ed|ing)?\s+off|unset(?:s|ting)?|without|w/o|minus|stripp(?:ed|ing)\s+(?:of\s+)?)\b"
)
_GOES_AWAY = re.compile(
    r"(?i)\b(?:avoids?|avoided|fix(?:es|ed)?|prevents?|prevented|resolves?|resolved|goes\s+away"
    r"|go\s+away|went\s+away|disappears?|disappeared)\b"
    r"|\b(?:does(?:n't|\s+not)|did(?:n't|\s+not)|never)\s+(?:happen|occur|crash|hang|fail|reproduce)\w*"
    r"|\bno\s+(?:more\s+)?(?:crash(?:es)?|errors?|hangs?|failures?|IMA)\b"
    r"|\b(?:works?|runs?|ran|worked)\s+(?:fine|well|normally|correctly|stably)\b"
    # the run said to work once the method is gone, the clause ending there ("after deleting the
    # --speculative-config it works.", "once I commented out the MTP flags, everything works now")
    r"|\b(?:it|everything|all|the\s+server|the\s+service|the\s+engine)\s+(?:now\s+)?(?:works|worked|is\s+working"
    r"|runs|ran)(?:\s+(?:now|again|ok|okay))?\s*(?:[.,;!)]|$)"
    # the server comes up and serves ("loads and serves correctly", "boots fine", "starts normally")
    r"|\b(?:loads?|loaded|serves?|served|starts?|started|boots?|booted|comes?\s+up|came\s+up)"
    r"(?:\s+and\s+\w+)?\s+(?:fine|well|normally|correctly|successfully|cleanly|stably)\b"
)
_STAYS = re.compile(
    r"(?i)\b(?:does(?:n't|\s+not)|did(?:n't|\s+not)|won't|can't|cannot)\s+(?:\w+\s+)?(?:fix|avoid|help|resolve"
    r"|prevent|change)\w*|\bstill\b|\b(?:also|too)\s+(?:crash|fail|hang)\w*|\bcrash\w*\s+(?:too|as well)\b"
)
_ADVICE_TO_OTHERS = re.compile(
    r"(?i)\b(?:you|your|if|recommend\w*|workaround\s+is|try|should|can|could|please)\b"
    r"|\bwhen\b(?!\s+(?:I|we)\b)"
)
_QUESTION = re.compile(r"\?(?:\s|$)")


def speculation_removal_works(sentence: str) -> bool:
    """The writer says the same run with its speculation taken away works ("the identical command
    minus the four `--speculative-*` flags serves correctly", "without --speculative-config it
    boots fine"): the run that failed speculated, whatever a command shown without those flags
    says. ``removal_avoids`` where what is taken away is speculative (not "without the patch")."""
    if _CJK_REMOVAL_WORKS.search(sentence) is not None:
        return True
    return removal_avoids(sentence) and _SPEC_TAKEN_AWAY.search(sentence) is not None


# the same in Chinese and Japanese: a removal verb over the speculative option or method, then the
# server said to work ("去掉 --speculative-* 参数后服务正常", "关闭 MTP 之后不报错", "--speculative-* を
# 外すと正常に起動する"); a condition or advice to the reader ("如果", "可以试试", "もし") is neither
_CJK_SPEC = r"(?:--spec\S*|投机|推测解码|MTP|EAGLE\w*|NEXTN|DFlash\w*|DSpark|ngram|draft|草稿|ドラフト|投機)"
_CJK_REMOVAL_WORKS = re.compile(
    r"(?i)^(?!.*(?:如果|若是|假如|建议|可以试|もし|してください))"
    rf".*(?:去掉|去除|删掉|删除|移除|关闭|关掉|不加|不开|禁用|拿掉)[^，,。；;]{{0,12}}?{_CJK_SPEC}"
    r"[^。；;]{0,24}?(?:正常|没有?问题|不报错|不再报错|能启动|成功启动|跑通)"
    rf"|{_CJK_SPEC}[^。；;]{{0,16}}?(?:を外す|を外した|を無効に|を無効化|なしで|を抜く|を抜いた)[^。；;]{{0,16}}?(?:正常|問題なく)"
)

# the removal word governs a speculative option, word or method ("minus the four `--speculative-*`
# flags", "without speculative decoding", "dropping EAGLE3", "w/o the draft model")
_SPEC_TAKEN_AWAY = re.compile(
    r"(?i)\b(?:remov\w*|drop\w*|disabl\w*|turn\w*\s+off|switch\w*\s+off|unset\w*|without|w/o|minus"
    r"|stripp\w*)\s+(?:[\w-]+\s+){0,3}?[`'\"*]*(?:--spec\w*|--draft\w*|spec(?:ulat\w*|[ _-]?dec\w*)\b"
    r"|(?:eagle[-_ ]?3?|mtp|nextn|ngram|n-gram|dflash\w*|dspark|medusa|draft)\b)"
)


def names_apart(text: str) -> bool:
    """``set_apart`` read sentence by sentence: every sentence naming a method is set apart, or
    a later one turns against it ("EAGLE3 was on. But that is not the run that crashed."); a
    question or an aside in another sentence sets none apart ("We run NEXTN on 0.5.9 and the
    scheduler dies. Any idea?"). A line naming no method: ``set_apart`` of the whole line."""
    cut = sentences(text)
    said = [i for i, s in enumerate(cut) if _NAMED.search(s)]
    if not said:
        return set_apart(text)
    return all(set_apart(cut[i]) or any(turns_against(s) for s in cut[i + 1 :]) for i in said)


def turns_against(sentence: str) -> bool:
    """The sentence turns against what the sentences before it named ("But that is not the run
    that crashed.")."""
    return _TURN.match(sentence) is not None and set_apart(sentence)


_NAMED = re.compile(rf"(?i)(?<![A-Za-z0-9_/.]){_METHOD_WORD}(?![A-Za-z0-9_])")


def set_apart(text: str, without: bool = True) -> bool:
    """The line asks or supposes (``_SUPPOSED``) or sets a name apart from the reported run
    (``_CONTRARY``): the algorithms it names are not the run's (a line quoting another post
    says so by ``LogLine.quoted``, which the callers holding the line read).
    ``without=False``: "without" alone does not (a flag quoted "with X but without Y" is X)."""
    if not without:
        text = re.sub(r"(?i)\bwithout\b", "", text)
    if removal_avoids(text):
        return False  # "Removing --speculative-algorithm EAGLE avoids it": the failing run had it
    text = _clause_negation_lifted(text)
    if _TRAINING.search(text) is not None:
        return True  # training a draft head is no serving run of it
    if _TURNS_TO_FAILURE.search(text) is None:  # "tested X on MI355X and it works": that run's result
        text = _CHECKED_WORKS.sub(" ", text)
        if measures_gain(text):  # "MTP finally works, with a real speedup": the method's own result
            text = _RESULT_WORD.sub(" ", text)
    return bool(_SUPPOSED.search(text) or _CONTRARY.search(text))


def measures_gain(text: str) -> bool:
    """The text measures a gain of speculation (a speedup, an "N.Nx" factor, an acceptance length
    or rate): only a run with the method shows one, so a "works" or "fine" beside it is that
    run's result, not another run's."""
    return _GAIN.search(text) is not None


_GAIN = re.compile(
    r"(?i)\bspeed-?ups?\b|(?<![\w.])\d+(?:\.\d+)?\s?[x×](?![\w-])|\baccept(?:ance)?[ _-]?(?:len(?:gth)?|rate)\b"
)
_RESULT_WORD = re.compile(r"(?i)\b(?:works?|worked|working|fine)\b")


# the writer's own check of the method with its outcome ("We later tested EAGLE on gfx950 and it
# works", "EAGLE was tested and works on MI355X", "verified that MTP works on 8x B200"): the
# "works" is that run's result, not another run set beside the reported one; unless the line
# turns to a failure ("tested EAGLE and it works, but the plain server crashes": two runs)
_CHECKED_WORKS = re.compile(
    r"(?i)\b(?:tested|verified|validated|confirmed|checked)\b(?:(?![.;!?]\s)[^;!?]){0,80}?"
    r"\b(?:works?|worked|working)\b(?:\s+(?:fine|well|correctly|as expected))?"
)
_TURNS_TO_FAILURE = re.compile(r"(?i)\bbut\b|\bhowever\b|\b(?:crash|fail|error|hang|broke|oom|assert)\w*")


# "X stores but never serves when MTP/EAGLE speculative decoding is enabled": a negation before
# a trailing "when/while/once ... is enabled" clause negates the verb it precedes, not the
# names the clause states enabled (a negation inside the clause still sets them apart)
_ENABLED_CLAUSE = re.compile(
    r"(?i)\b(?:when|while|once|whenever)\b[^.;!?]*?\b(?:is|are|was|were|gets?|got)\s+"
    r"(?:enabled|turned on|switched on|on|used|active)\b"
)
_VERB_NEGATION = re.compile(r"(?i)n't\b|\bnot\b|\bnever\b")  # not the module's _NEGATION
_FAILURE = re.compile(r"(?i)\b(?:crash|happen|occur|reproduc|fail|error|hang|break|issue|problem|bug)")


def _clause_negation_lifted(text: str) -> str:
    """``text`` without the negations that scope a verb before an enabled-clause."""
    m = _ENABLED_CLAUSE.search(text)
    before = text[: m.start()] if m is not None else ""
    if m is None or _VERB_NEGATION.search(m.group(0)) or not _VERB_NEGATION.search(before):
        return text
    if _FAILURE.search(re.sub(r"\[[^\]]*\]:?", " ", before)):  # not a title's [Bug] tag
        return text  # "the crash does not happen when X is enabled": X is the working run
    return _VERB_NEGATION.sub(" ", before) + text[m.start() :]


# "Training Eagle3 for gpt-oss fails", "train the EAGLE draft", SpecForge (the draft trainer);
# not "RL training with Eagle3 spec decoding" (a rollout that runs the algorithm), nor a draft
# a trainer made, served ("+ SpecForge draft", "a SpecForge-trained EAGLE3 draft", "EAGLE with a
# trained draft", "the trained Eagle head": the run serves it)
_TRAINING = re.compile(
    r"(?i)\b(?!trained\s+(?:[\w.-]+\s+)?(?:drafts?|heads?|checkpoints?|models?)\b)"
    r"train\w*\s+(?:(?:an?|the|our|my|\w+-?\d+\w*)\s+)?(?:eagle|draft|nextn|mtp|dflash)"
    r"|\bspecforge\b(?![\w-]*\s+(?:[\w.-]+\s+)?(?:drafts?|heads?|checkpoints?)\b)"
)


def stated_enabled(text: str) -> bool:
    """The line says an algorithm it names was enabled for the run it reports (nothing on the
    line sets that algorithm apart from the run: ``_CONTRARY``), or labels it as the run's."""
    text = _NOT_WORKING.sub("fails", text)
    if "。" in text:  # a Chinese line: each sentence on its own ("源于 Issue #1。在 X 下 ...")
        return any(_stated(sentence) for sentence in text.split("。"))
    sentences = _SENTENCE_END.split(text)
    if any(_TURN.match(s) and set_apart(s) for s in sentences[1:]):
        return _stated(text)  # "EAGLE3 was on. But that is not the run that crashed."
    return any(_stated(sentence) for sentence in sentences)


# each sentence of a line is judged on its own ("We run X with EAGLE. The service is not
# stable."): a guard sets apart its own sentence's names; a model id's dot ends none
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]`'\"*][.!?])\s+(?=[A-Z*])")
_TURN = re.compile(r"(?i)(?:but|however|though|although|yet|that|this|it)\b")


def sentence_apart(text: str, at: int) -> bool:
    """``set_apart`` for the sentence of ``text`` holding position ``at`` ("Can it run on
    A100? The draft I use is org/X-NextN.": the question is the other sentence's), or for a
    later one turning against it ("We serve org/X-EAGLE3. But that is not the run here.")."""
    sentences, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        sentences.append((start, text[start : m.start()]))
        start = m.end()
    sentences.append((start, text[start:]))
    mine = max(i for i, (begin, _) in enumerate(sentences) if begin <= at)
    later = sentences[mine + 1 :]
    return set_apart(sentences[mine][1]) or any(_TURN.match(s) and set_apart(s) for _, s in later)


def _stated(text: str) -> bool:
    if set_apart(text):
        return False
    if (label := _LABEL.match(text)) is not None:
        return label.group("off") is None
    for m in _ALGORITHM.finditer(text):
        if _NEGATION.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        after = text[m.end() :]
        if _OFF_AFTER.search(after):
            continue  # "with EAGLE off, the server crashes": not the run's
        if _ENABLED_AFTER.search(after) or _ENABLED_BEFORE.search(text[: m.start()]):
            return True
        if (run := _WE_RUN.search(text[: m.start()])) is not None and not _GAP_APART.search(run.group(1)):
            return True
        if _CJK_UNDER.search(text[: m.start()]) and _CJK_UNDER_AFTER.search(after):
            return True
    return False


# SGLang's own name for the overlap worker the run was on ("in Eagle V2 speculative decoding",
# "the spec v2 path crashes", "eagle-v2"); not the EAGLE-2 algorithm, not SGLANG_ENABLE_SPEC_V2
_V2_NAME = re.compile(r"(?i)(?<![\w/.])(?:eagle|spec(?:ulative)?(?:[ _-]decoding)?)[ _-]?v2\b(?![.\d])")
# "Eagle v2" is also the EAGLE-2 paper (dynamic draft trees); a plan or a feature names no run
_V2_APART = re.compile(
    r"(?i)\bpaper\b|\bdynamic\b|\btree\b|\beagle[ -]?2\b|\bnext\b|\blist\b|\bwill\b|'ll\b"
    r"|\bwant\w*|\bswitch\w*|\bmigrat\w*|\bmov(?:e|ing)\b|\bsupport\w*|\broadmap\b|\btodo\b"
)


# SGLang's spec v2 as a title's tag ("# [SPEC_V2] Fix ...", "[Spec V2]", "[spec-v2]", "[SpecV2]"):
# the subsystem the thread is about; a fix in it was found on the v2 worker
V2_TAG = re.compile(r"(?i)^\W*#?\s*(?:\[[^\]]*\]\s*)*\[\s*spec(?:ulative)?[ _-]?v2\s*\]")


def stated_v2(text: str) -> bool:
    """The line says the run was on SGLang's spec v2 (overlap) worker, and nothing on it makes
    that a fix, a suggestion or another run (``set_apart``, ``switch_apart``'s words); a title
    tagged for spec v2 does, whatever it fixes."""
    if V2_TAG.search(text) is not None:
        return True
    if _V2_NAME.search(text) is None or set_apart(text) or _V2_APART.search(text):
        return False
    return _SWITCH_APART.search(text) is None


_SPEC_AFTER = re.compile(r"(?i)^[\s`'\"]*(?:specul|draft|decoding|algorithm|worker)")
_SPEC_BEFORE = re.compile(r"(?i)(?:specul\w*|algorithm)[\s`'\"=:]*$")


def _standalone_spec(text: str, m: re.Match[str]) -> bool:
    """``STANDALONE`` in capitals, or "standalone" right beside a speculative-decoding word
    ("standalone speculative decoding", "algorithm standalone")."""
    before, after = text[max(0, m.start() - 30) : m.start()], text[m.end() : m.end() + 20]
    return m.group(1).isupper() or bool(_SPEC_AFTER.search(after) or _SPEC_BEFORE.search(before))


# a test of SGLang's suite named in a pytest id, a CI line or a traceback (test/srt/
# test_eagle_infer_b.py::TestEAGLEServer, test_ngram_speculative_decoding.py, TestMTPServer):
# the family its file or class is about
_TEST = re.compile(
    r"(?i)(?<![\w.])test_\w*?(eagle3|eagle|ngram|standalone|nextn|mtp|dflash|dspark)\w*\.py\b"
    r"|(?<![\w.])Test(EAGLE3|Eagle3|EAGLE|Eagle|NGram|Ngram|NGRAM|Standalone|NextN|NEXTN|MTP|DFlash)"
    r"(?=[A-Z0-9_:]|\b)"
)
_TEST_FAMILY = {"mtp": "NEXTN"}  # SGLang's MTP tests run NEXTN, which reads as EAGLE


def tested_algorithms(text: str) -> list[str]:
    """The algorithms the SGLang tests a line names are about (one per test file or class)."""
    out = []
    for m in _TEST.finditer(text):
        word = (m.group(1) or m.group(2)).lower()
        out.append(_TEST_FAMILY.get(word) or ("EAGLE3" if word == "eagle3" else _CANONICAL[word]))
    return out


def one_family(names: list[str]) -> str | None:
    """The algorithm to read when every name runs one worker family (EAGLE and EAGLE3 do; the
    most specific one is kept), else None."""
    families = {_WORKER_FAMILY[name] for name in names}
    if len(families) != 1 or "OFF" in families:
        return None
    return max(names, key=lambda name: (name == "EAGLE3", name != "EAGLE"))


def eagle_family(algorithm: str) -> bool:
    return _WORKER_FAMILY.get(algorithm) == "EAGLE"


def prose_verdict(
    algorithm: str,
    spec_v2: bool | None,
    era: str | None,
    release: Version | None,
    newest: Version | None = None,
    knobs: Mapping[str, object] | None = None,
) -> DumpVerdict | None:
    """The era table's answer for an algorithm and a spec-v2 setting (None: not said) the text
    names, with nothing else of the launch known but ``knobs``: a command's speculative
    settings given without its algorithm flag (``--speculative-eagle-topk 2``)."""
    flags = {**(knobs or {}), "speculative_algorithm": algorithm}
    verdict = verdict_from_launch(flags, era, spec_v2, release, newest)
    if verdict is None:
        return None
    if verdict.points_to == "v2" and "speculative_eagle_topk" not in flags and eagle_family(algorithm):
        # where a top-k above 1 turns the overlap scheduler off (0.5.11-0.5.12), a text that
        # gives no top-k leaves the v1 worker possible: a condition on it, never v2 alone
        wide = verdict_from_launch({**flags, "speculative_eagle_topk": 2}, era, spec_v2, release, newest)
        if wide is not None and wide.points_to is not None and wide.points_to != verdict.points_to:
            condition = (f"{verdict.points_to} ({verdict.worker_class}) if speculative_eagle_topk is 1, "
                         f"else {wide.points_to} ({wide.worker_class}) (the text gives no top-k)")
            verdict = DumpVerdict(None, None, f"{verdict.reason}; {condition}", verdict.excerpt, condition=condition)
    why = verdict.reason.split(": ", 1)[-1]
    setting = "" if spec_v2 is None else f" with SGLANG_ENABLE_SPEC_V2={'1' if spec_v2 else '0'}"
    if knobs:
        setting += " (a command's " + ", ".join(sorted(knobs)) + " with no --speculative-algorithm)"
    return DumpVerdict(
        verdict.points_to,
        verdict.worker_class,
        f"{PROSE_REASON}: {algorithm}{setting}: {why}",
        f"{algorithm} ...{setting}",
        condition=verdict.condition,
    )
