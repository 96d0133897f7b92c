"""Rule hints -> the flags of the framework the log came from.

A rule's hint is written for any server; where the fix is a flag, each framework spells it
its own way (SGLang ``--mem-fraction-static``, vLLM ``--gpu-memory-utilization``,
TensorRT-LLM ``kv_cache_config.free_gpu_memory_fraction``). Once the linker knows the run's
framework, a hint that starts as one of ``_BY_ENGINE``'s keys is replaced by that framework's
wording; with no framework known the rule's hint, which names all three, stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spectrace.assemblers.run_config import RunConfig
    from spectrace.incident_model import Incident

# hint prefix (as rules/crashes.toml writes it) -> framework -> the hint for a log of that framework
_BY_ENGINE: dict[str, dict[str, str]] = {
    "GPU memory ran out:": {
        "sglang": "GPU memory ran out: lower --mem-fraction-static, --cuda-graph-max-bs or "
        "--max-running-requests (a draft model and its CUDA graphs need memory too).",
        "vllm": "GPU memory ran out: lower --gpu-memory-utilization, --max-num-seqs or "
        "--max-model-len (a draft model and its CUDA graphs need memory too; --enforce-eager "
        "drops the graphs).",
        "trtllm": "GPU memory ran out: lower kv_cache_config.free_gpu_memory_fraction, "
        "max_batch_size or max_num_tokens (a draft model needs memory too).",
    },
}
# Where a frame's file lives -> the framework (frames outrank a rank label's style).
_FRAME_ROOTS = (("/sglang/", "sglang"), ("/vllm/", "vllm"), ("/tensorrt_llm/", "trtllm"))
# a path a note cut before SGLang's runtime folder (``.../srt/models/x.py``, ``srt/managers/y.py``)
_CUT_SRT = re.compile(r"^/(?:(?:\.\.\.|…)/?)?srt/")
_LABELS = (("EngineCore", "vllm"), ("VllmWorker", "vllm"), ("Worker_TP", "vllm"))
# Exception types only one framework raises (TensorRT-LLM's C++ TLLM_CHECK / its Python
# errors; vLLM's engine-client errors), or a module path that names it.
_EXCEPTIONS = (
    ("TRTLLMError", "trtllm"),
    ("TllmAssertion", "trtllm"),
    ("tensorrt_llm.", "trtllm"),
    ("EngineDeadError", "vllm"),
    ("EngineGenerationError", "vllm"),
    ("vllm.", "vllm"),
)
_SGLANG_RANK = re.compile(r"^(?:DP\d+ )?(?:PP\d+ )?TP\d+(?: EP\d+)?$")  # SGLang's own prefix


def frame_engines(incident: Incident) -> set[str]:
    """The frameworks whose code the crash's own frames ran, each frame's the package nearest
    its file (a vLLM venv under ``/work/sglang/`` is vLLM's). SGLang up to 0.4 ran vLLM's
    layers and distributed code, and vLLM never imports sglang: a record with frames of both
    is SGLang's, so a vLLM command pasted beside it for comparison is not its run."""
    frames = [*incident.frames, *(f for link in incident.chain for f in link.frames)]
    engines = {e for f in frames if (e := _file_engine(f.file.replace("\\", "/"))) is not None}
    return engines - {"vllm"} if "sglang" in engines else engines


def _file_engine(file: str) -> str | None:
    """The framework whose package directory comes last in the path, or None."""
    file = "/" + file.removeprefix("./")  # a relative frame (``sglang/srt/...``) opens in the package
    hits = [(file.rfind(root), engine) for root, engine in _FRAME_ROOTS if root in file]
    return max(hits)[1] if hits else ("sglang" if _CUT_SRT.match(file) else None)


def engine_of(incident: Incident, config: RunConfig) -> str | None:
    """The run's framework: its config says so, else the crash's own frames or rank labels."""
    if config.engine:
        return config.engine
    engines = frame_engines(incident)
    for _root, engine in _FRAME_ROOTS:
        if engine in engines:
            return engine
    types = [incident.exception_type, *(link.exception_type for link in incident.chain)]
    for name, engine in _EXCEPTIONS:
        if any(t and (t == name or t.startswith(name)) for t in types):
            return engine
    for label, engine in _LABELS:
        if any(label in rank for rank in incident.ranks):
            return engine
    return "sglang" if any(_SGLANG_RANK.match(rank) for rank in incident.ranks) else None


def localize(hints: Sequence[str], engine: str | None) -> list[str]:
    """Each hint in the wording of ``engine`` where the table has one; others unchanged."""
    out = []
    for hint in hints:
        table = next((t for prefix, t in _BY_ENGINE.items() if hint.startswith(prefix)), None)
        out.append(table.get(engine, hint) if table is not None and engine else hint)
    return out
