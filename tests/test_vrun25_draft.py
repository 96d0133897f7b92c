"""A vLLM report naming a plain draft model in words, no method and no release, whose crash went
through the V1 model runner (session 25, VRUN; the shape of R70 24): "Pairing a **dense draft
model** (`org/X-4B`) with a hybrid main model (`org/Y`) fails at engine init — the draft's page
size doesn't equal ...". vLLM infers ``draft_model`` for such a draft; the V1 runner's frames rule
out V0's workers, the model runner v2 and the releases that refuse the config before any runner
(0.10-0.16), so ``DraftModelProposer`` ran. Lines are our own, in the shapes reports take."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, crash_path, probed_path, run

ISSUE = ["vllm-project/vllm · issue #70111 · open · Python",
         "# [Bug]: AssertionError at init with a dense draft and a hybrid-attention main model", "",
         "someone · description · 2026-05-20"]  # fmt: skip
PULL = ["vllm-project/vllm · pull request #70112 · open · Python",
        "# [Bugfix] Pad the draft's KV page size for hybrid targets", "",
        "someone · description · 2026-05-20"]  # fmt: skip
V1_FRAMES = [
    "```",
    "Traceback (most recent call last):",
    'File "/usr/local/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 5100, in profile_run',
    "    self._init_minimal_kv_cache_for_profiling()",
    'File "/usr/local/lib/python3.12/site-packages/vllm/v1/core/kv_cache_utils.py", line 1000, in unify_page_size',
    "    assert new_spec.page_size_bytes == max_page_size",
    "AssertionError",
    "```",
]


@pytest.mark.parametrize(
    "line",
    [
        "With a **dense draft model** (`acme/Tiny-4B`) beside a **hybrid-attention target** (`acme/Hybrid-80B`),"
        " engine start dies on an unexplained `AssertionError`: the two models' KV page sizes differ.",
        "Running a small draft model (`acme/Tiny-1B`) with `acme/Hybrid-30B` crashes at start-up:",
        "Combining a draft model (acme/Tiny-1B) with a DeltaNet target fails at engine init; it doesn't get past profiling.",
        "We serve acme/Hybrid-30B with a small draft model (acme/Tiny-1B) and the engine dies:",
        "- Tested with acme/Hybrid-30B + acme/Tiny-1B draft, the engine dies at profiling:",
    ],
)  # fmt: skip
def test_a_plain_draft_in_words_with_v1_runner_frames_is_the_draft_model_proposer(
    tmp_path: Path, line: str
) -> None:
    path = crash_path(run(tmp_path, [*ISSUE, line, "", *V1_FRAMES]))
    assert (path.value, path.worker_class) == ("other", "DraftModelProposer"), path


def test_without_the_runner_frames_every_era_stays_open(tmp_path: Path) -> None:
    line = "Running a small draft model (`acme/Tiny-1B`) with `acme/Hybrid-30B` crashes at start-up."
    path = probed_path(tmp_path, [*ISSUE, line])
    assert path.worker_class is None and "DraftModelProposer" in path.conditional
    assert "MultiStepWorker" in path.conditional  # no release, no runner: V0 is not ruled out


def test_a_launch_draft_with_v1_runner_frames_is_the_draft_model_proposer(tmp_path: Path) -> None:
    launch = "vllm serve acme/Hybrid-30B --speculative-config '{\"model\": \"acme/Tiny-1B\", \"num_speculative_tokens\": 3}'"
    path = crash_path(run(tmp_path, [*ISSUE, launch, "", *V1_FRAMES]))
    assert (path.value, path.worker_class) == ("other", "DraftModelProposer"), path


def test_a_draft_named_like_an_mtp_head_keeps_both_readings(tmp_path: Path) -> None:
    launch = "vllm serve acme/Hybrid-30B --speculative-config '{\"model\": \"acme/Hybrid-30B-MTP\", \"num_speculative_tokens\": 1}'"
    path = crash_path(run(tmp_path, [*ISSUE, launch, "", *V1_FRAMES]))
    assert path.worker_class is None and "DraftModelProposer" in path.conditional
    assert "EagleProposer" in path.conditional


@pytest.mark.parametrize(
    "lines",
    [
        # a fix PR telling the bug class in the same words, with and without a traceback
        [*PULL, "With a dense draft model (`acme/Tiny-4B`) beside a hybrid-attention target (`acme/Hybrid-80B`),"
         " engine init fails. This PR pads the draft's page size.", "", *V1_FRAMES],
        [*PULL, "Running a small draft model (`acme/Tiny-1B`) with a hybrid target fails at init; this PR fixes it."],
        # a feature request asking for the setup
        [*ISSUE[:1], "# [Feature]: dense draft models for hybrid targets", "", ISSUE[3],
         "Running a dense draft model (`acme/Tiny-4B`) with a hybrid main model would help us. Is this planned?"],
        # a plan
        [*ISSUE, "Pairing a small draft model (`acme/Tiny-1B`) with the hybrid target could be worth trying next."],
    ],
)  # fmt: skip
def test_the_same_words_without_a_run_give_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
