"""A record vLLM's logger headed with ``engine.py`` is V0's engine (issue 11, session 24, lead).

V0's multiprocessing engine (vllm/engine/multiprocessing/engine.py, MQLLMEngine) is the only
module of vLLM's trees named engine.py that logs; V1's engine modules are core.py,
core_client.py, llm_engine.py and async_llm.py. A cut issue copy of a 0.9 ROCm image's EAGLE-3
load failure kept only that record beside an "eagle" launch: the family lookup decided V1's
EagleProposer, which never ran. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import probed_path

HEAD = [
    "## Issue: [Bug]: draft weights of an EAGLE3 head do not load",
    "",
    "Docker image: rocm/vllm:rocm6.4.1_vllm_0.9.0.1_20250605",
    "",
    "I start vLLM eagle3 like this:",
    "`vllm serve /models/llama-8b --dtype float16 --distributed-executor-backend mp "
    "--speculative_config '{\"method\": \"eagle\", \"model\": \"acme/EAGLE3-Llama-8B\", "
    "\"num_speculative_tokens\": 5}'`",
    "",
    "and the draft load fails:",
    "",
]


def test_a_v0_engine_record_puts_the_family_on_v0(tmp_path: Path) -> None:
    lines = HEAD + ["ERROR 06-22 15:12:27 [engine.py:458] Attempted to load weight "
                    "(torch.Size([4096, 12288])) into parameter (torch.Size([4096, 8192]))"]
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "MultiStepWorker"
    assert any("only V0's engine has" in e.reason for e in path.evidence)


def test_a_v1_engine_record_does_not(tmp_path: Path) -> None:
    lines = HEAD + ["ERROR 06-22 15:12:27 [core.py:458] Attempted to load weight "
                    "(torch.Size([4096, 12288])) into parameter (torch.Size([4096, 8192]))"]
    assert probed_path(tmp_path, lines).worker_class != "MultiStepWorker"


def test_an_engine_py_name_without_vllms_header_is_not_v0(tmp_path: Path) -> None:
    # another program's logger (its own date format) naming its own engine.py says nothing of vLLM
    lines = HEAD + ["2025-06-22 15:12:27 ERROR [engine.py:458] Attempted to load weight "
                    "(torch.Size([4096, 12288])) into parameter (torch.Size([4096, 8192]))"]
    assert probed_path(tmp_path, lines).worker_class != "MultiStepWorker"


# a V0 speculative suite's test file run whole (no ``::test`` id): a plugin CI failure's command
CI_HEAD = [
    "## Issue: [CI Failure]: the MTP draft of our test model can't load in the plugin CI",
    "",
    "### Name of failing test",
    "",
]


def test_a_v0_suite_file_run_whole_is_v0(tmp_path: Path) -> None:
    lines = CI_HEAD + ["`pytest ./tests/e2e/long_term/spec_decode_v0/e2e/test_mtp_correctness.py`",
                       "", "KeyError: 'model.layers.5.shared_head.norm.weight'"]
    assert probed_path(tmp_path, lines).worker_class == "SpecDecodeWorker"


def test_a_v1_suite_file_is_not_v0(tmp_path: Path) -> None:
    lines = CI_HEAD + ["`pytest ./tests/e2e/singlecard/spec_decode/e2e/test_v1_mtp_correctness.py`",
                       "", "KeyError: 'model.layers.5.shared_head.norm.weight'"]
    assert probed_path(tmp_path, lines).worker_class != "SpecDecodeWorker"
