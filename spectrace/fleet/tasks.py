"""The unit of work a mapper ships: one file (or one byte range of a big file) -> ScanResult."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from spectrace.parallel import PARALLEL_MIN_BYTES, merge_ranges, plan_workers, split_points
from spectrace.read import STDIN
from spectrace.ruleset import RuleSet
from spectrace.scan import ScanResult, ScanSpec


@dataclass(frozen=True, slots=True)
class ScanTask:
    """A whole input (``stop`` None) or the line-aligned range ``[start, stop)`` of a plain file."""

    path: str
    start: int = 0
    stop: int | None = None


@dataclass(frozen=True, slots=True)
class ScanRecipe:
    """What a worker needs to build the ScanSpec: the compiled prefilter (hyperscan) does not
    pickle, the rules and markers do, and building the spec from them takes ~10 ms."""

    rules: RuleSet
    markers: tuple[str, ...] = ()


def plan_tasks(paths: Sequence[str], jobs: int) -> list[list[ScanTask]]:
    """Per input, its tasks: one for a file; for a plain file big enough that the one-process
    scan would split it too (``parallel.PARALLEL_MIN_BYTES``), up to ``jobs`` ranges of at
    least that size each (a 1 GB file on 300 Ray CPUs: 10 ranges, not 300 tiny tasks)."""
    planned = []
    for path in paths:
        parts = 1 if path == STDIN else plan_workers(path, None)
        if parts > 1 and os.path.getsize(path) >= PARALLEL_MIN_BYTES:
            ranges = max(parts, min(jobs, os.path.getsize(path) // PARALLEL_MIN_BYTES))
            points = split_points(path, ranges)
            planned.append(
                [ScanTask(path, lo, hi) for lo, hi in zip(points, points[1:], strict=False)]
            )
        else:
            planned.append([ScanTask(path)])
    return planned


def task_bytes(task: ScanTask) -> int:
    """Bytes a task reads (0 for stdin), for a progress bar in bytes."""
    if task.path == STDIN:
        return 0
    return (task.stop if task.stop is not None else os.path.getsize(task.path)) - task.start


class SpecCache:
    """The spec of each recipe, built once per process. The driver seeds it with the spec it
    already built, so forked workers inherit it instead of each compiling the prefilter again
    (~0.1 s of CPU per worker); a Ray worker builds it on its first task."""

    def __init__(self) -> None:
        self.built: dict[ScanRecipe, ScanSpec] = {}

    def seed(self, recipe: ScanRecipe, spec: ScanSpec) -> None:
        self.built = {recipe: spec}  # one run at a time: the last recipe only

    def __call__(self, recipe: ScanRecipe) -> ScanSpec:
        spec = self.built.get(recipe)
        if spec is None:
            from spectrace.pipeline import build_spec  # the pipeline imports the mappers' types

            spec = build_spec(recipe.rules, recipe.markers)
            self.seed(recipe, spec)
        return spec


spec_for = SpecCache()  # per process (a worker's memory, never shared between processes)


def scan_task(task: ScanTask, recipe: ScanRecipe) -> ScanResult:
    """The map step: run in a worker process or a Ray task; the result pickles."""
    from spectrace.scan import scan_range

    return scan_range(task.path, spec_for(recipe), start=task.start, stop=task.stop)


def merge_tasks(
    planned: Sequence[Sequence[ScanTask]], results: Sequence[ScanResult]
) -> list[ScanResult]:
    """One ScanResult per input, ranges of a split file merged as ``parallel.scan_parallel`` does."""
    merged, at = [], 0
    for tasks in planned:
        parts = list(results[at : at + len(tasks)])
        at += len(tasks)
        merged.append(merge_ranges(parts, None))
    return merged


def flat(planned: Sequence[Sequence[ScanTask]]) -> list[ScanTask]:
    """The tasks of every input in input order: the order results come back in."""
    return [task for tasks in planned for task in tasks]
