"""The frameworks a line names in words: ``vLLM``, ``SGLang``, ``TensorRT-LLM``, vllm-ascend.

Why here, below the run readers: ``run_shown`` (another engine's run line), ``path_run`` (the
one framework a title names) and the era join all ask the same question of one line; one table
keeps their answers the same, and the readers below the linker need not import it.
"""

from __future__ import annotations

import re

# a framework as a title or a sentence writes it; vllm-ascend before vLLM (it holds the word)
# each also by its own environment variables' prefix (``SGLANG_ENABLE_SPEC_V2``, ``VLLM_USE_V1``,
# ``VLLM_ASCEND_ENABLE_MLAPO``, ``TLLM_LOG_LEVEL``): upper case only, never a module or package name
_ASCEND = re.compile(r"(?i)\bvllm[-_ ]ascend\b|(?-i:\bVLLM_ASCEND_[A-Z0-9_]+)")
# (a hyphen joining the name to its release names the engine: a record's "engine": "sglang-v0.5.15
# + patches", a build "vllm-0.19.1"; not another package of the name, sglang-router, vllm-ascend)
_RELEASED = r"(?=-v?\d+\.\d)"
# (the name's edges are ASCII word edges: a Chinese or Japanese sentence glues its words to it,
# "vllm版本为0.9.1", "用sglang部署", and Python's \w holds those letters)
_VLLM = re.compile(rf"(?i)(?<![A-Za-z0-9_/-])vllm(?:(?![A-Za-z0-9_-])|{_RELEASED})|(?-i:(?<![\w/-])VLLM_[A-Z][A-Z0-9_]*)")
_FRAMEWORKS = (
    ("vllm_ascend", _ASCEND),
    ("vllm", _VLLM),
    ("sglang", re.compile(rf"(?i)(?<![A-Za-z0-9_/-])sglang(?:(?![A-Za-z0-9_-])|{_RELEASED})"
                          r"|(?-i:(?<![\w/-])SGLANG_[A-Z][A-Z0-9_]*)")),
    ("trtllm", re.compile(r"(?i)(?<![A-Za-z0-9_/-])(?:tensorrt[-_ ]?llm|trt[-_]?llm|trt)(?![A-Za-z0-9_-])"
                          r"|(?-i:(?<![\w/-])(?:TRTLLM|TLLM)_[A-Z][A-Z0-9_]*)")),
)


def frameworks_named(text: str) -> set[str]:
    """The frameworks a line names; vllm-ascend's name holds vLLM's, and is the plugin's."""
    found = {name for name, pattern in _FRAMEWORKS if pattern.search(text)}
    if "vllm_ascend" in found and not _VLLM.search(_ASCEND.sub("", text)):
        found.discard("vllm")
    return found
