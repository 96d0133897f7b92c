"""Failure shapes that round 8 of real logs (docs/real-logs.md) showed were missed: a server
whose command line argparse rejected, and a GPU kernel's assertion quoted without its source
file. Every line here is ours, written in the shapes those pastes had."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.pipeline import analyse


def run(tmp_path: Path, lines: list[str]):  # noqa: ANN201 - the Analysis
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)])


@pytest.mark.parametrize(
    "line",
    [
        "vllm serve: error: argument --speculative-config: invalid loads value: \"{'method': 'x'}\"",
        "launch_server.py: error: unrecognized arguments: --speculative-model [ngram] --foo 3",
        "    api_server.py: error: the following arguments are required: --model",
        "sglang serve: error: argument --speculative-algorithm: invalid choice: 'EAGEL'",
    ],
)
def test_a_rejected_command_line_is_a_fatal_start_up_failure(tmp_path: Path, line: str) -> None:
    a = run(tmp_path, ["usage: server [-h] [--model MODEL] ...", line])
    (only,) = a.incidents
    assert (only.exception_type, only.crash_class, only.severity, only.root_cause) == (
        "UsageError", "startup_usage_error", "fatal", True
    )  # fmt: skip
    assert ": error: " in only.message
    assert only.worker_path.value == "unknown"  # nothing ran: no worker is claimed


@pytest.mark.parametrize(
    "line",
    [
        "usage: vllm serve [-h] [--speculative-config SPECULATIVE_CONFIG]",
        "[2026-05-01 10:00:00 TP0] Retrying the fetch after error: connection reset by peer",
        "INFO 05-01 10:00:00 [loader.py:12] the user error: argument order is ignored",
    ],
)
def test_usage_text_and_prose_errors_are_not_crashes(tmp_path: Path, line: str) -> None:
    assert not run(tmp_path, [line]).incidents


def test_a_kernel_assertion_quoted_without_its_file_is_found(tmp_path: Path) -> None:
    a = run(tmp_path, [
        "Failure signature:",
        "gather_rows_kernel: Assertion `idx >= 0 && idx < rows` failed",
        "-> NCCL abort on every rank",
    ])  # fmt: skip
    (only,) = a.incidents
    assert (only.exception_type, only.root_cause) == ("CUDAKernelAssert", True)
    assert "idx < rows" in only.message


def test_an_assertion_in_a_sentence_is_not_a_kernel_assert(tmp_path: Path) -> None:
    a = run(tmp_path, ["The check `idx < rows` is what the Assertion `idx < rows` failed to catch."])
    assert not a.incidents


def test_an_exception_in_inline_code_with_a_blank_inside_the_backticks_is_found(tmp_path: Path) -> None:
    a = run(tmp_path, ["error:", "` ValueError: There is no module or parameter named 'w_q' in Model`"])
    (only,) = a.incidents
    assert (only.exception_type, only.root_cause) == ("ValueError", True)
    assert only.message.startswith("There is no module")
