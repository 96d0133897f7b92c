"""A reply that quotes another post (``> ``): whose run the config lines describe.

A reply quotes the post it answers: to discuss that very run ("> python -m sglang.launch_server
... --speculative-algorithm EAGLE" then "that is the v1 worker"), or to set the writer's own run
beside it ("> We run EAGLE3" then "same traceback here without any speculative decoding"). So
quoted lines are not dropped; they rank below the writer's own: the writer's lines decide when
they show a run of their own (a launch, a config dump, an env setting) or say their run is a
plain one; only otherwise do the quoted lines speak for the run. The reader marks quoted lines
(``LogLine.quoted``, ``dialects/paste.quoted``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.assemblers.run_config import RunConfig
from spectrace.dialects.base import LogLine

# a speculation word: "spec", "speculative", "speculation", "spec-decode", "specdec"; not
# "specific", "specified", "spec_info" (no speculation word, though they start the same)
# (a bare "spec" heading a hyphened compound, "no spec-backend rejection", "no spec-side OOM", is
# no speculation denied)
_SPEC = r"spec(?:ulat\w*\b|[ _-]?dec\w*\b|\b(?!-))"
# the writer says their own run speculates not at all ("same crash on a plain server",
# "without any speculative decoding", "no speculative flags", "spec decoding disabled")
_PLAIN_RUN = re.compile(
    rf"(?i)\bwithout\s+(?:any\s+)?(?:{_SPEC}|draft\w*|eagle\w*|mtp"
    r"|ngram)|\bwithout\s+(?:the\s+)?[`'\"]?--spec"  # not "without `SpeculatorsConfig`" (a class)
    rf"|\bno\s+(?:{_SPEC}|draft\s+model)"
    # "non-speculative" of the batch's parts or a comparison's arm ("mixed speculative and
    # non-speculative sequences", "the non-speculative baseline") is no plain run
    rf"|\bnon-?{_SPEC}(?!\s+(?:decode\s+|decoding\s+)?(?:sequences?|requests?|tokens?|steps?|paths?"
    r"|baselines?|batch\w*|branch\w*|cases?|arms?|reference)\b)"
    r"|\bplain\s+(?:server|engine|run|deployment|launch|decoding|vllm|sglang|model|one)"
    # "my server is plain", "it was plain vLLM"; not what code is ("the kernel is plain CUDA C++")
    r"|\b(?:is|was|are|were|runs?|ran|stays?)\s+(?:just\s+|completely\s+|a\s+)?plain\b"
    r"(?!\s+(?:cuda|c\+\+|c|python|pytorch|torch|triton|text|ascii|json|yaml|markdown|html|english|code"
    r"|old|data|strings?|functions?|objects?|dicts?|lists?|tensors?|arrays?|numbers?|integers?|bytes)(?![\w+]))"
    rf"|\b{_SPEC}(?:\s+decod\w*)?\s+(?:is\s+|was\s+)?(?:off|disabled)\b"
    rf"|\bdisabl\w*\s+(?:the\s+|all\s+)?{_SPEC}"
    # "I don't use speculative decoding at all", "not using MTP here", "never enabled EAGLE"
    r"|\b(?:do(?:n't|\s+not)|did(?:n't|\s+not)|not|never)\s+(?:use|using|used|run|running|enable|"
    rf"enabling|enabled)\s+(?:any\s+|the\s+)?(?:{_SPEC}|draft\w*|eagle\w*|mtp|ngram)"
)
# the plain side of the writer's own comparison ("- Baseline: same server without speculative
# decoding", "compared against the same image with no spec config", "vs. a plain server",
# "outputs byte-identical to the non-spec server", "matches the non-speculative output"): the
# other arm of the experiment, not the reported run
_ARM = re.compile(
    r"(?i)\b(?:baselines?|reference|control|compar\w*|versus|vs\b\.?|relative\s+to|against"
    r"|(?:byte[- ]?)?identical\s+(?:to|with)|match(?:es|ed|ing)?|same\s+as|equal\s+to)\b"
)
# a result set against the plain arm ("strictly worse than no speculation", "slower than without
# MTP"); not in a thread's title ("# EAGLE3 slower than the plain server"), whose comparison is
# the thread's topic: both arms ran there, and its crash may be either's
_THAN = re.compile(r"(?i)\b(?:worse|better|slower|faster|lower|higher)\s+than\b")
_TITLE = re.compile(r"#\s")
# a change to a test matrix or a CI's jobs, told as the change ("- Keep the TP8 variant and add a
# TP8+DP8 variant (without speculative decoding)", "Adds a plain job beside the MTP one"): a
# configuration the change adds or keeps, not a run of the writer's stated plain
_MATRIX_CHANGE = re.compile(
    r"(?i)^\W*(?:keep|keeps|kept|add|adds|added|remove[sd]?|drop(?:s|ped)?|rename[sd]?|introduce[sd]?"
    r"|replace[sd]?|split|splits)\b[^.;]{0,120}?\b(?:variants?|jobs?|matrix|matrices|suites?|test cases?"
    r"|nightly (?:tests?|runs?|jobs?)|ci (?:jobs?|runs?|entries))\b"
)
# what a method lacks, said of the method ("NGRAM has no draft model", "prompt lookup needs no
# draft model"): the algorithm's property, not the writer's server
_LACKS = re.compile(
    r"(?i)\b(?:ngram|n-gram|lookahead|suffix(?:\s+decoding)?|prompt[ _-]lookup|medusa|mtp|nextn"
    r"|eagle\w*|dflash\w*|dspark|it|which|that)\s+(?:has|have|needs?|uses?|requires?|loads?|keeps?)"
    r"\s+no\s+draft"
)
# a failure said of the plain side too: the writer saying the failure is not speculation's
_ALSO_FAILS = re.compile(
    r"(?i)\b(?:crash\w*|fail\w*|errors?|hangs?|hung|dies|died|oom\w*|traceback|exception|deadlock\w*"
    r"|garbled|corrupt\w*|same\s+(?:issue|problem|bug|output|result))\b"
)
# the plain run the sentence names works: it is not the run that crashed
_WORKS = re.compile(
    r"(?i)\b(?:works?|worked|working|fine|stable|ok|okay|healthy|runs? well"
    r"|no (?:crash|issue|problem|error)s?|(?:does|did)(?:n't| not) (?:crash|fail|hang)"
    # its output said sound ("produces coherent output", "gives correct answers", "stays
    # coherent"; not "does not produce coherent output")
    r"|(?<!not )(?<!n't )(?<!never )(?:produces?|produced|gives?|gave|returns?|returned|stays?|stayed"
    r"|remains?|remained|is|are|was|were)\s+(?:\w+\s+){0,2}?(?:coherent|correct\s+(?:output|answers?"
    r"|results?|text|tokens))"
    # a change said to leave plain runs as they were ("ROCm without `--speculative-algorithm` is
    # unchanged"): which runs the code touches, not the reported run
    r"|unchanged|unaffected|untouched)\b"
)
# Prefilter literals of the sentences ``_PLAIN_RUN`` reads that name no algorithm or option
# ("same crash on a plain server"); the others hold a speculative word the collector reads.
PLAIN_RUN_LITERALS: tuple[bytes, ...] = (
    b"plain ", b"no spec", b"non-spec", b"nonspec", b"ithout spec", b"ithout any spec",
    b"ithout the spec", b"ithout draft", b"ithout EAGLE", b"ithout eagle", b"ithout MTP",
    b"ithout ngram",
)  # fmt: skip
# flags set by a run's own lines (launch, dump, config, env), not a sentence naming an algorithm
_RUN_ORIGINS = frozenset({"launch_command", "server_args", "vllm_config", "vllm_args",
                          "trtllm_config", "env"})  # fmt: skip
_SPEC_FLAG = re.compile(r"^(?:speculative|SGLANG_ENABLE_SPEC_V2|num_speculative|draft)")


def mixed(lines: Sequence[LogLine]) -> bool:
    """Some lines are quoted and some are the writer's own."""
    marks = {line.quoted for line in lines if line.text.strip()}
    return len(marks) == 2


def sets_apart(lines: Sequence[LogLine]) -> bool:
    """One of the writer's own sentences says the writer's run is a plain one."""
    return any(plain_run(line) for line in lines)


_NON_SPEC = re.compile(r"(?i)non-?spec\w*")
_BOTH = re.compile(r"(?i)(?<!non-)(?<!non)\bspeculat(?:ive|ion)\b")  # the other kind, named beside it
# a Markdown table row: cells, not a sentence (its outer pipes may be gone: ``unpaste`` takes a
# line framed in ``| ... |`` for a terminal's box border)
_TABLE_ROW = re.compile(r"(?:[^|\n]*\|){3,}")
# a legend defining what a figure means ("`1.00` = no speculation", "1.0x means no speculative
# decoding"): how to read a results table, not a run
_LEGEND = re.compile(r"(?i)[\d.x%]+`?\s*(?:=|:|means|is)\s*(?:the\s+)?$")


# the writer's run said to speculate still ("speculation is still on", "spec decode stays enabled")
_STILL_ON = re.compile(rf"(?i)\b{_SPEC}(?:\s+decod\w*)?\s+(?:is|was|stays?|stayed|remains?|remained)\s+"
                       r"(?:still\s+)?(?:on|enabled|active)\b")
# a sentence of what would happen or was expected, not of what ran ("Disabling speculation would
# also make that assertion disappear", "the naive expectation is that throughput should fall
# back to the non-spec rate"; not a bare "should", which also tells what a run did wrong), or
# one denying the run is merely plain ("a stall, *not* just \"no speculation at high batch\""):
# no run said plain
_COUNTERFACTUAL = re.compile(r"(?i)\b(?:would|could|might|expect(?:s|ation|ations)?|expected to)\b"
                             r"|\bnot\W{0,3}\s+(?:just|only|merely|simply)\b")
_SENTENCE = re.compile(r"(?<=[.;!?])\s+")


def plain_run(line: LogLine) -> bool:
    """The line is the writer's sentence saying the reported run is a plain one ("my server is
    plain", "same crash without speculative decoding"): crashes on either side of it are two
    runs. A plain run said to work ("without speculation it is fine") is another run."""
    if line.quoted or line.headed or _STILL_ON.search(line.text):
        return False  # "... and speculation is still on (7 draft tokens)": the run speculates
    found = next(((s, m) for s in _SENTENCE.split(line.text) if not _COUNTERFACTUAL.search(s)
                  and (m := _PLAIN_RUN.search(s))), None)  # fmt: skip
    if found is None:
        return False
    sentence, said = found
    if _TABLE_ROW.match(line.text):  # a results table's baseline row ("| spec disabled | 168.2 |")
        return False
    if _LEGEND.search(sentence[: said.start()]):
        return False  # "(`1.00` = no speculation, `8.00` = theoretical max)": a figure's legend
    if _NON_SPEC.fullmatch(said.group(0)) and _BOTH.search(line.text):
        return False  # "we combine speculative and non-speculative sequences": both kinds, no run
    if _LACKS.search(line.text):
        return False  # "NGRAM has no draft model, so the key is omitted": the method's property
    if _MATRIX_CHANGE.search(sentence):
        return False  # "- Keep X and add a Y variant (without speculation)": a CI matrix's change
    arm = _ARM.search(line.text) or (_THAN.search(line.text) and not _TITLE.match(line.text))
    if arm and (_ALSO_FAILS.search(line.text) is None or _BOTH.search(_PLAIN_RUN.sub(" ", line.text))):
        # "- Baseline: same server without speculation": the comparison's other arm; "X without
        # speculative decoding vs. X with speculative decoding (errors here)": both arms, one line
        return False
    return _WORKS.search(line.text) is None


def holds_run(config: RunConfig) -> bool:
    """The config read from the writer's own lines shows a speculative setting or a path of a
    run (not only an algorithm a sentence names)."""
    if any(e.points_to or e.worker_class or e.condition for e in config.path_evidence):
        return True
    return any(f.origin in _RUN_ORIGINS and _SPEC_FLAG.match(name)
               for name, f in config.flags.items())  # fmt: skip
