"""A thread's title, and the draft checkpoints its prose names: the one reader of both for
every framework (SGLang's collector and the vLLM / TensorRT-LLM readers consume it).

Why: a report says what it is about in its title ("[Bug] EAGLE3 crashes on H100 with TP8",
a PR's "Fix ... in STANDALONE speculative decoding") far more often than in a launch line, and
names the draft it serves ("org/Qwen3-14B-EAGLE3"). The title is the subject of the thread,
so an algorithm it names is the reported run's unless the title itself sets it apart (a
feature request, a roadmap, a comparison, "... without EAGLE", a question, a docs page). Such
a guard is read on the title alone: a line elsewhere that sets a name apart says nothing of
the title's. Weaker than any launch line or config dump; the consumers decide its rank.

Shapes read: the title a thread's head holds or stands beside (``thread_head``: a ``# ...`` line
just under the index's ``owner/repo · issue #N · open``, the line above a citation
``owner/repo#N · closed``, GitHub's page title ``... · Issue #N · owner/repo``, a mail subject, a
web copy's ``<title> #N``), an issue form's first line (``[Bug]: ...``). Exception messages and quoted text inside a title are the error's or
another's words: neither names nor guards are read in them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spectrace.assemblers.method_typos import misspelt_methods
from spectrace.assemblers.run_results import observed_outcome
from spectrace.assemblers.spec_prose import named_algorithms, sentence_apart, set_apart, spec_off
from spectrace.assemblers.post_dates import post_author
from spectrace.assemblers.thread_head import HEAD_LITERALS, Head, HeadReader, head_line, title_line
from spectrace.dialects.base import LogLine

# Prefilter literals (config_literals): the header's " · ", an issue form's "[Bug", a saved
# title's "# [" tag, and "mtp", the one method word no other reader's literal holds in lower case
# ("# fix mtp launch error in ..."); a title without any of them is not read.
TITLE_LITERALS: tuple[bytes, ...] = (b" \xc2\xb7 ", b"[Bug", b"[BUG", b"[bug", b"# [", b"mtp", *HEAD_LITERALS)


@dataclass(frozen=True, slots=True)
class Title:
    """What a thread's title says, with the line it is on."""

    source: str
    lineno: int
    text: str  # the title alone (no "# ", no " · Issue #N · owner/repo")
    shape: str  # "saved" (under a header) | "form" ([Bug]: ...) | a thread_head shape (its line's head)
    repo: str | None  # the owner/repo its head names, as written; None where none does
    pull: bool  # a pull request's title (its text reports the PR's own run)
    methods: tuple[str, ...]  # canonical: EAGLE3, EAGLE, MULTI_LAYER_EAGLE, NEXTN, MTP, NGRAM, ...
    drafts: tuple[str, ...]  # draft checkpoints named ("lmsys/Qwen3-235B-A22B-EAGLE3")
    releases: tuple[str, ...]  # release numbers as written ("0.5.0rc0", "v0.10.1.1")
    apart: str | None  # why its names are not the reported run's; None: they are

    def run_methods(self) -> tuple[str, ...]:
        """The methods the title says the reported run used (none when it sets them apart)."""
        return () if self.apart is not None else self.methods


@dataclass(frozen=True, slots=True)
class DraftMention:
    """A draft checkpoint a prose line names, and whether that line sets it apart."""

    source: str
    lineno: int
    draft: str  # "yuhuili/EAGLE3-LLaMA3.3-Instruct-70B"
    method: str  # the method its name says it drafts for (EAGLE3, EAGLE, MTP, ...)
    apart: bool  # the line asks, supposes or sets it apart (spec_prose.set_apart)


# method words as people write them -> one spelling; STANDALONE only in capitals or beside a
# speculative word (the English "standalone" is everywhere); SGLang's FROZEN_KV_MTP ("Frozen-KV
# MTP") is an algorithm of its own, not MTP
_METHOD = re.compile(
    r"(?i)(?<![A-Za-z0-9_/.])(frozen[-_ ]?kv[-_ ]?mtp|eagle[-_ ]?3(?:\.\d(?![\d.]))?|eagle(?:[-_ ]?[12])?|nextn|mtp"
    r"|standalone|n-?gram|"
    r"d-?flash2?|d-?spark|medusa|lookahead|suffix[ _-](?:speculative[ _-])?decoding|draft[ _-]target"
    r"|draft[ _-]model)"
    r"(?![A-Za-z0-9_]|\.\d|-\w*worker|[-_ ]?\d+(?:\.\d+)?[BbMm]\b)"  # Eagle2.5-8B: a model
)
_MULTI_LAYER = re.compile(r"(?i)multi[-_ ]?layer[-_ ]?$")
_SPEC_WORD = re.compile(r"(?i)specul|\bspec\b|\bdecoding\b|\balgorithm\b|\bdraft")
# n-grams as text statistics: an eval metric, a repetition penalty, a tokenizer's or a dedup's
_NGRAM_METRIC = re.compile(
    r"(?i)\b(?:bleu|rouge|meteor|chrf|overlap|eval\w*|metric\w*|scor\w*|penalt\w*|repetition|"
    r"repeat\w*|tokeni[sz]\w*|dedup\w*|perplexity|language model)\b"
)


_FILE_TOKEN = re.compile(
    r"(?i)\.(?:safetensors|bin|gguf|pt|pth|ckpt|json|py|ya?ml|txt|log|onnx|engine|sh|md)\b"
)


def _token_at(text: str, at: int) -> str:
    """The whitespace-delimited token of ``text`` holding position ``at``."""
    start = text.rfind(" ", 0, at) + 1
    end = text.find(" ", at)
    return text[start : end if end >= 0 else len(text)]


def _canonical(word: str) -> str:
    low = re.sub(r"[-_ ]|\.\d$", "", word.lower())  # EAGLE3.1: an EAGLE3 draft's point release
    if low.startswith("eagle"):
        return "EAGLE3" if low == "eagle3" else "EAGLE"
    return {"suffixdecoding": "SUFFIX", "suffixspeculativedecoding": "SUFFIX",
            "drafttarget": "DRAFT_MODEL", "draftmodel": "DRAFT_MODEL",
            "dflash2": "DFLASH", "frozenkvmtp": "FROZEN_KV_MTP"}.get(low, low.upper())  # fmt: skip



def multi_layer_before(text: str, at: int) -> bool:
    """The EAGLE word at ``at`` is SGLang's multi-layer EAGLE ("multi-layer EAGLE",
    "multilayer eagle3"): the multi-layer workers' run, not EAGLE's."""
    return _MULTI_LAYER.search(text[max(0, at - 14) : at]) is not None

def methods_in(text: str) -> tuple[str, ...]:
    """The method words a title or sentence names, canonical, in order, each once. A draft
    model named beside another method is that method's draft, not the draft-model method."""
    out: list[str] = []
    text = _PAIRED.sub(r"\1 / ", text)  # "MTP/EAGLE": two methods, not a path
    for m in _METHOD.finditer(text):
        word = _canonical(m.group(1))
        if word == "STANDALONE" and not (m.group(1).isupper() or _SPEC_WORD.search(text)):
            continue
        if word == "NGRAM" and _NGRAM_METRIC.search(text) and not _SPEC_WORD.search(text):
            continue  # "our n-gram overlap (BLEU) eval": the metric, not the algorithm
        if _FILE_TOKEN.search(_token_at(text, m.start())):
            continue  # "model-mtp-00001-of-00002.safetensors": a file's name, not a method
        if word.startswith("EAGLE") and multi_layer_before(text, m.start()):
            word = "MULTI_LAYER_EAGLE"  # SGLang's multi-layer EAGLE: workers of its own
        if word not in out:
            out.append(word)
    for at, word in misspelt_methods(text):  # "Egale3 crashes": one keystroke off a name
        if word not in out and not _FILE_TOKEN.search(_token_at(text, at)):
            out.append(word)
    return tuple(out) if out == ["DRAFT_MODEL"] else tuple(w for w in out if w != "DRAFT_MODEL")


# a checkpoint name: letters, digits, '.', '-', '_' and at most one '/' (owner/name), taken
# from a token that may be a URL's path
_TOKEN = re.compile(r"[\w.\-/]+")
# two method words joined by a slash ("MTP/EAGLE speculative decoding"): each is named
_PAIRED = re.compile(
    r"(?i)(?<![\w./-])(mtp|eagle[-_]?3?|nextn|n-?gram|d-?flash|d-?spark|medusa)/"
    r"(?=(?:mtp|eagle[-_]?3?|nextn|n-?gram|d-?flash2?|d-?spark|medusa)\b)"
)
# the method part of a draft's name, set off by '-' or '/' or the name's edge (not '_' or '.':
# llama_eagle3.py, eagle_worker are code); a DFlash2 draft drafts for DFLASH
_DRAFT_PART = re.compile(r"(?i)(?:^|(?<=[-/]))(eagle-?3|eagle|mtp|dflash2?|dspark|medusa|nextn)(?=$|[-/])")
_HOST = re.compile(r"(?i)\.(?:svc|local|com|io|org|net|ai|internal)\b|(?:\.[^./]+){3}")
_CODE_FILE = re.compile(r"(?i)\.(?:py|cu|cuh|cc|cpp|h|json|ya?ml|toml|txt|log|sh|md)$")


def drafts_in(text: str) -> tuple[tuple[str, str], ...]:
    """(draft checkpoint, the method it drafts for) for each name a line holds: a model name
    with a method part set off by '-' or '/' ("Qwen3-14B-EAGLE3", "EAGLE3-LLaMA3.3-70B",
    "sglang-EAGLE-llama2-chat-7B", "DeepSeek-V3-MTP"); never a file, class or bare word."""
    out: list[tuple[str, str]] = []
    for token in _TOKEN.findall(text):
        name = "/".join(token.strip("./-").split("/")[-2:])  # a URL's owner/name
        if token.startswith("-") or _CODE_FILE.search(name) or _HOST.search(name) or "/srt/" in token:
            continue  # a flag (--speculative-eagle-topk), a file, a host name
        part = _DRAFT_PART.search(name.split("/")[-1])
        rest = name.split("/")[-1]
        if part is None or len(re.sub(r"[^A-Za-z0-9]", "", rest.replace(part.group(0), "", 1))) < 2:
            continue  # the method word alone ("Eagle-3", "EAGLE-2") is no checkpoint
        method = _canonical(part.group(1))
        if (name, method) not in out:
            out.append((name, method))
    return tuple(out)


# a release as a title writes it: "v0.10.1.1", "0.5.0rc0", "0.9.2.post1", and a release
# candidate with its patch left out or set off by a dot or a dash ("0.18.rc1", "0.18rc1",
# "v0.11.0-rc2": the tracker's v0.18.0rc1)
_RELEASE = re.compile(
    r"(?<![\w.])(v?\d+\.\d+)(\.\d+(?:\.\d+)?)?(\.?post\d+|[.-]?rc\d+)?(?![\w.]*\d)"
)


def _releases(text: str) -> tuple[str, ...]:
    """The releases ``text`` names, each spelled as its tracker tags it (``_RELEASE``); a bare
    "0.18" with no patch and no candidate is no release (a model's "Qwen 3.5")."""
    out = []
    for m in _RELEASE.finditer(text):
        head, patch, tail = m.group(1), m.group(2), m.group(3) or ""
        if patch is None and not tail.lstrip(".-").startswith("rc"):
            continue
        if tail.lstrip(".-").startswith("rc"):
            tail = tail.lstrip(".-")
        out.append(f"{head}{patch or '.0'}{tail}")
    return tuple(out)

# the error's words inside a title: "TypeError: 'NoneType' object is not callable in f" (up to
# the writer's next clause), and quoted or backticked text
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`|“[^”]*”")
_MESSAGE = re.compile(
    r"(?:\b\w*(?:Error|Exception|Fault)\b:|\b(?i:assert(?:ion)?(?:error)?)\b:?)\s.*?(?=\s(?i:when|while|"
    r"with|during|after|using|on|for|in)\s|[,;(]|$)"
    r"|\b[A-Z][A-Z_]{3,}:\s.*$"  # a status code's message to the end: "UNAVAILABLE: Internal: bad optional access"
)
# code in a title: "derive enable_eagle from SpeculativeAlgorithm.is_eagle()", "f() returns"
_CODE = re.compile(r"\w\(\)|\b[A-Za-z_]\w*\.[a-z_]\w*\(")
# a title that is no report of a run: a feature request, a plan, a question, a comparison, docs,
# what stays untested ("... leave X untested (...)"; "crashes on untested hardware" is a run's rig)
# ("proposes draft tokens" is the proposer's own verb in a report of the run, no proposal)
_TAG_APART = re.compile(
    r"(?i)^\W*\[?\s*(feature|feat|rfc|roadmap|tracker|tracking|question|discussion|docs?|"
    r"documentation|proposal|enhancement|perf|performance|benchmark|usage|help)\b"
)
_WORD_APART = re.compile(
    r"(?i)\b(support(?:s|ed|ing)?|add(?:s|ed|ing)?|implement\w*|introduc\w*|roadmap|rfc|"
    r"propos(?:al|als)|propos(?:e|es|ed|ing)(?!\s+(?:\w+\s+)?(?:drafts?|tokens?)\b)|plan\w*|vs\.?|versus|compar\w*|than|faster|slower|speed-?up|benchmark\w*|"
    r"docs?|documentation|readme|example|cookbook|tutorial|guide|how to|refactor\w*|remov\w*|"
    r"deprecat\w*|clean\w*|tests?|ci|(?<=is\s)untested|(?<=are\s)untested|"
    r"untested(?=\s*(?:$|[^\w\s])|\s+(?:for|with|under|against|in|on|by|yet)\b))\b"
)

# "[CI Failure]: Spec Decode EAGLE3 test fails", "[CI] NGRAM e2e test hangs": a CI job reports
# the run its test made; there "ci" and "test" name that run (a "fix" or "add" still sets apart)
_CI_TAG = re.compile(r"(?i)^\W*\[\s*ci(?:[ /_-]?(?:failure|failed|fail|test|tests))?\s*\]")
_CI_WORDS = frozenset({"ci", "test", "tests"})

# tags of a question; one asking why an outcome the writer saw happens reports their run
_ASKING = frozenset({"question", "usage", "help"})


def guard(title: str) -> str | None:
    """Why the title's names are not the reported run's, or None; read on the title alone,
    with exception messages and quoted text taken out (the error's words, another's)."""
    # "... without disaggregated params": not the method; read before quotes go ("without `ngram_gpu`")
    own = _WITHOUT_OTHER.sub("lacking ", title)
    own = _DISABLING_OTHER.sub("changing ", own)  # "Disabling Marlin ... with a draft model": not the method
    own = _MESSAGE.sub(" ", _QUOTED.sub(" ", own))
    own = re.sub(r"(?i)\b(?:does(?:n't| not)|is(?:n't| not)|not)\s+work\w*|\bnot working\b"
                 r"|\b(?:can(?:'t| ?not)|unable to|fails? to|failed to)\s+(?:run|start|launch|serve|load)\b",
                 "fails", own)  # "can not run with mtp": it fails with MTP
    own = re.sub(r"#\d+", " ", own)  # "Fix #1234: ...": the issue the title is about
    own = _QUANTITY.sub(" ", own)  # "when more than one sequence is batched": a count, no comparison
    if _CODE.search(own) is not None:
        return "the title is about code (a call or a method names no run)"
    why = observed_outcome(own)  # "[Usage]: why does acceptance drop ...?": the writer's run showed it
    if (tag := _TAG_APART.search(own)) is not None and not (why and tag.group(1).lower() in _ASKING):
        return f"a [{tag.group(1)}] title"
    ci = _CI_TAG.match(own) is not None  # a CI job's report: its test ran the method it names
    words = (w.group(1) for w in _WORD_APART.finditer(own))
    if (word := next((w for w in words if not (ci and w.lower() in _CI_WORDS)), None)) is not None:
        return f"the title says '{word}'"
    if set_apart(_ASIDE.sub(_aside_kept, own)) and not why:
        return "the title sets its names apart (a question, a contrast, 'without')"
    if "OFF" in named_algorithms(own) or spec_off(own):
        return "the title names the method as off"
    return None


# a count or a size bound, not a comparison of methods: "more than one sequence", "fewer than 8
# requests", "longer than 32k tokens", "over more than 2 GPUs"; "slower than baseline" keeps its word
_QUANTITY = re.compile(
    r"(?i)\b(?:more|less|fewer|greater|longer|shorter|larger|smaller)\s+than\s+(?:an?\s+|a\s+single\s+)?"
    r"(?:\d[\d.,]*\s*[kmb]?\b|one|two|three|four|five|ten|single|few|several|a\s+few)"
)
# a parenthesised aside of a title ("... (and the profiling env vars aren't reachable)"): its
# negation or contrast is about what it names, so one naming no method sets none apart
_ASIDE = re.compile(r"\([^()]*\)")


def _aside_kept(aside: re.Match[str]) -> str:
    return aside.group(0) if methods_in(aside.group(0)) or _SPEC_WORD.search(aside.group(0)) else " "


# "without" governing no speculative word ("With KVBM+MTP, requests arrive without disaggregated
# params"): it says what else is missing, not that the method is off; a method's value spelled
# with a suffix ("without `ngram_gpu`") is still the method
_WITHOUT_OTHER = re.compile(
    r"(?i)\bwithout\s+(?!(?:any\s+|the\s+|a\s+)?[`'\"]?(?:-*spec\w*|draft\w*|eagle\w*|mtp|nextn"
    r"|ngram|n-gram|medusa|lookahead|dflash|dspark|suffix|arctic|mlp|standalone)(?:_\w+)?\b)"
)
# "disabling"/"disable"/"turning off" followed by a thing no speculative word names ("Disabling
# Marlin by setting --quantization gptq doesn't work when using a draft model", "Disable CUDA
# graphs with MTP crashes"): the writer turns off a kernel or a feature of the run, not the method;
# "with EAGLE disabled" and "disabling MTP fixes it" keep their word
_DISABLING_OTHER = re.compile(
    r"(?i)\b(?:disabl(?:e|es|ing)|turn(?:s|ing)?\s+off)\s+(?=[\w`'\"-])(?!(?:any\s+|the\s+|a\s+)?[`'\"]?"
    r"(?:-*spec\w*|draft\w*|eagle\w*|mtp|nextn|ngram|n-gram|medusa|lookahead|dflash|dspark|suffix|arctic|mlp"
    r"|standalone)(?:_\w+)?\b)"
)
# "[Bug]: ...", "[BUG] ...", "[Bug][sglang] ..." as an issue form's first line
_FORM = re.compile(r"^\s*(\[(?:bug|BUG|Bug)\][^\n]*)$")
_SAVED_TITLE = re.compile(r"^\s*#\s+(\S.*)$")
# a title on a line of its own under a URL head: "# title" or a tagged one ("[Usage]: ...")
_TAGGED = re.compile(r"^\s*\[[^\]\n]{1,40}\]\S?\s*\S")
_UNDER_HEADER = 3  # a saved header's title line may follow a "labels: ..." line or two
_TITLE_LENGTH = 300  # a title line above a header is no longer than this (a log line may be)


def _title(source: str, lineno: int, text: str, shape: str, repo: str | None, pull: bool) -> Title:
    own = _QUOTED.sub(" ", _MESSAGE.sub(" ", text))  # names in the error's words are not read
    return Title(source, lineno, text, shape, repo, pull, methods_in(own),
                 tuple(d for d, _ in drafts_in(text)), _releases(text), guard(text))  # fmt: skip


class TitleReader:
    """Fed every line of a text in order; ``titles`` are the thread titles it holds,
    ``drafts`` the draft checkpoints its other lines name, ``head`` the thread head the line
    last fed names (``thread_head``) and ``late`` a title an earlier line holds whose tracker
    that line names (the title above its header)."""

    def __init__(self) -> None:
        self._header: tuple[str, int, str | None, bool, bool] | None = None  # source, lineno, repo, pull, any title
        self._seen: dict[str, tuple[int, str, bool]] = {}  # per source: its first non-blank line, a title's?
        self._heads = HeadReader()
        self.head: Head | None = None
        self.late: Title | None = None
        self.titles: list[Title] = []
        self.drafts: list[DraftMention] = []

    def feed(self, line: LogLine) -> Title | None:
        """The title this line is or completes, if any (else its draft names, kept in ``drafts``)."""
        text = line.raw.rstrip("\n")
        self.late = None
        found = self._read(line, text)
        if found is not None:
            self.titles.append(found)
            return found
        for draft, method in drafts_in(line.text):
            at = max(line.text.find(draft.rsplit("/", 1)[-1]), 0)  # its own sentence's guard
            apart = sentence_apart(line.text, at) or line.quoted
            self.drafts.append(DraftMention(line.source, line.lineno, draft, method, apart))
        return None

    def _read(self, line: LogLine, text: str) -> Title | None:
        first = line.source not in self._seen and bool(text.strip())
        if first:
            self._seen[line.source] = (line.lineno, text.strip(), title_line(line))
        self.head = head = self._heads.feed(line)
        if head is not None:
            return self._headed(line.source, head)
        under = self._header
        if under is not None and under[0] == line.source and 0 < line.lineno - under[1] <= _UNDER_HEADER:
            if (saved := _SAVED_TITLE.match(text)) is not None or (under[4] and _TAGGED.match(text)):
                self._header = None
                own = saved.group(1).strip() if saved is not None else text.strip()
                return _title(line.source, line.lineno, own, "saved", under[2], under[3])
        if first and (form := _FORM.match(text)) is not None:
            return _title(line.source, line.lineno, form.group(1).strip(), "form", None, False)
        return None

    def _headed(self, source: str, head: Head) -> Title | None:
        """The title a head line holds or completes: on the line itself (a page title, a mail
        subject, a web copy's), the line above it (a citation under its title), or the line
        under it (the index's ``# title``; a tagged title under a URL)."""
        known = next((t for t in self.titles if t.source == source), None)
        if head.title is not None and (known is None or known.lineno == head.lineno):
            if known is not None:
                self.titles.remove(known)  # a web copy's title, its tracker or kind read later
            return _title(source, head.lineno, head.title, head.shape, head.repo, head.pull)
        if known is not None:  # "[Bug]: ..." read first: the head below names its tracker
            if known.repo is None or (head.pull and not known.pull):
                late = replace(known, repo=known.repo or head.repo, pull=known.pull or head.pull)
                self.titles[self.titles.index(known)] = late
                self.late = late
            return None
        above = self._seen.get(source)
        if above is not None and above[0] < head.lineno and above[2] and _above(above[1]):
            return _title(source, above[0], above[1], head.shape, head.repo, head.pull)
        self._header = (source, head.lineno, head.repo, head.pull, head.shape == "url")
        return None


def _above(text: str) -> bool:
    """A text's first line can be the title of the head under it (no head, URL, post or
    heading of its own, not a log line's length)."""
    return (len(text) <= _TITLE_LENGTH and head_line(text) is None and post_author(text) is None
            and not text.startswith(("#", "```", "http", ">")))  # fmt: skip
