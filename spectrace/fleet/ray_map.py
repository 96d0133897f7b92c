"""``triage --ray ADDRESS``: the same map over inputs as Ray tasks, the merge on the driver.

ADDRESS is what ``ray.init`` takes (``ray://head:10001``, ``head:6379``, ``auto``); ``local``
starts a local cluster for this run (Ray's default: one worker per core). The tasks run the
same ``scan_task`` as ``--jobs``; the rules and markers travel once through the object store.
The inputs must be readable at the same paths on every worker (a shared file system), as for
any Ray job that reads files by name. Ray comes with the ``fleet`` extra.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spectrace.extras import require
from spectrace.fleet.local import scan_here
from spectrace.fleet.tasks import ScanRecipe, flat, merge_tasks, plan_tasks, scan_task, task_bytes
from spectrace.read import STDIN
from spectrace.ruleset import RuleSet
from spectrace.scan import ScanResult, ScanSpec

LOCAL = "local"


def check_ray() -> None:
    """One line and exit 2 (MissingExtra) when Ray is not installed."""
    require("--ray", ["ray"])


@dataclass(frozen=True, slots=True)
class RayMapper:
    address: str

    def __call__(self, paths: Sequence[str], rules: RuleSet, spec: ScanSpec,
                 on_progress: Callable[[int, int], None] | None = None) -> list[ScanResult]:  # fmt: skip
        import ray

        started = not ray.is_initialized()
        if started:
            ray.init(address=None if self.address == LOCAL else self.address,
                     include_dashboard=False, logging_level="ERROR", log_to_driver=False)  # fmt: skip
        try:
            return self._map(ray, paths, rules, spec.markers, on_progress)
        finally:
            if started:
                ray.shutdown()

    def _map(self, ray: Any, paths: Sequence[str], rules: RuleSet, markers: tuple[str, ...],
             on_progress: Callable[[int, int], None] | None) -> list[ScanResult]:  # fmt: skip
        planned = plan_tasks(paths, _cluster_cpus(ray))
        tasks, recipe = flat(planned), ScanRecipe(rules, markers)
        remote, shared = ray.remote(scan_task), ray.put(recipe)
        refs = {t: remote.remote(t, shared) for t in tasks if t.path != STDIN}
        done = scan_here(tasks, recipe)
        sizes = {t: task_bytes(t) for t in tasks}
        total, finished, pending = sum(sizes.values()), 0, dict(refs)
        while pending:
            ready, _ = ray.wait(list(pending.values()), num_returns=1)
            task = next(t for t, ref in pending.items() if ref == ready[0])
            done[task] = ray.get(pending.pop(task))
            finished += sizes[task]
            if on_progress is not None:
                on_progress(finished, total)
        return merge_tasks(planned, [done[t] for t in tasks])


def _cluster_cpus(ray: Any) -> int:
    """How many ranges a big file is cut into: the cluster's CPUs (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
