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
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
LITERALS: tuple[bytes, ...] = (b"vLLM main:", b"vllm_ascend", b"vllm-ascend")


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
