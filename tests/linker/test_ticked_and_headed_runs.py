"""A pull request shows its author's run by a ticked test-plan item or a results heading that
names the hardware it ran on (``run_results._on_hardware``), and by a sentence saying the method's
path runs end to end on named hardware.

"- [x] Verify MTP speculative decoding on H200 no longer crashes", "* [X] Run the accuracy tests
on DGX B200", "## Result (8x MI300X, ..., EAGLE3 SD)", "the full NGRAM path runs end-to-end on
Ascend 910C": each is a check the author did on a setup. A status box with no check ("- [x]
EAGLE3"), an open box, a "Benchmark script" heading, a docs "Performance" heading and a check
that is planned or another source's show nothing. Every line is ours, in the shapes of saved PR
threads (rounds 40 and 42)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, roots, run
from spectrace.assemblers.run_shown import run_line

PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip


def thread(header: str, title: str, day: str, *body: str) -> list[str]:
    return [header, f"# {title}", "", f"dev-c · description · {day}", *body, "", *PROBE]


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


def _none(path) -> bool:
    return path is None or (path.worker_class is None and not path.conditional)


TRT = "NVIDIA/TensorRT-LLM · pull request #12001 · merged · Python"
VLLM = "vllm-project/vllm · pull request #47001 · closed · Python"
SGL = "sgl-project/sglang · pull request #39001 · open · Python"


@pytest.mark.parametrize("ticked", [
    "- [x] Verify MTP speculative decoding on H200 (SM90) no longer crashes",
    "* [X] Ran the MTP accuracy tests on DGX B200",
    "- [x] MTP accuracy on 8x B200",
    "1. [x] Tested the nemotron MTP checkpoint on H100, passes",
])  # fmt: skip
def test_a_ticked_check_on_named_hardware_shows_a_fix_prs_run(tmp_path: Path, ticked: str) -> None:
    lines = thread(TRT, "[None][fix] Fix MTP crash on SM90 with attention DP", "2026-02-28",
                   "## Summary", "- Fix MTP speculative decoding crash in `_torch/speculative/mtp.py`",
                   "- Add accuracy regression tests", "", "## Test plan", ticked)  # fmt: skip
    assert run_line(ticked)
    assert_verdict(_path(tmp_path, lines), "unknown", "MTPWorker|MTPEagleWorker")


@pytest.mark.parametrize("heading", [
    "## Result (8x MI300X, a 235B MoE VL model in FP8, EAGLE3 SD, MMMU)",
    "### Benchmark results on 8x MI300X (EAGLE3)",
    "**Accuracy (MMMU, EAGLE3, 8x MI300X)**",
])  # fmt: skip
def test_a_results_heading_on_named_hardware_shows_the_prs_run(tmp_path: Path, heading: str) -> None:
    lines = thread(VLLM, "[ROCm][Perf] Prefer the AITER attention backend when MHA is enabled",
                   "2026-06-24", "## Purpose", "Decode attention picked the slower backend.", "",
                   heading, "", "| backend | TPOT (ms) |", "|---|---|", "| old | 21.4 |", "| new | 17.9 |")  # fmt: skip
    assert run_line(heading)
    assert_verdict(_path(tmp_path, lines), "unknown", "EagleProposer|EagleSpeculator")


@pytest.mark.parametrize("said", [
    "with three platform changes, the full NGRAM path runs end-to-end on Ascend 910C.",
    "The NGRAM worker now runs correctly on 910B.",
])  # fmt: skip
def test_a_path_said_to_run_on_named_hardware_shows_an_enabling_prs_run(tmp_path: Path, said: str) -> None:
    lines = thread(SGL, "[NPU] Enable NGRAM speculative decoding on Ascend NPUs", "2026-09-06",
                   "## Motivation", "NGRAM speculative decoding is restricted to CUDA and CPU devices.", said)  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "NGRAMWorker")


@pytest.mark.parametrize("line", [
    "- [x] EAGLE3 on MI300X",
    "- [x] Support MTP on H100",
    "- [ ] Verify MTP on H200",
    "- [x] not tested on H200 yet",
    "- [x] Verify MTP on H200 once the kernel lands",
    "## Benchmark script for H200",
    "## Expected results on H200",
    "## Results from the paper (H200)",
    "## Performance on H200",
    "It should run end-to-end on H200.",
])  # fmt: skip
def test_a_status_box_a_plan_or_a_docs_heading_shows_no_run(tmp_path: Path, line: str) -> None:
    """Near misses: an adding PR whose only hardware line is a status box, a plan, an
    expectation, another source's numbers or a heading over no result stays without a path."""
    assert not run_line(line)
    lines = thread(TRT, "[None][feat] Add MTP support for the Foo model", "2026-02-28",
                   "## Summary", "Adds MTP layers for the Foo model.", "", line)  # fmt: skip
    assert _none(_path(tmp_path, lines))

