"""A report's lines that name its framework in words, beyond its title and family lines.

Why: a thread off the engines' own trackers (a recipe repository, an RL framework, a downstream
fork) often names its framework only in a sentence with no family word in it ("vLLM's
EngineCore crashes during CUDA graph capture", "(vLLM 0.24.0, Python 3.11)", "we serve it with
sglang"): ``path_run.worded_framework`` read only the title and the family lines, so the family
it named found no framework's table (the study rounds' largest cause of "unknown", shown by
``--explain-path``). Each such line becomes a ``FRAMEWORK_KIND`` mention, whose framework
``worded_framework`` takes only where the title and family lines name none and every line of the
run names the same one. A line naming it beside another run or engine (a comparison, a port, a
migration) names nothing; a model or hardware name never names a framework.

A framework's own source tree names it too, where a text saved without its header has no name
in it (``rules/paths/framework_words.toml``): a writer's path to a source file of its package
("patched `python/sglang/srt/models/x_mtp.py`", "the scale lookup in
vllm/model_executor/layers/fp8.py assumes ..."). Not a fork's tracker (a fork runs the tree at its
own pace, so upstream's release by day would name the wrong class), nor option names and config
keys (other engines copy them), nor a dotted module path in a log line (a trainer imports the
engines' packages). An option of one SGLang algorithm alone (``--speculative-dspark-block-size``:
``path_terms``' flag rows) does name SGLang: only its tree spells it.
"""

from __future__ import annotations

import re
from functools import cache

from spectrace.assemblers.framework_names import frameworks_named
from spectrace.assemblers.release_dates import rules_table
from spectrace.dialects.base import LogLine
from spectrace.path_mention_kinds import FAMILY_ROW, FRAMEWORK_KIND, Mention
from spectrace.path_run import ELSEWHERE, releases_compared
from spectrace.path_terms import flag_frameworks

TABLE = "paths/framework_words.toml"


@cache
def _packages() -> dict[str, str]:
    """Each package's place in its framework's tree -> the framework."""
    rows = rules_table(TABLE)["framework"]
    return {str(p): str(r["name"]) for r in rows for p in r["packages"]}  # type: ignore[union-attr]


@cache
def _test_trees() -> dict[str, str]:
    """Each place of a framework's own speculative tests in its repository -> the framework."""
    rows = rules_table(TABLE)["framework"]
    return {str(p): str(r["name"]) for r in rows for p in r.get("tests", ())}  # type: ignore[union-attr]


@cache
def _tree_sizes() -> dict[str, tuple[str, ...]]:
    """Each framework -> the settings that size its draft tree alone (``tree_sizes``)."""
    rows = rules_table(TABLE)["framework"]
    return {str(r["name"]): tuple(r["tree_sizes"]) for r in rows if r.get("tree_sizes")}  # type: ignore[union-attr]


# words a setting's name may drop when told: its framework's prefix, a count's "num", the
# algorithm stem SGLang gave the top-k ("speculative_eagle_topk" is told "topk", "top-k 1")
_QUALIFIERS = ("speculative", "num", "eagle")


@cache
def _size_pattern(setting: str) -> re.Pattern[str]:
    """The setting told with its value, either order: ``num_steps=3``, ``steps: 3``, ``top-k 1``,
    ``4 draft tokens``; never inside a longer name (``max_total_draft_tokens``) or an option."""
    words = setting.split("_")
    core = [w for w in words if w not in _QUALIFIERS] or words[-1:]
    dropped = [w for w in words if w not in core]
    spelled = r"[-_ ]?".join(re.sub(r"^top(k)$", r"top[-_ ]?\1", w) for w in core)
    name = "".join(rf"(?:{w}[-_ ])?" for w in dropped) + spelled
    value = r"[`'\"]?(?:\s*[:=]\s*|\s+)[`'\"]?\d+"
    return re.compile(rf"(?i)(?<![\w-])(?:{name}{value}|(?<![\w.])\d+\s+{name})(?![\w-])")


def size_frameworks(text: str) -> set[str]:
    """The frameworks whose draft-tree sizes the line gives as a set: the draft tokens with the
    steps, each with its value (``tree_sizes``: the first setting and the last); the draft
    tokens alone are any engine's count, and a top-k may be any engine's sampling setting
    ("num_draft_tokens=3, top_k=1"), so it never stands in for the steps."""
    if "raft" not in text:
        return set()
    return {framework for framework, settings in _tree_sizes().items()
            if all(_size_pattern(s).search(text) for s in (settings[0], settings[-1]))}  # fmt: skip


def _literals() -> tuple[bytes, ...]:
    """A source path as a sentence starts it (after a blank or a backtick), never as a frame's
    absolute path (``"/opt/vllm/vllm/...``); a test file's place in the tree wherever it stands
    (a CI log's node id opens its line, or follows the runner's workspace)."""
    return (*(f"{lead}{package}/".encode() for package in _packages() for lead in (" ", "`")),
            *(tree.encode() for tree in _test_trees()))


# the frameworks as a writer names them in a sentence; not the lower-case package in a module
# path or a logger name (``sglang.srt.models...``, ``/vllm/v1/...``), which fill a server's log
FRAMEWORK_LITERALS = (b"vLLM", b"SGLang", b"TensorRT-LLM", b"TRT-LLM", b"TensorRT LLM",
                      b" sglang ", b" vllm ", b" trtllm ", b" sglang,", b" vllm,",
                      b"SGLANG_", b"VLLM_", b"TRTLLM_", b"TLLM_", *_literals())  # fmt: skip
# (no literal of the tree sizes: a line giving them names its algorithm, a family literal, and
# "draft_tokens" alone fills code listings the other readers would then read)


@cache
def _source_path() -> re.Pattern[str]:
    """A path to a source file of one framework's package, not inside another path."""
    packages = sorted(_packages(), key=len, reverse=True)
    names = "|".join(re.escape(p) for p in packages)
    return re.compile(r"(?<![\w/.-])(" + names + r")/(?:[\w.-]+/)*[\w-]+\.(?:py|cu|cuh|cpp|h)\b")


def framework_mentions(line: LogLine, shown: str) -> list[Mention]:
    """The one framework the line names in words or by a path into its own source tree, where
    the clause naming it does not set it beside another run or engine (a comparison, a port);
    nothing for a line naming two."""
    found = _named(line.text)
    if len(found) != 1 or (not releases_compared(line.text) and any(
            ELSEWHERE.search(c) for c in _CLAUSES.split(line.text) if _named(c))):  # fmt: skip
        return []
    (framework,) = found
    return [Mention(line.source, line.lineno, shown, framework, FAMILY_ROW, FRAMEWORK_KIND)]


def _named(text: str) -> set[str]:
    return tree_frameworks(text) | frameworks_named(text) | flag_frameworks(text) | size_frameworks(text)


# where a clause of the line ends: a comparison or a port elsewhere in the line ("a separate
# entry rather than a combination (same vLLM commit as the base)") is not about the clause
# naming the framework; one in that clause is ("faster than on vLLM", "ported from SGLang")
_CLAUSES = re.compile(r"[;:!?()\[\]]|\s[—–]\s|\s--\s|\.\s")


@cache
def _test_path() -> re.Pattern[str]:
    """A test file in one framework's own speculative test tree (``tests`` of the table)."""
    names = "|".join(re.escape(t) for t in sorted(_test_trees(), key=len, reverse=True))
    return re.compile(r"(?<![\w.-])(" + names + r")(?:[\w.-]+/)*test_\w+\.py\b")


def tree_frameworks(text: str) -> set[str]:
    """The frameworks whose source files or speculative test files the line names by path."""
    return ({_packages()[m.group(1)] for m in _source_path().finditer(text)}
            | {_test_trees()[m.group(1)] for m in _test_path().finditer(text)})  # fmt: skip
