"""A saved thread's header -> the framework whose runs it reports.

A report copied from an issue tracker keeps the line that says where it was filed: a saved
thread's ``NVIDIA/TensorRT-LLM · issue #2263 · open``, a citation ``NVIDIA/TensorRT-LLM#2263 ·
closed``, GitHub's page title ``[Bug] ... · Issue #2263 · NVIDIA/TensorRT-LLM`` (``thread_head``
reads every form; those read only in a thread's head reach ``path_words`` through it). Where nothing else in the text places the run (no frame of
any engine, no launch command, no version line), a crash filed on a framework's own tracker is
that framework's: its method words name that framework's class. A mirror page's title led by
the project's name (``vllm - Fix [Bug]: ...``) counts the same way. Weaker than any line of the run
itself, so the linker asks it last; a header of another repository (a downstream wrapper, an
RL trainer) names none, and headers of two frameworks in one text name none either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from spectrace.assemblers.release_dates import rules_table
from spectrace.assemblers.thread_head import head_line

# the frameworks' own trackers (lower case), and the Triton backend that serves TensorRT-LLM
_REPOS = {
    "vllm-project/vllm": "vllm",
    "vllm-project/vllm-ascend": "vllm_ascend",
    "sgl-project/sglang": "sglang",
    "nvidia/tensorrt-llm": "trtllm",
    "triton-inference-server/tensorrtllm_backend": "trtllm",
}
# a mirror page's title led by the project's name (``vllm - Fix [Bug]: ...``, ``SGLang | ...``)
_PAGE = re.compile(r"(?i)^\s*(vllm-ascend|vllm|sglang|tensorrt[-_ ]llm|trt-llm)\s+[-–|]\s+\S")
_PROJECTS = {"vllm-ascend": "vllm_ascend", "vllm": "vllm", "sglang": "sglang"}


def saved_header(text: str) -> tuple[str, bool] | None:
    """(owner/repo, is a pull request) of a header line whose title is on a line of its own
    (the index's ``owner/repo · issue #N``, a citation ``owner/repo#N · closed``), or None."""
    head = head_line(text)
    if head is None or head.repo is None or head.title is not None:
        return None
    return head.repo, head.pull


def tracker_engine(repo: str | None) -> str | None:
    """The framework whose own tracker ``repo`` is (None: another repository, or none)."""
    return _REPOS.get(repo.lower()) if repo is not None else None


@cache
def _recipes() -> dict[str, str]:
    """Each framework's own deployment repositories (lower case) -> the framework
    (``framework_words.toml``'s ``recipes``)."""
    name = "paths/framework_words.toml"
    rows = rules_table(name)["framework"]
    return {str(r).lower(): str(row["name"]) for row in rows for r in row.get("recipes", [])}  # type: ignore[union-attr]


def run_engine(repo: str | None) -> str | None:
    """The framework whose runs a thread on ``repo`` reports: its own tracker's, or one of its
    recipe repositories' (a recipe is that framework's deployment). Not ``tracker_engine``: a
    recipe PR changes no engine code, so the readers of code changes keep it apart."""
    if repo is None:
        return None
    return tracker_engine(repo) or _recipes().get(repo.lower())


def header_engine(text: str) -> str | None:
    """The framework whose tracker a thread header line names; None for any other line."""
    if (head := head_line(text)) is not None:
        return tracker_engine(head.repo)
    page = _PAGE.match(text)
    return _PROJECTS.get(page.group(1).lower(), "trtllm") if page is not None else None


def thread_engine(texts: Iterable[str]) -> str | None:
    """The one framework the text's thread headers name (None when none, or several)."""
    found = {engine for text in texts if (engine := header_engine(text)) is not None}
    return next(iter(found)) if len(found) == 1 else None


# the repository of an engine's own tree or a fork of it, as a head line in any copy form names
# it ("vllm-project/vllm", "local-inference-lab/vllm", "Ascend/sglang", "vllm-project/vllm-ascend"),
# not a recipe, benchmark, docs or examples repository
_ENGINE_REPO = re.compile(
    r"(?i)^[\w.-]+/(?:vllm|sglang|tensorrt-llm)(?:-(?!\w*(?:recipe|bench|doc|example))\w+)?$"
)


def engine_fork(repo: str) -> bool:
    """``repo`` holds an engine's own tree or a fork of it: its pull requests change engine code."""
    return _ENGINE_REPO.match(repo) is not None
