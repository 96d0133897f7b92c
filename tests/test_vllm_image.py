"""A run placed on vLLM by the container image its text says it runs (issue 11, round 24's model
repository shape): the family its words name is then vLLM's class; an image set apart (one
that works, another's) places nothing."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import crash_path, run
from test_never_wrong import thread

_PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
          "RuntimeError: spectrace probe"]  # fmt: skip


def test_a_model_repo_s_vllm_image_puts_its_dflash_run_on_vllm(tmp_path: Path) -> None:
    lines = thread("acme/Orbit-27B-DFlash", "Drafter hangs after an hour", "2026-06-10",
                   "Running the DFlash drafter with the repo's vLLM image "
                   "(acme/vllm-dflash:0.23.1), num_speculative_tokens: 10.", *_PROBE)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert (path.value, path.worker_class) == ("other", "DFlashProposer"), path


def test_an_image_that_works_places_no_run_on_vllm(tmp_path: Path) -> None:
    lines = thread("acme/Orbit-27B-DFlash", "Drafter hangs after an hour", "2026-06-10",
                   "Running the DFlash drafter; the vllm/vllm-openai:v0.23.1 image works fine for us.",
                   *_PROBE)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.worker_class is None, path
