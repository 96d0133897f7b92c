"""A vLLM speculative method on the vllm-ascend plugin -> the plugin's own proposer class.

On Ascend NPUs vLLM's model runner is the plugin's, and the plugin builds its own proposer for
each method (``get_spec_decode_method``: ``AscendEagleProposer``, ``AscendDflashProposer``...),
so vLLM's CUDA class (``DFlashProposer``) never runs there. The classes come from
rules/paths/vllm_ascend.toml's [[method]] rows, generated from every vllm-ascend tag.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from types import MappingProxyType


@cache
def _methods() -> MappingProxyType[str, tuple[str, str]]:
    """method value -> (class, first plugin release) from vllm_ascend.toml (empty if absent)."""
    node = resources.files("spectrace.rules").joinpath("paths/vllm_ascend.toml")
    try:
        data = tomllib.loads(node.read_text("utf-8")) if node.is_file() else {}
    except tomllib.TOMLDecodeError:
        data = {}
    rows = {str(r.get("value", "")).lower(): (str(r.get("worker", "")),
                                              str((r.get("releases") or [""])[0]))
            for r in data.get("method", []) if isinstance(r, dict) and r.get("worker")}  # fmt: skip
    return MappingProxyType(rows)


def ascend_proposer(method: object) -> tuple[str | None, str]:
    """(the plugin's class for ``method`` or None, why) — None when no plugin release read
    builds a proposer for it."""
    name = str(method).lower().strip("[]")
    worker, first = _methods().get(name, ("", ""))
    if not worker:
        return None, f"no vllm-ascend release read builds a proposer for '{name}'"
    return worker, f"vllm-ascend builds {worker} for '{name}' (from {first})"
