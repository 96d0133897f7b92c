"""Frames of vLLM V0 spec workers and TensorRT-LLM's speculative modules name their path;
vLLM V0's ngram_worker.py is not sglang's NGRAMWorker."""

from __future__ import annotations

import pytest

from spectrace.assemblers.crash import Frame
from spectrace.path_frames import frame_signature


@pytest.mark.parametrize(
    ("file", "worker"),
    [
        ("/x/vllm/spec_decode/spec_decode_worker.py", "SpecDecodeWorker"),
        ("/x/vllm/spec_decode/ngram_worker.py", "NGramWorker"),
        ("/x/vllm/spec_decode/multi_step_worker.py", "MultiStepWorker"),
        ("/x/sglang/srt/speculative/ngram_worker.py", "NGRAMWorker"),
        ("/x/vllm/v1/spec_decode/draft_model.py", "DraftModelProposer"),
        ("/x/tensorrt_llm/_torch/speculative/ngram.py", "NGramDrafter"),
        ("/x/tensorrt_llm/_torch/speculative/model_drafter.py", "ModelDrafter"),
    ],
)
def test_speculative_frames_name_their_worker(file: str, worker: str) -> None:
    sig = frame_signature(Frame(file, 1, "f"))
    assert sig is not None and sig.worker_class == worker


def test_the_v0_scorer_only_informs() -> None:
    sig = frame_signature(Frame("/x/vllm/spec_decode/batch_expansion.py", 81, "score_proposals"))
    assert sig is not None and sig.points_to is None


@pytest.mark.parametrize("file", ["mtp.py", "eagle3.py"])
def test_trtllm_files_two_workers_share_name_no_class(file: str) -> None:
    """mtp.py holds MTPWorker and its subclass MTPEagleWorker (releases before the unified
    one-model worker); eagle3.py holds Eagle3OneModelWorker, both styles' EAGLE-3 metadata and
    the newer MTPEagleWorker wrapper: the run's decoding_type picks the class, not the frame."""
    sig = frame_signature(Frame(f"/x/tensorrt_llm/_torch/speculative/{file}", 1, "forward"))
    assert sig is not None and sig.points_to is None and sig.worker_class is None
