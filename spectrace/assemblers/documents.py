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
    r"|deployment plan|implementation plan|next steps|advantages)\b"  # not "usage": a report's own
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
)
# a class skeleton read from the source: a ``def``/``class`` line, and bodies or arguments
# elided ("    ...", "def propose(self, ...): ...", "(self, ...)")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(|^\s*class\s+\w+\s*(?:\([^)]*\))?\s*:")
_ELIDED = re.compile(r"^\s*\.\.\.\s*$|\)\s*(?:->\s*[^:]+)?:\s*\.\.\.\s*$|\(\s*self\s*,\s*\.\.\.|,\s*\.\.\.\s*[,)]")
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
    r"|关键日志|预期输出|期望输出|应该(?:能)?看到|会看到|可关注|期待される(?:出力|ログ)|表示されるはず"
    r"|예상\s?출력|ожидаем\w* (?:вывод|лог)\w*|должны увидеть|salida esperada|deber[íi]as ver"
)

# the writer's own run or failure, in the languages above (English: ``not_run``'s readers)
_OWN_RUN = re.compile(
    r"我们?(?:用|使用|启动|运行|跑|部署|测试|试了|遇到|复现)|实测|测得|跑了|跑出|崩了|报错|崩溃|失败|出错|挂了"
    r"|実行した|実行しました|試した|試しました|動かした|動かしました|計測|測定し|エラーが出|落ちた|クラッシュ"
    r"|실행했|돌려\s?봤|돌렸|테스트했|측정했|오류가|에러가|크래시"
    r"|(?i:запустил\w*|протестировал\w*|измерил\w*|получил\w*|упал\w*|ошибк\w*|пада\w*)"
    r"|(?i:ejecut[éó]|ejecutamos|lanzamos|lancé|probé|probamos|medimos|obtuv\w*|falló)"
    # a measurement's columns ("| model | tok/s | TTFT (ms) |"): the figures below them were measured
    r"|\b(?:tok(?:en)?s?/s|tokens?/sec|req/s|TTFT|TPOT)\b"
)
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
    "xpected output", "xpected log", "ou should see", "ook for", "日志", "输出", "看到", "关注", "期待", "表示",
    "출력", "жидаем", "олжны увидеть", "alida esperada", "eberías",
    "我", "实测", "测得", "跑", "崩", "报错", "失败", "出错", "挂了", "実行", "試し", "動かし", "計測", "測定",
    "エラー", "落ちた", "クラッシュ", "실행", "돌려", "돌렸", "테스트", "측정", "오류", "에러", "크래시",
    "апустил", "ротестировал", "змерил", "олучил", "пал", "шибк", "пада", "jecut", "anzamos", "anc\u00e9",
    "rob\u00e9", "robamos", "edimos", "btuv", "all\u00f3",
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


def own_run(text: str) -> bool:
    """The line tells the writer's own run, a measurement or a failure in another language than
    English ("我们跑了", "実行しました", "실행했", "мы запустили", "ejecutamos")."""
    return _OWN_RUN.search(text) is not None
