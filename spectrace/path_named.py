"""A vLLM run whose text names its speculative method only in words -> that method's class.

Bug reports about vLLM's spec decode often paste only the engine's traceback (``v1/engine/
core.py``, the EngineCore's ranks) and say the method in the title or a sentence: "V1 engine +
MTP speculative decoding hangs", "Spec Decode Draft Model fails during graph capture", a CI
test id ``test_ngram_correctness``. In vLLM one method runs one class (its ``[[method]]`` row:
MTP -> EagleProposer), so the words name the class the way a maintainer reads them, weaker
than any config line: only when nothing else points, only for a run the text shows is vLLM's,
and only when every family named runs the same class (MTP and EAGLE-3 do; n-gram and EAGLE do
not, and then their classes are the condition). On the vllm-ascend plugin the plugin's class
for the method, by its release (a condition without one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.spec_prose import PROSE_REASON
from spectrace.assemblers.vllm_finish import newest_release, plugin_table
from spectrace.assemblers.vllm_plugins import ascend_proposer, plugin_proposer
from spectrace.assemblers.vllm_proposers import proposer_verdict
from spectrace.path_frames import method_signature, symbol_signatures

# each family as the method value vLLM's config spells it
_METHOD = {"EAGLE": "eagle", "EAGLE3": "eagle3", "MTP": "mtp", "NGRAM": "ngram",
           "DFLASH": "dflash", "DSPARK": "dspark", "MEDUSA": "medusa", "SUFFIX": "suffix",
           "DRAFT_MODEL": "draft_model", "ARCTIC": "arctic"}  # fmt: skip


def named_family_evidence(
    named: Sequence[tuple[str, str, int, str]],
    config: RunConfig,
    engine: str | None,
    engine_flow: bool = False,
) -> list[Evidence]:
    """``named``: (family, source, line, text) of each family word of the run's text. The
    verdict of the one class they all run on, or the condition over their classes; for
    TensorRT-LLM (``engine_flow``: the crash ran the engine flow's Python runtime) see
    ``_trtllm``."""
    if engine is None and any(_vllm_spelled(text) for *_, text in named):
        engine = "vllm"  # a method value only vLLM's config spells (``qwen3_next_mtp``)
    plugin = _on_plugin(config, engine)
    if named and engine == "trtllm":
        return _trtllm(named, engine_flow)
    if not named or (
        engine not in ("vllm", "vllm_ascend") and not plugin and plugin_table(config) is None
    ):
        return []
    families = dict.fromkeys(family for family, *_ in named if family in _METHOD)
    verdicts = {family: _class(family, config, plugin) for family in families}
    if not verdicts or any(cls is None and cond is None for cls, cond in verdicts.values()):
        return []
    _fam, source, lineno, text = next(n for n in named if n[0] in families)
    said = "/".join(families)
    classes = {cls for cls, _ in verdicts.values()}
    reason = f"{PROSE_REASON}: the text names {said} for a vLLM run"
    if len(classes) == 1 and None not in classes:
        (cls,) = classes
        return [Evidence(source, lineno, text, f"{reason} -> {cls} (other)", "other", cls)]
    condition = "; ".join(f"{cls or cond} for {_METHOD[f]}" for f, (cls, cond) in verdicts.items())
    return [Evidence(source, lineno, text, f"{reason}: {condition}", None, None, condition)]


# a config value written as one snake_case token (``glm4_moe_mtp``, ``ngram_gpu``)
_VALUE = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w./-])")


def _vllm_spelled(text: str) -> bool:
    """The line writes a speculative method as only vLLM's ``speculative_config.method`` spells
    it (a ``[[method]]`` value of vLLM's table that SGLang's and TensorRT-LLM's lack): the text
    is about a vLLM run even where no line names the engine."""
    return any(method_signature("vllm", value) is not None
               and method_signature("sglang", value) is None
               and method_signature("trtllm", value) is None
               for value in _VALUE.findall(text))  # fmt: skip


def _on_plugin(config: RunConfig, engine: str | None) -> bool:
    platform = config.flags.get("platform")
    return engine == "vllm_ascend" or (platform is not None and platform.value == "ascend")


def _class(family: str, config: RunConfig, plugin: bool) -> tuple[str | None, str | None]:
    """(class, None) or (None, the condition) the method runs on; (None, None): no class."""
    method = _METHOD[family]
    if (table := plugin_table(config)) is not None:  # a plugin's own runner (ArcticInference)
        return plugin_proposer(table, method)
    if family == "ARCTIC":  # ArcticInference's own method: no vLLM class runs it
        return None, None
    if plugin:
        release = config.flags.get("platform_release")
        newest = newest_release(config, "vllm_ascend")
        worker, _why, condition = ascend_proposer(
            method, release.value if release else None, newest
        )
        return worker, condition
    reason, points_to, proposer = proposer_verdict(method, config.version)
    if points_to == "other" and proposer:
        return proposer, None
    both = reason.split(" -> ", 1)[1] if points_to == "other" and " -> " in reason else None
    return None, both  # "NgramProposer on the V1 engine, NGramWorker on V0 (...)"


# TensorRT-LLM families only its engine flow runs (a speculative_decoding_mode of the engine):
# their decoding layer is the [[symbol]] row of trtllm.toml that names a worker
_ENGINE_ONLY = ("MEDUSA", "LOOKAHEAD")


def _trtllm(named: Sequence[tuple[str, str, int, str]], engine_flow: bool) -> list[Evidence]:
    """A TensorRT-LLM run whose text names Medusa or lookahead: the engine flow's decoding
    layer for it, decided where the crash ran the engine flow's runtime, else a condition."""
    families = dict.fromkeys(f for f, *_ in named)
    if len(families) != 1 or (family := next(iter(families))) not in _ENGINE_ONLY:
        return []
    cls = next((s.worker for s in symbol_signatures() if s.framework == "trtllm"
                and s.family == family and s.worker and s.points_to), None)  # fmt: skip
    if cls is None:
        return []
    _f, source, lineno, text = named[0]
    reason = f"{PROSE_REASON}: the text names {family} for a TensorRT-LLM run"
    if engine_flow:
        return [Evidence(source, lineno, text, f"{reason} on the engine flow's runtime -> "
                         f"{cls} (other)", "other", cls)]  # fmt: skip
    condition = f"{cls} if the TensorRT engine flow ran it ({family} mode)"
    return [Evidence(source, lineno, text, f"{reason}: {condition}", None, None, condition)]
