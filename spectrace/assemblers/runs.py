"""Split config lines into server runs, so a crash is linked to the start-up that preceded it.

A log (or a set of logs) often holds several runs: restarts after each fix, or one file per
attempt. Each ``server_args=`` dump / vLLM engine config line starts a run in its file.
Lines SGLang prints *before* its dump (the bare ServerArgs warnings, the launch command)
belong to the next start in the same file; lines printed after start-up (graph sizes,
markers) to the last start before them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spectrace.dialects.base import LogLine


def _owner(line: LogLine, starts: Sequence[LogLine], before_start: bool) -> LogLine:
    """The start this line belongs to, among the starts of its own file (in line order)."""
    after = [s for s in starts if s.lineno >= line.lineno]
    earlier = [s for s in starts if s.lineno <= line.lineno]
    if before_start:
        return after[0] if after else earlier[-1]
    return earlier[-1] if earlier else after[0]


def split_runs(
    lines: Sequence[LogLine],
    is_start: Callable[[LogLine], bool],
    is_post: Callable[[LogLine], bool],
) -> list[tuple[LogLine, list[LogLine]]]:
    """(start line, the lines of its run) per run, or [] when the input holds under two runs.

    Lines of files without a start are context shared by every run.
    """
    starts: dict[str, list[LogLine]] = {}
    for line in lines:
        if is_start(line):
            starts.setdefault(line.source, []).append(line)
    if sum(len(v) for v in starts.values()) < 2:
        return []
    runs: dict[tuple[str, int], list[LogLine]] = {
        (s.source, s.lineno): [] for group in starts.values() for s in group
    }
    shared: list[LogLine] = []
    for line in lines:
        own = starts.get(line.source)
        if not own:
            shared.append(line)
            continue
        start = line if is_start(line) else _owner(line, own, not is_post(line))
        runs[(start.source, start.lineno)].append(line)
    by_key = {(s.source, s.lineno): s for group in starts.values() for s in group}
    return [(by_key[key], shared + body) for key, body in runs.items()]
