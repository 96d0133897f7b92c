"""The writer's own check of the method, told with its outcome, shows the run (session 18, PROSE).

"We later tested EAGLE on gfx950 (MI355X) and it works", "MTP was tested and works on 8x B200",
"We recently tested MTP ... on 2x H100": a check done, with an adverb between the writer and the
verb or "and works" between the verb and the setup (round 46 02, an SGLang cookbook PR). Such a
line is a run line (``run_results``), and the "works" in it is that run's result, not another run
set beside the reported one (``spec_prose.set_apart``), unless the line turns to a failure ("I
tested EAGLE and it works, but the plain server crashes": two runs). A check to come or not done
shows nothing. Every line is ours, in the shapes of saved PR threads in three copy forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, probed_path
from spectrace.assemblers.run_shown import run_line
from spectrace.assemblers.spec_prose import names_apart, set_apart


def test_a_web_copied_cookbook_pr_that_tested_the_method(tmp_path: Path) -> None:
    lines = ["[AMD] enable EAGLE for gfx950 in the cookbook · Pull Request #29901 · sgl-project/sglang", "",
             "dev-f commented on Jun 24, 2026", "## Modifications", "",
             "- **`deploy.jsx`**: the generator now emits the EAGLE flags on MI355X. We later tested EAGLE on "
             "gfx950 (MI355X) and it works; gfx942 is unverified."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_question_in_another_sentence_leaves_the_tested_family(tmp_path: Path) -> None:
    lines = ["[AMD] enable EAGLE for gfx950 in the cookbook · Pull Request #29902 · sgl-project/sglang", "",
             "dev-f commented on Jun 24, 2026", "## Modifications", "",
             "- **`deploy.jsx`**: the generator now emits the EAGLE flags on MI355X. We later tested EAGLE on "
             "gfx950 (MI355X) and it works. Is gfx942 worth a try?"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_an_engine_feature_pr_whose_method_was_tested_and_works(tmp_path: Path) -> None:
    lines = ["NVIDIA/TensorRT-LLM · pull request #13001 · merged · Python", "# [None][feat] Support MTP for GLM-4.5", "",
             "dev-g · description · 2026-04-02", "## Description", "Adds the GLM MTP layer mapping.", "",
             "## Test Coverage", "MTP was tested and works on 8x B200 with a GLM-4.5 checkpoint."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "MTPWorker|MTPEagleWorker")


def test_a_cited_model_pr_the_writer_recently_tested(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm pull request #47101 · merged", "[Model] Add MTP support for a new MoE family", "",
             "dev-h · description · 2026-03-10",
             "We recently tested MTP with num_speculative_tokens=2 on 2x H100 and it runs end to end."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


@pytest.mark.parametrize("said", [
    "MTP will be tested and works on 8x B200 once the checkpoint is public.",
    "MTP has not been tested on 8x B200 yet.",
    "We later will test MTP on 8x B200.",
])  # fmt: skip
def test_a_check_to_come_or_not_done_shows_no_run(tmp_path: Path, said: str) -> None:
    lines = ["NVIDIA/TensorRT-LLM · pull request #13002 · open · Python", "# [None][feat] Support MTP for GLM-4.5", "",
             "dev-g · description · 2026-04-02", "## Test Coverage", said]  # fmt: skip
    assert not run_line(said)
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


def test_works_after_the_writers_check_is_that_runs_result() -> None:
    assert not set_apart("We later tested EAGLE on gfx950 (MI355X) and it works; gfx942 is unverified.")
    assert not set_apart("We verified that MTP works on 8x B200.")
    assert set_apart("I tested EAGLE and it works, but the plain server crashes.")  # two runs
    assert set_apart("EAGLE works fine; the plain server crashes.")
    assert set_apart("Tested EAGLE. Now the plain server works fine.")  # another sentence's "works"
    assert not names_apart("We run NEXTN on 0.5.9 and the scheduler dies. Any idea?")
    assert names_apart("EAGLE3 was on. But that is not the run that crashed.")
    assert names_apart("The crash is bad. Should I try EAGLE?")
