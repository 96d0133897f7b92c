"""What a log without a crash showed the analysis: so "nothing found" reads as a result.

A blank detail panel after a clean scan cannot be told from a scan that read nothing. This says
what was read (formats, ranks, lines per file, read issues), the worker path the config shows
(with the release condition and the lines that would settle an unknown one), the flags that
decided it, and whether each ``--expect`` marker was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from spectrace.reports.words import conditional_head
from spectrace.tui.linestyle import masked, one_row
from spectrace.worker_path import missing_label

if TYPE_CHECKING:
    from spectrace.pipeline import Analysis
    from spectrace.worker_path import WorkerPath

FLAGS_SHOWN = 8


def path_lines(path: WorkerPath) -> Text:
    """The worker path as a label, its release condition, and what would settle an unknown."""
    out = Text()
    conditional = getattr(path, "conditional", None)
    if path.value == "unknown" and conditional:
        out.append(f"worker path: {conditional_head(conditional)}: ", "bold")
        out.append(f"{conditional}\n", "yellow")
    else:
        out.append_text(
            Text.assemble(
                "worker path: ",
                (path.value, "bold green"),
                f" ({path.worker_class})\n" if path.worker_class else "\n",
            )
        )
    for line in getattr(path, "missing", ()):
        out.append("  {}: {}\n".format(*missing_label(line)), "dim")
    return out


def clean_readout(analysis: Analysis, expect: Sequence[str], ranks: Sequence[str]) -> Text:
    """The detail panel of a run with no crash: what was read and what it showed."""
    from spectrace.linker import global_worker_path

    out = Text("No crash found in this log.\n\n", "bold green")
    out.append("Read:\n", "bold")
    for f in analysis.files:
        formats = ", ".join(f"{name} {n:,}" for name, n in sorted(f.dialects.items())) or "plain"
        out.append(one_row(f"  {Path(f.path).name}: {f.lines:,} lines ({formats})") + "\n")
        for issue in f.issues:
            out.append(one_row(f"    read issue: {issue}") + "\n", "yellow")
    out.append(f"  ranks: {', '.join(ranks) if ranks else 'none tagged'}\n")
    config = analysis.config
    out.append(f"  server: {config.engine or 'not told by the log'}")
    out.append(f" {config.version}\n" if config.version else "\n")
    out.append_text(path_lines(global_worker_path(config)))
    flags = list(config.flags.items())
    for name, flag in flags[:FLAGS_SHOWN]:
        where = f"{Path(flag.source).name}:{flag.lineno}"
        out.append(one_row(masked(f"  {name}={flag.value!r}  {where}")) + "\n")
    if len(flags) > FLAGS_SHOWN:
        out.append(f"  … {len(flags) - FLAGS_SHOWN} more flags\n", "dim")
    missing = {f.message for f in analysis.findings if f.kind == "missing_marker"}
    for marker in expect:
        absent = any(f'"{marker}"' in m for m in missing)
        out.append(
            one_row(f"--expect {marker!r}: {'NOT found' if absent else 'found'}") + "\n",
            "bold red" if absent else "green",
        )
    return out
