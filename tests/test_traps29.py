"""Texts with no run of their own get no path (issue 11, session 29, TRAPS29).

The shapes: a unit-test run's log (pytest over a unit-test folder, the proposer's tests among
them, no engine, worker or scheduler record): its test ids and files name the code under test,
not a served run. The same tests' end-to-end twins, which start an engine and print its records,
keep their paths. And a document that tells its writer's runs of other programs (a weight
conversion, a calibration) while its only engine launch is a plan (a command marked planned, a
launch under "Next steps"): the same notes with the serve run and its figure keep their paths.
Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, probed_path, roots, run

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


# ---- a document whose only engine launch is a plan: its told runs are a converter's --------------

PLANNED_SERVE = [
    'lab-q/kimi-fp4-mtp · notes/stage3_done.md (commit 77aa11b, 2026-09-20)',
    '',
    '# Stage 3 weight conversion — finished',
    '',
    '**When:** 2026-09-20',
    '**State:** Checkpoint exported; shapes checked. Serving comes in stage 4.',
    '',
    '## How it went',
    '',
    '- Two GPUs, one process each; the converter ran with `--calib 128 --seq 1024`.',
    '- The first pass crashed at layer 51 with `ValueError: scale tensor has wrong rank` while packing the MTP layer, so the MTP layer now stays in BF16.',
    '- The second pass finished in 41 minutes.',
    '',
    '## Checks',
    '',
    '| Check | Wanted | Got |',
    '|---|---|---|',
    '| tensors in index | 90K+ | 91,204 |',
    '| MTP tensors kept | all | all |',
    '',
    '## Stage 4',
    '',
    '- **Planned serve step:** `vllm serve lab-q/Kimi-FP4-MTP --tensor-parallel-size 2 --speculative-config \'{"method":"mtp","num_speculative_tokens":3}\'`',
    '- Aim: an acceptance length above 2 on chat prompts.',
]
NEXT_STEP_LAUNCH = [
    '# Porting the GLM draft head to FP8: progress log',
    '',
    '## Done so far',
    '',
    'We converted the base weights twice; the first export hung in the shard merge and was killed after two hours. The second export went through and its checksum matches the source.',
    '',
    '## Open items',
    '',
    '- Merge the tokenizer fixes.',
    '- Re-check the router weights.',
    '',
    '## Next steps',
    '',
    'Launch to try once the image is rebuilt:',
    '',
    '```bash',
    'python -m sglang.launch_server --model-path lab/GLM-FP8 --tp 4 \\',
    '  --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4',
    '```',
]


ROADMAP = [
    'lab-perf/qwen-a100-plan · docs/ROADMAP.md (commit 0badf00, 2026-10-05)',
    '',
    '# Qwen3-235B on eight A100s: speed roadmap',
    '',
    '## Where we are',
    '',
    'Our llama.cpp build decodes about 9.5 tok/s single-stream; two kernel flags made it slower and were reverted.',
    '',
    '## Roadmap',
    '',
    '### Stage 1: profile the current build',
    '',
    '```python',
    '# profile_decode.py',
    'run_profile(batch=1)',
    '```',
    '',
    '### Stage 2: try the draft head natively',
    '',
    '```bash',
    'vllm serve Qwen/Qwen3-235B-A22B --tensor-parallel-size 8 --speculative-config \'{"method": "eagle3", "model": "lab/q235-eagle3", "num_speculative_tokens": 2}\'',
    '```',
]


@pytest.mark.parametrize("lines", [PLANNED_SERVE, NEXT_STEP_LAUNCH, ROADMAP], ids=["planned-label", "next-steps", "roadmap"])
def test_a_document_whose_launch_is_a_plan_names_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# the same notes where the serve ran and the writer reports what it gave
SERVED = [
    line.replace("**Planned serve step:**", "**Serve command:**").replace(
        "- Aim: an acceptance length above 2 on chat prompts.",
        "- The server came up; mean acceptance length 2.4 over 300 chat prompts.")
    for line in PLANNED_SERVE
]
LAUNCHED = [
    {"## Next steps": "## Serving", "Launch to try once the image is rebuilt:": "Launched with:"}.get(line, line)
    for line in NEXT_STEP_LAUNCH
] + ["", "Accept length 3.1 at batch 1; the server ran for an hour."]


@pytest.mark.parametrize(("lines", "named"), [(SERVED, "EagleProposer"), (LAUNCHED, "EAGLEWorker")],
                         ids=["served", "launched"])
def test_the_same_document_with_its_serve_run_keeps_its_path(tmp_path: Path, lines: list[str], named: str) -> None:
    path = probed_path(tmp_path, lines)
    assert named in (path.conditional or path.worker_class or ""), path


# notes whose only launch is the next step, but whose writer tells serving the method before it
TOLD_SERVE = [
    '# EAGLE-3 bring-up notes, week 38',
    '',
    '## Setup',
    '',
    'Two H100s, the draft trained last week, target Llama-3.1-8B.',
    '',
    '## What happened',
    '',
    'We served the target with the EAGLE-3 draft on vLLM 0.20.0 on Tuesday; the server crashed during CUDA graph capture for the drafter.',
    '',
    '## Next steps',
    '',
    'Retry with eager mode:',
    '',
    '```bash',
    'vllm serve meta-llama/Llama-3.1-8B-Instruct --enforce-eager --speculative-config \'{"method": "eagle3", "model": "lab/llama8b-eagle3", "num_speculative_tokens": 3}\'',
    '```',
]


def test_notes_that_tell_serving_the_method_keep_their_path(tmp_path: Path) -> None:
    path = probed_path(tmp_path, TOLD_SERVE)
    assert path.worker_class == "EagleProposer", path


# ---- a launch that stops at the model hub, before any engine record: no worker was built ----------

VLLM_GATED = [
    'lab-bench/specdec-runs · logs/serve_ngram_0912.log (commit 5c5c5c5, 2026-09-12)',
    '',
    '+ vllm serve meta-llama/Llama-3.1-70B-Instruct --port 8100 --speculative-config {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}',
    "(APIServer pid=2210) INFO 09-12 10:01:02 [api_utils.py:273] non-default args: {'model_tag': 'meta-llama/Llama-3.1-70B-Instruct', 'port': 8100, 'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 4, 'prompt_lookup_max': 4}}",
    '(APIServer pid=2210) Traceback (most recent call last):',
    '(APIServer pid=2210)   File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py", line 123, in build_async_engine_client_from_engine_args',
    '(APIServer pid=2210)     vllm_config = engine_args.create_engine_config(usage_context=usage_context)',
    '(APIServer pid=2210)   File "/opt/venv/lib/python3.12/site-packages/vllm/transformers_utils/config.py", line 610, in get_config',
    '(APIServer pid=2210)     config_dict, _ = PretrainedConfig.get_config_dict(model, revision=revision)',
    '(APIServer pid=2210)   File "/opt/venv/lib/python3.12/site-packages/huggingface_hub/utils/_http.py", line 821, in hf_raise_for_status',
    '(APIServer pid=2210)     raise _format(GatedRepoError, message, response) from e',
    '(APIServer pid=2210) huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-aaaa)',
    '(APIServer pid=2210) Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-70B-Instruct/resolve/main/config.json.',
]
SGLANG_NOT_FOUND = [
    '$ python3 -m sglang.launch_server --model-path org-private/Qwen3-32B-chat --speculative-algorithm EAGLE3 --speculative-draft-model-path org-private/Qwen3-32B-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --tp 2',
    'Traceback (most recent call last):',
    '  File "/usr/local/lib/python3.10/dist-packages/sglang/launch_server.py", line 11, in <module>',
    '    server_args = prepare_server_args(sys.argv[1:])',
    '  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/server_args.py", line 3120, in prepare_server_args',
    '    return ServerArgs.from_cli_args(raw_args)',
    '  File "/usr/local/lib/python3.10/dist-packages/transformers/utils/hub.py", line 480, in cached_files',
    '    raise OSError(',
    "OSError: org-private/Qwen3-32B-chat is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'",
    'huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-bbbb)',
]


@pytest.mark.parametrize("lines", [VLLM_GATED, SGLANG_NOT_FOUND], ids=["vllm-gated", "sglang-not-found"])
def test_a_launch_stopped_at_the_hub_names_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("lines", "method"), [(VLLM_GATED, "ngram"), (SGLANG_NOT_FOUND, "EAGLE3")],
                         ids=["vllm-gated", "sglang-not-found"])
def test_the_explanation_names_the_configured_method_and_the_stop(tmp_path: Path, lines: list[str],
                                                                  method: str) -> None:
    (crash,) = roots(run(tmp_path, lines))
    said = " ".join(crash.worker_path.missing)
    assert f"configured {method}; no worker started: the run stopped at line" in said, said


# the engine core started and its drafter's gated repository failed in the proposer's load
ENGINE_THEN_GATED_DRAFT = [
    '+ vllm serve meta-llama/Llama-3.1-70B-Instruct --port 8100 --speculative-config {"method": "eagle3", "model": "org-private/llama70b-eagle3", "num_speculative_tokens": 3}',
    "(APIServer pid=2210) INFO 09-12 10:01:02 [api_utils.py:273] non-default args: {'model_tag': 'meta-llama/Llama-3.1-70B-Instruct', 'port': 8100, 'speculative_config': {'method': 'eagle3', 'model': 'org-private/llama70b-eagle3', 'num_speculative_tokens': 3}}",
    "(EngineCore_DP0 pid=2301) INFO 09-12 10:01:20 [core.py:93] Initializing a V1 LLM engine (v0.20.0) with config: model='meta-llama/Llama-3.1-70B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', model='org-private/llama70b-eagle3', num_spec_tokens=3)",
    '(EngineCore_DP0 pid=2301) ERROR 09-12 10:02:40 [core.py:866] EngineCore failed to start.',
    '(EngineCore_DP0 pid=2301) Traceback (most recent call last):',
    '(EngineCore_DP0 pid=2301)   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 3120, in load_model',
    '(EngineCore_DP0 pid=2301)     self.drafter.load_model(self.model)',
    '(EngineCore_DP0 pid=2301)   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/spec_decode/eagle.py", line 1010, in load_model',
    '(EngineCore_DP0 pid=2301)     self.model = get_model(vllm_config=self.vllm_config, model_config=draft_model_config)',
    '(EngineCore_DP0 pid=2301)   File "/opt/venv/lib/python3.12/site-packages/huggingface_hub/utils/_http.py", line 821, in hf_raise_for_status',
    '(EngineCore_DP0 pid=2301)     raise _format(GatedRepoError, message, response) from e',
    '(EngineCore_DP0 pid=2301) huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-cccc)',
]


def test_a_gated_draft_met_inside_the_engine_keeps_its_run(tmp_path: Path) -> None:
    paths = [crash.worker_path for crash in roots(run(tmp_path, ENGINE_THEN_GATED_DRAFT))]
    assert any(p is not None and p.worker_class == "EagleProposer" for p in paths), paths
