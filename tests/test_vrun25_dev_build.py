"""A vLLM dev build named as the run's release (session 25, VRUN; the shape of R70 10): a string
``0.26.1rc1.dev920+g...`` counts commits past the last tag main carried, while later releases were
cut, so its code may hold a class first released after its base tag, up to the text's day. A
DFlash2 draft on such a build is the model runner v2's ``DFlash2Speculator`` where the build holds
it, else the V1 runner's ``DFlashProposer``. Lines are our own, in the shapes reports take."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import probed_path


def _report(version: str, day: str) -> list[str]:
    return [
        "vllm-project/vllm · issue #71500 · open · Python",
        "# [Bug]: with a DFlash2 drafter and YaRN, long prompts never hit the prefix cache (target alone does)",
        "",
        f"someone · description · {day}",
        "```text",
        "GPU: NVIDIA RTX PRO 6000 Blackwell",
        f"vLLM: {version} (base commit 66e5414c6d75)",
        "```",
        "The DFlash arm uses the same base commit plus a YaRN patch for the DFlash2 draft.",
    ]


def test_a_dev_build_past_the_variants_release_day_names_both_runners(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _report("0.26.1rc1.dev920+g66e5414c6", "2026-08-27"))
    assert path.worker_class is None, path
    assert "DFlash2Speculator" in path.conditional and "DFlashProposer" in path.conditional


def test_a_dev_build_before_the_variants_release_keeps_no_class(tmp_path: Path) -> None:
    """Dated before 0.28.0 came out: main could not yet hold what it first released."""
    path = probed_path(tmp_path, _report("0.26.1rc1.dev920+g66e5414c6", "2026-08-01"))
    assert path.worker_class is None and not path.conditional, path


def test_a_tagged_release_keeps_no_class(tmp_path: Path) -> None:
    """0.26.1 itself holds no DFlash2Speculator, whatever the text's day."""
    path = probed_path(tmp_path, _report("0.26.1", "2026-08-27"))
    assert path.worker_class is None and not path.conditional, path
