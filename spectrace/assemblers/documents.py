"""The marks of a document that tells the reader about an engine, in any language: study notes
that read its source, a tutorial, a README, a requirements or specification document, a plan.

Why: such texts carry launch commands, ``LLM(...)`` snippets, flag lists and worker file names
that the readers take for a run's (session 19's sealed rounds gave them paths: Chinese notes on
SGLang's worker classes, a Russian requirements document copying a vendor's launch, a Chinese
tutorial's snippets, a patch README's expected log lines). What tells the kind is language-free
shape (a class skeleton with elided bodies, a file's line count) or a section heading in the
document's own language; what tells a run is the writer's own run or failure in any language
(``own_run``), which ``not_run._document`` checks beside its English readers.
"""

from __future__ import annotations

import re

# a heading-like line: a Markdown heading, a bold line or bold caption, a numbered caption
# ("3.1 核心思想"), a short caption ending with a colon, a web page's heading
_HEADING_LIKE = re.compile(
    r"^\s*(?:#{1,6}\s+|\*\*[^*]{1,80}\*\*\s*[:：]?\s*$|\d+(?:\.\d+)+\.?\s+\S|[^\s`|].{0,60}[:：]\s*$"
    r"|[^\s#`|].{0,80}\S#\s*$)"  # a web page's heading copied with its anchor ("Prerequisites#")
)
# a document's section by its words, in the languages seen and those people write notes in
_SECTION_WORDS = re.compile(
    r"(?i)\b(?:(?:system |hardware |software |minimum |recommended )?requirements|prerequisites?|installation"
    r"|specification|overview|architecture|core ideas?|key ideas?|principles?|how it works"
    r"|tutorial|walkthrough|getting started|(?:api |cli )?reference|pros and cons|limitations"
    r"|deployment plan|implementation plan|next steps|advantages|(?:usage )?examples|see also)\b"
    # not "usage" nor one "example": a report's own ("### Usage", "### Example to reproduce")
    # Chinese, Japanese, Korean
    r"|需求|环境要求|系统要求|硬件要求|软件要求|安装|部署方案|部署指南|部署步骤|规范|规格|概述|概览|简介|架构"
    r"|核心思想|核心原理|原理|背景|教程|入门|快速开始|快速上手|使用方法|用法|使用说明|参考|实践|示例|优势|局限"
    r"|优缺点|实施方案|技术方案|源码分析|代码分析|学习笔记"
    r"|要件|必要条件|前提条件|インストール|概要|仕組み|チュートリアル|使い方|使用方法|設計|導入"
    r"|요구\s?사항|필요\s?조건|설치|개요|원리|튜토리얼|사용법|사용\s?방법|예제|참고|설계|소개"
    # Russian, Spanish, Portuguese, German, French
    r"|требовани\w*|установк\w*|спецификаци\w*|обзор\w*|архитектур\w*|принцип\w*|руководств\w*|пример\w*"
    r"|программное обеспечение|интеграци\w*"
    r"|requisitos|instalaci[óo]n|instala[çc][ãa]o|especificaci[óo]n|visi[óo]n general|arquitectura|gu[íi]a"
    r"|ejemplos?|referencia|anforderungen|voraussetzungen|anleitung|pr[ée]requis|exigences|tutoriel"
    r"|beispiele|exemples|exemplos|источники|см\. также|参见|関連項目"
)
# a class skeleton read from the source: a ``def``/``class`` line, and bodies or arguments
# elided ("    ...", "def propose(self, ...): ...", "(self, ...)")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(|^\s*class\s+\w+\s*(?:\([^)]*\))?\s*:")
_ELIDED = re.compile(r"^\s*\.\.\.\s*$|\)\s*(?:->\s*[^:]+)?:\s*\.\.\.\s*$|\(\s*self\s*,\s*\.\.\.|,\s*\.\.\.\s*[,)]")
# a program's source: top-level imports ("from __future__ import annotations", "import modal"), a
# shebang ("#!/usr/bin/env bash"): a serve script or launcher holds the commands it would run (the
# scan keeps a shebang, a __future__ import and an engine's import: not every "import ", which
# SGLang's start-up prints on every rank, "Ignore import error when loading ...")
_IMPORT = re.compile(r"^(?:from\s+[\w.]+\s+import\s+[\w*(]|import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+)*\s*$)")
_SHEBANG = re.compile(r"^#!\s*/\S*/(?:env\s+)?(?:ba|z)?sh\b|^#!\s*/\S*/(?:env\s+)?python[\d.]*\b"
                      r"|^from\s+__future__\s+import\b")  # a __future__ import opens a module file
SOURCE_IMPORTS = 2  # top-level imports that make a text a module, not a snippet quoted in prose
# a module's own head: a licence tag ("# SPDX-License-Identifier: Apache-2.0") or a docstring
# opened at the first column (r"""Kimi K3 DSpark acceptance harness.): with a definition at the
# first column below it, the text is the module's file, however its imports were cut
_MODULE_HEAD = re.compile(r"^#\s*SPDX-(?:License-Identifier|FileCopyrightText)\b|^[rRbBuU]?(?:\"\"\"|\'\'\')")
_TOP_DEF = re.compile(r"^(?:async\s+)?def\s+\w+\s*\(.*:\s*$|^class\s+\w+\s*(?:\(.*\))?\s*:\s*$")
# a docstring's quotes: a line holding an odd count of them opens or closes one
DOCSTRING_QUOTES = re.compile(r"\"\"\"|\'\'\'")
# a file's line count ("（1256 行）", "(about 900 lines)", "| eagle_worker.py | 1012 |" under "| lines |")
_LINE_COUNT = re.compile(
    r"[（(]\s*(?:约|約|~|about\s+|ca\.\s*)?\d{2,6}\s*(?:行|lines\b|LOC\b|строк\w*|줄|l[íi]neas\b|Zeilen\b)"
    r"|\|\s*(?:lines|LOC|行数|行|строк\w*|줄\s?수)\s*\|"
)
# the source named as what the text reads
_SOURCE_READ = re.compile(
    r"(?i)\bfrom the source\b|\b(?:source|code) walkthrough\b|源码|源代码|看代码|读代码|代码阅读"
    r"|ソースコード|ソースを読|コードを読|소스\s?코드|코드를 읽|исходн\w* код\w*|исходник\w*"
    r"|c[óo]digo fuente|leyendo el c[óo]digo|quellcode"
)
# the log lines the reader should expect
_EXPECTED = re.compile(
    r"(?i)\bexpected (?:output|logs?|log lines)\b|\byou should see\b|\blook for (?:these|the following)\b"
    # "Look for this in your server log:", "Confirm it took by looking for `X` in the server log",
    # "You'll see:", "watch the log for", "grep the log for": the line the reader will see
    r"|\blook(?:ing)? for\b[^.;:]{0,80}?\bin (?:the|your) (?:server(?:'s)? |engine |startup |container )?logs?\b"
    r"|\b(?:confirm|check|verify)\w*\b[^.;]{0,60}\bby (?:looking|checking|grepping) (?:for|the)\b"
    r"|\byou(?:'ll| will) see\b|\b(?:watch|check|grep) (?:the |your )?(?:server |startup )?logs? for\b"
    r"|关键日志|预期输出|期望输出|应该(?:能)?看到|会看到|可关注|期待される(?:出力|ログ)|表示されるはず"
    r"|日志(?:中|里)(?:会|应该|应)?(?:出现|打印|看到)|ログに[^。]{0,60}(?:出れば|出力され|表示され)"
    r"|로그에[^.]{0,60}(?:나오면|보이면|출력되)|예상\s?출력"
    r"|ожидаем\w* (?:вывод|лог)\w*|должны увидеть|вы увидите|что смотреть|в лог\w* (?:должн|появ)\w*"
    r"|salida esperada|deber[íi]as ver|ver[áa]s\b|sollten sie\b[^.]{0,40}\bsehen|vous (?:devriez voir|verrez)"
)

# a section of what the reader should see, or of failures the reader may meet, and what to do:
# its failure words are conditions, its figures targets ("## Expected output", "## If it doesn't
# reproduce", "## Troubleshooting", "### 常见错误和处理", "## 故障排查", "## 验收标准")
_EXPECT_SECTION = re.compile(
    r"(?i)\bexpected (?:output|results?|behaviou?r|logs?)\b|\bif (?:it|this|something) (?:doesn'?t|does not|fails"
    r"|won'?t)\b|\btroubleshoot\w*|\bcommon (?:errors|issues|problems|failures|pitfalls)\b|\bknown failure modes\b"
    r"|常见(?:错误|问题|故障)|故障排[查除]|排错|问题排查|预期(?:结果|输出)|验收标准|期待される(?:結果|出力)"
    r"|トラブルシューティング|문제\s?해결|устранение неполадок|soluci[óo]n de problemas"
)
# a caption listing what the reader must see, check or record before going on ("Confirm the draft
# head loaded without the shape crash:", "启动日志必须确认：", "必须满足：", "正式结果至少记录：",
# "The log must show:"): the lines below it, to its section's end, are a checklist, not a log
_CHECKLIST = re.compile(
    r"(?i)^\W*(?:confirm|verify|check|make sure|ensure)\b[^.]{0,120}[:：]\s*$"
    r"|\b(?:must|should) (?:show|print|contain|report|include|confirm)\b[^.]{0,60}[:：]\s*$"
    r"|(?:必须|需要|务必|应当?)(?:确认|满足|检查|核对|看到|包含)[^。]{0,20}[:：]\s*$|至少记录[^。]{0,20}[:：]\s*$"
    r"|確認(?:する|すべき)?(?:項目|こと)?[:：]\s*$"
)
# a line saying what the reader should get ("# want: \"Load weight end ...\"", "# expect 4/4 correct",
# "expect: accept len ~3.5"): a target, whatever failure or figure it names
_EXPECT_MARK = re.compile(r"(?i)^\W*(?:want|expect(?:ed)?|应(?:该)?(?:看到|输出)|预期)\b\s*[:：]?|^\W*预期")
# a section that sets the reader's machine up: "we used chi2879" in it names the setup, not a run
_SETUP_SECTION = re.compile(
    r"(?i)\b(?:prerequisites?|requirements|setup|environment|installation)\b|前提|准备|环境|前置条件|必要条件"
)
_MARKDOWN_HEADING = re.compile(r"^\s*(#{1,6})\s")


def heading_level(text: str) -> int:
    """The level of a Markdown heading (``## X``: 2), 0 for any other line."""
    m = _MARKDOWN_HEADING.match(text)
    return len(m.group(1)) if m is not None else 0


def expect_section(text: str) -> bool:
    """The heading opens a section of what to expect or of failures the reader may meet."""
    return _EXPECT_SECTION.search(text) is not None


def setup_section(text: str) -> bool:
    """The heading opens a section setting the reader's machine up (prerequisites)."""
    return _SETUP_SECTION.search(text) is not None


def checklist_caption(text: str) -> bool:
    """The line captions a list of what the reader must see, check or record."""
    return _CHECKLIST.search(text) is not None


def expect_mark(text: str) -> bool:
    """The line states what the reader should get (``# want:``, ``# expect ...``)."""
    return _EXPECT_MARK.search(text) is not None


# a how-to or a plan: a caption telling the reader how to turn a feature on ("启用方式（无 draft
# model）：", "How to enable:", "To enable it, pass:", "Как включить:"), a heading ranking work by
# priority ("### P0-a：EAGLE tree 扫参", "## P1: try NGRAM") - what to do, not what ran
_HOW_TO = re.compile(
    r"(?i)启用方式|开启方式|启用方法|开启方法|打开方式|如何(?:启用|开启)|有効(?:化の方法|にするには|にする方法)"
    r"|활성화\s?방법|켜는\s?방법|\bhow to (?:enable|turn on|switch on)\b|^\W*to (?:enable|turn on) (?:it|this|\w+)\b[^.]*[:：]\s*$"
    r"|как включить|c[óo]mo (?:activar|habilitar)lo|para (?:activar|habilitar)lo|so aktivieren|pour l'activer"
)
_PRIORITY_HEADING = re.compile(r"^\s*(?:#{1,6}\s*|\*\*\s*)P[0-3](?:[-.]?[a-z0-9])?\s*[:：.)\-—]")

# the writer's own run or failure, in the languages above (English: ``not_run``'s readers)
_OWN_RUN = re.compile(
    r"我们?(?:用|使用|启动|运行|跑|部署|测试|试了|遇到|复现)|实测|测得|跑了|跑出|崩了|挂了"
    r"|我們?(?:用|使用|啟動|運行|執行|跑|部署|測試|試了|遇到|復現)|實測|測得"  # Traditional
    # a failure met, not negated ("不报错", "无报错": a criterion or a claim, "doesn't error")
    r"|(?<![不无無])(?:报错|崩溃|失败|出错|報錯|崩潰|失敗)"
    r"|実行した|実行しました|試した|試しました|動かした|動かしました|計測|測定し|エラーが出|落ちた|クラッシュ"
    r"|실행했|돌려\s?봤|돌렸|테스트했|측정했|오류가|에러가|크래시"
    r"|(?i:запустил\w*|протестировал\w*|измерил\w*|получил\w*|упал\w*|ошибк\w*|пада\w*)"
    r"|(?i:ejecut[éó]|ejecutamos|lanzamos|lancé|probé|probamos|medimos|obtuv\w*|falló)"
    # a measurement's columns ("| model | tok/s | TTFT (ms) |"): the figures below them were measured
    r"|\b(?:tok(?:en)?s?/s|tokens?/sec|req/s|TTFT|TPOT)\b"
)
# what a line says, for telling a failure: a flag's words are its name ("--dist-timeout 600" tells
# no timeout), a hardware count is no speed-up ("4x DGX Spark", "8x H100", "2x nodes": "2.1x" is)
_FLAG_NAME = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
_HARDWARE_COUNT = re.compile(
    r"(?<![\w.])\d+\s?[x×]\s?(?=[A-Za-z]+\d|(?i:dgx|hgx|nvidia|amd|intel|ascend|gpus?|npus?|tpus?|nodes?"
    r"|cards?|box(?:es)?|servers?|hosts?|machines?)\b)"
)
# a traceback's header: the crash gate reads the traceback (frames through a tree show a run,
# ``tree_frame``; a bare script's, as a probe's, none), so its header tells no failure by itself
_TB_HEADER = re.compile(r"^\W*Traceback \(most recent call last\):\s*$")
# (or a compact frame a note retells it with: ``File ".../srt/models/x.py:233  forward``)
_TREE_FRAME = re.compile(r"\bFile \"[^\"]*[/\\][^\"]*(?:\", line \d+|\.py:\d+(?:[ \t]{2,}|[ \t]+in[ \t]+)[A-Za-z_<])")
# a compatibility note ("*Tested on 4x DGX Spark - February 2026*", "Verified with vLLM 0.19.1"):
# where it tells no result or failure, the setup the page was checked on, not a run it shows
_TESTED_ON = re.compile(r"(?i)^\W*(?:tested|verified|validated)\s+(?:on|with|against|using)\b")
# ... unless it quotes what the check's output showed ("server log shows `Initialized ...`")
_OBSERVED = re.compile(
    r"(?i)\b(?:logs?|output|server|console|it)\s+(?:shows?|showed|printed|prints|reports?|reported|logged)\b"
)

# the writer telling a run of theirs in the first person, in the languages above (no failure words:
# a digest's items tell other threads' failures)
_WRITER_RUN = re.compile(
    r"我们?(?:用|使用|启动|运行|跑|部署|测试|试了|遇到|复现)|実行した|実行しました|試した|試しました|動かし"
    r"|실행했|돌려\s?봤|돌렸|테스트했|(?i:мы запустил\w*|я запустил\w*|ejecutamos|ejecut[ée]|lanzamos|probamos)"
)
# a digest's item: a list item, a heading or a table row naming one thread by its number or
# address ("1. **M-RoPE draft fails (#14453)**", "### #14453 — [Bug]: ...", "- #30001 [Bug] ...")
_ITEM_LINE = re.compile(r"^\s*(?:[-*+]|\d+[.)]|#{1,6}|\|)\s")
_THREAD_REF = re.compile(r"(?<![\w&/#])#(\d{3,7})\b|github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/(\d+)")
DIGEST_ITEMS = 3  # threads a digest lists, each on its own item line

# a title that calls the text a guide to running something ("Instruction for Running DeepSeek with
# PD, EP, and MTP", "[Guide] How to deploy X with EAGLE", "Recipe for serving GLM with NEXTN",
# "DeepSeek-R1 MTP 部署指南", "Инструкция по запуску"): what a reader would run, not a report
_GUIDE_TITLE = re.compile(
    r"(?i)^\W*(?:\[[^\]]*\]:?\s*)*(?:(?:step[- ]by[- ]step\s+)?(?:instructions?|guide|recipe|playbook|cookbook"
    r"|tutorial|walkthrough|how[- ]to|steps)\b\s*(?:for|to|on|:)\s*(?:\w+\s+){0,2}?"
    r"(?:run\w*|deploy\w*|launch\w*|serv\w*|benchmark\w*|set(?:ting)? up|us(?:e|ing)|reproduc\w*)\b"
    r"|how\s+to\s+(?:run|deploy|launch|serve|benchmark|set up)\b)"
    r"|\b(?:deployment|serving|launch|running|benchmark(?:ing)?)\s+(?:guide|recipe|instructions|playbook)\b"
    r"|(?:部署|运行|启动|使用|复现)(?:指南|说明|教程|步骤|手册)|(?:実行|デプロイ|起動)(?:手順|ガイド)"
    r"|(?:실행|배포)\s?(?:가이드|방법)|инструкци\w* по|руководств\w* по|gu[íi]a (?:para|de) (?:ejecutar|desplegar)"
    r"|instrucciones para|anleitung (?:zum|für)"
)


def guide_title(text: str) -> bool:
    """The title calls the text a guide to running or deploying something, in its language."""
    return _GUIDE_TITLE.search(text) is not None


# what the scan must keep for these marks to be seen (none occurs in a server's load line)
LITERALS: tuple[bytes, ...] = tuple(w.encode() for w in (
    "equirements", "rerequisite", "nstallation", "pecification", "verview", "rchitecture", "ore idea",
    "ey idea", "rinciple", "ow it works", "alkthrough", "etting started", "eference",
    "ros and cons", "imitations", "ext steps", "dvantages",
    "需求", "要求", "安装", "部署", "规范", "规格", "概述", "概览", "简介", "架构", "核心", "原理", "背景", "教程",
    "入门", "快速", "使用", "用法", "参考", "实践", "示例", "优势", "局限", "优缺点", "方案", "分析", "笔记",
    "要件", "条件", "インストール", "概要", "仕組み", "チュートリアル", "使い方", "設計", "導入",
    "요구", "조건", "설치", "개요", "원리", "튜토리얼", "사용", "예제", "참고", "설계", "소개",
    "ребовани", "становк", "пецификаци", "бзор", "рхитектур", "ринцип", "уководств", "ример",
    "рограммное", "нтеграци", "equisitos", "nstalaci", "nstala", "specificaci", "visión", "rquitectura", "u\u00eda",
    "uia", "jemplo", "eferencia", "nforderungen", "oraussetzungen", "nleitung", "requis", "xigences", "utoriel",
    "def ", "class ", "...", "行", "lines", "строк", "줄", "neas", "Zeilen",
    "rom the source", " walkthrough", "源码", "源代码", "代码", "ソース", "コード", "소스", "코드", "сходн",
    "digo fuente", "uellcode",
    "(#", "/issues/", "/pull/", "- #", "* #", "## #", "ou'll see", "ou will see", "og for", "n the server log",
    "n your server log", "n the log", "日志中", "日志里", "ログに", "로그에", "вы увидите", "то смотреть", "в лог",
    "erás", "sehen", "ous devriez voir", "ous verrez", "Beispiele", "xemples", "xemplos", "сточники", "м. также",
    "参见", "関連項目", "xamples", "ee also", "ested on", "ested with", "y looking", "y checking", "y grepping",
    "erified on", "alidated on",
    "启用", "开启", "打开方式", "如何", "有効", "활성화", "켜는", "ow to enable", "ow to turn on", "o enable",
    "o turn on", "ак включить", "ctivar", "abilitar", "ktivieren", "activer",
    *(f"{h}P{n}" for h in ("# ", "#", "**", "** ") for n in "0123"),  # not "DP0": every EngineCore line
    "#!/", "from __future__", "SPDX-", '"""', "'''", "from vllm", "import vllm", "from sglang", "import sglang", "from tensorrt_llm",
    "import tensorrt_llm", " with:", "ublishes", "ublished", "'s config", "'s yaml", "'s YAML", "给出的", "公布的", "提供的",
    "xpected output", "xpected log", "ou should see", "ook for", "日志", "输出", "看到", "关注", "期待", "表示",
    "출력", "жидаем", "олжны увидеть", "alida esperada", "eberías",
    "我", "实测", "测得", "跑", "崩", "报错", "失败", "出错", "挂了", "實測", "測得", "報錯", "失敗", "実行", "試し", "動かし", "計測", "測定",
    "エラー", "落ちた", "クラッシュ", "실행", "돌려", "돌렸", "테스트", "측정", "오류", "에러", "크래시",
    "апустил", "ротестировал", "змерил", "олучил", "пал", "шибк", "пада", "jecut", "anzamos", "anc\u00e9",
    "rob\u00e9", "robamos", "edimos", "btuv", "all\u00f3",
    "nstruction", "uide", "ecipe", "laybook", "ookbook", "ow-to", "teps to", "teps for", "teps on", "teps:", "TEPS", "指南", "说明", "步骤", "手册", "手順",
    "ガイド", "가이드", "방법", "нструкци", "nleitung",
    # checklist captions and expectation marks (section headings are kept as headings)
    "onfirm", "erify", "ake sure", "nsure", "ust show", "ust print", "ust contain", "ust report", "ust include",
    "hould show", "hould print", "hould contain", "hould report", "hould include", "必须", "务必", "需要确认",
    "需要检查", "应确认", "应当确认", "至少记录", "確認", "want:", "# want", "# expect", "#expect", "expect:",
    "Expect:", "预期",
))  # fmt: skip


def section_heading(text: str) -> bool:
    """The line heads a document's section: requirements, installation, overview, tutorial,
    core idea, reference ... in the document's language."""
    return _HEADING_LIKE.match(text) is not None and _SECTION_WORDS.search(text) is not None


def study_line(text: str) -> bool:
    """The line reads the engine's source: a file's line count, the source named as what is read."""
    return _LINE_COUNT.search(text) is not None or _SOURCE_READ.search(text) is not None


def expected_line(text: str) -> bool:
    """The line tells the reader which log lines or output to expect."""
    return _EXPECTED.search(text) is not None


def skeleton(texts: list[str]) -> bool:
    """The lines hold a class skeleton: a ``def`` or ``class`` line and an elided body or
    argument list."""
    return any(_DEF.search(t) for t in texts) and any(_ELIDED.search(t) for t in texts)


def how_to_line(text: str) -> bool:
    """The line tells the reader how to turn a feature on, or heads a plan's item ranked by
    priority, in the document's language."""
    return _HOW_TO.search(text) is not None or _PRIORITY_HEADING.match(text) is not None


def source_file(texts: list[str]) -> bool:
    """The lines are a program's source: a shebang or a ``__future__`` import, two top-level
    imports, or a module's head (a licence tag, a docstring at the first column) with a
    definition at the first column (an excerpt of a harness file cut before its imports)."""
    if any(_SHEBANG.match(t) for t in texts) or sum(1 for t in texts if _IMPORT.match(t)) >= SOURCE_IMPORTS:
        return True
    return any(_MODULE_HEAD.match(t) for t in texts) and any(_TOP_DEF.match(t) for t in texts)


def told(text: str) -> str:
    """The line's words as a failure or result would be told in them: flag names, hardware
    counts and a compatibility note's opener ("Verified with") blanked, a traceback's header
    dropped (the crash gate reads the traceback itself)."""
    if _TB_HEADER.match(text):
        return ""
    return _HARDWARE_COUNT.sub(" ", _FLAG_NAME.sub(" ", _TESTED_ON.sub(" ", text, count=1)))


def tree_frame(text: str) -> bool:
    """The line is a traceback frame through a folder (an installed package, the writer's
    tree): a crash pasted from a run, whatever the text's headings."""
    return _TREE_FRAME.search(text) is not None


def tested_on(text: str) -> bool:
    """The line notes the setup a page was checked on ("Tested on 2x HGX H100"), which shows
    no run of the page's where it tells no result (the caller checks the result words) and
    quotes no output the check saw ("Validated on an RTX PRO 6000: server log shows `X`")."""
    return _TESTED_ON.match(text) is not None and _OBSERVED.search(text) is None


def thread_item(text: str) -> str | None:
    """The number of the thread an item line of a digest names, or None."""
    if _ITEM_LINE.match(text) is None or (ref := _THREAD_REF.search(text)) is None:
        return None
    return ref.group(1) or ref.group(2)


def writer_run(text: str) -> bool:
    """The line tells the writer's own run in the first person ("我们跑了", "実行しました", "мы
    запустили"), not a failure whoever met it."""
    return _WRITER_RUN.search(text) is not None


def own_run(text: str) -> bool:
    """The line tells the writer's own run, a measurement or a failure in another language than
    English ("我们跑了", "実行しました", "실행했", "мы запустили", "ejecutamos"); a failure
    word inside a clause that makes it a condition ("缺少匹配图会报错": a missing graph errors,
    "否则失败", "場合はエラー") tells none met, unless the writer is in it ("如果我开 MTP 就报错")."""
    return any(not (_FAILURE_WORD.fullmatch(m.group()) and _conditional(_CLAUSE_START.split(text[: m.start()])[-1]))
               for m in _OWN_RUN.finditer(text))  # fmt: skip


def _conditional(clause: str) -> bool:
    return _CONDITIONAL.search(clause) is not None and _WRITER.search(clause) is None


_FAILURE_WORD = re.compile(r"报错|崩溃|失败|出错|報錯|崩潰|失敗|エラーが出|落ちた|クラッシュ|오류가|에러가|크래시")
# the words that make the rest of their clause a condition, not a report
_CONDITIONAL = re.compile(r"如果|假如|若|一旦|缺少|缺失|否则|否則|場合|なければ|없으면|경우")
_CLAUSE_START = re.compile(r"[,.;:，。；：、]")
_WRITER = re.compile(r"我|私|僕|저는|제가|우리")
