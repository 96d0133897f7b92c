"""A vLLM draft model's own file among the crash's frames (or a crash chain's steps) -> the
method that loaded it, and so its proposer.

vLLM builds a draft by its architecture, and a draft model's file belongs to one method: its
name is the method's (``gemma4_mtp.py``: gemma4_mtp, Gemma4Proposer; ``deepseek_mtp.py``:
deepseek_mtp, read as mtp), or its classes are the architecture table's
(``vllm_config.architecture_method``: ``DFlashQwen3ForCausalLM`` dflash, ``Eagle3LlamaForCausalLM``
eagle3); one that several methods load (``DeepSeekV4MTP``: mtp and dspark,
``vllm_startup.SHARED_DRAFTS``) names each of them. The runner is the one the other frames show:
the V1 runner's file or a V1 proposer's (``gpu_model_runner.py``, ``v1/spec_decode/...``), or
the model runner v2's tree (``v1/worker/gpu/``); where none does, the one the text's release
leaves (``vllm_runner.on_runner``); with neither, the file decides no one proposer (the frame
tables' rows for draft files decide nothing alone), while a file several methods load still
gives their condition. A platform plugin (vllm-ascend) drafts through vLLM's model files
with proposers of its own: its frames or its platform leave the file no class here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.vllm_config import architecture_method
from spectrace.assemblers.vllm_proposers import method_classes, proposer_verdict
from spectrace.assemblers.vllm_runner import RUNNER_FLAG, on_runner
from spectrace.assemblers.vllm_startup import SHARED_DRAFTS, possible
from spectrace.path_chains import ChainStep
from spectrace.path_evidence import StackFrame
from spectrace.path_frames import FrameSignature, frame_signature
from spectrace.path_mention_kinds import CHAIN_KIND

_V1_FILES = ("v1/worker/gpu_model_runner.py", "v1/spec_decode/")
_V2_TREE = "v1/worker/gpu/"
_V1_CLASS = re.compile(r"Proposer(?:GPU)?$")  # the V1 runner's drafters (MRV2's are speculators)


def draft_methods(sig: FrameSignature) -> tuple[str, ...]:
    """The vLLM methods whose draft a draft-model file builds (none: not one, or not known)."""
    if sig.framework != "vllm" or sig.role != "draft_model":
        return ()
    stem = sig.name.rsplit("/", 1)[-1].removesuffix(".py")
    if stem in method_classes():
        return (stem,)
    shared = next((SHARED_DRAFTS[f"{c}Model"] for c in sig.classes if f"{c}Model" in SHARED_DRAFTS), None)
    if shared is not None:
        return shared
    methods = {m for cls in sig.classes if (m := architecture_method(cls)) is not None}
    return (methods.pop(),) if len(methods) == 1 else ()


def draft_file_evidence(
    frames: Sequence[StackFrame], steps: Sequence[ChainStep], config: RunConfig
) -> list[Evidence]:
    """The proposer of the method the first draft-model file among the frames (or the steps)
    names, on the runner the others show: one class decides, several make a condition."""
    sites = [(sf.source, sf.lineno, sf.text, sf.kind, sig) for sf in frames
             if (sig := frame_signature(sf.frame)) is not None]  # fmt: skip
    sites += [(s.source, s.lineno, s.text, CHAIN_KIND, s.signature) for s in steps if s.signature is not None]
    names = [sig.name for *_, sig in sites] + [s.name for s in steps]
    draft = next(((site, methods) for site in sites if (methods := draft_methods(site[4]))), None)
    if draft is None or "platform" in config.flags or "platform_named" in config.flags \
            or any(sig.framework != "vllm" for *_, sig in sites):  # fmt: skip
        return []  # a plugin's runner or proposer around vLLM's model file: its own classes
    (source, lineno, text, kind, sig), methods = draft
    runner = "v1" if any(n.startswith(_V1_FILES) for n in names) else \
        "v2" if any(n.startswith(_V2_TREE) for n in names) else None  # fmt: skip
    read = config
    if runner is not None:
        read = replace(config, flags={**config.flags, RUNNER_FLAG: FlagValue(runner, source, lineno, "frame")})
    where = f"{kind} in {sig.name}: {sig.what}"
    shown = f" under the {'V1 runner' if runner == 'v1' else 'model runner v2'}'s frames" if runner else ""
    found: dict[str, Evidence] = {}
    for method in methods:
        reason, _to, cls = proposer_verdict(method, config.version, v1=True if runner == "v1" else None)
        if not cls or not possible(cls, config.version):
            continue
        said = f"{where}: the draft of method {method}{shown}: {reason}"
        read_on = on_runner(Evidence(source, lineno, text, said, "other", cls), read)
        if runner == "v1" and (read_on.worker_class != cls or not _V1_CLASS.search(cls)):
            continue  # (only the model runner v2 builds its class: not the V1 runner's frames')
        if read_on.worker_class or read_on.condition:
            found[method] = read_on
    if len(found) < 2:  # one class: decided only where a runner's frame or the release places it
        alone = runner is None and config.version is None
        return [] if alone and any(e.worker_class for e in found.values()) else list(found.values())
    each = "; or ".join(f"{e.worker_class or e.condition} (method {m})" for m, e in found.items())
    why = f"{sig.name.rsplit('/', 1)[-1]} is the draft of each of methods {', '.join(found)}"
    return [Evidence(source, lineno, text, f"{where}{shown}: {each}", None, None, f"{each}: {why}")]
