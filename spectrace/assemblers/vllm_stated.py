"""A vLLM run's speculative method stated outside any config line: vLLM's own log line pasted
alone, or an environment list of the report.

Reports often keep no launch command but say how the server ran: an issue template's
environment bullets (``- vLLM: 0.20.1`` / ``- Speculative decoding enabled (`method=mtp`,
`num_speculative_tokens=2`)``, ``Speculative decoding: eagle3``), or the line vLLM printed,
quoted in a sentence's place (``"Detected MTP model. Sharing target model embedding
weights"``, logged by the EAGLE-type proposer's ``load_model`` only for an MTP draft: vLLM
0.11.1-0.33, ``v1/spec_decode/eagle.py`` then ``llm_base_proposer.py``). Each gives the method
as a flag with its line, read only where no config line set one. vLLM's line is the engine's
own word (ranked as its config); a bullet is the report's word (ranked as prose), and counts
only in a text about vLLM (a vLLM release named, or vLLM's own lines) and with a method value
vLLM's table knows. A headed log line is the module's that wrote it (``path_mentions``: the
plugin's own proposer logs the same text), so only a line without a header is read here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig, trim
from spectrace.assemblers.pyconfig import commented_out
from spectrace.assemblers.sections import heading_aside
from spectrace.assemblers.spec_prose import PROSE_REASON, no_spec, set_apart
from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.assemblers.thread_title import TitleReader, drafts_in
from spectrace.assemblers.vllm_proposers import method_classes, proposer_verdict
from spectrace.dialects.base import LogLine

# the V1 engine's spec-decode metrics line (v1/spec_decode/metrics.py, from PR #15902): vLLM's
# own words, quoted or logged, say the run speculated on vLLM (not which method)
SPEC_METRICS = re.compile(r"(?<![\w.])SpecDecoding metrics: (?:Draft acceptance rate|Mean acceptance)")
_DETECTED = re.compile(
    r"^[\s\"'`*]{0,3}Detected MTP model(?: with topk_indices_buffer)?\. Sharing target model"
)
# an environment bullet or a "Speculative decoding: X" line naming the method: its label, then
# ``method=X`` within the line, or the value right after the label's colon
_LABEL = r"(?i)^\s*(?:[-*+]|\d+\.)?\s*\**spec(?:ulative)?[ _-]?(?:decod\w*|config\w*|method)\**"
_KEY_VALUE = re.compile(
    _LABEL + r"[^\n]{0,80}?\bmethod[`'\"]?\s*[:=]\s*[`'\"]?(?P<value>[a-z]\w{1,40})"
)
_AFTER_LABEL = re.compile(
    _LABEL + r"\s*[:=]\s*\**[`'\"]?(?P<value>[A-Za-z][\w-]{1,40})[`'\"]?\**\s*(?:$|[(,;])"
)


def stated_method(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """The method vLLM's own unheaded line or an environment bullet states, as flag
    ``speculative_config.method`` with its evidence, where no line set the method."""
    if config.engine is None and any(SPEC_METRICS.search(line.text) for line in lines):
        config.engine = "vllm"  # vLLM V1's own spec-decode metrics line: the run is vLLM's
    _v0_proposer_line(config, lines)
    if "speculative_config.method" in config.flags or config.engine not in (None, "vllm"):
        return
    for line in lines:
        if not line.headed and not line.quoted and _DETECTED.search(line.text):
            _set(config, line, "vllm_config",
                 "vLLM's own log line (the EAGLE-type proposer's load_model, vLLM 0.11.1-0.33, "
                 "logs it only for an MTP draft)")  # fmt: skip
            return
    if _titled_value(config, lines) or _inline_pair(config, lines):
        return
    placed = config.version is not None or "vllm_prose_release" in config.flags
    if not placed and not on_vllm_tracker(lines):
        return  # a bullet alone: only in a text a vLLM release or tracker places on vLLM
    if _draft_bullet(config, lines) or not placed:
        return
    if any(no_spec(line.text) for line in lines):
        return  # the text also states a run without speculation: the bullet may be another's
    aside = False  # under a heading or caption that sets its list apart ("Previous setup")
    for line in lines:
        aside = heading_aside(line.text, aside)
        method = None if aside else _bullet_method(line)
        if method is not None:
            _set(config, line, "prose", f"{PROSE_REASON} (the report's environment line)",
                 method)  # fmt: skip
            return


# an environment bullet naming the run's draft checkpoint ("draft model: org/Qwen2.5-7B",
# "- **Speculative model**: `org/X-EAGLE`"): vLLM infers the method and class from it, by release
_DRAFT_BULLET = re.compile(
    r"(?i)^\s*(?:[-*+]|\d+\.)?\s*\**(?:draft|speculative|spec)[ _-]?model\**\s*[:=]\s*\**[`'\"]?"
    r"(?P<value>[A-Za-z0-9][\w./-]{1,120}?)[`'\"]?\**\s*$"
)
# a target and its draft given as a labelled pair, the draft second ("#### Model pair 2:
# `facebook/opt-6.7b` + `facebook/opt-125m`", "- Target/draft pair: org/X-70B / org/X-1B")
_PAIR = re.compile(
    r"(?i)^\W{0,6}(?:#{1,6}\s*)?(?:[\w-]+\s+){0,2}?(?:model|target\s*[/+-]\s*draft)\s+pairs?(?:\s*#?\d+)?"
    r"\**\s*[:：]\s*\**[`'\"]?(?=[\w./-]*[-/\d])[A-Za-z0-9][\w./-]{2,120}[`'\"]?\s*(?:\+|/|&|\bwith\b)\s*"
    r"[`'\"]?(?P<value>(?=[\w./-]*[-/\d])[A-Za-z0-9][\w./-]{2,120}?)[`'\"]?(?=[\s,;)(]|$)"
)
DRAFT_LITERALS: tuple[bytes, ...] = (b"raft model", b"raft_model", b"raft Model", b"peculative model",
                                     b"peculative Model",
                                     # a pair, a draft after its target ("X + Y draft, ...")
                                     b"odel pair", b"odel Pair", b"raft pair", b" draft,", b" draft ",
                                     b" draft.", b" drafter",
                                     # a speculators checkpoint's id (not a speculator.py frame)
                                     b"speculator.eagle", b"speculator.dflash",
                                     b"speculator.dspark")  # fmt: skip
# the writer's own sentence naming the run's draft checkpoint: "I use org/X-accelerator (link) as
# the speculative model", "we ran Llama-3.2-1B as our draft model", "we serve Qwen3-32B with
# Qwen3-0.6B as the draft", "Using org/Llama-3.2-1B as draft model, ...", "I run it with a small
# draft model (Qwen3-0.6B)"; a first-person subject (or a sentence opening on "Using" / "With")
# before it, a checkpoint-like name (a dash, a slash or a digit in it)
_CHECKPOINT = r"(?P<value>(?=[\w./-]*[-/\d])[A-Za-z0-9][\w./-]{2,120})"
_DRAFT_SENTENCE = re.compile(
    rf"(?i)(?<![\w./-]){_CHECKPOINT}"
    r"(?:\s*\([^)\n]{1,200}\))?\s+as\s+(?:(?:the|a|an|my|our)\s+)?(?:small(?:er)?\s+)?"
    r"(?:speculative[ _-]?model|draft(?:[ _-]?model|er)?)\b(?![-_/])"
    # the draft named in a parenthesis right after the words: "a small draft model (org/X-1B)",
    # "a **dense draft model** (`org/X-4B`)"
    rf"|\b(?:draft|speculative)[ _-]?model\**\s*\(\s*[`'\"]?{_CHECKPOINT.replace('value', 'named')}"
    r"[`'\"]?\s*\)"
    # a target joined to its draft by "+": "Tested with Jamba2-Mini-FP8 + Jamba2-3B draft"
    rf"|(?<![\w./-])[A-Za-z0-9][\w./-]{{2,120}}[`'\"]?\s*\+\s*[`'\"]?{_CHECKPOINT.replace('value', 'paired')}"
    r"[`'\"]?\s+(?:as\s+(?:the\s+|a\s+)?)?draft(?:[ _-]?model|er)?\b(?![-_/])"
)
_FIRST_PERSON = re.compile(r"(?i)\b(?:I|we)\s+(?:\w+\s+){0,2}?(?:use|used|using|run|ran|serve|served"
                           r"|serving|running|tried|deploy\w*|launch\w*)\b|^\W*(?:using|with)\s"
                           # a test report's own line: "- Tested with X + Y draft", "Ran it with ..."
                           r"|^\W*(?:tested|ran|benchmarked|verified|validated)\s+(?:it\s+)?(?:with|on|using)\s")
# ... or, in an issue (not a pull request's account of the bug class it fixes), a sentence whose
# subject is the setup itself ("Pairing a dense draft model (X) with a hybrid main model (Y)
# fails at engine init", "Running a small draft model (X) with Y crashes")
_SETUP_SUBJECT = re.compile(r"(?i)^\W*(?:pairing|combining|running|serving|launching)\s")


def _draft_bullet(config: RunConfig, lines: Sequence[LogLine]) -> bool:
    """A draft-model environment line, as flag ``speculative_config.model`` (the report's word),
    where no line gave the run's draft and no line says the run did not speculate."""
    if "speculative_config.model" in config.flags or any(no_spec(ln.text) for ln in lines):
        return False
    titles, pull = TitleReader(), False
    aside = False
    for line in lines:
        pull = (title := titles.feed(line)) is not None and title.pull or pull
        aside = heading_aside(line.text, aside)
        if aside or line.headed or line.quoted:
            continue
        m = None if set_apart(line.text, without=False) else (
            _DRAFT_BULLET.search(line.text) or _PAIR.search(line.text))
        if (m := m or _draft_sentence(line.text, pull)) is not None:
            config.engine = config.engine or "vllm"
            value = m.groupdict().get("named") or m.groupdict().get("paired") or m.group("value")
            config.flags["speculative_config.model"] = FlagValue(value, line.source,
                                                                 line.lineno, "prose")  # fmt: skip
            return True
    return False


# the writer's sentence introducing the command below it: "For the EAGLE3 baseline, I launched
# vLLM with the following command:" (first person, a launch verb, ending in a colon)
_INTRO = re.compile(r"(?i)\b(?:I|we)\s+(?:\w+\s+){0,2}?(?:launch\w*|ran|run|start\w*|serv\w*"
                    r"|deploy\w*|us(?:e|ed|ing))\b[^\n]*:\s*$")
_CUT_GAP = 3  # the sentence sits right above the command (a blank line or a fence between)
# the methods such a sentence names, as people write them
_INTRO_METHODS = tuple((re.compile(rf"(?i)(?<![\w-]){p}(?![\w-])"), m) for p, m in (
    (r"eagle[-_ ]?3", "eagle3"), (r"eagle", "eagle"), (r"mtp", "mtp"), (r"n[-_ ]?gram", "ngram"),
    (r"suffix(?: decoding)?", "suffix"), (r"dflash", "dflash"), (r"dspark", "dspark"),
    (r"medusa", "medusa"),
))  # fmt: skip


def introduced_method(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """A ``vllm serve`` cut before its speculative options (a paste trimmed, a ``--trust-``
    left hanging) whose own introducing sentence names one method ("For the EAGLE3 baseline, I
    launched vLLM with:"): the cut options set that method; its class then follows the release
    (or the day) as any method's does. Nothing where a config line set the method or a draft."""
    cut = config.flags.get("vllm_launch_cut")
    flags = config.flags
    if cut is None or "speculative_config.method" in flags or "speculative_config.model" in flags:
        return
    mine = [ln for ln in lines if ln.source == cut.source and ln.lineno <= cut.lineno]
    start = cut.lineno  # the command's first line: continued lines ("... \\") run up to the cut
    for ln in reversed(mine[:-1]):
        if not ln.text.rstrip().endswith("\\") or ln.lineno < start - _CUT_GAP:
            break
        start = ln.lineno
    before = [ln for ln in mine if start - _CUT_GAP <= ln.lineno < start]
    line = before[-1] if before else None
    if line is None or line.quoted or line.headed or not _INTRO.search(line.text):
        command = " ".join(ln.text for ln in mine if ln.lineno >= start)
        _section_draft(config, [ln for ln in mine if ln.lineno < start], command, cut.lineno)
        return
    if set_apart(line.text, without=False) or no_spec(line.text):
        return
    methods = {m for pattern, m in _INTRO_METHODS if pattern.search(line.text)}
    if len(methods) == 1:
        method = methods.pop()
        _set(config, line, "prose", f"{PROSE_REASON} (the sentence introducing the cut launch "
             f"command on line {cut.lineno})", method)  # fmt: skip


# a Markdown heading or a post's byline: where the section holding a command begins
_SECTION_START = re.compile(r"^\s*#{1,6}\s+\S|\s·\s(?:description|comment|review)\s·\s")
_SECTION_LINES = 12  # how far above the command its section's draft may be named
# each family a draft's name marks, as the method value the command would have set
_DRAFT_METHOD = {"EAGLE3": "eagle3", "EAGLE": "eagle", "MTP": "mtp", "DFLASH": "dflash",
                 "DSPARK": "dspark", "MEDUSA": "medusa"}  # fmt: skip


# a line setting the served (target) model: ``model_path=/mnt/X-w8a8-mtp``, ``export MODEL=...``,
# ``--model X``, ``model: X``; a quantized target's ``-mtp`` names its own MTP layers, no draft
_TARGET_SET = re.compile(
    r"(?i)(?<![\w-])(?!(?:draft|spec\w*)[_-])(?:\w+_)?model(?:_?(?:path|dir|name|id))?\s*[:=]"
    r"|(?<![\w-])--model\b"
)


def _section_draft(config: RunConfig, above: Sequence[LogLine], command: str, cut: int) -> None:
    """A ``vllm serve`` cut before its speculative options under a section (a PR's "Test Plan",
    a "Reproduce" heading) that names the draft checkpoint it ran beside the target ("QwQ model
    and [QwQ-EAGLE model](.../QwQ-32B-Eagle)"): the method the draft's name marks is the cut
    options' (not vLLM's inference from the name, which the command's own method overrode).
    Only where every draft the section names marks one method and no line of it sets the
    draft apart (a plan, a question, "without", "instead of"); nothing across a heading. The
    served model is no draft: a line setting it (``model_path=...-w8a8-mtp``) or a name the
    command itself serves."""
    section: list[LogLine] = []
    for ln in reversed(above):
        if _SECTION_START.search(ln.text) or len(section) >= _SECTION_LINES:
            break
        section.append(ln)
    named = [(ln, method) for ln in section if not _TARGET_SET.search(ln.text)
             for draft, method in drafts_in(ln.text) if draft.split("/")[-1] not in command]
    if not named or any(ln.quoted or set_apart(ln.text, without=True) for ln, _m in named):
        return
    methods = {_DRAFT_METHOD.get(m) for _ln, m in named}
    if len(methods) != 1 or None in methods or any(no_spec(ln.text) for ln in section):
        return
    line = named[0][0]
    _set(config, line, "prose", f"{PROSE_REASON} (the draft its section names for the cut launch "
         f"command on line {cut})", methods.pop())  # fmt: skip


def _draft_sentence(text: str, pull: bool = False) -> re.Match[str] | None:
    """The draft a first-person sentence says the run used ("I use X as the speculative model"),
    where nothing in the clause naming it sets it apart (a plan, a suggestion, a question); a
    later clause explaining the failure ("— the draft's page size doesn't equal the main's")
    is no negation of the run."""
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text):
        m = _DRAFT_SENTENCE.search(sentence)
        if m is None:
            continue
        before = sentence[: m.start()]
        if not (_FIRST_PERSON.search(before) or (not pull and _SETUP_SUBJECT.search(before))):
            continue
        clause = sentence[: m.end()] + _CLAUSE_END.split(sentence[m.end():], maxsplit=1)[0]
        if "?" in sentence or set_apart(clause, without=False) or no_spec(sentence):
            return None
        return m
    return None


# where a sentence's clause ends: a dash set off by blanks, a semicolon, a colon before a blank
_CLAUSE_END = re.compile(r"\s[—–-]{1,2}\s|;\s|:\s")


def on_vllm_tracker(lines: Sequence[LogLine]) -> bool:
    """The text is a thread of vLLM's own tracker (its saved header's repository)."""
    titles = TitleReader()
    return next((tracker_engine(t.repo) == "vllm" for ln in lines
                 if (t := titles.feed(ln)) is not None), False)  # fmt: skip


# a config value written as one snake_case token (``ngram_gpu``, ``extract_hidden_states``)
_VALUE = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w./-])")


def _titled_value(config: RunConfig, lines: Sequence[LogLine]) -> bool:
    """A vLLM tracker's title that writes a method as vLLM's config spells it (``[Bug]:
    `ngram_gpu` speculative decoding ... returns HTTP 500``): the reported run's method, as the
    report's word (prose), where the title's own guard sets nothing apart (a feature request,
    a question, 'without', a PR adding it) and no line of the text says it ran no speculation.
    Only a value of more than one word: a family word (``MTP``, ``ngram``) is the title
    reader's, and ``ngram_gpu`` is not ``ngram``'s class."""
    titles = TitleReader()
    for line in lines:
        title = titles.feed(line)
        if title is None:
            continue
        adds = title.pull and _ADDS.search(title.text) is not None
        if tracker_engine(title.repo) != "vllm" or title.apart is not None or adds:
            return False
        own = re.sub(r"`([^`]*)`", r" \1 ", title.text)  # a value in backticks is still the value
        values = dict.fromkeys(v for v in _VALUE.findall(own) if v in method_classes())
        if len(values) != 1 or any(no_spec(ln.text) for ln in lines):
            return False
        _set(config, line, "prose", f"{PROSE_REASON} (the vLLM thread's title)", next(iter(values)))
        return True
    return False


# a pull request's title describing code it adds, not a run ("Add ngram_gpu support")
_ADDS = re.compile(r"(?i)\b(?:add(?:s|ed|ing)?|support(?:s|ed|ing)?|implement\w*|introduc\w*"
                   r"|enabl(?:e|es|ing)|refactor\w*)\b")


# vLLM's speculative config written inline as its own key pair, in prose, code spans or a call's
# keywords: the method and the draft-token count ("`method=draft_model`, `num_speculative_tokens=5`",
# "method: eagle3, num_speculative_tokens: 3", "SpeculativeConfig(method='mtp', num_speculative_tokens=2)")
_PAIR_METHOD = re.compile(r"(?<![\w.-])[`'\"]?method[`'\"]?\s*[:=]\s*[`'\"]?(?P<value>[a-z][\w-]{1,40})")
_PAIR_TOKENS = re.compile(r"(?<![\w.-])[`'\"]?num_speculative_tokens[`'\"]?\s*[:=]\s*[`'\"]?\d")
_VLLM_NAMED = re.compile(r"(?i)(?<![\w-])vllm(?![\w-])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")  # (not the dots of a release, "0.11.0")


def _inline_pair(config: RunConfig, lines: Sequence[LogLine]) -> bool:
    """vLLM's own speculative key pair written inline in a line of a text that names vLLM
    (``method=draft_model`` beside ``num_speculative_tokens=5`` in a report's setup sentence):
    the run's method as the report's word (prose), where the line is no log record or quotation,
    a comment (a config's keys commented out) or under a heading that sets it apart ("Previous
    setup"), nothing in its sentence sets it apart (a plan, a question, an example), no line of
    the text says a run went without speculation, and the method is one vLLM's table knows."""
    if not any(_VLLM_NAMED.search(ln.text) for ln in lines) or any(no_spec(ln.text) for ln in lines):
        return False  # (a text that also states a run without speculation: the keys may be another's)
    aside = False  # under a heading that sets its lines apart ("### Previous setup (worked)")
    for at, line in enumerate(lines):
        aside = heading_aside(line.text, aside)
        if aside or line.headed or line.quoted or commented_out(line.text):
            continue
        # (a sentence wrapped between the two keys: the next line of the text goes on with it)
        after = lines[at + 1] if at + 1 < len(lines) else None
        wrapped = after is not None and after.lineno == line.lineno + 1 and not after.headed
        text = f"{line.text} {after.text}" if wrapped and after is not None else line.text
        if _PAIR_METHOD.search(line.text) is None:
            continue
        sentence = next((part for part in _SENTENCE_END.split(text)
                         if _PAIR_METHOD.search(part) and _PAIR_TOKENS.search(part)), None)  # fmt: skip
        if sentence is None or set_apart(sentence, without=False) or no_spec(sentence):
            continue
        m = _PAIR_METHOD.search(sentence)
        assert m is not None
        value = m.group("value").lower().replace("-", "_")
        if value in method_classes():
            _set(config, line, "prose", f"{PROSE_REASON} (vLLM's method and draft-token keys written inline)", value)
            return True
    return False


def _v0_proposer_line(config: RunConfig, lines: Sequence[LogLine]) -> None:
    """V0's ``Configuring SpecDecodeWorker with proposer=<class '...MultiStepWorker'>`` (every
    V0 release logs the proposer worker ``create_worker`` built): that class ran, unless the
    line puts the log in an old or another deployment, or the text says the run does not
    speculate."""
    if config.engine not in (None, "vllm") or any(no_spec(ln.text) for ln in lines):
        return
    for line in lines:
        m = _V0_PROPOSER.search(line.text)
        if m is None or _ELSEWHERE.search(line.text) or line.quoted:
            continue
        config.engine = config.engine or "vllm"
        reason = (f"vLLM V0's own log line (SpecDecodeWorker.create_worker logs the proposer "
                  f"worker it built) -> {m.group(1)} (V0 spec_decode, other)")  # fmt: skip
        config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw), reason,
                                             "other", m.group(1)))  # fmt: skip
        return


_V0_PROPOSER = re.compile(
    r"Configuring SpecDecodeWorker with proposer=<class '(?:vllm\.spec_decode\.)?[\w.]*?"
    r"(MultiStepWorker|NGramWorker|MedusaWorker|MLPSpeculatorWorker|SmallerTpProposerWorker)'>"
)
# a line placing the log it quotes in an old or another deployment
_ELSEWHERE = re.compile(
    r"(?i)\b(?:old|older|earlier|previous|another|other|colleague'?s?|their|used to|back (?:on|in)"
    r"|last (?:year|month|week))\b"
)


def _bullet_method(line: LogLine) -> str | None:
    """The vLLM method value an environment line names, if it names one vLLM knows."""
    if line.headed or line.quoted or set_apart(re.sub(r"`[^`]*`", " ", line.text), without=False):
        return None
    m = _KEY_VALUE.search(line.text) or _AFTER_LABEL.search(line.text)
    if m is None:
        return None
    value = m.group("value").lower().replace("-", "_")
    return value if value in method_classes() else None


def _set(
    config: RunConfig, line: LogLine, origin: str, said: str, method: str = "mtp"
) -> None:
    """The method flag on ``line`` and the class it gives in the run's release."""
    config.engine = config.engine or "vllm"
    config.flags["speculative_config.method"] = FlagValue(method, line.source, line.lineno, origin)
    release = config.flags.get("vllm_prose_release")
    version = config.version or (str(release.value) if release is not None else None)
    reason, points_to, worker = proposer_verdict(method, version)
    reason = reason.replace("vLLM config: speculative method", f"{said}: speculative method", 1)
    config.path_evidence.append(
        Evidence(line.source, line.lineno, trim(line.raw), reason, points_to, worker)
    )
