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
"""

from __future__ import annotations

from spectrace.dialects.base import LogLine
from spectrace.path_mention_kinds import FAMILY_ROW, FRAMEWORK_KIND, Mention
from spectrace.assemblers.framework_names import frameworks_named
from spectrace.path_run import ELSEWHERE

# the frameworks as a writer names them in a sentence; not the lower-case package in a module
# path or a logger name (``sglang.srt.models...``, ``/vllm/v1/...``), which fill a server's log
FRAMEWORK_LITERALS = (b"vLLM", b"SGLang", b"TensorRT-LLM", b"TRT-LLM", b"TensorRT LLM",
                      b" sglang ", b" vllm ", b" trtllm ", b" sglang,", b" vllm,",
                      b"SGLANG_", b"VLLM_", b"TRTLLM_", b"TLLM_")  # fmt: skip


def framework_mentions(line: LogLine, shown: str) -> list[Mention]:
    """The one framework the line names in words, where it is not named beside another run or
    engine; nothing for a line naming two."""
    found = frameworks_named(line.text)
    if len(found) != 1 or ELSEWHERE.search(line.text):
        return []
    (framework,) = found
    return [Mention(line.source, line.lineno, shown, framework, FAMILY_ROW, FRAMEWORK_KIND)]
