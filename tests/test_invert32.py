"""A text shows a run only where one of its lines has a run's form (``assemblers/run_forms``,
``rules/paths/run_forms.toml``): a log record, a frame, a version or environment report, a
benchmark's result, a terminal prompt, the writer telling their own run. A note that names a
method and its worker in words alone gets no path and says why. Our own texts, a probe
traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, roots, run
from spectrace.assemblers.run_forms import ENGINE_RECORD, first_form, form_of, forms
from spectrace.assemblers.run_shown import NO_FORM
from spectrace.dialects.base import LogLine

# a model card's words: a method, its worker class, a checkpoint; no line a run wrote
CARD = ["Orbit-8B ships a two-layer MTP head trained with the base model.",
        "Speculative decoding with it goes through MTPSpeculator on the model runner v2,",
        "and a draft length of 3 is what the head was trained for."]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202
    (crash,) = roots(run(tmp_path, [*lines, "", *PROBE]))
    return crash.worker_path


def _line(raw: str) -> LogLine:
    return LogLine("t.log", 1, 0, raw, raw, "plain", "")


def test_words_alone_show_no_run_and_say_so(tmp_path: Path) -> None:
    assert_no_path(tmp_path, CARD)
    path = _path(tmp_path, CARD)
    assert path.missing and path.missing[0].startswith(NO_FORM), path.missing


@pytest.mark.parametrize("shown", [
    "(EngineCore pid=7) INFO 02-03 04:05:06 [gpu_worker.py:120] model weights took 15.1 GiB",
    "vllm==0.31.2",
    "PyTorch version: 2.9.1+cu128",
    "Successful requests:   64",
    "ubuntu@box-2:~$ python serve_orbit.py",
    "We served it on two H100s for a week and acceptance stayed near 2.1.",
])  # fmt: skip
def test_the_same_words_beside_a_line_a_run_wrote_keep_the_path(tmp_path: Path, shown: str) -> None:
    path = _path(tmp_path, [*CARD, shown])
    assert path.worker_class is not None or path.conditional, (shown, path)


def test_a_run_form_inside_an_example_shows_no_run(tmp_path: Path) -> None:
    lines = [*CARD, "", "For example, the server prints:", "```", "INFO: draft model loaded in 3.2 s", "```"]
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("form", forms(), ids=lambda f: f.name)
def test_each_forms_examples_are_read_in_that_form(form) -> None:  # noqa: ANN001
    assert form.why and form.examples, form.name
    for example in form.examples:
        if form.near:  # a sentence and the list beside it: lines of their own
            held = [LogLine("t.log", n, 0, raw, raw, "plain", "") for n, raw in enumerate(example.split("\n"), 1)]
            assert (found := first_form(held)) is not None and found[1] == form.name, example
        else:
            assert form_of(_line(example)) == form.name, example


def test_a_line_an_engine_dialect_headed_is_a_record() -> None:
    line = LogLine("t.log", 1, 0, "draft ready", "[2026-01-02 03:04:05 TP0] draft ready", "sglang", "", headed=True)
    assert form_of(line) == ENGINE_RECORD


@pytest.mark.parametrize("text", [
    "Set --speculative-num-steps to 3 for this head.",
    "| draft length | 3 |",
    "- [ ] run the e2e test with MTP",
    "torch>=2.9 is needed",
])  # fmt: skip
def test_a_configs_words_are_no_run_form(text: str) -> None:
    assert form_of(_line(text)) is None
