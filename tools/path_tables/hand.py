"""Rows written by hand (``source = "hand"``): every row of the tuple spectrace/path_frames.py
held before the tables, kept with the same suffix / function / needs_spec, so no verdict
decided before the tables changes (less the bundled engine's own ``workers/eagle_v1.py`` /
``eagle_v2.py``: the engine now runs SGLang's file layout, so SGLang's rows decide it). A hand row replaces the generated row of the same file
(and function) but takes its classes and releases from the scan.

(framework, suffix, path, worker, what, function, needs_spec, scanned file it covers or "")
"""

from __future__ import annotations

HAND_FRAMES: tuple[tuple[str, str, str, str, str, str, bool, str], ...] = (
    ("sglang", "multi_layer_eagle_worker_v2.py", "v2", "MultiLayerEagleWorkerV2", "multi-layer EAGLE, v2", "", False, "srt/speculative/multi_layer_eagle_worker_v2.py"),
    ("sglang", "multi_layer_eagle_worker.py", "v1", "MultiLayerEagleWorker", "multi-layer EAGLE, v1", "", False, "srt/speculative/multi_layer_eagle_worker.py"),
    ("sglang", "standalone_worker_v2.py", "v2", "StandaloneWorkerV2", "standalone draft, v2", "", False, "srt/speculative/standalone_worker_v2.py"),
    ("sglang", "standalone_worker.py", "v1", "StandaloneWorker", "standalone draft, v1", "", False, "srt/speculative/standalone_worker.py"),
    ("sglang", "eagle_worker_v2.py", "v2", "EAGLEWorkerV2", "EAGLEWorkerV2 / EagleDraftWorker (overlap)", "", False, "srt/speculative/eagle_worker_v2.py"),
    ("sglang", "eagle_info_v2.py", "v2", "EAGLEWorkerV2", "spec v2 batch preparation", "", False, "srt/speculative/eagle_info_v2.py"),
    ("sglang", "eagle_worker.py", "v1", "EAGLEWorker", "EAGLEWorker (non-overlap; the file exists up to sglang 0.5.12)", "", False, "srt/speculative/eagle_worker.py"),
    ("vllm", "spec_decode/ngram_worker.py", "other", "NGramWorker", "vLLM V0 n-gram proposer worker", "", False, "spec_decode/ngram_worker.py"),
    ("vllm", "spec_decode/spec_decode_worker.py", "other", "SpecDecodeWorker", "vLLM V0 spec worker", "", False, "spec_decode/spec_decode_worker.py"),
    ("vllm", "spec_decode/multi_step_worker.py", "other", "MultiStepWorker", "vLLM V0 draft worker", "", False, "spec_decode/multi_step_worker.py"),
    ("vllm", "spec_decode/medusa_worker.py", "other", "MedusaWorker", "vLLM V0 Medusa worker", "", False, "spec_decode/medusa_worker.py"),
    ("vllm", "spec_decode/draft_model_runner.py", "other", "MultiStepWorker", "vLLM V0 draft-model runner (TP1DraftModelRunner): SpecDecodeWorker.create_worker sets it for MultiStepWorker only", "", False, "spec_decode/draft_model_runner.py"),
    ("vllm", "spec_decode/mlp_speculator_worker.py", "other", "MLPSpeculatorWorker", "vLLM V0 MLP speculator worker", "", False, "spec_decode/mlp_speculator_worker.py"),
    ("vllm", "spec_decode/batch_expansion.py", "", "", "vLLM V0 batch-expansion scorer", "", False, "spec_decode/batch_expansion.py"),
    ("sglang", "ngram_worker.py", "other", "NGRAMWorker", "NGRAM speculative worker", "", False, "srt/speculative/ngram_worker.py"),
    ("sglang", "ngram_info.py", "other", "NGRAMWorker", "NGRAM verify input", "", False, "srt/speculative/ngram_info.py"),
    ("vllm", "spec_decode/eagle.py", "other", "EagleProposer", "vLLM EAGLE proposer", "", False, "v1/spec_decode/eagle.py"),
    ("vllm", "spec_decode/ngram_proposer.py", "other", "NgramProposer", "vLLM n-gram proposer", "", False, "v1/spec_decode/ngram_proposer.py"),
    ("vllm", "spec_decode/medusa.py", "other", "MedusaProposer", "vLLM Medusa proposer", "", False, "v1/spec_decode/medusa.py"),
    ("vllm", "spec_decode/draft_model.py", "other", "DraftModelProposer", "vLLM draft-model proposer", "", False, "v1/spec_decode/draft_model.py"),
    # MTP vanilla's MTPWorker shares mtp.py with its subclass MTPEagleWorker (MTP Eagle, the
    # default for a one-module checkpoint) in the releases before the unified one-model worker,
    # whose eagle3.py holds Eagle3OneModelWorker, the two-model EAGLE-3 metadata and the MTPEagleWorker
    # wrapper: a frame there names no class (the run's decoding_type picks it)
    ("trtllm", "_torch/speculative/mtp.py", "", "", "TensorRT-LLM MTP (MTPWorker, or MTPEagleWorker which subclasses it in the same file)", "", False, "tensorrt_llm/_torch/speculative/mtp.py"),
    ("trtllm", "_torch/speculative/eagle3.py", "", "", "TensorRT-LLM EAGLE-3 one-model worker, EAGLE-3 metadata of both styles and, in newer releases, the MTPEagleWorker wrapper", "", False, "tensorrt_llm/_torch/speculative/eagle3.py"),
    ("trtllm", "_torch/speculative/model_drafter.py", "other", "ModelDrafter", "TensorRT-LLM drafter", "", False, "tensorrt_llm/_torch/speculative/model_drafter.py"),
    ("sglang", "scheduler.py", "v2", "EAGLEWorkerV2", "overlap event loop (spec v2 for EAGLE)", "event_loop_overlap", True, "srt/managers/scheduler.py"),
    ("sglang", "disaggregation/decode.py", "v2", "EAGLEWorkerV2", "overlap event loop (spec v2 for EAGLE)", "event_loop_overlap_disagg_decode", True, "srt/disaggregation/decode.py"),
    ("sglang", "disaggregation/prefill.py", "v2", "EAGLEWorkerV2", "overlap event loop (spec v2 for EAGLE)", "event_loop_overlap_disagg_prefill", True, "srt/disaggregation/prefill.py"),
    ("sglang", "scheduler.py", "v1", "EAGLEWorker", "normal event loop (spec v1 for EAGLE)", "event_loop_normal", True, "srt/managers/scheduler.py"),
    ("sglang", "disaggregation/decode.py", "v1", "EAGLEWorker", "normal event loop (spec v1 for EAGLE)", "event_loop_normal_disagg_decode", True, "srt/disaggregation/decode.py"),
    ("sglang", "disaggregation/prefill.py", "v1", "EAGLEWorker", "normal event loop (spec v1 for EAGLE)", "event_loop_normal_disagg_prefill", True, "srt/disaggregation/prefill.py"),
    ("sglang", "managers/overlap_utils.py", "v2", "EAGLEWorkerV2", "overlap future map", "", True, "srt/managers/overlap_utils.py"),
    ("sglang", "speculative/eagle_info.py", "", "", "spec_info shared by v1 and v2", "", False, "srt/speculative/eagle_info.py"),
    ("sglang", "speculative/eagle_utils.py", "", "", "draft-tree helpers", "", False, "srt/speculative/eagle_utils.py"),
    ("sglang", "eagle_draft_cuda_graph_runner.py", "", "", "draft CUDA-graph runner", "", False, "srt/speculative/eagle_draft_cuda_graph_runner.py"),
    ("sglang", "eagle_draft_extend_cuda_graph_runner.py", "", "", "draft-extend CUDA-graph runner", "", False, "srt/speculative/eagle_draft_extend_cuda_graph_runner.py"),
    ("sglang", "cuda_graph_runner.py", "", "", "target CUDA-graph runner (verify shapes when spec)", "", False, "srt/model_executor/cuda_graph_runner.py"),
    ("vllm", "sample/rejection_sampler.py", "", "", "vLLM rejection sampler", "", False, "v1/sample/rejection_sampler.py"),
)
