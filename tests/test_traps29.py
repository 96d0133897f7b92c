"""Texts with no run of their own get no path (issue 11, session 29, TRAPS29).

The shapes: a unit-test run's log (pytest over a unit-test folder, the proposer's tests among
them, no engine, worker or scheduler record): its test ids and files name the code under test,
not a served run. The same tests' end-to-end twins, which start an engine and print its records,
keep their paths. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, roots, run

# ---- a unit-test job's log: test ids name the proposer under test, nothing served ----------------

ASCEND_UT = [
    'acme-ci/ascend-ci-mirror · jobs/unit-cpu/run-2231.log (commit 1a2b3c4, 2026-09-02): CPU unit-test job of vllm-project/vllm-ascend',
    '2026-09-02T10:00:01.0000000Z ##[group]Run pytest -sv tests/ut/spec_decode tests/ut/attention',
    '2026-09-02T10:00:01.0500000Z for target in tests/ut/attention/test_mla_v1.py tests/ut/spec_decode/test_eagle_proposer.py::TestEagleProposerDraft tests/ut/spec_decode/test_mtp_proposer.py::TestMtpProposerSetup; do echo "  - ${target}"; done',
    '2026-09-02T10:00:01.1000000Z pytest -sv tests/ut/spec_decode tests/ut/attention',
    '2026-09-02T10:00:04.0000000Z ============================= test session starts ==============================',
    '2026-09-02T10:00:04.0100000Z platform linux -- Python 3.11.10, pytest-8.3.2, pluggy-1.6.0',
    '2026-09-02T10:00:09.0000000Z tests/ut/spec_decode/test_mtp_proposer.py::TestMtpProposerSetup::test_init_with_two_tokens PASSED',
    '2026-09-02T10:00:09.1000000Z tests/ut/spec_decode/test_mtp_proposer.py::TestMtpProposerSetup::test_load_model_shares_embedding PASSED',
    '2026-09-02T10:00:09.2000000Z tests/ut/spec_decode/test_mtp_proposer.py::TestMtpProposerPropose::test_propose_greedy PASSED',
    '2026-09-02T10:00:09.3000000Z tests/ut/spec_decode/test_eagle_proposer.py::TestEagleProposerDraft::test_dummy_run_eager PASSED',
    '2026-09-02T10:00:09.4000000Z tests/ut/attention/test_mla_v1.py::TestMlaBuilder::test_build_decode_only FAILED',
    '2026-09-02T10:00:10.0000000Z =================================== FAILURES ===================================',
    '2026-09-02T10:00:10.0100000Z ________________ TestMlaBuilder.test_build_decode_only ________________',
    '2026-09-02T10:00:10.0200000Z Traceback (most recent call last):',
    '2026-09-02T10:00:10.0300000Z   File "/__w/vllm-ascend/vllm-ascend/tests/ut/attention/test_mla_v1.py", line 88, in test_build_decode_only',
    '2026-09-02T10:00:10.0400000Z     meta = builder.build(common, mock_runner)',
    '2026-09-02T10:00:10.0500000Z   File "/__w/vllm-ascend/vllm-ascend/vllm_ascend/attention/mla_v1.py", line 412, in build',
    '2026-09-02T10:00:10.0600000Z     spans = torch.cumsum(lens, dim=0)',
    '2026-09-02T10:00:10.0700000Z TypeError: cumsum() received an invalid combination of arguments - got (MagicMock, dim=int)',
    '2026-09-02T10:00:11.0000000Z =========================== short test summary info ============================',
    '2026-09-02T10:00:11.0100000Z FAILED tests/ut/attention/test_mla_v1.py::TestMlaBuilder::test_build_decode_only - TypeError: cumsum()',
    '2026-09-02T10:00:11.0200000Z ================== 1 failed, 4 passed in 7.01s ==================',
]
SGLANG_UT = [
    'lab/sglang-fork-ci · ci/logs/unit_cpu_0917.txt (commit 9f8e7d6, 2026-09-17): sglang unit tests on a CPU runner',
    '$ python -m pytest -rA test/unit/speculative/test_eagle_worker_v2.py test/unit/speculative/test_ngram_worker.py test/unit/mem_cache',
    'collected 9 items',
    'test/unit/speculative/test_eagle_worker_v2.py ....F                      [ 55%]',
    'test/unit/speculative/test_ngram_worker.py ....                          [100%]',
    '=================================== FAILURES ===================================',
    '__________________ TestEagleWorkerV2Draft.test_draft_extend_shapes __________________',
    'E       AssertionError: expected 4 draft tokens, got 3',
    'test/unit/speculative/test_eagle_worker_v2.py:141: AssertionError',
    '=========================== short test summary info ============================',
    'PASSED test/unit/speculative/test_eagle_worker_v2.py::TestEagleWorkerV2Draft::test_topk_one',
    'PASSED test/unit/speculative/test_eagle_worker_v2.py::TestEagleWorkerV2Draft::test_verify_accepts_prefix',
    'PASSED test/unit/speculative/test_ngram_worker.py::TestNgramWorker::test_match_window',
    'PASSED test/unit/speculative/test_ngram_worker.py::TestNgramWorker::test_empty_cache',
    'FAILED test/unit/speculative/test_eagle_worker_v2.py::TestEagleWorkerV2Draft::test_draft_extend_shapes - AssertionError: expected 4 draft tokens, got 3',
    '==================== 1 failed, 8 passed in 3.20s ====================',
]


@pytest.mark.parametrize("lines", [ASCEND_UT, SGLANG_UT], ids=["ascend-ut", "sglang-unit"])
def test_a_unit_test_log_names_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


ASCEND_E2E = [
    'acme-ci/ascend-ci-mirror · jobs/e2e-1card/run-2240.log (commit 1a2b3c4, 2026-09-03): single-card e2e job of vllm-project/vllm-ascend',
    '2026-09-03T08:00:01.0000000Z pytest -sv tests/e2e/singlecard/spec_decode/test_mtp_correctness.py',
    '2026-09-03T08:00:30.0000000Z tests/e2e/singlecard/spec_decode/test_mtp_correctness.py::test_mtp_correctness[deepseek] ',
    "2026-09-03T08:00:31.0000000Z INFO 09-03 08:00:31 [core.py:93] Initializing a V1 LLM engine (v0.1.dev1+gabc1234) with config: model='vllm-ascend/DeepSeek-V3-Pruning', speculative_config=SpeculativeConfig(method='mtp', model='vllm-ascend/DeepSeek-V3-Pruning', num_spec_tokens=1)",
    '2026-09-03T08:00:40.0000000Z (EngineCore_DP0 pid=4411) ERROR 09-03 08:00:40 [core.py:866] EngineCore encountered a fatal error.',
    '2026-09-03T08:00:40.0100000Z (EngineCore_DP0 pid=4411) Traceback (most recent call last):',
    '2026-09-03T08:00:40.0200000Z (EngineCore_DP0 pid=4411)   File "/usr/local/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", line 2301, in execute_model',
    '2026-09-03T08:00:40.0300000Z (EngineCore_DP0 pid=4411)     draft = self.drafter.propose(inputs)',
    '2026-09-03T08:00:40.0400000Z (EngineCore_DP0 pid=4411)   File "/usr/local/python3.11/site-packages/vllm_ascend/spec_decode/mtp_proposer.py", line 377, in propose',
    '2026-09-03T08:00:40.0500000Z (EngineCore_DP0 pid=4411)     hidden = self.model(input_ids, positions)',
    '2026-09-03T08:00:40.0600000Z (EngineCore_DP0 pid=4411) RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB',
    '2026-09-03T08:00:41.0000000Z tests/e2e/singlecard/spec_decode/test_mtp_correctness.py::test_mtp_correctness[deepseek] FAILED',
    '2026-09-03T08:00:41.0100000Z tests/e2e/singlecard/spec_decode/test_mtp_correctness.py::test_mtp_correctness[qwen] SKIPPED',
    '2026-09-03T08:00:41.0200000Z tests/e2e/singlecard/spec_decode/test_mtp_correctness.py::test_mtp_correctness[glm] SKIPPED',
]
# the same job with its test folder renamed to a unit folder: the engine's records still show a run
ASCEND_UT_ENGINE = [line.replace("tests/e2e/singlecard/", "tests/ut/") for line in ASCEND_E2E]


@pytest.mark.parametrize("lines", [ASCEND_E2E, ASCEND_UT_ENGINE], ids=["e2e", "ut-with-engine"])
def test_a_test_log_with_engine_records_keeps_its_run(tmp_path: Path, lines: list[str]) -> None:
    paths = [crash.worker_path for crash in roots(run(tmp_path, lines))]
    assert any(p is not None and p.worker_class == "MtpProposer" for p in paths), paths
