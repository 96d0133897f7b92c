"""Crashes a thread reports only in words, or in a GPU runtime's own wording, are never lost.

An exception named mid-sentence ("The server crashes with ValueError: ..."), one named only in a
bug report's title (any language, any quotes), ggml's ``ROCm error: ...`` / ``MUSA error: ...``
and TensorRT's ``Error Code 1: Cuda Runtime (...)`` are crashes; a feature request's title, a
printed log line that names an exception in its own words and a sentence naming no error are
not. The lines are ours.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

from spectrace.triage import judge

LAUNCH = "python -m sglang.launch_server --model-path org/m --speculative-algorithm EAGLE"
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/srv/sglang/srt/managers/scheduler.py", line 2101, in event_loop_normal',
    "    result = self.run_batch(batch)",
    "KeyError: 'req_pool_idx'",
]


def test_an_exception_named_mid_sentence_is_the_root_cause(tmp_path: Path) -> None:
    lines = [
        "Motivation",
        "",
        "The server crashes with ValueError: Found NaN in the draft logits when a request "
        "reuses a cached prefix. It happens every time.",
    ]
    [root] = roots(run(tmp_path, lines))
    assert (root.exception_type, root.mentioned) == ("ValueError", "sentence")
    assert root.message.startswith("Found NaN in the draft logits")


def test_an_exception_only_in_a_bug_title_is_the_root_cause(tmp_path: Path) -> None:
    lines = [
        "# [Bug]: 双机部署压测时服务崩溃，报“AttributeError: 'int' object has no attribute 'size'”",
        "",
        "Please attach the full traceback and the launch script.",
    ]
    analysis = run(tmp_path, lines)
    [root] = roots(analysis)
    assert (root.exception_type, root.mentioned) == ("AttributeError", "title")
    assert root.message == "'int' object has no attribute 'size'"  # the closing quote ends it
    assert int(judge(analysis).exit_code) == 1


def test_a_title_beside_a_sentence_naming_another_error_yields_to_the_sentence(
    tmp_path: Path,
) -> None:
    lines = [
        "# [Bug] EAGLE decode fails with RuntimeError: shape mismatch in verify",
        "",
        "After the upgrade the scheduler dies with CUDA error: an illegal memory access was "
        "encountered on rank 0.",
    ]
    analysis = run(tmp_path, lines)
    [root] = roots(analysis)
    assert (root.crash_class, root.mentioned) == ("cuda_illegal_memory", "sentence")
    [title] = [i for i in analysis.incidents if i.mentioned == "title"]
    assert (title.root_cause, title.severity) == (False, "warning")


def test_a_title_beside_its_printed_traceback_is_one_crash(tmp_path: Path) -> None:
    lines = ["# [Bug] scheduler dies with KeyError: 'req_pool_idx' under EAGLE", "", *TRACEBACK]
    analysis = run(tmp_path, lines)
    assert [(i.exception_type, i.mentioned) for i in roots(analysis)] == [("KeyError", None)]


@pytest.mark.parametrize(
    "title",
    [
        "# [Feature]: recover from RuntimeError: CUDA error: out of memory when capture fails",
        "[RFC]: surface ValueError: bad draft config at start-up instead of crashing later",
        "# [Issue]: grouped topk kernel memory segmentation fault",  # a label, no run said to die
        "# pod could not be installed (RuntimeError: Engine process failed to start.)",
    ],
)
def test_a_title_that_only_labels_an_error_names_no_crash(tmp_path: Path, title: str) -> None:
    analysis = run(tmp_path, [title, "", LAUNCH])
    assert roots(analysis) == []
    assert all(i.mentioned == "label" for i in analysis.incidents)  # a warning at most
    assert int(judge(analysis).exit_code) == 0


@pytest.mark.parametrize(
    "line",
    [
        "12.34.056.789 E ROCm error: an illegal memory access was encountered",
        "MUSA error: an illegal memory access was encountered",
        "[04/09/2026-16:36:11] [TRT] [E] 1: [cudaResources.cpp::~ScopedCudaEvent::24] Error Code 1: "
        "Cuda Runtime (an illegal memory access was encountered)",
    ],
)
def test_other_gpu_runtimes_illegal_access_is_a_fatal_crash(tmp_path: Path, line: str) -> None:
    lines = ["build done from commit 0123abc", "```", line, "/src/ggml-cuda.cu:106: ROCm error", "```"]
    [root] = roots(run(tmp_path, lines))
    assert (root.crash_class, root.severity) == ("cuda_illegal_memory", "fatal")


def test_ggml_out_of_memory_on_rocm_is_an_oom(tmp_path: Path) -> None:
    [root] = roots(run(tmp_path, ["12.34.056.789 E ROCm error: out of memory"]))
    assert root.crash_class == "cuda_oom"


@pytest.mark.parametrize(
    "line",
    [
        "INFO 03-12 10:00:01 [engine.py:120] Retrying the request after ValueError: timed out",
        "2026-03-12 10:00:01 WARNING the loader hit KeyError: 'lm_head' and used the default",
        "[rank0]: warmup saw RuntimeError: retry 1 of 3, continuing",
        "We should raise a clearer message than ValueError here.",  # no message: not a report
        "the docs say `AttributeError` is raised when the draft has no head",
        "`KeyError: 'x'`. Because loading runs per rank, every worker would raise it the same way",
        "The PR resolves the following error: `AttributeError: 'Draft' object has no attribute 'x'`",
        "Workers on PP stage 0 raise `AttributeError: 'Runner' object has no attribute 'drafter'`",
    ],
)
def test_printed_lines_and_sentences_naming_no_error_are_no_crash(
    tmp_path: Path, line: str
) -> None:
    analysis = run(tmp_path, [line, "", LAUNCH])
    assert roots(analysis) == [], line


def test_a_traceback_pasted_from_the_middle_of_a_frame_line_is_a_crash(tmp_path: Path) -> None:
    lines = [
        "> And got this error:",
        ">",
        "> ```shell",
        '> /lib/python3.10/site-packages/sglang/srt/layers/linear.py", line 216, in load_weight',
        ">",
    ]
    [root] = roots(run(tmp_path, lines, name="thread.md"))
    assert root.exception_type == "Traceback"  # its exception line was never pasted
    assert [f.function for f in root.frames] == ["load_weight"]


def test_a_frame_line_wrapped_inside_a_traceback_stays_one_crash(tmp_path: Path) -> None:
    lines = [
        TRACEBACK[0],
        '  File "/srv/sglang/srt/managers/very/long/path/that/the/terminal/',
        'wrapped/scheduler.py", line 2101, in event_loop_normal',
        "    result = self.run_batch(batch)",
        TRACEBACK[-1],
    ]
    [root] = roots(run(tmp_path, lines))
    assert root.exception_type == "KeyError" and len(root.frames) == 1


def test_prose_naming_a_file_and_line_is_no_crash(tmp_path: Path) -> None:
    lines = ['The check lives in parameter.py", line 216 of the loader, see below.', LAUNCH]
    assert roots(run(tmp_path, lines)) == []


def test_tensorrt_and_trtllm_reporting_one_illegal_access_are_one_crash(tmp_path: Path) -> None:
    stamp = "[03/10/2026-08:30:05] [TRT] [E] [defaultAllocator.cpp::deallocate::60]"
    lines = [
        f"{stamp} Error Code 1: Cuda Runtime (an illegal memory access was encountered)",
        "[TensorRT-LLM][ERROR] tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] CUDA "
        "runtime error in ::cudaFreeAsync(ptr, stream): an illegal memory access was encountered "
        "(/src/cpp/tensorrt_llm/runtime/bufferManager.cpp:120)",
    ]
    [root] = roots(run(tmp_path, lines))
    assert root.crash_class == "cuda_illegal_memory"


@pytest.mark.parametrize(
    "title",
    [
        "# [Bug]: GLM-X RuntimeError: Error Internal",
        "# [Bug]: MLP Speculator AttributeError: 'SpecConfig' object has no attribute 'heads'",
    ],
)
def test_a_title_that_is_the_error_line_is_the_root_cause(tmp_path: Path, title: str) -> None:
    analysis = run(tmp_path, [title, "", "### Your current environment", LAUNCH])
    [root] = roots(analysis)
    assert root.mentioned == "title"


@pytest.mark.parametrize(
    "lines",
    [
        ["# [Bugfix] Fix EAGLE crash with RuntimeError: shape mismatch in verify", "", "Tests: ok"],
        ["# Fix crash when topk > 1 (RuntimeError: CUDA error: an illegal memory access)"],
        ["This PR fixes the RuntimeError: CUDA error: an illegal memory access seen in #12."],
        ["Does the server crash with RuntimeError: CUDA error? It works for me on H100."],
        ["# [Usage] Does EAGLE3 crash with RuntimeError: CUDA error on our cards?"],
    ],
)
def test_a_fix_described_or_a_yes_no_question_names_no_crash(
    tmp_path: Path, lines: list[str]
) -> None:
    """A PR describing what it fixes, or a reply asking whether it would fail, is no run that
    died: no root cause, exit 0."""
    analysis = run(tmp_path, lines)
    assert roots(analysis) == [] and int(judge(analysis).exit_code) == 0


@pytest.mark.parametrize(
    "line",
    [
        "Why does the server crash with RuntimeError: CUDA error: an illegal memory access after "
        "two hours?",
        "We fixed the launch flags but now the scheduler crashes with RuntimeError: CUDA error: "
        "an illegal memory access was encountered.",
    ],
)
def test_a_why_question_or_a_fix_that_did_not_help_still_reports_the_crash(
    tmp_path: Path, line: str
) -> None:
    [root] = roots(run(tmp_path, [line]))
    assert root.mentioned == "sentence" and "illegal memory access" in root.message


@pytest.mark.parametrize(
    ("line", "exc"),
    [
        ("# [Bug]: DeepSeek MTP fails with AssertionError when --speculative-num-steps > 1",
         "AssertionError"),
        ("After the upgrade the scheduler crashes with IndexError in eagle_worker.py after a few "
         "requests.", "IndexError"),
    ],
)  # fmt: skip
def test_an_exception_named_without_its_message_after_fails_with_is_the_root_cause(
    tmp_path: Path, line: str, exc: str
) -> None:
    [root] = roots(run(tmp_path, [line]))
    assert root.exception_type == exc and root.mentioned in ("title", "sentence")


@pytest.mark.parametrize(
    "line",
    [
        "We saw that ValueError is raised in the scheduler when topk > 1 but it is caught.",
        "# [Bug] AssertionError handling in eagle worker is too broad",
        "# [Bugfix] EAGLE fails with AssertionError when topk > 1",
        "The old code crashed with a RuntimeError, which this PR avoids.",
    ],
)
def test_a_bare_exception_name_that_reports_no_death_is_no_crash(
    tmp_path: Path, line: str
) -> None:
    assert roots(run(tmp_path, [line])) == []


def _rejected(detail: str) -> list[str]:
    """A config rejected at start-up, as pydantic prints it: the head line counts fields only."""
    return [
        "Traceback (most recent call last):",
        '  File "/srv/app/engine/args.py", line 40, in create_engine_config',
        "    config = EngineConfig(**kwargs)",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for EngineConfig",
        f"  Value error, {detail} [type=value_error, input_value=ArgsKwargs((), {{}}), "
        "input_type=ArgsKwargs]",
        "    For further information visit https://errors.pydantic.dev/2.13/v/value_error",
        "",
    ]


def test_configs_rejected_for_different_reasons_are_different_crashes(tmp_path: Path) -> None:
    """pydantic's '1 validation error for X' says nothing; the detail under it is the crash."""
    lines = [*_rejected("the new runner does not support: ngram"), "Then with a draft model:",
             *_rejected("speculative method 'draft' is not supported")]  # fmt: skip
    found = roots(run(tmp_path, lines))
    assert len(found) == 2
    assert [r.message.split("Value error, ")[1] for r in found] == [
        "the new runner does not support: ngram",
        "speculative method 'draft' is not supported",
    ]


@pytest.mark.parametrize(
    ("lines", "exc", "message"),
    [
        (["[12/03/2026-10:00:00] [TRT-LLM] [E] Failed to initialize executor on rank 0: tuple "
          "index out of range"], "TRTLLMError", "tuple index out of range"),
        (["[executor][RANK 1] Failed to initialize executor on rank 1: tuple index out of range"],
         "ExecutorInitError", "tuple index out of range"),
        (["[executor][RANK 1] Failed to initialize executor on rank 1:",
          "OurConfig is not a supported hybrid model"], "ExecutorInitError",
         "Failed to initialize executor"),
    ],
)  # fmt: skip
def test_a_tensorrt_llm_executor_that_never_started_is_a_crash(
    tmp_path: Path, lines: list[str], exc: str, message: str
) -> None:
    """TensorRT-LLM's worker logs this line, then the traceback; a paste that kept only the
    line (with or without TRT-LLM's logger stamp) still shows a server that never served."""
    analysis = run(tmp_path, lines)
    [root] = roots(analysis)
    assert root.exception_type == exc and message in root.message
    assert int(judge(analysis).exit_code) == 1


def test_the_executor_line_heads_its_traceback_as_one_crash(tmp_path: Path) -> None:
    stamp = "[12/03/2026-10:00:00] [TRT-LLM] [E] "
    lines = [
        stamp + "Failed to initialize executor on rank 0: tuple index out of range",
        stamp + "Traceback (most recent call last):",
        '  File "/srv/tensorrt_llm/executor/worker.py", line 300, in worker_main',
        "    worker = worker_cls(engine)",
        "IndexError: tuple index out of range",
    ]
    [root] = roots(run(tmp_path, lines))
    assert (root.exception_type, root.message) == ("IndexError", "tuple index out of range")


def test_a_title_that_is_only_the_error_line_behind_its_tags_is_the_root_cause(
    tmp_path: Path,
) -> None:
    """Nothing but the form and tags before the error: the title is what the run printed."""
    lines = ["# [Bug] [TensorRT-LLM][ERROR] Assertion failed: ourModule != nullptr", "", "Help?"]
    [root] = roots(run(tmp_path, lines))
    assert (root.exception_type, root.mentioned) == ("TllmAssertion", "title")
    other = ["# Support for [TensorRT-LLM][ERROR] Assertion failed: messages in our docs"]
    assert roots(run(tmp_path, other)) == []
