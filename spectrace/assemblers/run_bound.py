"""Which lines of a page bind it to a run of the engine, and whether the page has a document's form.

A docs page, a tutorial, a blog post or a model card speaks in words a run report also uses: an
algorithm "verified by the target model", a gain of "up to 2.5X", "Our implementation",
"Auto-regressive". Those words tell no run. What does is narrower (``first_run_line``): a stack
frame through an engine's own package, a log record, the writer in the first person telling
their own run ("I ran", "when I launch", "we got this error"), a figure measured ("142 tok/s on
one H100"), or a failure told as met ("the server crashes with ..."). A crash appended to a page
whose frames name no engine file (a user's own script, a probe) binds nothing: the page around
it stays what the reader would run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.assemblers.documents import own_run
from spectrace.dialects.base import LogLine

# a log record's own marks where a cut prefix left no dialect to head it: a logger's source tag
# closing its bracket ("parallel_state.py:1422] ...", "[gpu_model_runner.py:1901]"; not a Markdown
# link's text, "[eagle.py:130](https://...)"), a clock time
# or a level word opening the line
RECORD_SHAPE = re.compile(
    r"\b[\w.-]+\.py:\d+\](?!\()|^\W{0,3}(?:\d{4}-\d\d-\d\d[ T])?\d\d:\d\d:\d\d\b"
    r"|^\W{0,3}(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\b[\s:\]]"
)
# a traceback frame through an engine's own package folder: the engine ran, whatever the page
_ENGINE_FRAME = re.compile(
    r"\bFile \"[^\"]*[/\\](?:sglang|vllm|vllm_ascend|tensorrt_llm)[/\\][^\"]*\", line \d+"
)
_TB_HEADER = re.compile(r"^\W*Traceback \(most recent call last\):\s*$")
_FRAME = re.compile(r"^\s*File \"[^\"]+\", line \d+")
_STEPS = (r"(?:also |just |then |first |now |still |only |actually |already )?")
# the writer in the first person telling their own run: "I" with any run verb, "we" in the past
# (a tutorial's "we use the 8B model" and a vendor's "Our implementation" tell none), "my" or
# "our" with what a run has (its server, its command, its log)
SELF_RUN = re.compile(
    rf"\bI(?:'ve| have| had)?\s+{_STEPS}(?:use|used|run|ran|launch\w*|start\w*|serv\w*|deploy\w*"
    r"|test\w*|benchmark\w*|measur\w*|profil\w*|got|get|see|saw|hit|tried|try|noticed|notice"
    r"|encounter\w*|observ\w*|reproduc\w*|follow\w*|execut\w*)\b"
    r"|\bI(?:'m| am| was)\s+(?:running|using|launching|serving|getting|testing|benchmarking|seeing"
    r"|deploying|trying|hitting|executing)\b"
    rf"|(?i:\bwe(?:'ve| have| had)?\s+{_STEPS}(?:ran|launched|started|served|deployed|tested|benchmarked"
    r"|measured|got|saw|hit|tried|noticed|encountered|observed|reproduced|executed|keep getting"
    r"|are seeing|were seeing|are getting|were getting|are hitting|were running)\b)"
    r"|(?i:\b(?:my|our)\s+(?:own\s+)?(?:deployment|server|setup|cluster|runs?|launch|service|jobs?"
    r"|machines?|nodes?|environment|production|prod|workload|config|command|script|logs?|output"
    r"|container|pods?)\b)"
    r"|我们?(?:用|使用|启动|运行|跑|部署|测试|试了|测过|测了|测量了|测量过|测出)"
)
# a figure the writer measured, told in the past ("Tested on 2x HGX H100: 312 tok/s at batch 8"):
# a vendor's table of speeds or "up to 2.5x" promises tells none
_MEASURED = re.compile(
    r"(?i)^\W*(?:tested|measured|benchmarked|verified|validated|ran)\b.*?(?<![\w.])\d+(?:\.\d+)?\s*"
    r"(?:tok(?:en)?s?/s|tokens?/sec|req/s|ms\b|x\b|%)|\baccept(?:ance)? length\s+\d"
)
# a run's own draft and accept counters with their figures ("draft tokens: 8120 | accepted: 5012",
# "drafts 427 / accepted 341", "1915 drafts/898 accepted", "accepted 341 of 427 drafted"), vLLM's
# spec-decode counters in either order with their unit ("Accepted: 314 tokens, Drafted: 591 tokens",
# "Accepted 314 / Drafted 591"), and its three per-request counters ("drafts 7, draft tokens 35,
# accepted 16")
_COUNTERS = (r"\bdraft(?:ed)?[ _-]?tokens?\s*[:=]\s*\d[\d,]*\s*[|,;]\s*accepted(?:[ _-]?tokens?)?\s*[:=]\s*\d"
             r"|\bdraft(?:s|ed)\s*[:=]?\s*\d[\d,]*(?:\s*tokens?)?\s*[/|,;]\s*"
             r"(?:draft[ _-]?tokens?\s*[:=]?\s*\d[\d,]*\s*[/|,;]\s*)?accepted(?:[ _-]?tokens?)?\s*[:=]?\s*\d"
             r"|\baccepted(?:[ _-]?tokens?)?\s*[:=]?\s*\d[\d,]*(?:\s*tokens?)?\s*[/|,;]\s*draft(?:s|ed)(?:[ _-]?tokens?)?"
             r"\s*[:=]?\s*\d"
             r"|(?<![\w.])\d[\d,]*\s*draft(?:s|ed)(?:[ _-]?tokens?)?\s*[/|,;]\s*\d[\d,]*\s*accepted\b"
             r"|\baccepted\s*[:=]?\s*\d[\d,]*\s*(?:[/|,;]|of|out of)\s*(?:draft(?:s|ed)\s*[:=]?\s*)?\d[\d,]*\s*draft(?:s|ed)\b")
COUNTERS = re.compile(f"(?i){_COUNTERS}")
# a figure a run gives (a speed, a latency, an acceptance figure, the counters) outside a table of
# the page's own (options, a vendor's comparison), unless its clause promises or aims at it ("up to
# 180 tok/s", "can reach", "expected")
_FIGURE = re.compile(
    r"(?i)(?<![\w.])\d+(?:\.\d+)?\s*(?:tok(?:en)?s?/s|tokens?/sec|req/s)"
    r"|\baccept\w*\s+(?:len\w*|rate)\s*(?:[:=]|\s(?:was|were|is|of|at|ranged|ranging|went|stayed|averaged|settled"
    r"(?:\s+at)?)(?:\s+(?:from|between|to))?)?\s*[~≈]?\d"
    r"|\b(?:mean|avg|average)\s+accept\w*(?:\s+len\w*)?\s*[:=]?\s*\d"  # "mean accept 4.75/8"
    f"|{_COUNTERS}"
)
_TABLE_ROW = re.compile(r"^\s*\|")
# Markdown's emphasis and code-span marks a note puts around its figures
_MARKUP = re.compile(r"\*\*|__|`")
# the writer judging their own result against another's ("this result is slower than the one in
# #4616", "my throughput is much lower than the blog's", "our numbers were worse than ..."): a
# result of theirs; a page's claim ("EAGLE can be slower than ...") names no subject of the writer's
_JUDGED = re.compile(
    r"(?i)\b(?:this|my|our|these)\s+(?:(?:measured|own|decode|output)\s+)?(?:results?|speeds?|throughput|performance"
    r"|numbers|figures|tps|tokens?/s)\s+(?:is|are|was|were|seems?|looks?|stays?|remains?)\s+(?:\w+\s+){0,2}?"
    r"(?:slower|worse|lower)\s+than\b"
)
# what a code reading checked its claims against ("basis: the three repos' source, line numbers
# grep-verified", "源码，行号 grep 实测"): its "verified"/"实测" is the source read, no run
_CODE_READ = re.compile(r"(?i)\bsource (?:code|trees?)\b|\bline numbers?\b|\bgrep\b|源码|源代码|行号")
# a row of a table of options: its first cell a setting's name (`KEY`, --flag, ENV_NAME), its
# words what the setting does ("accept rate below -> drop to K=0")
_OPTION_ROW = re.compile(r"^\s*\|\s*(?:`[^`|]+`|--?[\w-]+|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\s*\|")
_PROMISE = re.compile(
    r"(?i)\b(?:up to|as (?:much|high|fast) as|can|could|may|might|will|would|achiev\w*|deliver\w*|reach\w*"
    r"|expect\w*|targets?|goals?|should|must|aim\w*|around|about|approximately|roughly|over|more than)\b|[<>≤≥~]"
    # a figure shown as what output looks like ("A typical result line looks like `... 42 tokens/s`")
    r"|\b(?:looks? like|typical\w*|for (?:example|instance)|such as|sample|example)\b|\be\.g\."
)
# a check the page's writer ran, quoting what its output showed ("Validated on an RTX PRO 6000:
# server log shows `Initialized DFLASH draft runner`")
_CHECKED_OUTPUT = re.compile(
    r"(?i)^\W*(?:tested|verified|validated)\s+(?:on|with|against|using)\b.*\b(?:logs?|output|server|console)"
    r"\s+(?:shows?|showed|printed|prints|reports?|reported|logged)\b"
)
# a result's stamp: its status marked as taken ("Status: verified", "status: measured") beside
# the day and the job ids that ran it ("Stamp: <build>, 2026-03-04, jobs 412233, 412234"): a
# recipe page's results taken by its own jobs; a status to come ("Status: pending") or a stamp
# without a job is none
_STAMPED = re.compile(
    r"(?i)^\W*status\s*[:=]\s*\**(?:verified|measured|validated|passed|done)\b(?=.*\b\d{4}-\d{2}-\d{2}\b)"
    r"(?=.*\b(?:jobs?|run(?:\s+id)?s?|slurm)\s*(?:ids?\s*)?[:#=]?\s*\d{3,}\b)"
)
# a measurement's column words: in a vendor's table they name what was promised, not measured
_COLUMNS = re.compile(r"(?i)\b(?:tok(?:en)?s?/s|tokens?/sec|req/s|TTFT|TPOT)\b")
# a failure told as met: the words a crash, a hang or bad output is reported in, an exception's
# line ("RuntimeError: ..."), a metric that dropped ("acceptance drops to 1.2")
_MET = re.compile(
    r"(?i)\b(?:crash(?:es|ed|ing)?|fail(?:s|ed|ing)?|hangs|hung|stuck|segfault\w*|segmentation fault"
    r"|oom(?:s|ed)?|out of memory|illegal (?:memory|instruction|address)|timed out|garbled|gibberish"
    r"|garbage|dies|died|killed|broke|broken|traceback|nan)\b|\b\w*Error\b\s*:|\berror\b"
    r"|\b(?:drops?|dropped)\s+(?:(?:to|by|from|below|under)\s+~?\d|sharply|significantly|dramatically)"
    r"|(?<![不无無])(?:报错|崩溃|失败)"  # (not negated: "不报错" is a criterion or a claim, "doesn't error")
)
# a failure told as a condition the page gives the reader ("If you see a permission denied
# error, ...", "Note: if the server fails to start with an OOM error, lower ...", "If the server
# runs out of memory, lower ..."): its troubleshooting, not a failure that happened ("the server
# hangs if the batch is large" tells one)
_CONDITION_TOLD = (
    r"\b(?:if|in case|whenever|should)\s+you\b|^\W*(?:note|tip|hint|troubleshoot\w*)\b"
    r"|^\W*(?:if|in case|when|whenever|should)\b[^,.;]{0,120},\s*(?:then\s+)?(?:run|set|add|use|lower|raise"
    r"|increase|decrease|reduce|try|remove|disable|enable|restart|upgrade|downgrade|check|make sure|pass)\b"
)
CONDITION = re.compile(f"(?i){_CONDITION_TOLD}")
# a failure the page gives the reader as a condition ("If you see ...", "Note: if the server
# fails ...", "If the server runs out of memory, lower ...") or a fix it announces ("Fixed a
# crash when ...", "prevents hangs"): no failure that happened
_NOT_MET = re.compile(
    rf"(?i){_CONDITION_TOLD}|^\W*warning\b"
    r"|\b(?:fix(?:es|ed|ing)?|resolv\w*|prevent\w*|avoid\w*|handl\w*|guard\w*|no longer|to catch)\b"
    r"|\b(?:may|might|can|could|would|will)\s+(?:\w+\s+)?(?:crash|fail|hang|break|error|oom)"
    # a limitation the page states ("X does not support TP>=16 now; the operator currently fails
    # in MHA scenarios", "Known issue: ...")
    r"|\b(?:does not|doesn't|do not|don't|cannot|can't) (?:yet )?support\b|\b(?:not |un)supported\b"
    r"|\bcurrently\b|\bknown (?:issue|limitation|problem)s?\b|\blimitations?\b"
    # what the page leaves out ("Scope: text models; vision is out of scope, its kernels still fail")
    r"|\bout of scope\b"
    # what failures usually are, a guide's generalization ("Most failures here are environment
    # issues", "common errors: a broken wheel, ..."), no failure the writer met
    r"|\bmost\s+(?:failures|errors|problems|issues|crashes)\b"
    r"|\b(?:common|typical|usual|frequent)\s+(?:failures?|errors?|problems?|issues?|crash(?:es)?|pitfalls?)\b"
    # a failure the reader is told to look out for ("watch for OOM in the draft buffer", "check
    # for NaN after warmup", "beware of hangs"): a plan's or a guide's step, none met
    r"|\b(?:watch(?:\s+out)?|look\s+out|check|monitor|scan|grep)\s+(?:(?:the|its|your)\s+(?:[\w-]+\s+){1,2})?for\b"
    r"|\bbeware\s+of\b"
    r"|\bkeep\s+an\s+eye\s+on\b|\bin\s+case\s+of\b"
    # a failure denied ("graceful skip (don't crash)", "never hangs", "without errors")
    r"|\b(?:don't|do not|doesn't|does not|won't|will not|never|without|no)\s+(?:\w+\s+)?(?:crash|fail|hang|error|oom)"
    # the same limitations in Chinese and Japanese ("不支持 PP/DP", "暂不支持", "已知问题", "未対応")
    r"|(?:暂|尚|仍)?不支持|暂未支持|已知问题|已知限制|サポートされていない|未対応|非対応|既知の問題"
)
# the failure inside a condition's clause ("If the service fails to start, refer to ...", "in
# case the draft crashes"); the failure before it is told as met ("the server hangs if the batch
# is larger than 32")
_IF_CLAUSE = re.compile(
    r"(?i)\b(?:if|in case|whenever|unless|should)\b[^,.;:]*$"
    # ... in Chinese and Japanese ("如果草稿模型缺失，则报错", "缺少匹配图会报错", "否则失败", "場合はエラー")
    r"|(?:如果|假如|若|一旦|缺少|缺失|否则|否則|場合)(?![^,.;:，。；：]*(?:我|私|僕))[^,.;:，。；：]*$"
)
# what a flag, a hardware count or a quoted value says is no failure ("--max-retries-on-error",
# "8x H100", "`error_on_mismatch`", "'fail_fast': true")
_NOT_WORDS = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|`[^`]*`|\"[^\"]*\"|'[^']*'|\b\w+_\w+\b")
# a heading or an item asking what a page answers ("### Q1: Why does the service report OOM
# ...?", "- **Q: How to solve ValueError: ...?**"): an FAQ
_FAQ = re.compile(r"^\s*#{1,6}\s.*\?\s*$|^\W*(?:Q\d*|Question\s*\d*)\s*[:：.]")
# a section that helps the reader with failures they may meet: its symptoms are no failure met
_HELP_HEADING = re.compile(
    r"(?i)\b(?:troubleshoot\w*|faqs?|q\s*&\s*a|known (?:issues|limitations|problems)|limitations|caveats"
    r"|gotchas|pitfalls|common (?:issues|problems|errors))\b"
)
_HEADING_MARKS = re.compile(r"^\s*(#{1,6})\s")


def _heading_level(text: str) -> int:
    return len(m.group(1)) if (m := _HEADING_MARKS.match(text)) else 0


# markdown headings, front matter: a page's form, whatever its address
_HEADING = re.compile(r"^\s*#{1,6}\s+\S")
_FRONT_MATTER = re.compile(r"^(?:title|description|sidebar_\w+|slug|tags|date|author|layout):\s")
PAGE_HEADINGS = 2  # headings a text needs to read as a page: a title and a section
# the headings of a bug report's form (the trackers' issue templates, a digest of issues): its
# sections tell a run, they are no page for a reader
_REPORT_HEADING = re.compile(
    r"(?i)your current environment|describe the bug|\U0001f41b|\bissue\s*#|\[bug\]|\bbug report\b"
    r"|\bsteps to reproduce\b|\breproduction\b|\bexpected behaviou?r\b|\bactual behaviou?r\b"
    r"|\bsystem info\b|\berror logs?\b"
)


# a section heading reporting what a run of the writer's gave: results stamped with the day they
# were taken ("## Decode results (2026-05-14)", "## Measured (2026/05/20)"), or results worded as
# measured or verified ("## Verified results", "## Alternative configs (measured)", "## Log markers
# from the measured run"); a page's "## Results", "## Benchmark" or "## Verified models" (a support
# list) is no such heading, nor one a plan or a guide words ahead ("## Expected results (2026-05-14)",
# "## Measurements to take", "## Results to reproduce")
_REPORT_WORDS = (r"(?:results?|measured|measurements?|numbers|figures|benchmarks?|runs?|throughput|decode"
                 r"|latency|acceptance|markers|verified|observed|status)")
# (a day written year first, or day first as much of the world writes it: "23/08/2026", "23.08.2026")
_DAY = r"(?<![\w.])(?:20\d\d[-/][01]\d[-/][0-3]\d|[0-3]\d[/.][01]\d[/.]20\d\d)(?![\w.])"
_REPORTED_HEADING = re.compile(
    rf"(?i)^\s*#{{1,6}}\s(?:.*\b{_REPORT_WORDS}\b.*{_DAY}|.*{_DAY}.*\b{_REPORT_WORDS}\b)"
    r"|^\s*#{1,6}\s+\W{0,4}(?:[\w-]+\s+){0,2}?(?:measured|verified|observed)\s+(?:results?|numbers|figures"
    r"|throughput|speeds?|speed-?ups?|latency|acceptance\w*|runs?)\b"
    r"|^\s*#{1,6}\s.*\((?:[^()]*[,;]\s*)?(?:measured|verified|observed)\s*\)"
    r"|^\s*#{1,6}\s.*\bfrom (?:the|our|my|this) (?:measured |benchmark(?:ed)? |verified )?runs?\b"
    # verification or measurement results in Chinese, Japanese, Korean ("## 验证结果", "## 検証結果",
    # "## 실측 결과"); not "测试结果" or "テスト結果", a bare "test results" a docs page also heads
    r"|^\s*#{1,6}\s.*(?:验证|驗證|实测|實測|検証|実測|測定|計測|검증|실측|측정)\s*(?:结果|結果|记录|記錄|記録|결과|기록)"
)
# a run the lines under a heading or caption are said to come from: the writer's own, one that
# happened ("Startup markers from the successful run", "Log lines from our working boot:",
# "(from the last run)", "What the last run printed at start-up"); not "a successful run" (any run
# a page describes) nor "what the server prints" (what any run prints)
_RAN = (r"(?:(?:last|latest|final|actual|real|successful|working|passing|green|good|healthy|measured"
        r"|benchmark(?:ed)?|verified|same|earlier)\s+)")
_FROM_RUN = re.compile(
    rf"(?i)\b(?:from|of|in|during)\s+(?:the|our|my|this|that)\s+{_RAN}+(?:runs?|boots?"
    r"|launch(?:es)?|start-?ups?|deployments?|sessions?)\b|\bfrom\s+(?:our|my)\s+(?:runs?|boots?|launch(?:es)?)\b"
    rf"|\b(?:the|our|my|this)\s+{_RAN}*(?:runs?|boots?|launch|server|engine)\s+(?:printed|logged|showed|gave"
    r"|reported|wrote|output)\b"
)
# the words of a heading a plan, a guide or a template writes ahead of any run; with the lines
# said to come from a run that happened (``_FROM_RUN``), "expected" only names what to look for
_PLANNED_AHEAD = (r"targets?|goals?|plan\w*|todo|to (?:try|run|take|reproduce|measure|collect|check)"
                  r"|will|should|example|sample|template|placeholder|how to")
AHEAD = re.compile(rf"(?i)\b(?:expect\w*|{_PLANNED_AHEAD})\b")
_PLANNED_WORDS = re.compile(rf"(?i)\b(?:{_PLANNED_AHEAD})\b")
_DIGIT = re.compile(r"\d")
_CAPTION_END = re.compile(r"[:：]\W{0,3}$")  # a caption's colon, its markup after it ("...:**")
# a value still to be filled in ("| accept length | TBD |", "- TPOT: pending", "待测"): a template's row
_UNFILLED = re.compile(r"(?i)\b(?:tbd|todo|pending|n/a|to be (?:measured|filled|run|collected))\b|待[测定填补]|未測定|측정 예정")


def reported_heading(held: Sequence[LogLine], at: int) -> bool:
    """``held[at]`` heads a section that reports a run of the writer's (``_REPORTED_HEADING``,
    no plan's words) and a line under it, before the next heading of its level or above, holds
    a figure or a record (a log marker) or is a table's row, and none holds a value still to fill
    in (``_UNFILLED``): a heading over nothing, or over a template's blanks, reports nothing. A
    heading that says its lines come from a run that happened (``_FROM_RUN``: "Startup markers
    from the successful run", even "Expected ... (from the successful run)") reports them,
    whatever they are, unless a plan's words head it."""
    text = held[at].text
    told = _FROM_RUN.search(text) is not None  # any line under it is what that run printed or gave
    if told:
        if _PLANNED_WORDS.search(text):
            return False
    elif not _REPORTED_HEADING.search(text) or AHEAD.search(text):
        return False
    level = _heading_level(text)
    shown = False
    for line in held[at + 1 :]:
        below = _heading_level(line.text)
        if below and below <= level:
            break
        if not below and _UNFILLED.search(line.text):
            return False  # a template's section, whatever else it holds
        # (a table's header row: its body rows hold no word the scan keeps a line by)
        shown = shown or (not below and (told or _DIGIT.search(line.text) is not None
                                         or _TABLE_ROW.match(line.raw) is not None))
    return shown


def first_run_line(held: Sequence[LogLine]) -> LogLine | None:
    """The first line that binds the text to a run of the engine: an engine frame, a log record
    (its prefix cut or not), the writer telling their own run, a figure measured, a failure told
    as met, a section heading that reports the writer's measured or dated results over their
    figures (``reported_heading``), a caption saying the lines below it come from a run that
    happened (``_FROM_RUN``). A traceback whose frames name no engine file (a script's own crash,
    a probe) binds nothing, nor does its exception line."""
    in_trace = False
    helps = 0  # the level of an open section that helps the reader (troubleshooting, FAQ), 0 for none
    for at, line in enumerate(held):
        text = line.text
        if level := _heading_level(text):  # (its own words name its section: "## 1. 现状（实测）")
            helps = level if _HELP_HEADING.search(text) else (helps if helps and level > helps else 0)
            if not helps and reported_heading(held, at):
                return line
        if _ENGINE_FRAME.search(text) or RECORD_SHAPE.search(text):
            return line
        if _TB_HEADER.match(text):
            in_trace = True
            continue
        if in_trace:
            in_trace = bool(_FRAME.match(text) or text[:1].isspace())
            continue  # a frame, its code, or the exception that ends it
        if _OPTION_ROW.match(line.raw):
            continue  # a setting and what it does, in the page's own table of options
        if not level and not helps and _CAPTION_END.search(text) and _FROM_RUN.search(text) \
                and not _PLANNED_WORDS.search(text) and at + 1 < len(held):  # fmt: skip
            return line  # "**Log lines from our working boot:**" over the lines that run printed
        bare = _MARKUP.sub("", text)  # "Mean acceptance length **2.59**", "drafts `7`": the figure, unmarked
        if (SELF_RUN.search(text) or _MEASURED.search(bare) or _CHECKED_OUTPUT.search(text)
                or _STAMPED.search(text) or _JUDGED.search(text)
                or (not level and own_run(_COLUMNS.sub(" ", text)))) and not _CODE_READ.search(text):  # fmt: skip
            return line
        if (counted := COUNTERS.search(bare)) and not _PROMISE.search(bare[: counted.start()]):
            return line  # "| MTP | drafts 427 / accepted 341 |": only a run counts its drafts, in a table too
        figure = None if _TABLE_ROW.match(line.raw) else _FIGURE.search(bare)
        if figure and not _PROMISE.search(bare[: figure.start()]):
            return line  # "- decode: 142 tok/s on one H100": a figure the writer's setup gave
        words = _NOT_WORDS.sub(" ", text)
        met = _MET.search(words)
        if met and not helps and not _NOT_MET.search(words) and not _IF_CLAUSE.search(words[: met.start()]) \
                and not _FAQ.match(text):  # fmt: skip
            return line  # (under a troubleshooting or FAQ heading, a symptom is what the reader may meet)
    return None


# a results table's measured cell: a figure with the unit a run measures in ("2.96x", "4,40× / τ 6,13",
# "~181 ток/с", "3.985 req/s", "22.25 / 34.95 ms", "36.95%"), or a bare decimal beside such cells
_MEASURED_CELL = re.compile(
    r"^\W{0,3}[~≈]?\d[\d,.]*\s*(?:[x×%]|ms|s|tok(?:en)?s?/s|t/s|req/s|ток/с)?"
    r"(?:\s*/\s*(?:τ\s*)?[~≈]?\d[\d,.]*\s*(?:[x×%]|ms|s|tok(?:en)?s?/s|ток/с)?)?"
    r"(?:\s*[,，]\s*[+-]?\d[\d.]*\s*%)?\W{0,3}$"
)
_UNIT_CELL = re.compile(r"(?i)\d\s*(?:[x×%]|ms|tok(?:en)?s?/s|t/s|req/s|ток/с)\W{0,3}(?:$|/|[,，])")
# a table or its caption saying its figures are no run's: illustrative, an example, projected
_NOT_MEASURED = re.compile(
    r"(?i)\b(?:illustrat\w*|examples?|sample|typical|hypothetical|projected|projection|estimated?|theoretical"
    r"|expected|targets?|goals?|budget|placeholder|tbd|up to|your (?:results|numbers|mileage))\b"
    r"|示例|示意|预期|目标|例|пример|ожида"
)
_TABLE_CELLS = re.compile(r"^\s*\|(.*)\|\s*$")
_MEASURED_ROWS = 2  # rows of measured cells a table needs to read as a run's results
_CAPTION_LINES = 6  # how far above its first row a table's caption or note may stand


def measured_table(held: Sequence[LogLine]) -> LogLine | None:
    """The first row of a Markdown table holding a run's measured results: two rows or more,
    each with two cells or more after its first that are figures in a run's units, at least one
    with its unit ("| MT-bench | 2.96x / 6.11 | 2.83x / 5.45 |", "| TPOT p50 | 4.65 ms | 3.93 ms
    |", "| 3/4/16 | 2.264 | +0.450 | 0.850x |"), neither the table nor the lines just above it
    calling its figures illustrative, an example, expected or a target. A table of settings
    (one value a row) or of counts is none. ``held``: the lines the scan kept, so a table's
    rows may stand apart."""
    rows: list[LogLine] = []
    for at, line in enumerate(held):
        cells = _TABLE_CELLS.match(line.raw)
        if cells is None:
            rows = []
            continue
        values = [c.strip() for c in cells.group(1).split("|")][1:]
        measured = [c for c in values if c and _MEASURED_CELL.match(c)]
        if len(measured) < 2 or not any(_UNIT_CELL.search(c) for c in measured):
            continue
        rows.append(line)
        if len(rows) >= _MEASURED_ROWS:
            first = rows[0]
            above = [ln for ln in held[: at + 1] if first.lineno - _CAPTION_LINES <= ln.lineno <= line.lineno]
            if not any(_NOT_MEASURED.search(ln.text) for ln in above):
                return first
    return None


def result_told(text: str) -> bool:
    """The line reports a result the writer got: a figure measured (outside a table row, its
    clause promising none), the run's own draft counters, a measurement told in the past, or
    the writer telling their own run. Narrower than ``first_run_line``: a crash, a frame or a
    failure a line tells may be another job's (a docs build), not the run a recipe describes."""
    if SELF_RUN.search(text) or _MEASURED.search(text):
        return not _CODE_READ.search(text)
    if (counted := COUNTERS.search(text)) and not _PROMISE.search(text[: counted.start()]):
        return True
    figure = None if _TABLE_ROW.match(text) else _FIGURE.search(text)
    return figure is not None and not _PROMISE.search(text[: figure.start()])


def page_form(held: Sequence[LogLine]) -> LogLine | None:
    """The line that makes the text a page for a reader, whatever its address: its first heading
    (two headings or more), front matter on top, a launch whose model is a placeholder to fill
    in ("vllm serve <model>", "--model-path /path/to/target", "$MODEL"), or the first line of a
    catalog that sets three speculative methods or more (a table of methods and their flags,
    none of them chosen)."""
    heads = [ln for ln in held if _HEADING.match(ln.text)]
    if len(heads) >= PAGE_HEADINGS and not any(_REPORT_HEADING.search(ln.text) for ln in heads):
        return heads[0]
    if held and held[0].lineno <= 2 and _FRONT_MATTER.match(held[0].text):
        return held[0]
    if (launch := next((ln for ln in held if _LAUNCH.search(ln.text) and _PLACEHOLDER.search(ln.text)), None)):
        if not (_FIELD.match(launch.text) and any(_FIELD.match(ln.text) and OUTCOME_KEY.search(ln.text) for ln in held)):
            return launch  # (a record's field holding the command it ran, beside its outcome: a run's)
    methods: dict[str, LogLine] = {}
    for line in held:
        for m in _METHOD_SET.finditer(line.text):
            methods.setdefault(next(g for g in m.groups() if g).lower(), line)
    return min(methods.values(), key=lambda ln: ln.lineno) if len(methods) >= CATALOG_METHODS else None


# an engine's launch command, and a value left for the reader to fill in: a placeholder path, an
# angle-bracketed name, a shell variable, a template field ("/path/to/model", "<model>", "$MODEL",
# "{draft_path}", "YOUR_MODEL")
_LAUNCH = re.compile(r"\b(?:vllm serve|vllm\.entrypoints|sglang\.launch_server|sglang serve|trtllm-serve)\b")
_PLACEHOLDER = re.compile(
    r"/path/to/|<[A-Za-z][\w./ -]{0,40}>|\$\{?[A-Z][A-Z0-9_]*\}?|\{[a-z_]+\}|\b(?:YOUR|your)[-_](?:MODEL|model|DRAFT|draft)"
)
# a record's key holding the outcome a run gave (``"status": "ok"``, ``"passed": 14``): a harness's
# manifest of a run that happened, whose command may keep its shell variables
OUTCOME_KEY = re.compile(
    r'"(?:status|result|outcome)"\s*:\s*"(?:ok|OK|pass|passed|success|succeeded)"|"passed"\s*:\s*[1-9]'
)
_FIELD = re.compile(r'^\s*[{\[]?\s*"[\w.-]+"\s*:\s*[{"\[]')  # a JSON record's key line
OUTCOME_LITERALS = ('"status": "', '"status":"', '"result": "', '"result":"', '"outcome": "', '"passed": ')


# a speculative method set by a flag or a config key ("--speculative-algorithm EAGLE3", "\"method\":
# \"mtp\"", "decoding_type: Eagle")
_METHOD_SET = re.compile(
    r"(?i)--speculative[-_](?:algorithm|method)[ =]+[\"'`]?([\w-]+)|[\"']method[\"']\s*:\s*[\"']([\w-]+)"
    r"|\bdecoding_type\s*[:=]\s*[\"']?([\w-]+)"
)
CATALOG_METHODS = 3  # methods a text sets, none chosen, that make it a catalog
