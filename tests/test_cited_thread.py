"""A comment citing another thread for what that thread reports ("Looks like
sgl-project/sglang#23456 (EAGLE3 draft not resynced), but you run without a draft") names that
thread's method, not this thread's run (``not_run.CITED``). The writer's own words beside a
citation ("I hit the same with EAGLE3 on 0.5.9, see ...") keep their method.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip


def issue(*comment: str) -> list[str]:
    return ["acme/rl-trainer · issue #9133 · open", "# [Bug] rollout slows down after weight sync with sglang", "",
            "rl-user · description · 2026-06-10", "Rollout throughput halves after the first weight sync (sglang 0.5.9).",
            "", "rl-maint · comment · 2026-06-11", *comment]  # fmt: skip


def test_a_cited_threads_method_is_not_the_runs(tmp_path: Path) -> None:
    for i, line in enumerate([
        "Looks like sgl-project/sglang#23456 (EAGLE3 draft not resynced), but you run without a draft.",
        "Could be https://github.com/sgl-project/sglang/issues/23456 (the EAGLE3 draft is not resynced).",
    ]):  # fmt: skip
        (tmp_path / str(i)).mkdir()
        path = crash_path(run(tmp_path / str(i), [*issue(line), *PROBE], name="report.md"))
        assert path.worker_class is None and not path.conditional, path


def test_the_writers_own_run_beside_a_citation_keeps_its_method(tmp_path: Path) -> None:
    lines = issue("We launch sglang 0.5.9 with `--speculative-algorithm EAGLE3` for rollouts; sgl-project/sglang#23456 "
                  "has our trace.")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE], name="report.md")), "v1", "EAGLEWorker")
