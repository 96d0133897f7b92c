"""A crash storm through the speculative worker: every rank's copy of every crash repeats the
same frame lines. The path readers see the first copies only, so a log of a thousand such
crashes reads (path, evidence, flags) exactly like a log of its first ones, at scan speed."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from spectrace.assemblers import config as config_mod
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.collect import FRAME_COPIES, Collector
from spectrace.dialects.base import LogLine
from spectrace.path_mentions import mention_literals
from spectrace.pipeline import analyse
from spectrace.ruleset import RuleSet

PKG = "/opt/venv/lib/python3.11/site-packages/sglang/srt"
FRAMES = [
    f'  File "{PKG}/managers/scheduler.py", line 1188, in event_loop_normal',
    f'  File "{PKG}/speculative/eagle_worker.py", line 301, in forward_batch_speculative_generation',
    f'  File "{PKG}/speculative/eagle_worker.py", line 702, in verify',
]


def storm(crashes: int) -> list[str]:
    """Ranks dying in turn in the worker's verify, a decode record before each."""
    start, lines = datetime(2026, 5, 14, 3, 20, 0), ["server_args=ServerArgs(speculative_algorithm='EAGLE', "
                                                       "speculative_eagle_topk=4, disable_overlap_schedule=True)"]
    for n in range(crashes):
        head = f"[{start + timedelta(seconds=2 * n):%Y-%m-%d %H:%M:%S} TP{n % 4}]"
        lines += [f"{head} Decode batch. #running-req: {n % 12}, #token: {300 + n}",
                  f"{head} Scheduler hit an exception: Traceback (most recent call last):",
                  *FRAMES, f"ValueError: draft tokens out of range in request {n}"]  # fmt: skip
    return lines


def _verdict(path: Path, lines: list[str]) -> tuple[object, ...]:
    path.write_text("\n".join(lines) + "\n")
    first = analyse([str(path)]).incidents[0]
    return first.worker_path, sorted(first.flags.items())


def test_a_storm_through_the_worker_reads_like_its_first_crashes(tmp_path: Path) -> None:
    log = tmp_path / "server.log"  # one name: the evidence cites it
    short = _verdict(log, storm(FRAME_COPIES))
    long = _verdict(log, storm(40 * FRAME_COPIES))
    assert short[0] is not None and short[0].worker_class == "EAGLEWorker"
    assert long == short


def test_the_readers_get_each_frame_line_a_bounded_number_of_times() -> None:
    literals = config_mod.CONFIG_LITERALS + mention_literals()
    collector = Collector(FatalMatcher(RuleSet.load()), config_literals=[x.decode() for x in literals])
    for n, text in enumerate(storm(500), 1):
        collector.feed(LogLine("server.log", n, 0, text, text, "plain", ""))
    copies = [sum(line.text == frame for line in collector.config_lines) for frame in FRAMES]
    assert max(copies) == FRAME_COPIES  # kept (the readers need them), but not once per crash
