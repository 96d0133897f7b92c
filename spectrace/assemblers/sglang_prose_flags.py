"""SGLang's own speculative options written in a sentence, outside any command ("crashes with
--speculative-algo NGRAM", "`--speculative-num-draft-tokens 8` hangs").

Why: no other server has these options (vLLM's are ``--speculative-config`` and
``--speculative-model``, TensorRT-LLM's use underscores), so a text writing them is about an
SGLang run, and the algorithm flag names the run's algorithm as surely as a command would,
unless its clause suggests, asks, compares or sets it apart. argparse takes the flag's prefixes.
"""

from __future__ import annotations

import re

from spectrace.assemblers.launch_words import foreign_entry
from spectrace.assemblers.other_engines import other_engine
from spectrace.assemblers.spec_prose import eagle_family, named_algorithms, set_apart

# the algorithm flag and its value (argparse takes its prefixes)
_SGLANG_ALGO_FLAG = re.compile(
    r"(?<![\w-])--speculative-algo(?:r(?:i(?:t(?:h(?:m)?)?)?)?)?(?:\s*=\s*|\s+)[`'\"]?([A-Za-z_0-9]+)"
)
_SGLANG_ONLY_FLAG = re.compile(
    r"(?<![\w-])--(?:speculative-(?:algo\w*|num-draft-tokens|num-steps|eagle-topk|draft-model-path)"
    r"|enable-multi-layer-eagle)\b"
)
# a clause setting the flag apart: a suggestion, a question, a fix, a comparison, "without"
_FLAG_APART = re.compile(
    r"(?i)\?|\b(?:try|trying|should|could|would|suggest\w*|recommend\w*|instead|without|not|no"
    r"|works?|worked|fine|vs|versus|compar\w*|unlike|if|whether|you can|please)\b|n't\b"
)


def foreign_command(text: str) -> bool:
    """The line runs another engine that takes SGLang-like options (``tokenspeed serve ...
    --speculative-algorithm EAGLE3``; ``launch_words``), or is about another engine by its own
    API, package or tracker (``other_engines``: ``ov_genai.draft_model(...)``): nothing on it
    is SGLang's, nor any framework's of ours."""
    return foreign_entry(text) or other_engine(text) is not None


def flag_algorithms(text: str) -> list[str]:
    """The algorithms SGLang's ``--speculative-algorithm`` flag sets in a sentence (its
    clause not setting it apart), in SGLang's spelling; none on another engine's command."""
    if foreign_command(text):
        return []
    out = []
    for m in _SGLANG_ALGO_FLAG.finditer(text):
        before = re.split(r"[,;.:()]\s", text[: m.start()])[-1]
        after = re.split(r"[,;:]\s|[.!](?:\s|$)", text[m.end() :])[0]  # "... STANDALONE`?"
        clause = f"{before} {after}"
        if _FLAG_APART.search(clause) is None and (names := named_algorithms(m.group(1))):
            out += names
    return out


def sglang_flag(text: str) -> bool:
    """The sentence writes one of SGLang's own speculative options (``_SGLANG_ONLY_FLAG``),
    not on another engine's command line."""
    return _SGLANG_ONLY_FLAG.search(text) is not None and not foreign_command(text)


_MULTI_LAYER = re.compile(r"(?<![\w-])--enable-multi-layer-eagle\b(?!\s*=\s*(?:false|0)\b)", re.I)


def multi_layer_flag(text: str) -> bool:
    """The sentence writes ``--enable-multi-layer-eagle`` beside an algorithm flag its clause
    does not set apart, or beside an EAGLE-family word on a line that sets nothing apart: the
    run's EAGLE-type algorithm ran on the multi-layer EAGLE workers."""
    m = _MULTI_LAYER.search(text)
    if m is None or foreign_command(text):
        return False
    return bool(flag_algorithms(text)) or bool(multi_layer_names(text))


# multi-layer EAGLE in words ("multi-layer EAGLE auto-enabled", "with multi layer eagle on",
# ``enable_multi_layer_eagle=True``), as SGLang alone names it (a class name is path_mentions')
_ML_WORDS = re.compile(
    r"(?i)(?<![\w-])multi[-_ ]?layer[-_ ]?(?:eagle|mtp)(?![\w-])"
    r"|\benable_multi_layer_eagle\b[`'\"]?\s*[=:]\s*[`'\"]?(?:true|1)\b"
)
# the words stated as on for the run: "(auto-)enabled", "on", "turned on", "active", "is used",
# "with/using/runs/ran ... multi-layer EAGLE", "enable(d) multi-layer EAGLE", or the field set
_ML_ON_AFTER = re.compile(
    r"(?i)[\w`'\")\]]*\s*(?:\(\s*)?(?:is\s+|was\s+|gets?\s+|got\s+|being\s+)?"
    r"(?:auto[-_ ]?(?:matically[-_ ]?)?enabled|enabled|on\b|turned on|switched on|active|in use|used)"
)
# (its modifiers between: "with built-in 8-layer multi-layer EAGLE"; the family word it restates:
# "serving X with MTP (multi-layer EAGLE)")
_ML_ON_BEFORE = re.compile(
    r"(?i)\b(?:with|using|uses|used|runs?|ran|running|enabl(?:e|ed|es|ing)|turn(?:s|ed|ing)? on"
    r"|via|through|on)\s+(?:the\s+|its\s+|a\s+)?(?:(?:built-?in|native|default|[\w.-]*\d[\w.-]*)\s+){0,2}"
    r"(?:(?:eagle3?|mtp|nextn)\s*\(\s*)?[`'\"]?$"
)
_ML_APART = re.compile(
    r"(?i)\?|\b(?:not|no|without|w/o|disabl\w*|off|if|whether|should|could|would|try|trying"
    r"|suggest\w*|plan\w*|will|todo|support\w*|add\w*|implement\w*|refactor\w*|instead)\b|n't\b"
)


def multi_layer_stated(text: str) -> bool:
    """The sentence says the run had SGLang's multi-layer EAGLE on, in words or as the field
    (``enable_multi_layer_eagle=True``; the flag itself is ``multi_layer_flag``'s): EAGLE,
    EAGLE3 and NEXTN then run ``MultiLayerEagleWorker[V2]``, never ``EAGLEWorker[V2]``
    (MiMo-V2 and Step-3.5 turn it on by themselves). Not a question, plan, change, or off."""
    if foreign_command(text):
        return False
    for m in _ML_WORDS.finditer(text):
        start = max(text.rfind(".", 0, m.start()), text.rfind(";", 0, m.start())) + 1
        stop = min((i for i in (text.find(". ", m.end()), text.find(";", m.end())) if i >= 0),
                   default=len(text))  # fmt: skip
        if _ML_APART.search(text[start:stop]):
            continue  # its own sentence asks, plans, changes code or turns it off
        if m.group(0).lower().startswith("enable_"):
            return True
        if _ML_ON_AFTER.match(text, m.end()) or _ML_ON_BEFORE.search(text[start : m.start()]):
            return True
    return False


def multi_layer_names(text: str) -> list[str]:
    """The EAGLE-family words written beside ``--enable-multi-layer-eagle`` instead of the
    algorithm flag (a benchmark table's column "EAGLE (`--enable-multi-layer-eagle`)", "NEXTN
    with --enable-multi-layer-eagle crashes"): the flag builds only EAGLE-type workers. In a
    Markdown table row only the flag's own cell counts (the other columns are other runs)."""
    if _MULTI_LAYER.search(text) is None or foreign_command(text):
        return []
    cell = next((c for c in text.split("|") if _MULTI_LAYER.search(c)), text)
    if set_apart(cell):
        return []
    return [name for name in named_algorithms(_MULTI_LAYER.sub("", cell)) if eagle_family(name)]
