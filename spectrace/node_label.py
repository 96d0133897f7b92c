"""Rank labels that carry their node: ``node03/TP7``.

Two hosts both print ``TP0``; the node before the rank keeps them apart (fleet/nodes.py adds
it). A separator no rank label printed by a server holds, so any label splits back.
"""

from __future__ import annotations

SEP = "/"


def on_node(node: str, rank: str | None) -> str:
    """``node03/TP7``; ``node03`` for a line without a rank."""
    return f"{node}{SEP}{rank}" if rank else node


def split_node(label: str) -> tuple[str | None, str]:
    """``node03/TP7`` -> ("node03", "TP7"); a label without a node -> (None, label)."""
    node, sep, rank = label.rpartition(SEP)
    return (node, rank) if sep else (None, label)
