"""A scheduler frame's source line calling into the speculative worker (worker_calls).

SGLang's scheduler of 0.4.2-0.5.2 enters the speculative worker by
``self.draft_worker.forward_batch_speculative_generation(batch)`` in ``run_batch``; only
``speculative/eagle_worker.py`` defines that method. A traceback cut right after that frame
(round 40 17: a PR comment's paste) still shows the v1 worker ran. Our own lines, several copy
forms, and near misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import assert_verdict, crash_path, run, roots

_CALL = "    ) = self.draft_worker.forward_batch_speculative_generation(batch)"
_SCHED = '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 1218, in run_batch'


def _cut(prefix: str = "") -> list[str]:
    """A traceback cut inside the frame after the call (``prefix``: grep -n's line numbers)."""
    lines = ["Traceback (most recent call last):", _SCHED, _CALL, '  File "/opt/sglang/p']
    return [f"{prefix}{n}  {line}" if prefix else line for n, line in enumerate(lines, 400)]


@pytest.mark.parametrize(
    "lines",
    [
        # a PR comment's paste with grep -n numbers, cut mid-path (round 40 17's shape)
        ["sgl-project/sglang · pull request #3990 · merged · Python", "# Refactor the memory pool allocator",
         "", "someone · comment · 2025-03-03", "commit a1b2c3d: illegal memory access when I run DeepSeek:",
         *_cut(prefix=" ")],
        # an issue's plain paste, cut after the call line
        ["sgl-project/sglang · issue #4200 · open · Python", "# [Bug] scheduler dies under load",
         "", "someone · description · 2025-04-02", "```", *_cut()[:-1], "```"],
        # a bare log: the paste is all there is
        [*_cut()[:-1]],
    ],
)
def test_a_cut_traceback_after_the_worker_call_is_eagle_worker(tmp_path: Path, lines: list[str]) -> None:
    """The call names EAGLEWorker's method: the v1 worker ran."""
    analysis = run(tmp_path, lines)
    assert any(i.worker_path is not None and i.worker_path.worker_class == "EAGLEWorker"
               for i in roots(analysis))  # fmt: skip


def test_the_whole_traceback_reads_the_same(tmp_path: Path) -> None:
    """The traceback going on into eagle_worker.py gives the same verdict (the frame is shown)."""
    lines = ["Traceback (most recent call last):", _SCHED, _CALL,
             '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 300, in '
             "forward_batch_speculative_generation", "    self.verify(batch)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


@pytest.mark.parametrize(
    "code",
    [
        "    batch_result = self.model_worker.forward_batch_generation(model_worker_batch)",
        "    # was: self.draft_worker.forward_batch_speculative_generation (removed in 0.5.3)",
    ],
)
def test_other_calls_name_no_worker(tmp_path: Path, code: str) -> None:
    """A call every run makes (the model worker's), or the name in a comment with no call: no
    worker from the call."""
    lines = ["Traceback (most recent call last):", _SCHED, code,
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    assert crash_path(run(tmp_path, lines)).worker_class is None
