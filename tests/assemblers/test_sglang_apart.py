"""Lines of an SGLang report that name a release, a switch setting, flags or a command that are
NOT the crashing run's: the good release or the workaround, the switch as the fix, flags quoted
as a plan or a recommendation, a reviewer's command, a date inside a sentence, a paste that
says flags were left out. None of them may decide the run's worker; the same lines said of the
run still do (the controls). Every line is our own."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.post_dates import post_date
from spectrace.dialects.base import LogLine

EAGLE_CMD = ("python -m sglang.launch_server --model-path org/target --speculative-algorithm EAGLE "
             "--speculative-draft-model-path org/draft --speculative-eagle-topk 1")  # fmt: skip
PLAIN_CMD = "python -m sglang.launch_server --model-path org/target --tp 4 --port 30001"


def _verdict(*texts: str) -> tuple[str | None, str | None, str | None] | None:
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("issue.md", n, 0, text, text, "plain", ""))
    evidence = [e for e in collector.result().path_evidence if e.points_to or e.condition]
    if not evidence:
        return None
    return evidence[0].points_to, evidence[0].worker_class, evidence[0].condition


@pytest.mark.parametrize(
    "sentence",
    [
        "Going back to sglang 0.5.2 avoids the problem for now.",
        "Downgrading to sglang 0.5.2 is our workaround.",
        "It works with sglang 0.5.2, the crash is on current main.",
        "Last known good release: sglang==0.5.2; today we build from source (main).",
        "The release notes of sglang 0.5.2 mention speculative fixes.",
    ],
)
def test_a_good_or_workaround_release_is_not_the_runs(sentence: str) -> None:
    verdict = _verdict(sentence, EAGLE_CMD)
    assert verdict is not None and verdict[0] is None  # the era's condition, not a decision
    assert "EAGLEWorkerV2" in verdict[2]


def test_the_control_a_release_said_of_the_run_decides() -> None:
    assert _verdict("We are on sglang 0.5.2.", EAGLE_CMD) == ("v1", "EAGLEWorker", None)


def test_a_check_env_release_under_a_build_of_main_is_not_taken() -> None:
    verdict = _verdict("sglang: 0.5.2", "The crashing box has sglang installed from main:", EAGLE_CMD)
    assert verdict is not None and verdict[0] is None


def test_a_bumped_release_beside_the_old_pin_names_neither() -> None:
    verdict = _verdict('RUN pip install "sglang==0.5.2"', "Then we bumped sglang to 0.5.15.", EAGLE_CMD)
    assert verdict is not None and verdict[0] is None


@pytest.mark.parametrize(
    "sentence",
    [
        "Exporting SGLANG_ENABLE_SPEC_V2=1 makes the crash go away.",
        "You can set SGLANG_ENABLE_SPEC_V2=1 as a workaround.",
        "SGLANG_ENABLE_SPEC_V2=1 is what the other report used; we did not set it.",
    ],
)
def test_the_switch_named_as_the_fix_is_not_the_runs_setting(sentence: str) -> None:
    # 0.5.8 runs EAGLE on v1 unless the switch is on: the crashing run had it off
    assert _verdict("sglang: 0.5.8", EAGLE_CMD, sentence) == ("v1", "EAGLEWorker", None)


def test_both_switch_settings_named_leave_the_condition() -> None:
    verdict = _verdict("sglang: 0.5.8", "Same crash with SGLANG_ENABLE_SPEC_V2=0 and with "
                       "SGLANG_ENABLE_SPEC_V2=1.", EAGLE_CMD)  # fmt: skip
    assert verdict is not None and verdict[0] is None
    assert "EAGLEWorkerV2" in verdict[2] and "EAGLEWorker)" in verdict[2]


def test_the_control_the_switch_said_of_the_run_decides() -> None:
    verdict = _verdict("sglang: 0.5.8", "We launch with SGLANG_ENABLE_SPEC_V2=1 set.", EAGLE_CMD)
    assert verdict == ("v2", "EAGLEWorkerV2", None)


@pytest.mark.parametrize(
    "sentence",
    [
        "Adding `--speculative-algorithm NGRAM --speculative-num-draft-tokens 8` helps, oddly.",
        "The model card recommends `--speculative-algorithm NGRAM` but it is not on yet.",
        "We'll move to `--speculative-algorithm NGRAM` next month.",
    ],
)
def test_flags_quoted_as_a_plan_or_fix_are_not_the_runs(sentence: str) -> None:
    verdict = _verdict(sentence, EAGLE_CMD)
    assert verdict is not None and verdict[1] != "NGRAMWorker"


def test_the_control_flags_quoted_of_the_run_count() -> None:
    verdict = _verdict("We start it with `--speculative-algorithm NGRAM` and it crashes.")
    assert verdict == ("other", "NGRAMWorker", None)


def test_a_reviewers_command_after_the_crash_is_not_the_runs() -> None:
    verdict = _verdict(EAGLE_CMD, "", "Maintainer: for me it works with this one instead:", "```",
                       "python -m sglang.launch_server --model-path org/target "
                       "--speculative-algorithm NGRAM", "```")  # fmt: skip
    assert verdict is not None and verdict[1] != "NGRAMWorker"


def test_a_whole_looking_command_whose_flags_were_left_out_is_not_speculation_off() -> None:
    assert _verdict("```", PLAIN_CMD, "```", "(the other flags are omitted here)") is None
    assert _verdict("```", PLAIN_CMD, "```")[0] == "none"  # the control


@pytest.mark.parametrize(
    "sentence", ["投機的デコーディングを使うと落ちます。", "추측 디코딩을 켜면 멈춥니다."]
)
def test_speculation_said_in_japanese_or_korean_is_not_speculation_off(sentence: str) -> None:
    assert _verdict(sentence, "```", PLAIN_CMD, "```") is None


@pytest.mark.parametrize(
    "line",
    [
        "We opened a related issue on Feb 1, 2026 and it went stale.",
        "The change was merged on Feb 1, 2026, see the PR.",
        "I commented on 2026-02-01 in the other thread",
    ],
)
def test_a_date_inside_a_sentence_is_no_post_header(line: str) -> None:
    assert post_date(line) is None


NGRAM_CMD = "python -m sglang.launch_server --model-path org/target --speculative-algorithm NGRAM"


@pytest.mark.parametrize(
    "lines",
    [
        ["It serves about 200 requests with this command, works for a while, then crashes:", NGRAM_CMD],
        ["The maintainer asked for the full command, here it is:", NGRAM_CMD],
        ["vLLM for comparison:", "vllm serve org/target --tensor-parallel-size 2", "Our SGLang server:",
         NGRAM_CMD],
    ],
)
def test_the_writers_own_command_under_a_caption_still_counts(lines: list[str]) -> None:
    assert _verdict(*lines) == ("other", "NGRAMWorker", None)


def test_a_release_that_works_and_then_crashes_is_the_runs() -> None:
    verdict = _verdict("SGLang version: 0.5.14, works fine for ten minutes and then crashes.", EAGLE_CMD)
    assert verdict == ("v2", "EAGLEWorkerV2", None)


def test_a_release_it_works_with_is_not_the_runs_even_if_the_line_goes_on() -> None:
    verdict = _verdict("Works with sglang 0.5.2 but crashes on the latest main.", EAGLE_CMD)
    assert verdict is not None and verdict[0] is None


def test_commented_out_keywords_and_commands_set_nothing() -> None:
    engine = ["llm = sgl.Engine(", '    model_path="org/target",', "    tp_size=2,",
              '    # speculative_algorithm="NGRAM",', ")"]  # fmt: skip
    assert _verdict(*engine) is None
    script = ["#!/bin/bash", f"#{NGRAM_CMD}", PLAIN_CMD]
    verdict = _verdict(*script)
    assert verdict is None or verdict[1] != "NGRAMWorker"


@pytest.mark.parametrize(
    "lines",
    [
        ["[pip3] sglang==0.4.6.post1", "vLLM Version: 0.10.1.1", "We run EAGLE3 and it crashes."],
        ["# [Bug] Training Eagle3 for a 20B model fails with a shape error"],
        ["sglang: 0.5.8", "We run Eagle v2 (the dynamic-tree paper version) and it crashes."],
        ["sglang: 0.5.8", "EAGLE crashes for us. Spec v2 is next on our list."],
    ],
)
def test_package_rows_draft_training_and_eagle2_name_no_v2_or_sglang_run(lines: list[str]) -> None:
    verdict = _verdict(*lines)
    assert verdict is None or verdict[1] != "EAGLEWorkerV2"
    assert verdict is None or "0.4.6" not in str(verdict)


def test_a_config_block_under_a_suggestion_caption_is_not_the_runs() -> None:
    lines = ["vllm serve org/target --tensor-parallel-size 2",
             "Suggested config from the PR description (not what I ran):",
             'speculative_config = {"method": "ngram", "num_speculative_tokens": 4}']  # fmt: skip
    verdict = _verdict(*lines)
    assert verdict is None or verdict[1] != "NgramProposer"


@pytest.mark.parametrize(
    ("model", "v2"),
    [("XiaomiMiMo/MiMo-V2-Flash", "MultiLayerEagleWorkerV2"), ("deepseek-ai/DeepSeek-V4", "EAGLEWorkerV2")],
)
def test_a_model_whose_hook_forces_spec_v2_is_no_v1_decision(model: str, v2: str) -> None:
    command = EAGLE_CMD.replace("org/target", model)
    verdict = _verdict("sglang: 0.5.8", command)
    assert verdict is not None and verdict[0] is None and v2 in verdict[2]


def test_a_command_cut_inside_its_last_token_is_not_shown_whole() -> None:
    lines = ["- Speculative Algorithm: EAGLE-2", "```bash", "python -m sglang.launch_server \\",
             "  --port 30000 \\", "  --model-path org/Meta-Llama-3-"]  # fmt: skip
    assert _verdict(*lines)[2] is not None  # the label's condition, not "none" nor nothing


@pytest.mark.parametrize(
    "sentence",
    [
        "We used to run EAGLE, but this server runs without speculative decoding now.",
        "EAGLE works fine for us; the plain server crashes.",
    ],
)
def test_a_release_does_not_turn_a_name_set_apart_into_the_runs(sentence: str) -> None:
    verdict = _verdict("sglang: 0.5.14", sentence)
    assert verdict is None or verdict[1] is None
