"""A method's name misspelt by one keystroke is read as the method; an English word, a plural,
another EAGLE release or a short word one edit from a name is not. Every text is our own."""

from __future__ import annotations

import pytest
from real_logs_helpers import roots, run

from spectrace.assemblers.method_typos import near_method, one_edit
from spectrace.assemblers.spec_prose import named_algorithms
from spectrace.assemblers.thread_title import methods_in


@pytest.mark.parametrize(
    ("word", "method"),
    [
        ("eagles3", "EAGLE3"),  # a letter added
        ("egale3", "EAGLE3"),  # two neighbours swapped
        ("Eagel", "EAGLE"),
        ("dsaprk", "DSPARK"),
        ("DFlsah", "DFLASH"),
        ("NGARM", "NGRAM"),
        ("nexnt", "NEXTN"),
        ("medsua", "MEDUSA"),
    ],
)
def test_one_keystroke_off_a_name_is_that_method(word: str, method: str) -> None:
    assert near_method(word) == method


@pytest.mark.parametrize(
    "word",
    [
        "flash", "Spark", "sparks", "engram", "Ingram", "eagles", "beagle", "eaglet",  # English
        "ngrams", "eagle2", "Eagle1", "eagle33", "DFlash2", "medusa0",  # a plural, variants, heads
        "next", "gram", "eagle", "EAGLE3", "medusa",  # short words; names spelt right
        "eager", "angle", "bagel", "legal", "nexus", "splash",  # two edits away
    ],
)
def test_near_misses_that_are_no_method(word: str) -> None:
    assert near_method(word) is None


def test_one_edit_counts_exactly_one() -> None:
    assert one_edit("egale3", "eagle3") and one_edit("eagle", "eagles") and one_edit("dflsh", "dflash")
    assert not one_edit("eagle3", "eagle3") and not one_edit("gaele3", "eagle3")


def test_titles_and_sentences_read_the_misspelt_name_but_no_path_or_dashed_name() -> None:
    assert methods_in("[Bug] Egale3 crashes with TP8 on H20") == ("EAGLE3",)
    assert methods_in("[Bug] crash in /opt/egale3/run.py and Qwen3-8B-Eagles3") == ()
    assert methods_in("[Bug] flash attention backend crashes under Spark") == ()
    assert named_algorithms("we serve it with egale3 and it crashes") == ["EAGLE3"]
    assert named_algorithms("without egale3 it is fine") == ["OFF"]


def test_an_sglang_thread_titled_with_a_misspelt_method_reads_it(tmp_path) -> None:  # noqa: ANN001
    lines = ["sgl-project/sglang · issue #5170 · open · Python", "labels: bug",
             "# [Bug] Egale3 crashes with illegal memory access on H20", "",
             "ana · description · 2025-09-02", "```", "Traceback (most recent call last):",
             '  File "/opt/venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
             "    scheduler.event_loop_normal()",
             "RuntimeError: CUDA error: an illegal memory access was encountered", "```"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path.worker_class == "EAGLEWorker" or "EAGLEWorker" in (path.conditional or "")
