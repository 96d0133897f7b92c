"""``triage --jobs N``: the map over inputs in N local processes, results in input order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spectrace.fleet.tasks import (
    ScanRecipe,
    ScanTask,
    flat,
    merge_tasks,
    plan_tasks,
    scan_task,
    spec_for,
    task_bytes,
)
from spectrace.read import STDIN
from spectrace.ruleset import RuleSet
from spectrace.scan import ScanResult, ScanSpec

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ProcessMapper:
    """Scans each input (or range of a big one) in a pool of ``jobs`` processes. stdin is read
    here: its bytes cannot be handed to a child."""

    jobs: int

    def __call__(self, paths: Sequence[str], rules: RuleSet, spec: ScanSpec,
                 on_progress: Progress | None = None) -> list[ScanResult]:  # fmt: skip
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        planned = plan_tasks(paths, self.jobs)
        tasks, recipe = flat(planned), ScanRecipe(rules, spec.markers)
        spec_for.seed(recipe, spec)  # forked workers inherit it
        methods = multiprocessing.get_all_start_methods()  # fork: no re-import per worker
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ProcessPoolExecutor(self.jobs, mp_context=ctx) as pool:
            futures = {t: pool.submit(scan_task, t, recipe) for t in tasks if t.path != STDIN}
            done = scan_here(tasks, recipe)
            sizes = {t: task_bytes(t) for t in tasks}
            total, finished = sum(sizes.values()), sum(sizes[t] for t in done)
            for task, future in futures.items():
                done[task] = future.result()
                finished += sizes[task]
                if on_progress is not None:
                    on_progress(finished, total)
        return merge_tasks(planned, [done[t] for t in tasks])


def scan_here(tasks: Sequence[ScanTask], recipe: ScanRecipe) -> dict[ScanTask, ScanResult]:
    """Tasks that must run in the driver (stdin), scanned in order."""
    return {t: scan_task(t, recipe) for t in tasks if t.path == STDIN}
