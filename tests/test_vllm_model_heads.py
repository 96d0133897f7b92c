"""An MTP head the text names by its model, with a proposer of its own in vLLM (a Gemma-4
assistant: Gemma4Proposer on the V1 runner, Gemma4Speculator on MRV2), is that class, not the
release's generic MTP proposer (round 28 18's shape: a 'Gemma4 MTP' title over engine frames)."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.vllm_methods import target_head

ENGINE = ["Traceback (most recent call last):",
          '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x2816 and 4096x512)"]  # fmt: skip


def test_a_gemma4_mtp_title_names_the_gemma4_classes_not_the_generic_mtp_ones(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, ["# [Bug]: Gemma4 MTP spec decode crashes after upgrade", *ENGINE]))
    assert_verdict(path, "unknown", "Gemma4Proposer|Gemma4Speculator")
    assert "EagleProposer" not in (path.conditional or "")
    assert "MTPSpeculator" not in (path.conditional or "").replace("Gemma4Speculator", "")


def test_an_assistant_drafter_or_mtp_for_gemma_4_in_words_is_the_head(tmp_path: Path) -> None:
    for i, title in enumerate(("# Gemma 4 26B-A4B-it MTP drafting returns garbage",
                               "# [Usage]: MTP for Gemma-4 E4B stalls at warmup")):
        (tmp_path / str(i)).mkdir()
        path = crash_path(run(tmp_path / str(i), [title, *ENGINE]))
        assert_verdict(path, "unknown", "Gemma4Proposer|Gemma4Speculator")


def test_the_runner_stated_decides_the_gemma4_class(tmp_path: Path) -> None:
    lines = ["# Gemma-4 MTP drafter fails", "vLLM version: 0.25.1",
             "export VLLM_USE_V2_MODEL_RUNNER=1", *ENGINE]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "other", "Gemma4Speculator")


def test_a_gemma_4_target_beside_another_models_mtp_is_not_the_gemma_head() -> None:
    assert target_head("google/gemma-4-31B-it serves fine", None) == (None, None)
    assert target_head("Gemma-4 works, but Qwen3.5 MTP fails", None) == (None, None)
    assert target_head("google/gemma-4-26B-A4B-it-assistant", "0.25.1") == ("Gemma4Proposer", None)
    assert target_head("gemma4 mtp", "0.34.0") == ("Gemma4Speculator", None)


def test_a_release_without_the_v1_runner_runs_the_gemma4_speculator(tmp_path: Path) -> None:
    lines = ["# Gemma-4 MTP drafter fails", "vLLM version: 0.34.0", *ENGINE]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "Gemma4Speculator")
