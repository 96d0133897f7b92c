"""A ticked test-plan item on named hardware is the author's run, with its family and release,
even inside the "## Test plan" section (``not_run`` leaves the ticked check out of the plan's
block), and where such a run line names a family, the run's family is that one, not those a
summary bullet names for the code it touches (``path_era``: "across all spec worker types
(EAGLE, MultiLayerEAGLE, ...)", "NGRAM has no draft model so the key is omitted"). Every line is
ours, in the shape of a saved SGLang PR (round 40 09, wrong NGRAMWorker at session 17's base)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, roots, run

PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip
SGL = "sgl-project/sglang · pull request #39001 · open · Python"


def thread(*body: str) -> list[str]:
    return [SGL, "# Report draft and prefill CUDA graph memory in /server_info", "",
            "dev-c · description · 2026-07-11", *body, "", *PROBE]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


def _none(path) -> bool:
    return path is None or (path.worker_class is None and not path.conditional)


SUMMARY = [
    "## Summary",
    "- Draft graph captures only logged their memory and never stored it.",
    "- Accumulate draft graph capture deltas across all spec worker types (EAGLE, MultiLayerEAGLE,"
    " FrozenKVMTP; DFlash already records it via the standard path).",
    "- Report decode + prefill totals under a new `draft_graph` key. NGRAM has no draft model so"
    " `draft_graph` is omitted.",
    "",
    "## Test plan",
]  # fmt: skip


@pytest.mark.parametrize("ticked", [
    "- [x] Verified on B300 with `sglang:v0.5.15` + EAGLE3 (a 30B MoE target in FP8 + its EAGLE3 draft)",
    "- [x] Verified on B300 with `sglang:v0.5.15` + EAGLE3 (a 30B MoE target in FP8 + SpecForge draft)",
    "* [x] Tested EAGLE3 on 8x H200 with the v0.5.15 image: draft_graph is reported",
    "- [X] verified on H100 using lmsysorg/sglang:v0.5.15 with EAGLE3; the new key shows up",
])  # fmt: skip
def test_a_ticked_check_in_a_test_plan_names_the_runs_family(tmp_path: Path, ticked: str) -> None:
    """The ticked item is the author's run with its family and release (EAGLE3 on 0.5.15, where
    only the v2 worker exists); the summary's families name the code the PR touches, and the
    open items of the plan below stay a plan (not_run, path_era)."""
    lines = thread(*SUMMARY, ticked, "- [ ] Verify NGRAM on the same image")
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


@pytest.mark.parametrize("item", [
    "- [ ] Verify on B300 with `sglang:v0.5.15` + EAGLE3",
    "- [x] Unit tests for the new key pass",
])  # fmt: skip
def test_an_open_or_hardware_less_box_names_no_family_over_the_summary(tmp_path: Path, item: str) -> None:
    """Near misses: an open box, or a ticked box with no setup, is no run line; the summary's
    several families decide nothing (never NGRAMWorker)."""
    lines = thread(*SUMMARY, item)
    assert _none(_path(tmp_path, lines))
