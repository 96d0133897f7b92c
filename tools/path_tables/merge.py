"""Hand rows over generated ones, and the order a table is written in."""

from __future__ import annotations

from path_tables.hand import HAND_FRAMES
from path_tables.releases import version_key
from path_tables.rows import FrameRow


def _role(path: str, worker: str, function: str, what: str) -> str:
    if function:
        return "scheduler_loop"
    if "graph runner" in what.lower() or "cuda-graph" in what.lower():
        return "graph_runner"
    if worker and path:
        return "proposer" if worker.endswith("Proposer") else "worker"
    return "shared"


def merge(framework: str, generated: list[tuple[str, FrameRow]]) -> list[FrameRow]:
    """Generated rows (with the scanned path each stands for) with each hand row in place
    of the generated row of its file and function (classes, family and releases still come
    from the scan)."""
    out = {(r.file, r.function): r for _rel, r in generated}
    by_scanned = {(rel, r.function): r for rel, r in generated}
    for fw, suffix, path, worker, what, function, needs_spec, scanned in HAND_FRAMES:
        if fw != framework:
            continue
        base = by_scanned.get((scanned, function)) if scanned else None
        if base is not None:
            out.pop((base.file, base.function), None)
        out[(suffix, function)] = FrameRow(
            suffix, framework, base.family if base else "", worker, path,
            base.role if base else _role(path, worker, function, what), base.classes if base else (), function,
            needs_spec, base.releases if base else ("", ""), what, "hand",
            base.bases if base else (),
            base.workers if base and base.worker == worker else ())
    return order(list(out.values()))


def order(rows: list[FrameRow]) -> list[FrameRow]:
    """Most specific first (longer suffix, then a function before none), then by name: the
    order a matcher that takes the first hit needs, and a stable diff."""
    return sorted(rows, key=lambda r: (-r.file.count("/"), -len(r.file), r.file,
                                       r.function == "", r.function))


def latest(rows: list[FrameRow]) -> str:
    tags = [r.releases[1] for r in rows if r.releases[1]]
    return max(tags, key=version_key) if tags else ""
