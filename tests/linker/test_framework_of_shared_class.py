"""A class several frameworks define (``NGramWorker``: vLLM V0's n-gram worker and TensorRT-LLM's
PyTorch n-gram worker) shows the framework the words placed the run on, not the first table
holding the class: a vLLM report named only in words was shown as a TensorRT-LLM run. Our own
lines; a probe crash at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import probed_path


@pytest.mark.parametrize("lines", [
    ["vllm-project/vllm · issue #31234 · open", "# [Bug]: ngram crashes", "",
     "alice · description · 2025-09-10",
     "On vLLM 0.6.3, ngram speculative decoding crashes: output token throughput 12 tok/s."],
    ["Running vLLM 0.6.3.post1 with ngram speculative decoding: output token throughput "
     "410 tok/s, then the crash below."],
])  # fmt: skip
def test_a_vllm_run_named_in_words_shows_vllm(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert (path.worker_class, path.framework) == ("NGramWorker", "vllm"), path
