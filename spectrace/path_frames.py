"""Traceback-frame signatures of the speculative worker paths (LOG_FORMATS.md 1.6, 2.4), for
SGLang, vLLM (V1 proposers, V0 spec workers) and TensorRT-LLM's PyTorch backend.

A frame in ``eagle_worker.py`` proves the v1 EAGLEWorker ran, whatever the config says;
scheduler event loops prove the overlap choice only for EAGLE-family runs; shared code
(spec_info, graph runners) only informs.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from spectrace.assemblers.crash import Frame


@dataclass(frozen=True, slots=True)
class FrameSignature:
    name: str  # path suffix matched against the frame's file ("speculative/eagle_worker.py")
    points_to: str | None  # "v1" | "v2" | "other" | None (shared code: informs only)
    worker_class: str | None
    what: str
    function: str | None = None  # only frames in this function count
    needs_spec: bool = False  # proves the path only when the run is EAGLE-family speculative
    framework: str = ""  # "sglang" | "vllm" | "vllm_ascend" | "trtllm" | "spectrace"
    family: str = ""  # "EAGLE", "MTP", "NGRAM", ... ("" = shared by several)
    classes: tuple[str, ...] = ()  # classes the file defines, for class names seen in messages
    spec_only: bool = True  # only speculative runs execute it (not the target's graph runner)


def _sig(
    name: str,
    points_to: str | None,
    worker: str | None,
    what: str,
    function: str | None = None,
    needs_spec: bool = False,
    framework: str = "sglang",
    family: str = "",
) -> FrameSignature:
    classes = (worker,) if worker and points_to else ()
    return FrameSignature(
        name, points_to, worker, what, function, needs_spec, framework, family, classes
    )


def _vllm(name: str, points_to: str | None, worker: str | None, what: str, family: str = "",
          framework: str = "vllm") -> FrameSignature:  # fmt: skip
    return _sig(name, points_to, worker, what, framework=framework, family=family)


def _trt(name: str, worker: str | None, what: str, family: str) -> FrameSignature:
    return _sig(name, "other", worker, what, framework="trtllm", family=family)


def _loops(kind: str) -> tuple[tuple[str, str], ...]:
    """The scheduler loops of one overlap choice, PD-disaggregated ones included (same choice)."""
    return (
        ("scheduler.py", f"event_loop_{kind}"),
        ("disaggregation/decode.py", f"event_loop_{kind}_disagg_decode"),
        ("disaggregation/prefill.py", f"event_loop_{kind}_disagg_prefill"),
    )


# Most specific first: the first signature whose suffix (and function) matches wins.
FRAME_SIGNATURES: tuple[FrameSignature, ...] = (
    _sig("multi_layer_eagle_worker_v2.py", "v2", "MultiLayerEagleWorkerV2", "multi-layer EAGLE, v2",
         family="MULTI_LAYER_EAGLE"),  # fmt: skip
    _sig("multi_layer_eagle_worker.py", "v1", "MultiLayerEagleWorker", "multi-layer EAGLE, v1",
         family="MULTI_LAYER_EAGLE"),  # fmt: skip
    _sig("standalone_worker_v2.py", "v2", "StandaloneWorkerV2", "standalone draft, v2",
         family="STANDALONE"),  # fmt: skip
    _sig("standalone_worker.py", "v1", "StandaloneWorker", "standalone draft, v1",
         family="STANDALONE"),  # fmt: skip
    _sig("eagle_worker_v2.py", "v2", "EAGLEWorkerV2", "EAGLEWorkerV2 / EagleDraftWorker (overlap)"),
    _sig("eagle_info_v2.py", "v2", "EAGLEWorkerV2", "spec v2 batch preparation"),
    _sig(
        "eagle_worker.py",
        "v1",
        "EAGLEWorker",
        "EAGLEWorker (non-overlap; the file exists up to sglang 0.5.12)",
    ),
    # vLLM V0 (vllm/spec_decode/, up to 0.9): before sglang's ngram_worker.py, which it shares
    _vllm("spec_decode/ngram_worker.py", "other", "NGramWorker", "vLLM V0 n-gram proposer worker",
          "NGRAM"),  # fmt: skip
    _vllm("spec_decode/spec_decode_worker.py", "other", "SpecDecodeWorker", "vLLM V0 spec worker"),
    _vllm("spec_decode/multi_step_worker.py", "other", "MultiStepWorker", "vLLM V0 draft worker",
          "DRAFT_MODEL"),  # fmt: skip
    _vllm("spec_decode/medusa_worker.py", "other", "MedusaWorker", "vLLM V0 Medusa worker",
          "MEDUSA"),  # fmt: skip
    _vllm(
        "spec_decode/mlp_speculator_worker.py",
        "other",
        "MLPSpeculatorWorker",
        "vLLM V0 MLP speculator worker",
        "MLP_SPECULATOR",
    ),
    _vllm("spec_decode/batch_expansion.py", None, None, "vLLM V0 batch-expansion scorer"),
    _sig("ngram_worker.py", "other", "NGRAMWorker", "NGRAM speculative worker", family="NGRAM"),
    _sig("ngram_info.py", "other", "NGRAMWorker", "NGRAM verify input", family="NGRAM"),
    _vllm("spec_decode/eagle.py", "other", "EagleProposer", "vLLM EAGLE proposer"),
    _vllm("spec_decode/ngram_proposer.py", "other", "NgramProposer", "vLLM n-gram proposer",
          "NGRAM"),  # fmt: skip
    _vllm("spec_decode/medusa.py", "other", "MedusaProposer", "vLLM Medusa proposer", "MEDUSA"),
    _vllm("spec_decode/draft_model.py", "other", "DraftModelProposer", "vLLM draft-model proposer",
          "DRAFT_MODEL"),  # fmt: skip
    # TensorRT-LLM's PyTorch backend (tensorrt_llm/_torch/speculative/)
    _trt("_torch/speculative/mtp.py", "MTPWorker", "TensorRT-LLM MTP", "MTP"),
    _trt("_torch/speculative/eagle3.py", "Eagle3OneModelWorker", "TensorRT-LLM EAGLE-3", "EAGLE3"),
    _trt("_torch/speculative/model_drafter.py", "ModelDrafter", "TensorRT-LLM drafter",
         "DRAFT_TARGET"),  # fmt: skip
    _sig("workers/eagle_v1.py", "v1", "EAGLEWorker", "spectrace engine v1 worker",
         framework="spectrace"),  # fmt: skip
    _sig("workers/eagle_v2.py", "v2", "EAGLEWorkerV2", "spectrace engine v2 worker",
         framework="spectrace"),  # fmt: skip
    *(
        _sig(file, "v2", "EAGLEWorkerV2", "overlap event loop (spec v2 for EAGLE)", loop, True)
        for file, loop in _loops("overlap")
    ),
    *(
        _sig(file, "v1", "EAGLEWorker", "normal event loop (spec v1 for EAGLE)", loop, True)
        for file, loop in _loops("normal")
    ),
    _sig("managers/overlap_utils.py", "v2", "EAGLEWorkerV2", "overlap future map", None, True),
    _sig("speculative/eagle_info.py", None, None, "spec_info shared by v1 and v2"),
    _sig("speculative/eagle_utils.py", None, None, "draft-tree helpers"),
    _sig("eagle_draft_cuda_graph_runner.py", None, None, "draft CUDA-graph runner"),
    _sig("eagle_draft_extend_cuda_graph_runner.py", None, None, "draft-extend CUDA-graph runner"),
    FrameSignature("cuda_graph_runner.py", None, None,
                   "target CUDA-graph runner (verify shapes when spec)", framework="sglang",
                   spec_only=False),  # fmt: skip
    _vllm("sample/rejection_sampler.py", None, None, "vLLM rejection sampler"),
)

def _by_basename() -> dict[str, tuple[FrameSignature, ...]]:
    """Signatures per file name, in FRAME_SIGNATURES order: a frame is checked only against
    those its own file name could match (a suffix match ends with the same name)."""
    index: dict[str, tuple[FrameSignature, ...]] = {}
    for sig in FRAME_SIGNATURES:
        base = sig.name.rsplit("/", 1)[-1]
        index[base] = (*index.get(base, ()), sig)
    return index


_BY_BASENAME = MappingProxyType(_by_basename())


def _matches(path: str, suffix: str) -> bool:
    return path == suffix or path.endswith("/" + suffix)


def frame_signature(frame: Frame) -> FrameSignature | None:
    """The signature a frame matches, if its file is one the linker knows."""
    path = frame.file.replace("\\", "/")
    for sig in _BY_BASENAME.get(path.rsplit("/", 1)[-1], ()):
        if _matches(path, sig.name) and (sig.function is None or frame.function == sig.function):
            return sig
    return None


def _by_class() -> dict[str, FrameSignature]:
    """The file that defines each worker / proposer class (the first row naming it wins)."""
    index: dict[str, FrameSignature] = {}
    for sig in FRAME_SIGNATURES:
        if sig.function is None and not sig.needs_spec:
            for name in sig.classes:
                index.setdefault(name, sig)
    return index


_BY_CLASS = MappingProxyType(_by_class())


def signature_for_class(name: str) -> FrameSignature | None:
    """The signature of the file that defines a class an exception message names."""
    return _BY_CLASS.get(name)


def family_of(worker_class: str | None) -> tuple[str, str] | None:
    """(framework, family) the tables give a worker class; family "" when shared."""
    sig = _BY_CLASS.get(worker_class or "")
    return (sig.framework, sig.family) if sig is not None else None
