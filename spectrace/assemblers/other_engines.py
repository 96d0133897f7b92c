"""Which other serving engine a line is about, read from ``rules/paths/other_engines.toml``.

Why: OpenVINO GenAI, Neuron NxD Inference, llama.cpp, MLX, LMDeploy, TGI, ExLlama, MLC, ONNX
Runtime GenAI, DeepSpeed-MII, LightLLM, xLLM, ATOM, FastDeploy... run speculative decoding of
their own and share our family words, some even vLLM's spelling of a method (``draft_model()``).
A family word names a class only once a framework is known; a line holding another engine's
API, package, command or frame names (its ``marks``), or the head line of that engine's own
tracker, is that engine's, so the readers that name a class from words stop there. Data, not
code: an engine is added by a table row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.release_dates import rules_table
from spectrace.assemblers.thread_head import head_line

TABLE = "paths/other_engines.toml"


@dataclass(frozen=True, slots=True)
class OtherEngine:
    """One engine of the table: its name, its trackers (lower case), its marks."""

    name: str
    repos: frozenset[str]
    marks: tuple[str, ...]
    hosted: tuple[str, ...] = ()  # title words of its plugin mode inside one of ours
    names: tuple[str, ...] = ()  # its bare name as prose writes it


@cache
def other_engines() -> tuple[OtherEngine, ...]:
    """The table's rows, read once."""
    data = rules_table(TABLE)
    rows = data.get("engine", [])
    return tuple(OtherEngine(str(r["name"]), frozenset(str(x).lower() for x in r.get("repos", [])),
                             tuple(str(x) for x in r.get("marks", [])),
                             tuple(str(x).lower() for x in r.get("hosted", [])),
                             tuple(str(x) for x in r.get("names", [])))
                 for r in rows if isinstance(r, dict) and r.get("name"))  # fmt: skip


@cache
def literals() -> tuple[bytes, ...]:
    """What the scan must keep for ``other_engine`` to see a line: every mark, every tracker."""
    found = {m for e in other_engines() for m in e.marks} | {r for e in other_engines() for r in e.repos}
    return tuple(sorted(x.encode() for x in found))


def tracker_of(repo: str | None) -> str | None:
    """The other engine whose own tracker ``repo`` (owner/name) is, or None."""
    if repo is None:
        return None
    return next((e.name for e in other_engines() if repo.lower() in e.repos), None)


# a package list's line (collect_env's "[pip3] lmdeploy==0.9.2", "[conda] ...", a pip freeze
# "mlx-lm==0.26.0"): what is installed beside the run, not what ran
_PACKAGE_LIST = re.compile(r"^\W{0,4}(?:\[(?:pip\d?|conda|uv)\]\s|[\w.-]+\s*(?:==|>=|@)\s*\S+\s*$)")


def other_engine(text: str) -> str | None:
    """The other engine a line is about: one of its marks on the line, or the line is the head
    of a thread on that engine's tracker (an index header, a page title; a citation of such a
    thread inside another tracker's thread is no head of this one)."""
    if not _PACKAGE_LIST.match(text):
        for engine in other_engines():
            if any(mark in text for mark in engine.marks):
                return engine.name
    head = head_line(text)
    if head is not None and head.shape in ("index", "page"):
        return tracker_of(head.repo)
    return None


@cache
def _names() -> re.Pattern[str]:
    alts = sorted({re.escape(n) for e in other_engines() for n in e.names}, key=len, reverse=True)
    return re.compile(rf"(?i)(?<![\w./-])(?:{'|'.join(alts) or '(?!)'})(?![\w-]|\.\w)")


def engine_named(text: str) -> bool:
    """The text names another engine by its bare name ("llama.cpp", "Ollama", "LMDeploy"): a
    comparison's other side, never by itself the line's engine (``other_engine`` asks for marks)."""
    return _names().search(text) is not None


def hosted_title(head: str, title: str) -> bool:
    """The thread ``head`` (its head line) is on another engine's tracker and its ``title`` names
    that engine's plugin mode inside one of ours ("[atom-vllm] ... for the ATOM vLLM plugin"):
    the host engine ran, with its own speculative classes."""
    parsed = head_line(head)
    if parsed is None or parsed.repo is None:
        return False
    lowered = title.lower()
    return any(parsed.repo.lower() in e.repos and any(w in lowered for w in e.hosted) for e in other_engines())
