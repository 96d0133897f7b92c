"""A fix PR on SGLang's tracker that links its issue by a closing keyword ("Fixes #N") still ran
its own branch: the month before its day bounds the release from below (config_release.
_main_floor), so a day past the release that retired the v1 worker leaves the v2 one (round 41
18: a multi-layer EAGLE fix PR of July 2026). Saying the run shown is the issue's ("the
reporter's repro", "from the issue") or naming an older release keeps the condition."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/torch/cuda/graphs.py", line 88, in replay',
    "    super().replay()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _pull(title: str, *body: str) -> list[str]:
    return ["sgl-project/sglang · pull request #31979 · closed · Python", f"# {title}", "",
            "someone · description · 2026-07-21", *body, "", *_PROBE]  # fmt: skip


@pytest.mark.parametrize("link", ["Fixes #31978", "Closes #31978.", "Resolves sgl-project/sglang#31978"])
def test_a_closing_keyword_keeps_the_branch_floor(tmp_path: Path, link: str) -> None:
    """The PR's own testing with multi-layer EAGLE, posted July 2026: v1 was gone by 0.5.13."""
    lines = _pull("Apply grammar vocab mask in multi-layer EAGLE verify",
                  "## Summary", "Multi-layer EAGLE verify ignored the grammar mask.", link, "## Testing",
                  "- With multi-layer EAGLE enabled, JSON-schema requests previously aborted; after the change they complete.")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "MultiLayerEagleWorkerV2")


@pytest.mark.parametrize(
    "said",
    ["Fixes #31978. The reporter's repro:", "The repro from the issue:", "Fixes #31978 (seen on v0.5.9)"],
)
def test_the_issues_run_or_an_older_release_keeps_the_condition(tmp_path: Path, said: str) -> None:
    """The run shown is the issue's, or a release before 0.5.13 is named: no floor."""
    lines = _pull("Apply grammar vocab mask in multi-layer EAGLE verify", said,
                  "- With multi-layer EAGLE enabled, JSON-schema requests abort.")  # fmt: skip
    assert crash_path(run(tmp_path, lines)).worker_class != "MultiLayerEagleWorkerV2"


@pytest.mark.parametrize(
    "log",
    [
        # the issue's server log, quoted with its own stamps from March 2026
        "[2026-03-02 10:11:12 TP0] server_args=ServerArgs(model_path='m/x', speculative_algorithm='EAGLE', "
        "speculative_eagle_topk=4, disable_overlap_schedule=True)",
        # a bare stamped launch line of that day
        "[2026-03-02 10:11:12] INFO: Using speculative_algorithm=EAGLE with topk 4",
    ],
)
def test_a_quoted_log_older_than_the_branch_keeps_the_condition(tmp_path: Path, log: str) -> None:
    """A fix PR of July 2026 quoting a log stamped in March 2026 (before 0.5.13): that run is
    older than any branch of the PR, so its day is no floor."""
    lines = _pull("[Fix] EAGLE verify crash with grammar", "Fixes #31978", "```", log, "```")
    assert crash_path(run(tmp_path, lines)).worker_class != "EAGLEWorkerV2"
