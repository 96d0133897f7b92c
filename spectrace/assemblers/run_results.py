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
    r"|end[- ]to[- ]end|e2e|locally|again|manually|successfully|fine|\w+ing"
    r"|and\s+(?:works?|worked|runs?|ran|passe[sd]))){0,2}"  # "EAGLE was tested and works on MI355X"
    r"\s+(?:on|with|using|at|against|via|under|across|in\s+(?:a|an|the|our|my)\b)"
)
# the writer's own check, whatever its object ("I verified the non-disagg setup only (PP2+TP8)",
# "we reproduced the hang", "I've tested both configs")
_I_CHECKED = re.compile(
    r"(?i)\b(?:I|we)(?:'ve|\s+have|\s+had)?\s+(?:also\s+|just\s+|already\s+|now\s+|then\s+|since\s+"
    r"|personally\s+|successfully\s+|later\s+|recently\s+|finally\s+|first\s+|again\s+|manually\s+"
    r"|locally\s+)?(?:verified|validated|tested|reproduced|re-?ran|benchmarked"
    r"|evaluated|profiled|confirmed|ran(?!\s+(?:into|out|across)\b))\b"
)
# the engine itself failing, in the past tense: an event the writer saw, on any tracker (an RL
# trainer's, a wrapper's: "after the first weight sync, the vLLM server crashed", "SGLang's
# scheduler hung at capture"); not "vLLM crashes when ..." (a general statement, a known issue),
# nor its build, install, import or image failing (no server ran)
_ENGINE_FAILED = re.compile(
    r"(?i)\b(?:vllm|sglang|tensorrt-llm|trt-llm|trtllm)(?:'s)?(?:\s+(?!(?:build|install|compil|import|wheel|pip"
    r"|docker|image|ci)\w*\b)[\w-]+){0,2}?\s+(?:crashed|hung"
    r"|failed|died|errored(?:\s+out)?|segfaulted|aborted|oom(?:ed|'d)|ran\s+out\s+of\s+memory)\b"
)
# the run failing as the writer keeps seeing it, in any tense ("requests that invoke tools
# consistently crash inside the grammar backend", "the server always hangs after warmup", "the
# engine still crashes eventually"): how often it fails is an observation, not a general claim
# ("vLLM crashes when X" stays none) nor a guess (a planned, expected or "if" sentence is none)
_KEEPS_FAILING = re.compile(
    r"(?i)\b(?:consistently|always|reliably|repeatedly|intermittently|randomly|sometimes"
    r"|occasionally|immediately|still)\s+(?:[\w-]+\s+)?(?:crash(?:es|ed)?|fails?|failed|hangs?|hung"
    r"|segfaults?|segfaulted|aborts?|aborted|dies|died|errors?\s+out|deadlocks?|ooms?)\b"
)
# a server's own acceptance counter with its value, as a response or metrics endpoint gives it
# (``"spec_accept_length": 2.46``, ``sglang:spec_accept_rate 0.29``, ``acceptance_rate=0.71``)
# (not a formula over it: "(accept_length - 1) / steps")
_COUNTER = re.compile(
    r"(?i)(?<![a-z])(?:spec_)?accept(?:ance|ed)?_(?:rate|length|len)\b[\"'`]?(?:\s*[:=]\s*|\s+)\d"
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
           r"|mean\s+accepted\s+tokens|(?:mean|avg|average)\s+accept(?:ed|ance)?(?:\s+len(?:gth)?)?"
           r"|speed-?ups?|ttft|tpot|itl|accuracy|gsm8k|mt-?bench|humaneval)")
_METRIC_WORD = re.compile(rf"(?i)\b{_METRIC}\b")
_NUMBER = r"\d+(?:\.\d+)?\s*(?:%|x|ms|s)?"
_MEASURED = re.compile(
    rf"(?i)\b{_METRIC}\b\W{{0,4}}(?:(?:of|is|was|were|at|from|to|by|around|about|~)\W{{0,3}}){{0,2}}\d"
    rf"|(?<![\w.]){_NUMBER}\s*(?:\w+\s+)?{_METRIC}\b"
    # acceptance length and rate as speculative reports abbreviate them, upper case, with their
    # value ("DSpark mean AL: 4.81", "AL/AR: 4.57 / 52.04%", "AR=0.61")
    r"|(?-i:(?<![\w/-])A[LR](?:/A[LR])?)\s*[:=]\s*\d"
)
# a number or check the writer expects, targets or promises ("you should see about 3.0", "target:
# 2x", "up to 1.8x", "we aim for 2x", "can improve by 20%"; not a dataset named AIME or AIMO): no
# run, wherever the line's other words point
EXPECTED = re.compile(
    r"(?i)\b(?:expect\w*|should|would|targets?\s*[:=]|target(?:ed|ing)\b|goals?\s*[:=]|aim(?:s|ed|ing)?\b|hope\w*"
    r"|up\s+to|can\s+reach|promis\w*"
    # a gain told as possible ("throughput can improve by 20%", "TPOT could drop by a third")
    r"|\b(?:can|could|may|might|will)\s+(?:\w+\s+)?(?:improve|increase|rise|grow|double|boost|lift|drop"
    r"|fall|decrease|gain|speed\s+up)\b)"
)
# numbers another source gives ("For reference, SGLang reports 3.2", "the model card says 62%",
# "according to the paper"): that source's run, not this text's
ATTRIBUTED = re.compile(
    r"(?i)\b(?:for\s+reference|according\s+to|model\s+card|paper|blog|claims?|claimed|published"
    r"|advertis\w*|reportedly|(?:they|others|upstream|(?-i:[A-Z][\w-]*))\s+reports?|reported\s+by\s+(?!the\s+server))\b"
)
# what is only asked, planned or pending, in the same sentence
_PLANNED = re.compile(
    r"(?i)\b(?:will|shall|could|might|may|must|plan\w*|todo|tbd|pending|please|if|once|unless|whether"
    r"|needs?\s+to|has\s+to|have\s+to|to\s+be|going\s+to|can\s+(?:you|someone|anyone)|anyone)\b|\?"
)
# what was not done or not yet: a check with it is none ("not yet tested", "unverified"), but a
# measured outcome may be a negative one ("the perf of X is not as good as Y")
_UNDONE = re.compile(r"(?i)\b(?:not|never|no|yet|unverified|untested)\b|n't\b")
# a benchmark or test the writer ran on a setup, with its accelerator named ("In the mtbench
# testing on Qwen3-8B on 8xB200, the perf of X is lower than Y", "from our GSM8K eval on 2x H100")
_BENCH_RUN = re.compile(
    r"(?i)\b(?:in|from|during)\s+(?:the|our|my|this)\s+(?:[\w.-]+\s+){0,2}(?:test\w*|bench\w*|eval\w*"
    r"|runs?|experiments?|sweeps?)\s+(?:on|with|using|at)\b"
)
# the accelerator a setup names ("8xB200", "2x H100", "MI300X", "gfx942", "RTX 4090", "RTX PRO 6000")
_CHIP = (r"(?:[hb]\d{3}|a\d{2,3}|l\d{2}s?|gb\d{3}|mi\d{3}x?|gfx\d{3,4}|rtx\s?(?:pro\s?)?\d{4}"
         r"|tpu\s?v?\d\w*|gaudi\d?|910[bc]?\w*)(?!\w|\.\w)")  # a sentence's full stop may follow
_HARDWARE = re.compile(rf"(?i)(?<![\w.])(?:\d+\s*x\s*)?{_CHIP}")
# a counted rig ("2×H100", "8x B200", "Ascend 910B * 8"): the machine a setup ran on
_COUNTED = re.compile(rf"(?i)(?<![\w.])\d+\s*[x×*]\s*{_CHIP}|(?<![\w.]){_CHIP}\s*[x×*]\s*\d+\b")
# a ticked test-plan item checking something on named hardware ("- [x] Verified on B300 with the
# v0.5.15 image + EAGLE3", "- [x] Verify MTP on H200 (SM90) no longer crashes", "* [X] Run the
# accuracy tests on DGX B200"): the author's run, done; not a status box ("- [x] EAGLE3",
# "- [x] Support MTP on H100": no check verb), and not an open one ("- [ ]")
_TICKED = re.compile(r"^\W{0,4}(?:[-*+]|\d+\.)\s+\[[xX✓✔]\]\s+(?P<item>.*)")
_BOX = re.compile(r"^\W{0,4}(?:[-*+]|\d+\.)\s+\[[\sxX✓✔]?\]")  # any task-list box, open or ticked
_CHECK_VERB = re.compile(
    r"(?i)\b(?:verif(?:y|ied|ies)|test(?:ed|s)?|ran|runs?|validat(?:e|ed|es)|evaluat(?:e|ed|es)"
    r"|reproduc(?:e|ed|es)|confirm(?:ed|s)?|check(?:ed|s)?|benchmark(?:ed|s)?|measur(?:e|ed|es)"
    r"|profil(?:e|ed|es))\b"
)
# an item saying its check was not done, whatever the box ("- [x] not tested on H100")
_NOT_DONE = re.compile(r"(?i)\b(?:not|never)\s+(?:yet\s+)?(?:been\s+)?(?:verif|test|run|ran|check|validat|benchmark)")
# a heading over measured numbers naming where they ran ("## Result (8x MI300X, Qwen3-VL, EAGLE3
# SD, MMMU)", "### Benchmark results on 8xH100", "**Accuracy (GSM8K, 1x B200)**", its marks
# possibly gone in a copy); not "## Benchmark script for H100" (the word must end the heading's
# name or lead to its setup)
_RESULTS_HEADING = re.compile(
    r"(?i)^\W{0,6}(?:#{1,6}\s*|\*\*)?(?:[\w-]+\s+){0,3}?(?:results?|benchmarks?|evaluations?|accuracy"
    r"|measurements?|numbers)(?=\s*[(:\-–—]|\s+(?:on|with|at|using|in)\b|\s*\**\s*$)"
)
# a path or method said to run on named hardware ("the full NGRAM path runs end-to-end on Ascend
# 910C", "EAGLE3 now works correctly on MI355X")
_RUNS_ON = re.compile(
    r"(?i)\b(?:runs?|ran|works?|worked|running|working)\s+(?:now\s+)?(?:end[- ]to[- ]end|e2e|successfully"
    r"|correctly|fine|cleanly|stably)\s+on\b"
)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|\s+[-—–]\s+")
# what the scan must keep for these lines to be read (``run_shown.RUN_LITERALS``); nothing a
# server prints on its own load lines
LITERALS = ("erified ", "I tested", "e tested", "tested ", "I reproduced", "e reproduced", "onfirmed", "alidated ", "ested on", "ested with", "ested using", "eproduced",
            "enchmarked ", "valuated ", "e-ran", "eran ", "craped from", "ollected from",
            "ollected on", " read from", "easured on", "easured with", "ccuracy", "peedup",
            "peed-up", "TTFT", "TPOT", "GSM8K", "gsm8k", "MT-Bench", "MT-bench", "ccepted tokens",
            "% acceptance", "% accept", " testing on", " tests on", "esting on", " eval on",
            " evals on", "enchmark on", " run on ", " runs on ", " crashed", " hung ", " died",
            "errored", "egfaulted", " OOMed", "an out of memory", "[x] ", "[X] ", "esults on ",
            "esults (", "esult (", "ccuracy (", "nd-to-end on", "nd to end on", "2e on ",
            "uccessfully on", "orrectly on", "onsistently ", "lways crash", "lways fail",
            "lways hang", "till crash", "till fail", "till hang", "eliably ", "epeatedly ",
            "ntermittently ", "andomly ", "ccasionally ", "ometimes crash", "ometimes fail",
            "ometimes hang", "mmediately crash", "mmediately fail", "ccept_rate", "ean accept",
            "vg accept", "verage accept",
            "ccept_length", "ccept_len", "cceptance_rate", "cceptance_length", "ccepted_length",
            # a results table's header cell ("| TP4 input tokens/s | Throughput change |"),
            # by its cell border: a server's own metrics lines have none
            "tok/s |", "tokens/s |", "hroughput |", "| Throughput", "| throughput",
            # acceptance as Chinese, Japanese and Korean notes name it, so that a results
            # section's rows ("| 接受率 | 0.78 |", "| 平均受理長 | 2.41 |") are seen under it
            "接受率", "接受长度", "接收率", "接受長度", "受理率", "受理長", "受け入れ率", "採択率", "수락률", "수락 길이",
            "채택률")  # fmt: skip


def result_line(text: str) -> bool:
    """A sentence of the line reports a check done on a setup, numbers sourced from a run, or a
    measured metric, and says nothing of it undone, asked, planned, expected or another's."""
    return bool(result_sentences(text))


def result_sentences(text: str) -> list[str]:
    """The sentences of the line that ``result_line`` reads as a run's result: a ticked check or
    a results heading on named hardware (the whole line), else each sentence that reports one."""
    if _on_hardware(text):
        return [text]
    found = []
    for sentence in _SENTENCE.split(text):
        if _PLANNED.search(sentence) or EXPECTED.search(sentence) or ATTRIBUTED.search(sentence):
            continue
        if _BENCH_RUN.search(sentence) and _HARDWARE.search(sentence):
            found.append(sentence)
        elif not _UNDONE.search(sentence) and any(
                p.search(sentence) for p in (_CHECKED, _I_CHECKED, _ENGINE_FAILED, _KEEPS_FAILING,
                                             _COUNTER, _SOURCED, _MEASURED)):  # fmt: skip
            found.append(sentence)
    return found


# a results table's header row: a cell naming what was measured ("| Configuration | Accuracy |
# Reward |", "| Proposal head | Median output tok/s | Median accepted/draft |"), no cell a figure
_METRIC_CELL = re.compile(rf"(?i)\b(?:{_METRIC}|throughput|tok(?:en)?s?\s*/\s*s(?:ec)?|tps|steps\s*/\s*s"
                          r"|accepted\s*/\s*draft|reward|pass@\d+)(?![\w/])")
_FIGURE_CELL = re.compile(r"^\W{0,3}[~≈]?\d+(?:[.,]\d+)?\s*(?:%|x|×|ms|s)?\W{0,3}$")


def metric_header(text: str) -> bool:
    """The line is a Markdown table's header (three cells or more) naming a measured metric in a
    column after the first, and no cell of it a figure: the table holds a run's measurements.
    The scan keeps the header by its metric's words; its rows of bare figures it cannot keep."""
    if EXPECTED.search(text) or _PLANNED.search(text):
        return False  # "| expected tok/s after this PR |": a figure still to come
    cells = [c.strip() for c in text.strip().strip("|").split("|")]
    return (len(cells) >= 3 and any(_METRIC_CELL.search(c) for c in cells[1:])
            and not any(_FIGURE_CELL.match(c) for c in cells))  # fmt: skip


def ticked_check(text: str) -> bool:
    """The line is a ticked box checking something on named hardware ("- [x] Verified on B300
    with the v0.5.15 image + EAGLE3"): the author's run, even inside a test plan."""
    return _TICKED.match(text) is not None and _on_hardware(text)


# a setup table's or list's rig row ("| Hardware | Ascend 910B * 8 |", "GPU: 2x H100")
_RIG_KEY = re.compile(
    r"(?i)^\W{0,6}(?:hardware|gpus?|npus?|devices?|accelerators?|chips?|machines?|platform)\W{0,4}\s*[|:]"
)


# a section of the text's own tests (``## Accuracy Tests``, ``## Test Results``, ``### Benchmark``,
# ``## Validation``, ``## Repro``, vllm-ascend's ``### How was this patch tested?``), and under one a
# sub-section of its setup (``### Environment``, ``### Launch Command``): a rig, an image or a
# figure named there is what the tests ran on or measured (``row_under_tests``)
_TESTED = re.compile(
    r"(?i)^\s*#{2,6}\s+\W{0,4}(?:[\w-]+\s+){0,4}?(?:tests?|tested|testing|accuracy|results?|benchmarks?"
    r"|benchmarking|validation|verification|evaluation|performance|measured|measurements?"
    r"|repro(?:duction|ducer|duced|ducing|duce)?)\b"  # the writer's repro: the rig it ran on
)
_SETUP = re.compile(
    r"(?i)^\s*#{3,6}\s+\W{0,4}(?:test\s+)?(?:environment|env|setup|hardware|launch(?:\s+command)?"
    r"|configuration|config|server\s+command|command)\b"
)
_ANY_HEADING = re.compile(r"^\s*#{1,6}\s")
_THREAD_TITLE = re.compile(r"^\s*#\s+\S")


def heading_tested(text: str, before: bool) -> bool:
    """Whether the lines after ``text`` sit in a section of the text's own tests (``## Accuracy
    Tests``, or its ``### Environment`` sub-section); ``before``: the state above ``text``. A
    template's heading alone shows nothing: only a rig, an image or a figure named under it
    does (``row_under_tests``)."""
    if not _ANY_HEADING.match(text) or _THREAD_TITLE.match(text):
        return before
    if _TESTED.match(text) is not None or _CAPTION.match(text) is not None:  # "#### TPOT comparison"
        return True
    return before and _SETUP.match(text) is not None


# a list item or a bold caption giving a label its measured figure ("- AIMO: 113187 accepted",
# "* **TPOT**: 41.2 ms", "1. sonnet = 0.83"): one value of the tests' own results
_FIGURE_ROW = re.compile(
    r"^\W{0,4}(?:[-*+]|\d+[.)])\s+(?:\*\*|__)?(?P<label>[^:=|`\n]{1,60}?)(?:\*\*|__)?\s*[:=]\s*(?:\*\*)?[~≈]?(?P<figure>\d[\d,]*(?:\.\d+)?)(?![\w.-]*/)"
)
# a label that makes its figure a goal or a source location, not a measurement ("target
# speedup: 2.0", "see vllm/v1/spec_decode/eagle.py:214")
_NOT_FIGURE = re.compile(r"(?i)\b(?:target|goal|desired|required|budget)\b|\.(?:py|md|rs|cc|cpp|cu|h|txt|json|ya?ml|toml|sh)$")
# a test tally ("3 passed", "12 tests"): which tests ran is the test readers' question
# (``run_shown.unit_check``), no measurement of a run
_TALLY = re.compile(r"(?i)\d+\s+(?:passed|failed|skipped|xfailed|errors?|warnings?|tests?|cases?)\b")
# a table's body row with a figure in a cell after the first ("| 4,612 | 38.1 | 2.9x |"), not
# a header's separator ("|---|---|")
_TABLE_ROW = re.compile(r"^[^|\n]*(?:\|[^|\n]*){2,}\|\s*$")  # its leading pipe may be gone (a line prefix)
_FIGURE_CELL_ANY = re.compile(r"^\W{0,3}[~≈]?\d[\d,]*(?:\.\d+)?\s*(?:%|x|×|ms|s|tok/s)?\W{0,3}$")
# a sub-heading captioning the tests' own measurements by what they measured ("#### Accepted
# tokens benchmark stats", "### Throughput results"): no template heading names a metric (vLLM's
# "## Test Result", vllm-ascend's "### How was this patch tested?", SGLang's "## Accuracy Tests")
_CAPTION = re.compile(
    r"(?i)^\s*#{3,6}\s+\W{0,4}(?:[\w./-]+\s+){0,3}?(?:accept(?:ed|ance)\s+(?:tokens?|rates?|lengths?)"
    r"|throughput|tok(?:en)?s?\s*/\s*s|ttft|tpot|latency|speed-?ups?)\b[^.?]{0,40}?\b(?:stats|statistics"
    r"|results?|numbers|figures|measurements?|benchmarks?|comparison)\b"
)
# a container image with its tag (``org/vllm:nightly-cu128``, ``voipmonitor/vllm:chthonic-f1190eab``):
# the build a check ran on; not a source location (``eagle.py:120``) nor a bare numbered tag, which
# the release readers take
_IMAGE = re.compile(
    r"(?<![\w./:-])(?:[\w.-]+/)+(?![\w-]*\.(?:py|md|rs|cc|cpp|cu|cuh|h|txt|json|ya?ml|toml|sh|log)\b)"
    r"[\w-][\w.-]*:(?=[\w.-]*[A-Za-z])[\w][\w.-]*"
)


def row_under_tests(text: str) -> bool:
    """Under a section of the text's own tests (``heading_tested``), the line names what the
    tests ran on or measured: a rig (``rig_row``), a container image with its tag, a list item
    giving a label its figure, a table's metric header or a row with a figure in a cell after
    the first, or a
    sub-heading captioning measurements by their metric (the scan keeps no bare figure row
    below it); nothing planned, expected or not done. A template's heading shows nothing, nor
    does prose under it."""
    if _PLANNED.search(text) or _NOT_DONE.search(text) or EXPECTED.search(text) or ATTRIBUTED.search(text):
        return False
    if rig_row(text) or _CAPTION.match(text) is not None:
        return True
    if (row := _FIGURE_ROW.match(text)) is not None and not _NOT_FIGURE.search(row.group("label")) \
            and not _TALLY.match(text, row.start("figure")):  # fmt: skip
        return True
    if _TABLE_ROW.match(text):  # its header naming a metric, or a row with a figure
        cells = [c.strip() for c in text.strip().strip("|").split("|")]
        return metric_header(text) or (len(cells) >= 2 and any(_FIGURE_CELL_ANY.match(c) for c in cells[1:]))
    return any(not m.group(0).lower().startswith(("http", "www.")) for m in _IMAGE.finditer(text))


def rig_row(text: str) -> bool:
    """The line names the rig of a setup: a table's or list's row naming the accelerator ("|
    Hardware | Ascend 910B * 8 |") or a counted accelerator ("gpt-oss-120b, 2×H100,
    `max_draft_len: 7`, greedy"). Under a section of the text's own tests
    (``heading_tested``) it is the rig the tests ran on, nothing planned or expected."""
    if _PLANNED.search(text) or _NOT_DONE.search(text) or EXPECTED.search(text) or ATTRIBUTED.search(text):
        return False  # "MTP has not been tested on 8x B200 yet"
    key = _RIG_KEY.match(text)
    if key is not None and _HARDWARE.search(text, key.end()) is not None:
        return True
    return _COUNTED.search(text) is not None


def check_told(text: str) -> bool:
    """A sentence of the line reports a check the author made ("Validated end-to-end with a
    GSM8K benchmark", "We tested it on ..."), nothing of it planned, undone, expected or
    another's; no rig need be named (``done_check`` asks for one). The check opens its
    sentence or is told in the first person: "This model was validated with vLLM" is a
    model card's claim, not the writer's run."""
    return any((_OPENS.match(s) and _CHECKED.match(s, _OPENS.match(s).end()) or _I_CHECKED.search(s))
               and not (_PLANNED.search(s) or _UNDONE.search(s) or EXPECTED.search(s)
                        or ATTRIBUTED.search(s))
               for s in _SENTENCE.split(text))  # fmt: skip


_OPENS = re.compile(r"[\s>*_`#-]*")  # a sentence's leading markup


def done_check(text: str) -> bool:
    """The line reports the author's check done on named hardware: a ticked box
    (``ticked_check``) or a sentence in words ("Verified locally on MI355X (gfx950), ROCm 7",
    "Tested on 8x H200 with the fix"), nothing of it planned, expected, undone or another's. A
    test plan holding one is no longer "a command to run, with no result": its run was made."""
    if ticked_check(text):
        return True
    if _BOX.match(text) is not None or _HARDWARE.search(text) is None:
        return False  # a box ``ticked_check`` did not take (an open one), or no rig named
    return any(_HARDWARE.search(s) and (_CHECKED.search(s) or _I_CHECKED.search(s))
               and not (_PLANNED.search(s) or _UNDONE.search(s) or EXPECTED.search(s)
                        or ATTRIBUTED.search(s))
               for s in _SENTENCE.split(text))  # fmt: skip


def _on_hardware(text: str) -> bool:
    """The line is a ticked check or a results heading on named hardware, or says a path runs on
    it, and nothing in it is planned, expected, another source's or not done."""
    if _HARDWARE.search(text) is None or EXPECTED.search(text) or ATTRIBUTED.search(text):
        return False
    if (ticked := _TICKED.match(text)) is not None:
        item = ticked.group("item")
        checked = _CHECK_VERB.search(item) or _METRIC_WORD.search(item)
        return checked is not None and _NOT_DONE.search(item) is None and _PLANNED.search(item) is None
    if _PLANNED.search(text) or _UNDONE.search(text):
        return False
    return _RESULTS_HEADING.match(text) is not None or _RUNS_ON.search(text) is not None


# a question asking why an outcome the writer saw happens ("[Usage]: Why does the acceptance rate
# of the second token drop when the draft has two layers?", "Why is EAGLE3 slower at batch 32?"):
# the writer's run showed it; not why code is so ("why does X not support Y", "why is X needed")
_WHY_OUTCOME = re.compile(
    r"(?i)^\W*(?:\[\s*(?:usage|question|help|misc)\s*\]:?\s*)*(?:\w+:\s*)?why\b"
    r"(?!.*\b(?:not\s+support\w*|supported|needed|required|designed|implemented|chosen)\b)"
    r".*\b(?:drops?|dropp\w*|decreas\w*|falls?|degrad\w*|crash\w*|hangs?|fails?|slow\w*|lower|low"
    r"|worse|stuck|garbled|wrong|incorrect|ooms?|errors?)\b"
)


# an outcome someone else published ("... in the blog's chart", "the docs' figure"): no run of the writer
_SHOWN_ELSEWHERE = re.compile(r"(?i)\b(?:charts?|figures?|graphs?|plots?|docs?|documentation|readme)\b")


def observed_outcome(title: str) -> bool:
    """The title asks why an outcome the writer observed happens: a report of their run; not one
    another source published (a blog's chart, a paper, the docs)."""
    if ATTRIBUTED.search(title) or _SHOWN_ELSEWHERE.search(title):
        return False
    return _WHY_OUTCOME.search(title) is not None
