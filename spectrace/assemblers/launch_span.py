"""Which lines belong to one pasted launch command, and the tokens each line holds.

A command is pasted in many shapes: one line; lines joined by a trailing ``\\``; flags on their
own lines with no ``\\`` at all; a JSON value whose quote stays open over several lines; a
docker-compose ``command:`` string, folded block or YAML list; Kubernetes ``command:``/``args:``
arrays, block or inline (``["vllm", "serve"]``); Markdown around it (``$ `` prompts, ``>``
quoting, backticks, ``**`` bold); a web view's copy with a blank line after every line (the blank
between the launch and its flag lines, or between two lines of bare flags, is no end there when
no two of the command's lines stood in a row). The scan's collector and the config collector both use
``LaunchSpan`` so that they agree on where a command ends.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
from dataclasses import dataclass, replace

from spectrace.assemblers.launch_table import continues_table
from spectrace.assemblers.launch_words import foreign_entry
from spectrace.assemblers.spec_prose import set_apart
from spectrace.dialects.base import LogLine

MAX_LINES = 64  # lines one command may run over
MAX_OPEN = 16_384  # characters a quote may stay open over (a JSON value pasted over lines)
MAX_CHARS = 65_536  # of one line: a longer one is read from its start
_QUOTE_CHARS = re.compile(r"\\.|['\"]")

# A launch command starts here: the module, the CLI entry points, or a YAML/JSON list naming them.
_START = re.compile(
    r"sglang\.launch_server|sglang_router\.launch_server|\bdynamo\.sglang\b|\bsglang\.bench_"
    r"(?:offline_throughput|one_batch)|\bsglang\s+serve\b|\bvllm\s+serve\b|\bvllm\.entrypoints\."
    r"|\btrtllm-serve\b|[\"']vllm[\"']\s*,\s*[\"']serve[\"']|[\"']sglang[\"']\s*,\s*[\"']serve"
    r"|\bbenchmark_(?:latency|throughput)\.py\b|\bvllm\s+bench\s+(?:latency|throughput)\b"
    r"|^\s*-\s+[\"']?(?:vllm|sglang)[\"']?\s*$|vllm/vllm-openai"
    r"|^[\s>*`$]*(?:-\s+[\"']?|\d{1,2}[.)]\s*)?--[a-z]"  # a bare flag line: flags pasted without the
    # command (also as an ordered list's item: "1. --speculative-num-steps 2 ...")
    r"|`--[a-z]"  # flags quoted as inline code in prose ("run it with `--tp 2 --speculative-...`")
    r"|(?<![\w-])--sglang-[a-z]"  # an RL trainer's command passing SGLang's args (slime, Miles)
    r"|\[\s*[\"']--[a-z]|^\s*[\"']--[a-z][\w.-]*[\"']\s*,"  # a Python list of args (CI tests)
    r"|[\"']--spec[\w-]*[\"']\s*,\s*[\"']"  # ... a program's (docker's, a script's) passing speculative options
)
# where a command's own words start, in a line that may open with prose
_ENTRY = re.compile(
    r"\b(?:python[\d.]*\s+-m\s+)?(?:sglang(?:_router)?\.launch_server|dynamo\.sglang\b"
    r"|sglang\.bench_(?:offline_throughput|one_batch)|sglang\s+serve\b|vllm\s+serve\b"
    r"|vllm\.entrypoints\.|trtllm-serve\b|vllm\s+bench\s+(?:latency|throughput)\b"
    r"|\S*benchmark_(?:latency|throughput)\.py\b)"
)
_APOSTROPHE = re.compile(r"[A-Za-z]'[A-Za-z]")  # "I'm", "don't": a word's, not a quote
# inline code that starts with a flag, in a sentence
_CODE_FLAGS = re.compile(r"`(--[a-z][^`]*)`")
# an option quoted with its value left out, as a description of the option writes it
# (`--speculative-config '{"attention_backend": ...}'`, `--speculative-algorithm <ALGO>`,
# `--speculative-config {...}`): the option's form, which no run set; members elided after
# real ones (`'{"method": "mtp", ...}'`) stay the writer's values
_SCHEMA = re.compile(
    r"--[\w.-]+(?:[=\s]\s*)[\x27\"]?(?:(?:\.\.\.|…|<[^<>]+>)[\x27\"]?\s*$"
    r"|\{\s*(?:\.\.\.|…)\s*\}|\{[^}]*:\s*(?:\.\.\.|…|<[^<>]*>)\s*[,}])"
)
# Kubernetes env entries: "- name: SGLANG_ENABLE_SPEC_V2" then "  value: \"1\""
_ENV_NAME = re.compile(
    r"^\s*(?:-\s+)?name:\s*[\"']?((?:SGLANG|VLLM|TRTLLM|TLLM)_[A-Z0-9_]+)[\"']?\s*$"
)
_ENV_VALUE = re.compile(r"^\s*value:\s*(.*?)\s*$")
_QUOTE = re.compile(r"^\s*(?:>\s*)+")  # Markdown/e-mail quoting
_PROMPT = re.compile(r"^\s*(?:\$|>>>|\(\w[\w.-]*\)\s*\$?)\s+")  # "$ ", "(venv) $ "
_NUMBERED = re.compile(r"^\s*\d{1,2}[.)]\s*(?=--[a-z])")  # an ordered list's "1." before flags
_KEY = re.compile(r"^(\s*)(?:-\s+)?(command|args|entrypoint)\s*:\s*(.*)$")
_ITEM = re.compile(r"^(\s*)-\s+(.*?)\s*$")
_BOLD = re.compile(r"\*\*|`")
_VALUELESS = re.compile(r"(?:^|\s)--[a-z][\w-]*$")  # a line that ends on a flag with no value
# a line of bare flags ("--tp 8 --enable-dp-attention"), not a Markdown bullet ("- the server ...")
_FLAG_LINE = re.compile(r"^\s*--[a-z]")
# A Python list of a command's arguments, as SGLang's tests pass them (``other_args=["--tp",
# "2", ...]``, inline or one item a line): where it opens on a line, each item, a whole item line
_PY_OPEN = re.compile(r"\[\s*(?=[\"']--[a-z])")
_PY_ITEM = r"(?:\"[^\"\n]*\"|'[^'\n]*'|-?[\w.]+)"
_PY_ITEMS = re.compile(rf"^\s*(?:{_PY_ITEM}\s*,\s*)*(?:{_PY_ITEM}\s*)?[\])]*\s*,?\s*$")
_PY_WORD = re.compile(rf"\s*({_PY_ITEM})\s*(,|\]|\)|$)")
_QUOTED_OR_ONE = re.compile(r"[\"']|^\s*-?[\w.]+\s*,\s*$")  # an unquoted item stands alone: ``4,``
# a list opening on a quoted item: a program's whole argument list (``subprocess.run(["docker",
# "run", ...])``, a harness's record of the command it started)
_PY_LIST = re.compile(r"\[\s*(?=[\"'])")


# the quotes a word processor, a blog or a chat app curls as it shows a command (``I’m running
# vllm serve m --speculative-config ‘{“method”: “ngram”}’``): the writer typed the straight ones
_CURLED = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def clean(text: str) -> str:
    """The line without Markdown debris and prompts, and without a continuing ``\\``; curled
    quotes read as the straight ones typed."""
    if not text.isascii():
        text = text.translate(_CURLED)
    text = _BOLD.sub("", _QUOTE.sub("", text))
    text = _NUMBERED.sub("", _PROMPT.sub("", text)).rstrip()
    return text.removesuffix("\\").rstrip()


def code_flags(line: LogLine) -> str | None:
    """The flags a prose line quotes as inline code (``accepts `--speculative-algorithm NGRAM`
    with `--attention-backend torch_native```), joined; None for a line that is not prose (a
    server's own log record quoting a flag in a hint sets nothing) or quotes none; "" for a
    sentence that opens with flags and sets them all apart (``_flags_apart``): no bare flag line."""
    text = line.text.lstrip()
    if line.headed or text.startswith(("--", "- --")):
        return None
    if text.startswith("`--") and _SPAN_THEN_WORDS.match(text) is None:
        return None  # "`--tp 2` `--ep 4`": a flag line in code marks, not a sentence
    # each span ends at its own shell operator: ``--dcp-size > 1`` in a sentence is a condition,
    # and must not end the flags the later spans quote; none from a sentence setting them apart
    # ("with `--speculative-algorithm NGRAM` it works", "we'll add `...` next week")
    spans = [
        _span_flags(span)
        for sentence in _SENTENCE.split(line.text)
        # the sentence's words, not its spans, nor where its tools came from
        if not _flags_apart(_PROVENANCE.sub(" ", _CODE_SPAN.sub(" ", sentence)))
        for span in _CODE_FLAGS.findall(sentence)
        if _SCHEMA.match(span) is None  # an option's form, its value left out: no setting
    ]
    if spans:
        return " ".join(spans)
    return "" if text.startswith("`--") else None  # a sentence opening with flags all set apart


# where the run's tools came from, cited by a PR or issue number ("bosd's harness from
# owner/lab PR #47", "the patch from #1234", "benchmark script of PR #88"): the run's own setup,
# not another report the sentence sets its flags beside (``set_apart`` reads a bare "#47" so)
_PROVENANCE = re.compile(
    r"(?i)\b(?:harness|script|tool|benchmark|bench|patch(?:es)?|overlays?|branch|fork)\s+"
    r"(?:from|of|in)\s+(?:[\w.-]+/[\w.-]+\s*)?(?:PR|pull request|issue)?\s*#\d+"
)
# a sentence that opens with inline code ("`--speculative-algorithm EAGLE3` without
# `--speculative-draft-model-path` could fall back to ..."), in English or in a CJK language
# ("`--speculative-algorithm DSPARK` 下，并发到 4 后：", "`--x` で起動すると"; no space needed),
# also after a sign and a count ("`--speculative-algorithm DSPARK` + 4 dedicated flags"):
# its words are prose, not arguments
_SPAN_THEN_WORDS = re.compile(
    r"`--[^`]*`\s*(?:[+&]\s*(?:\d+\s*)?)?"
    r"(?:\(|[A-Za-z]{2,}(?=[\s,.;:!?])|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)
# a sentence's end (Markdown may close after its stop: "... not the dispatch.** On main ...")
_SENTENCE = re.compile(r"(?<=[.;!?])[*_)\]\"']*\s+(?=[*_(]*[A-Z(])")


# a sentence quoting flags that are not the reported run's: the fix, a plan, a recommendation,
# another report's, a docs example (besides spec_prose.set_apart's questions and contrasts)
_FLAGS_APART = re.compile(
    r"(?i)\brecommend\w*|\bwants?\b|\bnext (?:week|month|release|version|time|sprint|step)\b|\bwill\b|'ll\b|\brelated\b"
    r"|\buses\b|\bused\b|\binstead\b|\bremov\w*|\bdrop\w*|\bavoid\w*|\bgo(?:es)? away\b|\bfix\b"
    r"|\bdocs?\b|\bdocumentation\b|\bmodel card\b|\bREADME\b|\bhelps?\b|\bsolv\w*"
    r"|\bdisappear\w*|\bvanish\w*|\bno longer\b|\bstops?\b|\bmight\b|\blater\b|\bsomeday\b"
    # the same in Chinese (a sentence may now open with the flags: _SPAN_THEN_WORDS): recommend,
    # suggest, try, should, could, if, whether, don't, avoid, instead, fix, docs, will, plan, "?";
    # and what a document says of an option: is used for, controls, means, default, optional
    r"|建议|推荐|试试|尝试|应该|可以|如果|若是|是否|不要|避免|改用|代替|替代|修复|文档|将会|计划|？"
    r"|用于|控制|表示|默认|可选|说明|含义|取值"
)


# a caption over a command that is someone else's or a suggestion ("Reviewer: this works for
# me, use NGRAM instead:", "<summary>Command from @bob's comment (works for him)</summary>")
_CAPTION = re.compile(r"(?i)(?::|</summary>)[\s*`]*$|<summary>")
# a line that ends in an example marker ("... published recipes use it, e.g.", "for instance,"):
# what follows on the next lines is the example it gives, not a run's command
_EXAMPLE_END = re.compile(r"(?i)(?:\be\.\s?g\.|\bfor (?:example|instance)|\bsuch as)[\s,:*`]*$")
# words naming the command's owner or purpose as another's: a reviewer or maintainer speaking
# ("Reviewer: ..."), another user, a comparison; "works for me/him" (not "works for 100 requests")
_OTHERS = re.compile(
    r"(?i)\b(?:reviewer|maintainer)\s*:|\bfor comparison\b|(?<!\w)@\w|\bexample\b|\bnot what I\b"
    r"|\bworks? for (?:me|him|her|them|us)\b|\b(?:his|her|their|someone|another user)\b"
    # a wish: the command the writer would like to run some day ("Ideally one would just run:")
    r"|\bideally\b|\bwould (?:like|love)\b|\bit would be (?:nice|great|good)\b|\bone would\b"
    r"|\bpropos(?:ed|al)\b"
)
# a caption that says the command below then fails is the run's ("works for ~100 requests with
# this command, then crashes:", "vLLM with ngram crashes:")
_CAPTION_FAILS = re.compile(
    r"(?i)\b(?:crash\w*|fail\w*|errors?|hangs?|breaks?|OOMs?|dies|died|messages?|output|traceback"
    r"|logs?|stack|following|(?:I|we|they|you|one) (?:will )?get)\b"
)  # ... or introduces the error it prints ("we will get the following message:")


# ... or that it is the writer's own ("The docs show X, but I use ngram:", "Our server:")
_CAPTION_OWN = re.compile(r"(?i)\bbut (?:I|we)\b|\b(?:mine|my|our|ours)\b|(?<!what )\b(?:I|we) (?:use|run|ran|launch\w*)\b"
    r"|\b(?:I|we)(?:'m|'re| am| are) (?:running|using|launching|serving)\b")


def caption(text: str) -> bool:
    """A line that captions what follows (ends in ``:``, a ``<summary>``, an example marker)."""
    return _CAPTION.search(text) is not None or _EXAMPLE_END.search(text) is not None


def apart_caption(text: str) -> bool:
    """A caption line introducing a command that is not the reported run's."""
    if not caption(text) or _CAPTION_FAILS.search(text) or _CAPTION_OWN.search(text):
        return False
    return bool(_EXAMPLE_END.search(text) or _OTHERS.search(text) or _FLAGS_APART.search(text) or set_apart(text))


def _flags_apart(words: str) -> bool:
    return set_apart(words, without=False) or _FLAGS_APART.search(words) is not None


def _span_flags(span: str) -> str:
    """The span up to a shell operator (a comparison in prose) outside its quoted values."""
    end = _SPAN_END.search(re.split(r"['\"]", span, maxsplit=1)[0])
    return span[: end.start()] if end is not None else span


_SPAN_END = re.compile(r"\s(?:[<>]=?|\|\|?|&&|;)(?=\s|$)")


_CODE_SPAN = re.compile(r"`([^`]+)`")
_FLAG_LINE = re.compile(r"^\s*(?:-\s+)?--[a-z]")


def prose_command(lines: list[LogLine]) -> list[LogLine] | None:
    """A prose line naming the entry point as inline code (``moved to `sglang serve` with
    ...``) and later prose lines quoting its flags as inline code (``- Add X: `--tp 8```): the
    code spans only, so the sentences' words are not read as the model and its arguments; a
    plain flag line stays. None for any other shape."""
    if not lines:
        return None
    first = lines[0]
    entry = [s for s in _CODE_SPAN.findall(first.text) if _ENTRY.search(s)]
    quoted = [code_flags(line) for line in lines[1:]]
    if first.headed or not entry or not any(quoted):
        return None
    rest = [replace(line, text=flags or (line.text if _FLAG_LINE.match(clean(line.text)) else ""))
            for line, flags in zip(lines[1:], quoted, strict=True)]  # fmt: skip
    return [replace(first, text=entry[-1]), *rest]


_RL_PREFIX = "--sglang-"


def sglang_prefixed(args: list[tuple[str, int]]) -> list[tuple[str, int]] | None:
    """RL frameworks (slime, Miles) pass SGLang's server args through their own CLI as
    ``--sglang-<server arg>``: those flags (and their values) unprefixed, the framework's own
    flags dropped; None when no token carries the prefix."""
    if not any(token.startswith(_RL_PREFIX) for token, _ in args):
        return None
    out, keep = [], False
    for token, at in args:
        if token.startswith("--"):
            keep = token.startswith(_RL_PREFIX)
            token = "--" + token.removeprefix(_RL_PREFIX)
        if keep:
            out.append((token, at))
    return out


# A line that asks about or suggests flags rather than reporting the run ("should I use
# `--speculative-algorithm EAGLE`?", "try adding --speculative-algorithm NGRAM"); a line saying how
# to reproduce the report's own run stays a command
_SUGGESTS = re.compile(
    r"(?i)\b(?:should|shall|could|can|would)\s+(?:I|we|one|it)\b|\bwould\s+(?:adding|using)\b"
    r"|\b(?:is|would)\s+it\s+(?:possible|ok|okay|safe|better|recommended|help)\b|\bmaybe\b"
    r"|\b(?:have|did)\s+you\s+tr(?:y|ied)\b"
    # "try adding ..." suggests; "I try to run ..." / "when we try to launch" reports the run
    r"|(?<!\bI )(?<!\bwe )(?<!\bWe )\btry\s+(?:adding|using|setting|with|to|running)\b"
    r"|\b(?:how|what)\s+about\b|\bwhy\s+not\b|\byou\s+(?:should|might|may\s+want)\b|\bperhaps\b"
    r"|\bI\s+(?:would\s+)?(?:suggest|recommend)\b|\bconsider\s+(?:adding|using|setting)\b"
)
_CODE_OR_QUOTE = re.compile(r"`[^`]*`")


def suggests(text: str) -> bool:
    """The line asks whether to use flags or suggests them: they are not the run's."""
    if "reproduc" in text.lower():
        return False
    return _SUGGESTS.search(text) is not None


def asks(text: str) -> bool:
    """The line is a question (its words outside inline code end with ``?``) or a suggestion:
    a flag it quotes is not a launch command, at most an algorithm the text names."""
    words = _CODE_OR_QUOTE.sub(" ", text).rstrip(" *_)\"'")
    return words.endswith("?") or suggests(text)


def starts(text: str) -> bool:
    """A command starts on the line: a server's entry point (another engine's too, so that its
    flag lines below are read as its command, not as a bare SGLang flag block), a bare flag."""
    if _START.search(text) is None and _ENV_NAME.match(text) is None and not foreign_entry(text):
        return False
    return not asks(text) and not commented(text)


# "#python -m ...", "#  --flag" is a shell comment; "### Describe the bug ... ``` vllm serve ..." is
# a Markdown heading that opens an issue body copied without its newlines (a wiki page, an index)
_COMMENT = re.compile(r"^\s*(?:#(?![\s!#])|//)")


def commented(text: str) -> bool:
    """A shell, YAML or Python comment line ("#python -m sglang.launch_server ...",
    "# speculative_algorithm=..." inside a call); "# " alone may be a root prompt or a heading."""
    return _COMMENT.match(text) is not None or text.lstrip().startswith("# speculative")


def env_entry(texts: list[str]) -> tuple[str, str] | None:
    """A Kubernetes ``- name: X`` / ``value: "1"`` pair as (X, "1")."""
    if len(texts) != 2 or (name := _ENV_NAME.match(texts[0])) is None:
        return None
    value = _ENV_VALUE.match(texts[1])
    return (name.group(1), _scalar(value.group(1))) if value is not None else None


def open_quote(text: str, quote: str = "") -> str:
    """The shell quote still open after ``text`` when ``quote`` was open before it (one pass
    over the quote characters: a command's span is followed at the cost of reading it once)."""
    for match in _QUOTE_CHARS.finditer(text):
        char = match.group()
        if quote == "'":
            quote = "" if char.endswith("'") else quote  # no escapes inside single quotes
        elif quote == '"':
            quote = "" if char == '"' else quote
        elif char in ("'", '"'):
            quote = char
    return quote


def _scalar(text: str) -> str:
    """A YAML scalar as its string: double quotes as JSON, single quotes stripped."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            return str(json.loads(text))
        except ValueError:
            return text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    return text


def _inline_list(text: str) -> list[str] | None:
    """``["python3", "-m", ...]`` / ``['--tp', '2']`` as its items."""
    for read in (json.loads, ast.literal_eval):
        try:
            items = read(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(items, list):
            return [str(item) for item in items]
    return None


# a line a diff removes from a command: "-" at the line's start, then the command's own indent
# or a continuing backslash ("-  --speculative-algorithm EAGLE \"); a YAML item is "- --tp 2"
_REMOVED = re.compile(r"^-(?:[ \t]{2,}\S|[ \t]\S.*\\\s*$)")


def container_key(text: str) -> str | None:
    """``command`` / ``args`` / ``entrypoint`` for a Kubernetes or compose key line, else None."""
    key = _KEY.match(clean(text))
    return key.group(2) if key is not None else None


def removed_by_diff(text: str) -> bool:
    """The line is one a diff removes from a command (what the run no longer had)."""
    return _REMOVED.match(text) is not None


def tokens_of(text: str) -> list[str] | None:
    """The tokens a line holds; None when a quote stays open (the next line continues it); a
    line a diff removes holds none (the run no longer had it)."""
    if removed_by_diff(text):
        return []
    text = from_entry(clean(text)[: MAX_OPEN * 4])
    if (key := _KEY.match(text)) is not None:
        value = key.group(3).strip()
        if not value or value[0] in ">|":
            return []  # a list or a block scalar follows
        if value.startswith("[") and (items := _inline_list(value)) is not None:
            return _split_commands(items)
        return shell_words(_scalar(value))
    if (item := _ITEM.match(text)) is not None:
        return _split_commands([_scalar(item.group(2))])
    if (items := python_items(text)) is not None:
        return items
    return shell_words(text)


def python_items(text: str) -> list[str] | None:
    """The arguments a line holds as Python list items (``other_args=["--speculative-algorithm",
    "EAGLE"]``, or ``"EAGLE",`` one a line inside such a list), strings unquoted; a name or a
    number stays as written. None for a line of any other shape."""
    opened = _PY_OPEN.search(text)
    if opened is None and (argv := _argv_list(text)) is not None:
        return argv
    if opened is None and not (is_python_items(text) and _QUOTED_OR_ONE.search(text)):
        return None
    return _list_items(text, opened.end() if opened is not None else 0)


def _list_items(text: str, pos: int) -> list[str]:
    """The items of a Python list from ``pos`` to its closing bracket, strings unquoted."""
    out: list[str] = []
    while (word := _PY_WORD.match(text, pos)) is not None and len(out) < 1_000:
        item = word.group(1)
        out.append(item[1:-1] if item[:1] in "'\"" else item)
        pos = word.end()
        if word.group(2) != ",":
            break
    return out


def _argv_list(text: str) -> list[str] | None:
    """A program's whole argument list on the line, opening with other words than an option
    (``["docker", "run", ..., "serve.sh", MODEL, "--speculative-algorithm", "EAGLE", ...]``):
    its items where a server's entry point is among them, else the block of options that holds
    its first speculative option (what a container or a wrapper script passes on to the
    server), reached back over options and their values up to the first two words in a row
    that are no option (an image and its command, a script and its model). None where no
    list of quoted items on the line holds a speculative option."""
    for m in _PY_LIST.finditer(text):
        items = _list_items(text, m.end())
        first = next((i for i, item in enumerate(items) if item.startswith("--spec")), None)
        if first is None:
            continue
        if _ENTRY.search(" ".join(items)) is not None:
            return items
        start = first
        while start > 0 and (items[start - 1].startswith("-") or (start > 1 and items[start - 2].startswith("-"))):
            start -= 1 if items[start - 1].startswith("-") else 2
        return items[start:]
    return None


def is_python_items(text: str) -> bool:
    """A line of Python list items (``"--tp", "2",``) or the list's closing ``],``."""
    return ("," in text or "]" in text) and _PY_ITEMS.match(text) is not None


def from_entry(text: str) -> str:
    """A sentence before the command (``I'm still getting it when I run vllm serve ...``)
    whose apostrophe would open a quote is dropped: the line is read from the entry point."""
    entry = _ENTRY.search(text)
    prose = text[: entry.start()] if entry is not None else ""
    if open_quote(prose) != "'" or _APOSTROPHE.search(prose) is None:
        return text
    return text[entry.start() :]


def _split_commands(items: list[str]) -> list[str]:
    """A list item that holds a whole command (``args: ["python3 -m sglang.launch_server
    --tp 2"]`` under ``sh -c``) is split as a shell would; other items stay whole (a JSON value)."""
    out: list[str] = []
    for item in items:
        flag_and_value = item.startswith("--") and "{" not in item  # "- --tp 2", leniently
        if " " in item and (starts(item) or flag_and_value):
            out += shell_words(item) or item.split()
        else:
            out.append(item)
    return out


def shell_words(text: str) -> list[str] | None:
    """The words a shell reads in ``text`` (also a script passed as one argument): shlex, with a
    bare ``{...}`` kept as one word (JSON pasted without its quotes); None while a quote or such
    a brace stays open."""
    if not any(char in text for char in "'\"\\{"):
        return text.split()  # what shlex gives for such a line, ~100x faster
    text = _quote_bare_json(_inner_script(text))
    if text is None:
        return None
    try:
        return shlex.split(text)
    except ValueError:
        return None


# a single quote written inside a single-quoted script (``bash -lc '... --x '\''{"a": 1}'\'' '``)
_QUOTE_IN_SCRIPT = "'\\''"


def _inner_script(text: str) -> str:
    """A line of a single-quoted script whose opening quote sits on an earlier line (``bash -lc '``
    alone above the command), read as the shell running the script reads it: each ``'\''`` a
    quote, and the script's closing quote at the line's end dropped. A line that opens the
    script itself is left to shlex, which reads the idiom whole."""
    at = text.find(_QUOTE_IN_SCRIPT)
    if at < 0 or text.count("'", 0, at) % 2:
        return text
    text = text.replace(_QUOTE_IN_SCRIPT, "'")
    stripped = text.rstrip()
    if text.count("'") % 2 and stripped.endswith("'"):
        text = stripped[:-1]
    return text


def _quote_bare_json(text: str) -> str | None:
    """Wrap each unquoted ``{...}`` that starts a word in single quotes."""
    out, i, quote = [], 0, ""
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "{" and (i == 0 or text[i - 1] in " \t="):
            end = _brace_end(text, i)
            if end is None:
                return None
            body = text[i : end + 1]
            out.append(f"'{body}'" if "'" not in body else body)
            i = end + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _brace_end(text: str, start: int) -> int | None:
    depth, quote = 0, False
    for i in range(start, len(text)):
        ch = text[i]
        if ch == '"' and text[i - 1] != "\\":
            quote = not quote
        elif not quote and ch == "{":
            depth += 1
        elif not quote and ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


@dataclass(slots=True)
class LaunchSpan:
    """Follows one command over lines: ``start`` on its first line, then ``feed`` says whether
    each next line continues it."""

    head: LogLine | None = None
    last: LogLine | None = None
    count: int = 0
    quote: str = ""  # the quote a line left open ("'" or '"'), "" when none
    block: int = -1  # indentation of a ``command: >`` key whose folded lines follow
    python: bool = False  # the command is a Python list of arguments (one item a line)
    # the last line fed was a blank after the launch or a line of bare flags, in a copy that put a
    # blank line after every line (a web view's, a chat app's): only a line of flags goes on
    gap: bool = False
    double: bool = True  # no two of the command's lines in a row so far: maybe double-spaced

    @property
    def open(self) -> bool:
        return self.head is not None

    def start(self, line: LogLine) -> bool:
        if not starts(line.text):  # a quoted launch too: quotes.py ranks it below the writer's
            return False
        self.head, self.last, self.count, self.block, self.gap, self.double = line, line, 1, -1, False, True
        self.quote = open_quote(clean(line.text)[:MAX_CHARS])
        self.python = python_items(clean(line.text)[:MAX_CHARS]) is not None
        if self.python:
            self.quote = ""  # a Python list's quotes close on its own line
        key = _KEY.match(clean(line.text))
        if key is not None and key.group(3).strip()[:1] in (">", "|"):
            self.block = len(key.group(1))
        return True

    def feed(self, line: LogLine) -> bool:
        """True when ``line`` continues the command (it is then part of it)."""
        last = self.last
        if last is None:
            return False
        if line.source != last.source or line.lineno != last.lineno + 1 or self.count >= MAX_LINES:
            self.close()
            return False
        if self.gap:  # after a blank between lines of flags: only another line of flags goes on
            self.gap = False
            if _FLAG_LINE.match(clean(line.text)) is None:
                self.close()
                return False
        elif self._spaced(last, line):
            self.gap = True  # a blank after the command's line: the next line decides
        elif not self._continues(last.text, line.text):
            self.close()
            return False
        elif line.text.strip():
            self.double = False  # two lines in a row: the copy is not double-spaced
        self.last, self.count = line, self.count + 1
        self.quote = open_quote(clean(line.text)[:MAX_CHARS], self.quote)
        return True

    def _spaced(self, last: LogLine, line: LogLine) -> bool:
        """``line`` is a blank a double-spaced copy put after the command's line ``last``: every
        line of the command so far had one after it, ``last`` is the launch or a line of bare
        flags, and no quote or ``\\`` carries the command on anyway."""
        if line.text.strip() or not self.double or self.quote or last.text.rstrip().endswith("\\"):
            return False
        before = clean(last.text)
        return _FLAG_LINE.match(before) is not None or (last is self.head and _ENTRY.search(before) is not None)

    def _continues(self, before: str, text: str) -> bool:
        if self.head is not None and _ENV_NAME.match(self.head.text):
            return self.count == 1 and _ENV_VALUE.match(text) is not None
        if self.quote or before.rstrip().endswith("\\"):
            return True
        if continues_table(before, text):  # the next row of a table of options
            return True
        body = clean(text)
        stripped = body.lstrip()
        if not stripped:
            return False
        if self.block >= 0:
            return len(body) - len(stripped) > self.block
        if stripped.startswith("-"):  # a flag on its own line, or a YAML list item
            return True
        if self.python and is_python_items(body):  # the next items of a Python argument list
            return not stripped.startswith("]")  # the list's closing bracket ends the command
        if stripped[:1] in "'\"{" and _VALUELESS.search(clean(before)) is not None:
            return True  # the flag's value pasted on the line after it
        key = _KEY.match(body)
        return key is not None and key.group(2) in ("args", "command")

    def close(self) -> None:
        self.head = self.last = None
        self.count, self.quote, self.block, self.python, self.gap, self.double = 0, "", -1, False, False, True
