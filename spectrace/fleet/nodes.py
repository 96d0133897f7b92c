"""Node-aware runs: logs of several hosts given together keep their host in every rank label.

A directory per node is how fleets keep logs (``node03/server.log``, ``host-a/logs/x.log``,
``kubectl logs`` saved per pod). Two hosts both print ``TP0``; read together, their crashes
would merge into one rank. When the inputs sit in two or more directories under one common
root, each file's node is its first directory below that root, and its ranks read
``node03/TP7`` (a line with no rank reads ``node03``). Files of one directory (one host's
rotated logs) and single inputs are left as they are, unless their lines name two or more
hosts themselves: kubectl's ``[pod/NAME/container]``, a compose service, a log shipper's pod,
Ray's ``(Worker pid=N, ip=10.0.0.3)`` or syslog's host.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from spectrace.assemblers.crash import Crash
from spectrace.assemblers.load import LoadSample
from spectrace.node_label import on_node
from spectrace.read import STDIN
from spectrace.scan import ScanResult

T = TypeVar("T", Crash, LoadSample)


def node_names(sources: Sequence[str]) -> dict[str, str]:
    """source -> node, for inputs spread over two or more directories; else {}."""
    files = [s for s in sources if s != STDIN]
    dirs = {os.path.dirname(os.path.abspath(s)) for s in files}
    if len(dirs) < 2:
        return {}
    root = os.path.commonpath(sorted(dirs))
    nodes = {}
    for source in files:
        rel = os.path.relpath(os.path.dirname(os.path.abspath(source)), root)
        if rel != os.curdir:  # a file in the root itself belongs to no node directory
            nodes[source] = rel.split(os.sep)[0]
    return nodes if len(set(nodes.values())) > 1 else {}


def tag_nodes(results: list[ScanResult]) -> list[ScanResult]:
    """Each result's crashes and load samples with the node in their rank (in place: the scan's
    results are the pipeline's own). A directory per node decides; without one, the hosts, pods
    and containers the lines' wrappers name do, when they name two or more."""
    by_dir = node_names([r.source for r in results])
    by_text = not by_dir and len(text_nodes(results)) > 1
    for result in results:
        node = by_dir.get(result.source)
        if node is None and not by_text:
            continue
        result.crashes = [_tagged(c, node) for c in result.crashes]
        result.load = [[_tagged(s, node) for s in samples] for samples in result.load]
    return results


def text_nodes(results: Sequence[ScanResult]) -> set[str]:
    """The nodes the wrappers of the run's crash and load lines name."""
    found = {c.node for r in results for c in r.crashes}
    found |= {s.node for r in results for samples in r.load for s in samples}
    found.discard(None)
    return found  # type: ignore[return-value]


def _tagged(item: T, node: str | None) -> T:
    """The crash or sample with ``node/rank``: the directory's node, else its own line's."""
    node = node or item.node
    return item if node is None else replace(item, rank=on_node(node, item.rank), node=node)
