"""An environment line naming the run's draft model ("draft model: org/X") on vLLM's tracker
(round 27 41's shape: a 2024 report listing 'docker image', 'target model', 'draft model'):
vLLM's inference from the draft by release; a text whose days allow only V0 releases decides
V0's worker."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

HEADER = ["vllm-project/vllm · issue #7001 · closed · Python", "labels: bug",
          "# [Bug]: speculative decoding crashes with AWQ models", "",
          "someone · description · 2024-11-02", "### Your current environment", ""]  # fmt: skip
CRASH = ["Traceback (most recent call last):", '  File "serve.py", line 3, in <module>',
         "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def test_a_draft_model_line_in_a_v0_era_report_is_multistepworker(tmp_path: Path) -> None:
    lines = [*HEADER, "target model: org/Qwen2.5-32B-AWQ", "draft model: org/Qwen2.5-0.5B-AWQ",
             "", *CRASH]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MultiStepWorker")


def test_a_bold_speculative_model_bullet_is_the_draft_too(tmp_path: Path) -> None:
    lines = [*HEADER, "- **Speculative model**: `org/tiny-llama-68m`", "", *CRASH]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MultiStepWorker")


def test_a_later_report_leaves_the_engine_open(tmp_path: Path) -> None:
    later = [line.replace("2024-11-02", "2026-02-02") for line in HEADER]
    lines = [*later, "draft model: org/Qwen3-0.6B", "", *CRASH]
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None


def test_a_report_saying_it_ran_no_speculation_names_no_draft(tmp_path: Path) -> None:
    lines = [*HEADER, "draft model: org/Qwen2.5-0.5B-AWQ",
             "The crash happens without speculative decoding too, I ran it with no draft.", *CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None
