"""Node-aware runs: logs of several hosts given together keep their host in every rank label.

A directory per node is how fleets keep logs (``node03/server.log``, ``host-a/logs/x.log``,
``kubectl logs`` saved per pod). Two hosts both print ``TP0``; read together, their crashes
would merge into one rank. When the inputs sit in two or more directories under one common
root, each file's node is its first directory below that root, and its ranks read
``node03/TP7`` (a line with no rank reads ``node03``). Files of one directory (one host's
rotated logs) and single inputs are left as they are.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from spectrace.read import STDIN
from spectrace.scan import ScanResult

SEP = "/"  # node/rank: a path separator, which no rank label printed by a server holds


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


def on_node(node: str, rank: str | None) -> str:
    """``node03/TP7``; ``node03`` for a line without a rank."""
    return f"{node}{SEP}{rank}" if rank else node


def split_node(label: str) -> tuple[str | None, str]:
    """``node03/TP7`` -> ("node03", "TP7"); a label without a node -> (None, label)."""
    node, sep, rank = label.rpartition(SEP)
    return (node, rank) if sep else (None, label)


def tag_nodes(results: list[ScanResult]) -> list[ScanResult]:
    """Each result's crashes and load samples with the node in their rank (in place: the scan's
    results are the pipeline's own)."""
    nodes = node_names([r.source for r in results])
    for result in results:
        node = nodes.get(result.source)
        if node is None:
            continue
        result.crashes = [replace(c, rank=on_node(node, c.rank)) for c in result.crashes]
        result.load = [[replace(s, rank=on_node(node, s.rank)) for s in samples]
                       for samples in result.load]  # fmt: skip
    return results
