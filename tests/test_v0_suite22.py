"""A CI run of vLLM's V0 speculative test suite ran the V0 spec-decode worker, whatever its day
(issue 11, session 22, the lead).

vLLM's ``tests/spec_decode/e2e/`` (and vllm-ascend's V0 copies of it, ``spec_decode/e2e/`` and
``spec_decode_v0/``) exercise the V0 engine's ``SpecDecodeWorker``; V1's speculative tests live in
``tests/v1/`` and the plugin's V1 ones are named ``test_v1_*``. A CI failure listing test ids of
the V0 suite is therefore a V0 run even on a day when V1 was already vLLM's default: a day must
not make it the V1 proposer. Found after the sealed measurement of round 60 (excerpt 08, decided
EagleProposer at the final HEAD); every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_vllmrun22 import _engine, _said, probed_path

V0_IDS = [
    "FAILED tests/spec_decode/e2e/test_eagle_correctness.py::test_eagle_e2e_greedy_correctness[1-32-seed0] - torch.OutOfMemoryError: CUDA out of memory",
    "tests/spec_decode/e2e/test_medusa_correctness.py::test_medusa_e2e_greedy_logprobs[4-1] FAILED",
    "[2025-06-12T03:11:09Z] FAILED spec_decode/e2e/test_mtp_correctness.py::test_mtp_e2e_greedy_correctness - RuntimeError",
    "FAILED tests/e2e/long_term/spec_decode_v0/e2e/test_mtp_correctness.py::test_mtp_e2e_greedy_correctness[1] - AssertionError",
    "FAILED tests/e2e/long_term/spec_decode/e2e/test_ngram_correctness.py::test_ngram_e2e_greedy_correctness - AssertionError",
]


@pytest.mark.parametrize("text", V0_IDS)
def test_a_test_id_of_the_v0_suite_shows_the_v0_engine(text: str) -> None:
    assert _engine(text) == "V0"


@pytest.mark.parametrize("text", [
    "FAILED tests/v1/spec_decode/test_eagle.py::test_load_model[True-1-eagle] - AssertionError",
    "FAILED tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[TREE_ATTN] - AssertionError",
    "FAILED tests/e2e/long_term/spec_decode/e2e/test_v1_mtp_correctness.py::test_mtp_correctness - AssertionError",
    "the V0 suite (tests/spec_decode/e2e/test_eagle_correctness.py) was removed with V0",
])  # fmt: skip
def test_v1_tests_and_a_file_named_in_prose_show_no_v0_engine(text: str) -> None:
    assert _engine(text) is None


@pytest.mark.parametrize("head", [
    ["# [CI Failure]: spec decode EAGLE tests OOM on the nightly", "Created: 2025-06-20", ""],
    ["https://github.com/vllm-project/vllm/issues/19999", "[CI Failure]: EAGLE correctness OOM (June 2025)", ""],
    [],
])  # fmt: skip
def test_a_dated_ci_failure_of_the_v0_suite_is_the_v0_worker(head: list[str], tmp_path: Path) -> None:
    lines = [*head, "The nightly spec decode job fails:", "",
             V0_IDS[0], "FAILED tests/spec_decode/e2e/test_eagle_correctness.py::test_eagle_e2e_greedy_correctness_cuda_graph[1-32] - torch.OutOfMemoryError"]  # fmt: skip
    said = _said(probed_path(tmp_path, lines))
    assert "SpecDecodeWorker" in said or "MultiStepWorker" in said, said
    assert "EagleProposer" not in said, said
