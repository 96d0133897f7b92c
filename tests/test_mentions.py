"""An error named in prose is a mention, not a crash; a line a process printed stays a crash.

Issue pastes name the error in the title (``[Bug] ... CUDA error: ... when ...``) or quote it
in a sentence, often above the traceback itself. A mention beside the crash it names is
dropped; beside another printed crash it is a warning, nobody's cause or consequence. With no
crash printed, a sentence naming the error is the root cause (the reporter says the run died
so: never lost), marked ``mentioned``; so is a title that says the run died of it when no
sentence names an error, while a title that only labels the thread with an error is a warning
(test_crash_recall.py). Lines printed by a process
(bare, with a rank, a header, a test runner's prefix) are crashes whatever words precede the
error. The lines are ours.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

from spectrace.triage import judge

ILLEGAL = "CUDA error: an illegal memory access was encountered"
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/srv/sglang/srt/managers/scheduler.py", line 2101, in event_loop_normal',
    "    result = self.run_batch(batch)",
    f"RuntimeError: {ILLEGAL}",
]


def _mentions(analysis):  # type: ignore[no-untyped-def]
    return [i for i in analysis.incidents if i.mentioned]


def test_an_error_in_the_issue_title_beside_its_traceback_is_one_crash(tmp_path: Path) -> None:
    lines = [f"# [Bug] decode dies with {ILLEGAL} when the draft runs", "", "Log:", *TRACEBACK]
    analysis = run(tmp_path, lines)
    assert [(i.exception_type, i.mentioned) for i in analysis.incidents] == [("RuntimeError", None)]
    assert len(roots(analysis)) == 1


def test_a_quoted_error_of_another_kind_stays_a_mention_and_is_nobodys_collateral(
    tmp_path: Path,
) -> None:
    lines = ['We first saw "CUDA error: unspecified launch failure" on the old driver.', *TRACEBACK]
    analysis = run(tmp_path, lines)
    [root] = roots(analysis)
    [mention] = _mentions(analysis)
    assert root.exception_type == "RuntimeError"
    assert mention.message == "unspecified launch failure"
    assert mention.mentioned == "sentence"
    assert (mention.root_cause, mention.caused_by, mention.severity) == (False, None, "warning")
    assert mention.id not in root.collateral


def test_a_title_labelling_an_error_is_findable_as_a_mention_and_does_not_fail_ci(
    tmp_path: Path,
) -> None:
    analysis = run(tmp_path, [f"[Bug]: {ILLEGAL} with EAGLE-3 at tp 8", "", "No log yet."])
    [mention] = analysis.incidents
    assert mention.mentioned == "label" and mention.crash_class == "cuda_illegal_memory"
    assert mention.message.startswith(ILLEGAL)
    assert (mention.root_cause, mention.severity) == (False, "warning")
    assert int(judge(analysis).exit_code) == 0


def test_a_title_saying_the_run_died_of_it_is_the_root_cause(tmp_path: Path) -> None:
    analysis = run(tmp_path, [f"[Bug]: EAGLE-3 at tp 8 crashes with {ILLEGAL}", "", "No log yet."])
    [mention] = analysis.incidents
    assert mention.mentioned == "title" and mention.crash_class == "cuda_illegal_memory"
    assert (mention.root_cause, mention.severity) == (True, "fatal")  # the only word on the crash
    assert int(judge(analysis).exit_code) == 1


def test_a_sentence_naming_the_only_error_is_the_root_cause_marked_mentioned(
    tmp_path: Path,
) -> None:
    said = [
        f"After an hour under load the server crashes with {ILLEGAL} on every rank.",
        f"- The primary error is '{ILLEGAL}', in the verify step.",
    ]
    analysis = run(tmp_path, said)
    [root] = roots(analysis)
    assert [i.mentioned for i in analysis.incidents] == ["sentence"]  # one error, named twice
    assert root.crash_class == "cuda_illegal_memory" and root.severity == "fatal"
    assert int(judge(analysis).exit_code) == 1


def test_a_bare_error_line_is_a_crash_that_fails_ci(tmp_path: Path) -> None:
    analysis = run(tmp_path, ["step 1200 ok", f"RuntimeError: {ILLEGAL}"])
    [root] = roots(analysis)
    assert not root.mentioned
    assert int(judge(analysis).exit_code) == 1


def test_printed_lines_with_words_before_the_error_stay_crashes(tmp_path: Path) -> None:
    printed = [
        f"[rank3]: the worker failed with {ILLEGAL}",
        f"FAILED tests/test_spec.py::test_verify - RuntimeError: {ILLEGAL}",
        f"ERROR 03-12 10:00:01 [core.py:120] EngineCore failed with {ILLEGAL}",
        f"Exception in worker VllmWorkerProcess while processing method init_device: {ILLEGAL}",
    ]
    for n, line in enumerate(printed):
        analysis = run(tmp_path, [line], name=f"ci{n}.log")
        assert [i.mentioned for i in roots(analysis)] == [None], line
