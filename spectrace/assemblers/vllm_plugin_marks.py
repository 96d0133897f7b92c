"""The vllm-ascend plugin's own marks on a text that never says "Ascend" or "NPU".

A mirror of a plugin fork's commit, or a pull request copied out of the plugin's tracker, can
show an eagle3 ``LLM(...)`` test and its results with no line naming the platform; what it does
show is the plugin's: the PR bot's footer (``- vLLM version: v0.16.0`` over ``- vLLM main:
<commit>``, the vLLM release the change was tested against), the page's own address into the
plugin's package (``.../src/commit/<sha>/vllm_ascend/spec_decode``), a change that depends on one
of the plugin's pull requests. Each makes the run the plugin's (its proposer, by the paired
release), as ``vllm_config``'s signals do for ``torch_npu`` or the plugin's image (whose layout,
``/vllm-workspace/vllm/vllm/``, is read there line by line). A link to the plugin's code or to one
of its pull requests in a comment is not such a mark: vLLM's own threads cite the plugin. The
thread's own head is (the plugin's tracker in any copy form, on the text's first lines): its
threads are the plugin's runs, so a ``--speculative-config`` a commenter pastes there runs the
plugin's proposer, not vLLM's CUDA one.

The other plugins (vllm-gaudi, tpu-inference) are marked by their installed package's paths
(``vllm_gaudi/v1/...``, ``tpu_inference/spec_decode/...``), their image (``vllm-gaudi:<tag>``),
repository or pip name (rules/paths/vllm_plugin_hand.toml's [[plugin]] rows): a fork's notes,
a dev journal or a crash through the plugin's runner never say "HPU" in vLLM's words, yet the
proposer that ran is the plugin's (``plugin_marked``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from spectrace.assemblers.thread_head import HEAD_LINES, HeadReader
from spectrace.assemblers.thread_repo import thread_engine, tracker_engine
from spectrace.dialects.base import LogLine

# the PR bot's footer: the vLLM release line, then the vLLM main commit (its hash may wrap onto
# the next line), on two lines or joined on one
_VERSION = re.compile(r"^\W*vLLM version:\s*v\d+\.\d+\.\d+\S*\s*(?:[-*]\s*)?(?P<main>vLLM main:.*)?$")
_MAIN = re.compile(r"^\W*vLLM main:\s*(?:https://github\.com/vllm-project/vllm/commit/)?[0-9a-f]{0,40}\s*$")
# the page's own address (the text's first line, alone) into the plugin's package
_ADDRESS = re.compile(r"^\s*https?://\S+/vllm_ascend(?:/\S*)?\s*$")
# the change depends on (is built on, follows, is picked from) one of the plugin's pull requests
_DEPENDS = re.compile(
    r"(?i)\b(?:depends? on|based on|built on|builds on|requires|follow[- ]?up (?:of|to)"
    r"|cherry[- ]?pick(?:ed)? (?:of|from))\s+(?:the\s+)?(?:PR\s+)?(?:https?://github\.com/)?"
    r"vllm-project/vllm-ascend(?:/pull/|#)\d+"
)


@dataclass(frozen=True, slots=True)
class PluginMarks:
    """One plugin's [[plugin]] row: its path-table name, marks, prefilter literals, pairing."""

    framework: str
    marks: tuple[re.Pattern[str], ...]
    literals: tuple[str, ...]
    paired: bool  # its release numbers follow vLLM's
    platform: str  # the platform name vLLM's activation line gives it alone ("" = none)


@cache
def plugin_rows() -> tuple[PluginMarks, ...]:
    """The [[plugin]] rows of rules/paths/vllm_plugin_hand.toml."""
    node = resources.files("spectrace.rules").joinpath("paths/vllm_plugin_hand.toml")
    try:
        data = tomllib.loads(node.read_text("utf-8")) if node.is_file() else {}
    except tomllib.TOMLDecodeError:
        data = {}
    return tuple(
        PluginMarks(str(r["framework"]), tuple(re.compile(m) for m in r.get("marks", ())),
                    tuple(str(x) for x in r.get("literals", ())), bool(r.get("paired")),
                    str(r.get("platform", "")))
        for r in data.get("plugin", []) if isinstance(r, dict) and r.get("framework")
    )  # fmt: skip


LITERALS: tuple[bytes, ...] = (
    b"vLLM main:", b"vllm_ascend", b"vllm-ascend",
    *dict.fromkeys(lit.encode() for row in plugin_rows() for lit in row.literals),
)  # fmt: skip


def plugin_marked(lines: Sequence[LogLine]) -> tuple[PluginMarks, LogLine] | None:
    """The plugin (other than vllm-ascend) one of whose own marks a line bears, and that line;
    None when none does or two plugins do. On another framework's tracker (vLLM's, SGLang's)
    only a frame of the plugin's installed code counts: a comment there citing the plugin's
    repository is a comparison, not the run."""
    tracker = thread_engine(line.text for line in lines)
    found: dict[str, tuple[PluginMarks, LogLine]] = {}
    for row in plugin_rows():
        for line in lines:
            if not any(lit in line.text for lit in row.literals):
                continue
            if tracker not in (None, row.framework) and not _FRAME.search(line.text):
                continue
            if any(mark.search(line.text) for mark in row.marks):
                found.setdefault(row.framework, (row, line))
                break
    return next(iter(found.values())) if len(found) == 1 else None


def stated_release(lines: Sequence[LogLine], row: PluginMarks) -> tuple[str, LogLine] | None:
    """The one release of the plugin the text states in its own name (``vllm-rbln 0.10.3``,
    ``vllm_gaudi==0.13.0``, ``pip show``'s lines under ``Name: vllm-rbln``), and its line; None
    when none is stated or several are (a comparison of two releases names neither as the
    run's). A plugin whose numbers are not vLLM's (vllm-rbln 0.11 runs vLLM 0.22) is placed on
    its rows only by its own number."""
    names = "|".join(re.escape(lit) for lit in row.literals)
    said = re.compile(rf"(?i)(?<![\w/.-])(?:{names})(?:\s*==\s*|\s+v|\s+version\s+v?|\s+)"
                      rf"(?P<v>\d+\.\d+\.\d+(?:\.post\d+|(?:a|b|rc)\d+)?)(?![\w.-]*[\w-])")
    found: dict[str, LogLine] = {}
    for i, line in enumerate(lines):
        if any(lit in line.text for lit in row.literals):
            found.update((m.group("v"), line) for m in said.finditer(line.text)
                         if m.group("v") not in found)
            if _PIP_NAME.match(line.text) and i + 1 < len(lines):
                if (version := _PIP_VERSION.match(lines[i + 1].text)) is not None:
                    found.setdefault(version.group(1), lines[i + 1])
    return next(iter(found.items())) if len(found) == 1 else None


# ``pip show <plugin>``: its ``Name:`` line, then ``Version:``
_PIP_NAME = re.compile(r"^\s*Name:\s*\S+\s*$")
_PIP_VERSION = re.compile(r"^\s*Version:\s*v?(\d+\.\d+\.\d+\S*)\s*$")


# a traceback's or py-spy's frame line (the code it names ran)
_FRAME = re.compile(r"""\bFile \\?["'][^"'\n]+\.py\\?["'], line \d|\(\S+\.py:\d+\)""")


def ascend_marked(lines: Sequence[LogLine]) -> LogLine | None:
    """The first line bearing one of the plugin's own marks, or None. Not on another
    framework's own tracker: a vLLM pull request that follows up one of the plugin's (a hook
    for plugins) is vLLM's change, tested on vLLM's GPUs."""
    if thread_engine(line.text for line in lines) not in (None, "vllm_ascend"):
        return None
    if (head := _own_head(lines)) is not None:
        return head
    for i, line in enumerate(lines):
        if line.quoted:
            continue
        text = line.text
        version = _VERSION.match(text)
        if version is not None and (version.group("main") or _main_follows(lines, i)):
            return line
        if (line.lineno == 1 and _ADDRESS.match(text)) or _DEPENDS.search(text):
            return line
    return None


def _own_head(lines: Sequence[LogLine]) -> LogLine | None:
    """The line heading the text with the plugin's tracker (the index header, the page title,
    the thread's URL: the first head in its first lines), not a thread a later line cites."""
    reader = HeadReader()
    for line in lines:
        if line.lineno > HEAD_LINES:
            continue
        if (head := reader.feed(line)) is not None:
            return line if tracker_engine(head.repo) == "vllm_ascend" else None
    return None


def _main_follows(lines: Sequence[LogLine], i: int) -> bool:
    """The line after ``lines[i]`` in the same text is the footer's ``vLLM main:`` line."""
    if i + 1 >= len(lines):
        return False
    line, after = lines[i], lines[i + 1]
    return after.source == line.source and after.lineno == line.lineno + 1 and bool(_MAIN.match(after.text))
