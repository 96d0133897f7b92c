"""Texts that report the writer's own run in a shape the run gate did not bind (session 34, FIXA).

- A design or plan document whose later sections report dated, measured results (a boot of the
  drafter with its counters, a gate's accept counts) tells its run: the method its sections
  booted is the run's, however the document opens ("design, no code yet"). The same document
  whose result sections are still to fill in, or headed as expected, tells none.
- Lines a heading or caption says come from a run that happened ("Startup markers from the
  successful run", even "Expected startup markers (from the successful run)", "What the last run
  printed") are that run's: the settings listed beside them are its configuration. Markers to
  expect, or "from a successful run" (any run), are a guide's.
- A verification record tells its run by a check and its outcome in any language (a PASS/FAIL,
  通过/成功, 성공/통과 cell or item, a cell ending 確認済み or 起動確認), or by a heading of
  verification or measured results (验证结果, 検証結果, 측정 결과) over its rows. A checklist of
  criteria ("起動すること", "expected: PASS") or a support matrix of check marks tells none.
- A failure the reader is told to watch for ("watch for OOM in the draft buffer", "check the
  scheduler log for hangs") is a plan's step, not a failure met.
- CI notes naming the node ids of a framework's speculative end-to-end tests with their outcome
  ("FAILED tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[...]") report that CI run:
  the test tree names the framework, the test's name the method. A how-to's pytest command, a
  unit test's node id, or tests still to add report none.
- Harness notes telling SGLang's "accept len" with its figure in words or a cell ("accept len
  1.6 to 2.9 across decode batches") report the rollout run; a target accept len is a plan's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path


# --- dated results sections inside a design document ------------

def _design(results: list[str]) -> list[str]:
    return ["# A drafter of our own for the gfx1201 fork", "",
            "Design only so far. Base: a vLLM 0.22 fork, eager, the V1 runner.", "",
            "## Goals", "", "- share the target's embedding with the drafter", "- output bit-identical to the baseline", "",
            "## Design", "", "The drafter reads three auxiliary hidden states and proposes 4 tokens a step.", "",
            *results]


_BOOTED = ["## M1 results (2026-06-21)", "",
           "Booted the stub drafter with `--speculative-config '{\"method\": \"dflash\", \"num_speculative_tokens\": 4}'`"
           " on one card.", "",
           "- drafts: 512, draft tokens: 2048, accepted: 0", "",
           "## Gate RESULT (2026-06-22)", "",
           "Swapped in the ngram drafter (`--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'`)"
           " for the bit-identity gate.", "",
           "| position | accepted |", "|---|---|", "| 0 | 311 |", "| 1 | 140 |"]


def test_a_design_doc_with_dated_results_sections_lists_both_runs(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _design(_BOOTED))
    assert_verdict(path, "unknown", "DFlashProposer|NgramProposer")
    assert {e.lineno for e in path.evidence} >= {16, 22}, path.evidence


def test_a_design_doc_whose_one_dated_section_gives_counters_names_its_proposer(tmp_path: Path) -> None:
    lines = _design(["## Boot check 2026/06/21", "",
                     "Drafter: `--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'`.", "",
                     "- draft tokens: 1,904 | accepted: 733"])
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "NgramProposer")
    assert any("ngram" in e.text for e in path.evidence), path.evidence


def test_an_sglang_design_doc_with_a_dated_measured_section_names_the_eagle_worker(tmp_path: Path) -> None:
    lines = ["# EAGLE3 head for our 30B target", "", "## Background", "",
             "The head is trained on 50k samples; no launch script is checked in yet.", "",
             "## Approach", "", "Three auxiliary layers, vocabulary pruned to 32k.", "",
             "## Measured (2026-03-14)", "",
             "`--speculative-algorithm EAGLE3 --speculative-num-steps 3 --speculative-eagle-topk 1"
             " --speculative-num-draft-tokens 4` on SGLang 0.5.9:", "",
             "- draft tokens: 96,000, accepted: 61,000"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v1", "EAGLEWorker")


def test_the_design_doc_with_its_results_headed_as_expected_gets_no_path(tmp_path: Path) -> None:
    lines = _design(["## M1 expected results (2026-06-21)", "",
                     "Boot the stub drafter with `--speculative-config '{\"method\": \"dflash\", \"num_speculative_tokens\": 4}'`.",
                     "", "- draft tokens: N, accepted: M"])
    assert_no_path(tmp_path, lines)


def test_the_design_doc_with_dated_results_still_to_fill_in_gets_no_path(tmp_path: Path) -> None:
    lines = _design(["## Results (2026-06-21)", "",
                     "Config: `--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'`.", "",
                     "| metric | value |", "|---|---|", "| accept length | TBD |", "| draft tokens | TBD |"])
    assert_no_path(tmp_path, lines)


# --- lines said to come from a run that happened ------------

def _settings_note(caption: str) -> list[str]:
    return ["# DeepSeek-V4-Flash, 1M context, on two workstation nodes", "",
            "## vLLM command settings", "", "```",
            "tensor_parallel_size: 2", "max_model_len: 1048576",
            "speculative_config: {\"method\": \"mtp\", \"num_speculative_tokens\": 2}",
            "gpu_memory_utilization: 0.88", "```", "",
            caption, "", "```", "Loading drafter model...", "Starting to load draft model weights", "```", "",
            "## Benchmark", "", "```", "python bench.py --spec-decode MTP2 --concurrency 4", "```"]


@pytest.mark.parametrize("caption", [
    "## Startup markers from the successful run",
    "## Expected startup markers (from the successful run)",
    "## What the last run printed at start-up",
    "**Log lines from our working boot:**",
], ids=["heading", "expected-from-the-run", "what-the-run-printed", "bold-caption"])
def test_settings_with_markers_said_to_come_from_the_run_name_the_mtp_proposer(tmp_path: Path, caption: str) -> None:
    path = probed_path(tmp_path, _settings_note(caption))
    assert path.value in ("other", "unknown"), path
    classes = {path.worker_class} if path.worker_class else set((path.conditional or "").replace(",", " ").split())
    assert "EagleProposer" in classes, path
    assert any("speculative_config" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("caption", [
    "## Expected startup markers",
    "**Startup markers you should see from a successful run:**",
    "## Startup markers to check (from the successful run of the plan)",
], ids=["expected", "you-should-see", "to-check"])
def test_the_same_settings_with_markers_to_expect_get_no_path(tmp_path: Path, caption: str) -> None:
    assert_no_path(tmp_path, _settings_note(caption))


def test_an_sglang_settings_list_with_the_lines_its_run_printed_names_the_eagle_worker(tmp_path: Path) -> None:
    lines = ["# Qwen3-30B-A3B with an EAGLE3 draft on one node", "",
             "- model: Qwen/Qwen3-30B-A3B", "- speculative-algorithm: EAGLE3",
             "- speculative-draft-model-path: org/qwen3-30b-eagle3", "- speculative-num-steps: 3",
             "- speculative-eagle-topk: 1", "- speculative-num-draft-tokens: 4", "- image: lmsysorg/sglang:v0.5.4", "",
             "## Log lines from the successful launch", "",
             "    Capture draft cuda graph begin. This can take up to several minutes.",
             "    Capture draft cuda graph end."]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v1", "EAGLEWorker")


# --- verification records: a check and its outcome, in any language ------------

def _record(title: str, setting: str, heading: str, rows: list[str]) -> list[str]:
    return [title, "", "- image: registry.local/vllm:nightly-capture", f"- settings: {setting}", "",
            heading, "", "| item | outcome |", "|---|---|", *rows]


_MTP2 = "`--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'` on vLLM 0.20.1"


def test_a_korean_verification_record_with_outcome_cells_names_the_mtp_proposer(tmp_path: Path) -> None:
    lines = _record("# 검증 기록: MTP k=2", _MTP2, "## 결과", ["| 서버 기동 | 성공 |", "| 그리디 출력 비교 | 통과 |"])
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "EagleProposer")
    assert any("speculative-config" in e.text for e in path.evidence), path.evidence


def test_a_chinese_verification_results_section_names_the_mtp_proposer(tmp_path: Path) -> None:
    lines = _record("# MTP 深度 2 的记录", _MTP2, "## 验证结果", ["| 服务启动 | 正常 |", "| 接受率 | 0.78 |"])
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


def test_an_english_check_list_with_pass_and_fail_names_the_hidden_states_proposer(tmp_path: Path) -> None:
    lines = ["# Moving activation capture to the native method", "",
             "- vLLM: 0.20.1, one H100",
             "- launch flags: `--speculative-config '{\"method\": \"extract_hidden_states\", \"num_speculative_tokens\": 1}'`",
             "", "## Checks", "",
             "- smoke run on the 8B target: PASS", "- every aux layer written by the connector: PASS",
             "- start-up without a kv_transfer_config: FAIL (refused; the connector is required)"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "ExtractHiddenStatesProposer")


def test_a_japanese_record_whose_cells_end_in_confirmed_names_vllm_mtp(tmp_path: Path) -> None:
    lines = ["# BF16 オーバーレイの検証 (2026-09-24)", "", "- 構成: 2 ホスト、TP=2", "",
             "## 結果", "", "| 項目 | 内容 |", "|---|---|",
             "| オーバーレイ有効 | 既存の MTP depth 3 と 262,144 トークンのコンテキストで起動確認 |",
             "| MTP 層の重み | 両ランクで確認済み |", "",
             "終了時、rank1 の vLLM worker は SIGTERM の後 SIGKILL で止まった。"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleProposer|MTPSpeculator|EagleSpeculator")
    assert any(e.lineno == 9 for e in path.evidence), path.evidence


@pytest.mark.parametrize(("heading", "rows"), [
    ("## 検証項目", ["| 起動 | サーバーが起動すること |", "| 受理長 | 2.0 以上であること |"]),
    ("## 검증 항목", ["| 서버 기동 | 성공해야 함 |", "| 수락 길이 | 2.0 이상 |"]),
    ("## Checks to run", ["| smoke run | expected: PASS |", "| aux layers | connector writes each |"]),
], ids=["ja-criteria", "ko-criteria", "en-to-run"])
def test_a_checklist_of_criteria_gets_no_path(tmp_path: Path, heading: str, rows: list[str]) -> None:
    assert_no_path(tmp_path, _record("# MTP k=2 checklist", _MTP2.replace(" on vLLM 0.20.1", ""), heading, rows))


def test_a_support_matrix_with_check_marks_gets_no_path(tmp_path: Path) -> None:
    lines = ["# Speculative methods on our vLLM image", "",
             "| method | status |", "|---|---|", "| mtp | ✅ |", "| eagle3 | ✅ |", "| ngram | ✅ |", "",
             "Enable one with `--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'`."]
    assert_no_path(tmp_path, lines)


# --- a failure the reader is told to watch for ------------

def test_a_plan_telling_the_reader_to_watch_for_an_oom_gets_no_path(tmp_path: Path) -> None:
    lines = ["# Plan: speculative rollouts for the RL harness", "",
             "The rollout engine will be SGLang with the EAGLE drafter `org/Llama-3.1-8B-EAGLE`.", "",
             "## Steps", "", "- submit a job with the drafter enabled",
             "- record the accept length over decode batches (target: above 2.5)",
             "- watch for OOM in the EAGLE draft buffer", "- check the scheduler log for hangs after the handshake"]
    assert_no_path(tmp_path, lines)


def test_notes_that_met_the_oom_keep_their_sglang_eagle_run(tmp_path: Path) -> None:
    lines = ["# Rollout notes (2026-08-20)", "",
             "Rollout engine: SGLang with the EAGLE drafter `org/Llama-3.1-8B-EAGLE` beside the 8B policy.", "",
             "## Jobs", "", "- job 481190: completed; accept length ranged 2.1-3.4 over decode batches.",
             "- job 481201: OOM in the EAGLE draft buffer; fixed by capping the context at 32k."]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorker|EAGLEWorkerV2")


# --- CI notes naming the speculative end-to-end tests that ran ------------

def test_ci_triage_naming_failed_eagle_e2e_node_ids_names_vllms_eagle_classes(tmp_path: Path) -> None:
    lines = ["# CI build 9100 triage (two AMD runners)", "", "## spec-decode e2e", "", "Failing tests:", "",
             "- `tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[TRITON_ATTN-qwen3_eagle3]` FAILED",
             "- `tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[AITER_FA-deepseek_eagle]` FAILED", "",
             "Both trip an assertion on the decode-only metadata's max query length."]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleProposer|EagleSpeculator")
    assert path.evidence[0].lineno == 7, path.evidence


def test_a_pytest_summary_of_a_failed_mtp_e2e_test_names_vllms_mtp_classes(tmp_path: Path) -> None:
    lines = ["# Nightly failures, 2026-05-02", "", "```",
             "FAILED tests/v1/e2e/test_spec_decode.py::test_mtp_correctness[mimo-mtp] - AssertionError: outputs differ",
             "PASSED tests/v1/e2e/test_spec_decode.py::test_ngram_correctness", "```"]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|MTPSpeculator")


def test_a_passed_acceptance_length_test_names_the_eagle3_classes(tmp_path: Path) -> None:
    lines = ["# Rerun after the fix", "",
             "`tests/v1/e2e/test_spec_decode.py::test_eagle3_acceptance_length[llama3-eagle3]` passed on an MI300X,"
             " acceptance length 2.31 (expected 2.2 or more)."]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|EagleSpeculator")


@pytest.mark.parametrize("lines", [
    ["# Running the spec-decode e2e tests", "", "Run the EAGLE correctness tests with:", "", "```",
     "pytest tests/v1/e2e/test_spec_decode.py::test_eagle_correctness", "```", "",
     "The `qwen3_eagle3` and `deepseek_eagle` parameters fetch their drafts first."],
    ["# Nightly failures, 2026-04-11", "", "```",
     "FAILED tests/v1/spec_decode/test_eagle.py::test_prepare_inputs - AssertionError",
     "FAILED tests/v1/spec_decode/test_ngram.py::test_find_longest_match - IndexError", "```"],
    ["# Test plan for the DFlash proposer", "", "## Tests to add", "",
     "- `tests/v1/e2e/test_spec_decode.py::test_dflash_correctness` (new)",
     "- `tests/v1/spec_decode/test_dflash.py::test_propose` (new)"],
], ids=["how-to", "unit-tests-only", "tests-to-add"])
def test_test_ids_with_no_end_to_end_outcome_get_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- harness notes reporting SGLang's accept length in words ------------

def _handoff(rows: list[str]) -> list[str]:
    return ["# Handoff: speculative RL rollouts (node 2 to node 3)", "",
            "The rollout side is SGLang with an EAGLE drafter (`org/qwen3-8b-eagle`) beside the 8B policy;"
            " the drafter is retrained online.", "", "## Jobs", "", *rows, "",
            "Trainer log of the hung job (last lines):", "", "```",
            "[2026-08-26 10:02:11] step 0 rollout done", "[2026-08-26 10:02:12] handshake: drafter trainer ready", "```"]


@pytest.mark.parametrize("rows", [
    ["| job | outcome |", "|---|---|", "| 771203 | hung after the drafter-training handshake |",
     "| 771244 | completed 60 steps; accept len 1.6 to 2.9 across decode batches |"],
    ["- 771203: hung after the drafter-training handshake",
     "- 771244: completed 60 steps, accept len ranged 1.6-2.9 over decode batches"],
    ["- 771244: 60 steps done; accept len of 2.4 on average"],
], ids=["table", "bullets", "average"])
def test_rollout_notes_with_sglang_accept_len_figures_give_the_eagle_worker_condition(tmp_path: Path, rows: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, _handoff(rows)), "unknown", "EAGLEWorker|EAGLEWorkerV2")


def test_rollout_plan_with_an_accept_len_target_gets_no_path(tmp_path: Path) -> None:
    lines = ["# Plan: speculative RL rollouts", "",
             "The rollout side will be SGLang with an EAGLE drafter (`org/qwen3-8b-eagle`) beside the 8B policy.", "",
             "## Steps", "", "- run 60 steps with the drafter on", "- target: accept len 2.5 or more across decode batches"]
    assert_no_path(tmp_path, lines)


def test_ci_notes_telling_a_node_ids_failure_in_words_name_vllms_eagle_classes(tmp_path: Path) -> None:
    lines = ["# CI build 9100 triage", "", "## spec-decode e2e (mi325_1)", "",
             "- `tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[TRITON_ATTN-qwen3_eagle3]`: fails in the"
             " decode-only metadata builder on the max query length assertion"]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|EagleSpeculator")
