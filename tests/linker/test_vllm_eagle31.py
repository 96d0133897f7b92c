"""A point release of EAGLE-3 named as the run's method ("eagle3.1", "EAGLE-3.1", "Eagle 3.1":
Kimi's EAGLE3.1 drafts) is the EAGLE3 family (issue 11, round 36): the ".1" used to hide the
word, so a vLLM deployment "with eagle3.1" named no family. A file name or a longer number is
still no family word. Our own lines, other models and releases than the study excerpt."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, VLLM_REPO, thread

from spectrace.path_base import family_words


@pytest.mark.parametrize("text", [
    "Our production deployment runs with eagle3.1 drafts.",
    "We switched the draft to EAGLE-3.1 last week and the crash started.",
    "GLM-5 with an Eagle 3.1 head crashes at warm-up",
])  # fmt: skip
def test_a_point_release_of_eagle3_is_the_eagle3_family(text: str) -> None:
    assert family_words(text) == {"EAGLE3"}


@pytest.mark.parametrize("text", [
    "see vllm/model_executor/models/llama_eagle3.py for the head",
    "the eagle3.py module",
    "eagle3.10.2 is not a method",
])  # fmt: skip
def test_files_and_longer_numbers_are_no_family_word(text: str) -> None:
    assert "EAGLE3" not in family_words(text)


def test_a_vllm_deployment_with_eagle3_1_names_eagle3s_class(tmp_path: Path) -> None:
    lines = thread(
        VLLM_REPO, "[Bug]: empty reasoning content under load", "2026-04-20",
        "Our deployment serves GLM-5 with eagle3.1 on this image:",
        "    image: vllm/vllm-openai:v0.20.1",
        "The responses come back empty after a few hundred requests.",
    )  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path
