"""A call chain written with arrows in a report's prose names the files the run went through
(round 40 30: "`.../spec_decode/autoregressive/speculator.py` → `cudagraph_utils.py` →
`torch/xpu/graphs.py:192`"), as a ``file.py:N`` in a sentence does: a worker file among its
steps is a (weak) vote for its class. Lines are our own, in the shapes reports write them."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import probed_path

from spectrace.path_mentions import base_names, line_names

HEAD = ["vllm-project/vllm · issue #70040 · open", "# [Bug]: engine crash under load with speculative decoding",
        "", "someone · description · 2026-03-10"]  # fmt: skip



@pytest.mark.parametrize(
    ("line", "worker"),
    [
        # a March 2026 thread: eagle.py's SpecDecodeBaseProposer also ran DraftModelProposer
        # then (vLLM 0.15.0-0.19.1, frame_releases): a condition naming both
        ("The crash goes vllm/v1/spec_decode/eagle.py -> propose() -> torch/cuda/graphs.py under load.",
         "EagleProposer|DraftModelProposer"),
        ("Call chain: `gpu_model_runner.py` → `vllm/v1/spec_decode/eagle.py` → `flash_attn.py`",
         "EagleProposer|DraftModelProposer"),
        ("It crashes at `vllm/v1/worker/gpu/spec_decode/eagle/speculator.py` → `cudagraph_utils.py`.",
         "EagleSpeculator"),
        ("stack (top last): execute_model => vllm/v1/spec_decode/ngram_proposer.py => numba dispatch",
         "NgramProposer"),
    ],
)  # fmt: skip
def test_a_worker_file_in_an_arrow_chain_votes(tmp_path: Path, line: str, worker: str) -> None:
    path = probed_path(tmp_path, [*HEAD, line])
    if "|" in worker:
        assert path.value == "unknown" and all(c in (path.conditional or "") for c in worker.split("|"))
    else:
        assert (path.value, path.worker_class) == ("other", worker)
    assert path.evidence[0].lineno == 5


def test_a_base_file_in_a_chain_is_read_once() -> None:
    text = "draft step: gpu_model_runner.py -> vllm/v1/spec_decode/llm_base_proposer.py -> flash_attn.py"
    assert [name for name, _ in base_names(text)] == ["vllm/v1/spec_decode/llm_base_proposer.py"]


@pytest.mark.parametrize(
    "line",
    [
        # a change to the code, a link, a bare name several files share
        "I changed vllm/v1/spec_decode/eagle.py -> propose() to skip the copy.",
        "see https://github.com/vllm-project/vllm/blob/main/vllm/v1/spec_decode/eagle.py -> propose",
        "It dies in `gpu_model_runner.py` → `eagle.py` → `flash_attn.py`.",
        # a type hint is no chain
        "def propose(self) -> torch.Tensor: is in eagle.py",
    ],
)
def test_no_vote_from_changes_links_or_shared_names(line: str) -> None:
    assert line_names(line) == []
