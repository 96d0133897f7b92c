"""A crash pasted twice, once cut short, is one root cause; different crashes stay apart.

The lines are ours, in the shapes issue threads show: a traceback pasted whole and again cut
before its exception line, a message cut mid-word, a first paste that began mid-way (``^^^^``
and the last frames) then a second that lost its end, an exception quoted alone above the
traceback that lost its end.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

SG = "/opt/sglang/python/sglang/srt"
HEAD = [
    "Traceback (most recent call last):",
    f'  File "{SG}/managers/scheduler.py", line 2410, in run_scheduler_process',
    "    scheduler.event_loop_overlap()",
    f'  File "{SG}/managers/scheduler.py", line 880, in event_loop_overlap',
    "    batch_result = self.run_batch(batch)",
]
TAIL = [
    f'  File "{SG}/speculative/eagle_worker.py", line 301, in draft',
    "    self.build_tree(spec_info)",
    f'  File "{SG}/speculative/tree_build.py", line 77, in build_tree',
    "    fused_tree_kernel(",
]
NAME_ERROR = "NameError: name 'fused_tree_kernel' is not defined"


def test_a_copy_cut_before_its_exception_line_is_the_same_crash(tmp_path: Path) -> None:
    lines = [
        "first run:",
        *HEAD,
        *TAIL,
        NAME_ERROR,
        "",
        "again, from the pod log:",
        *HEAD,
        *TAIL[:2],
        '  File "/opt/sgl',
    ]
    [root] = roots(run(tmp_path, lines))
    assert root.exception_type == "NameError"
    assert len(root.occurrences) == 2


def test_a_copy_whose_message_stops_mid_word_is_the_same_crash(tmp_path: Path) -> None:
    cut = NAME_ERROR[:-10]  # "... is no"
    lines = [*HEAD, *TAIL, NAME_ERROR, "", "the same in the other terminal:", *HEAD, *TAIL, cut]
    [root] = roots(run(tmp_path, lines))
    assert root.message == NAME_ERROR.split(": ", 1)[1]


def test_an_end_pasted_first_and_a_start_pasted_later_are_one_traceback(tmp_path: Path) -> None:
    lines = ["with mem fraction 0.7:", "```", "    ^^^^", *TAIL, NAME_ERROR, "",
             "[2026-02-18 14:31:01 TP3] Scheduler hit an exception: " + HEAD[0], *HEAD[1:], '  File "/opt/sgl-wo', "```"]  # fmt: skip
    [root] = roots(run(tmp_path, lines))
    assert root.exception_type == "NameError" and root.ranks == ["TP3"]
    functions = [f.function for f in root.frames]
    assert functions == ["run_scheduler_process", "event_loop_overlap", "draft", "build_tree"]


def test_an_exception_quoted_alone_and_its_cut_traceback_are_one_crash(tmp_path: Path) -> None:
    lines = [
        "I see this error:",
        "```",
        NAME_ERROR,
        "```",
        "",
        "Traceback:",
        "```text",
        *HEAD,
        *TAIL[:2],
        "```",
    ]
    [root] = roots(run(tmp_path, lines))
    assert root.exception_type == "NameError"
    assert [f.function for f in root.frames][:2] == ["run_scheduler_process", "event_loop_overlap"]


def test_a_cut_traceback_of_another_crash_stays_a_crash_of_its_own(tmp_path: Path) -> None:
    other = [
        "Traceback (most recent call last):",
        f'  File "{SG}/entrypoints/http_server.py", line 120, in generate',
        "    ret = await tokenizer_manager.generate_request(obj)",
    ]
    lines = [*HEAD, *TAIL, NAME_ERROR, "", "and later, another one:", *other]
    found = sorted(r.exception_type for r in roots(run(tmp_path, lines)))
    assert found == ["NameError", "Traceback"]


def test_a_cut_traceback_beside_two_crashes_that_could_end_it_stays_apart(tmp_path: Path) -> None:
    key_error = [
        "    ^^^^",
        f'  File "{SG}/mem_cache/radix_cache.py", line 301, in evict',
        "KeyError: 17",
    ]
    lines = ["    ^^^^", *TAIL, NAME_ERROR, "", *key_error, "", *HEAD]
    found = sorted(r.exception_type for r in roots(run(tmp_path, lines)))
    assert found == ["KeyError", "NameError", "Traceback"]


def test_a_shorter_message_of_another_crash_is_not_a_cut_copy(tmp_path: Path) -> None:
    lines = [*HEAD, *TAIL, "RuntimeError: CUDA error: an illegal memory access was encountered", "",
             *HEAD, *TAIL, "RuntimeError: CUDA error"]  # fmt: skip
    assert len(roots(run(tmp_path, lines))) == 2
