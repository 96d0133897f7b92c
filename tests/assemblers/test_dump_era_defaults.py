"""A server_args dump without ``disable_overlap_schedule`` (cut, wrapped, quoted in part):
the sglang release's own defaults decide the worker path where they leave no choice."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.dialects.base import LogLine

DUMP = (
    "[2026-01-10 10:00:00] server_args=ServerArgs(model_path='/models/q', tp_size=2, "
    "pp_size={pp}, speculative_algorithm='EAGLE3', speculative_num_steps=3, "
    "speculative_eagle_topk={topk}, speculative_num_draft_tokens=4, "
)


def config(lines: list[str]):  # noqa: ANN201 - the RunConfig
    collector = ConfigCollector()
    for n, text in enumerate(lines, 1):
        collector.feed(
            LogLine(
                source="s.log", lineno=n, offset=0, text=text, raw=text, dialect="plain", stream=""
            )
        )
    return collector.result()


def dump_verdict(lines: list[str]) -> tuple[str | None, str | None, str]:
    (ev,) = [e for e in config(lines).path_evidence if e.reason.startswith("server_args dump")]
    return ev.points_to, ev.worker_class, ev.reason


@pytest.mark.parametrize(
    ("version", "env", "topk", "pp", "path"),
    [
        ("0.4.7", None, 1, 1, ("v1", "EAGLEWorker")),
        ("0.5.8", None, 1, 1, ("v1", "EAGLEWorker")),  # spec v2 off by default before 0.5.11
        ("0.5.8", "SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --tp 2", 1, 1,
         ("v2", "EAGLEWorkerV2")),
        ("0.5.12", None, 1, 1, ("v2", "EAGLEWorkerV2")),  # on by default from 0.5.11
        ("0.5.12", None, 4, 1, ("v1", "EAGLEWorker")),  # topk > 1 forces the overlap off
        ("0.5.12", None, 1, 2, ("v1", "EAGLEWorker")),  # pipeline parallelism: overlap off
        ("0.5.16", None, 1, 1, ("v2", "EAGLEWorkerV2")),  # the v1 worker is gone
    ],
)  # fmt: skip
def test_the_release_decides_when_the_dump_does_not(
    version: str, env: str | None, topk: int, pp: int, path: tuple[str, str]
) -> None:
    lines = [f"sglang: {version}", *([env] if env else []), DUMP.format(topk=topk, pp=pp)]
    points_to, worker, reason = dump_verdict(lines)
    assert (points_to, worker) == path
    if version != "0.5.16":
        assert "no disable_overlap_schedule" in reason  # says what it rests on


def test_no_release_in_the_log_stays_unknown() -> None:
    cfg = config([DUMP.format(topk=1, pp=1)])
    assert not [e for e in cfg.path_evidence if e.points_to is not None]


def test_a_stated_overlap_setting_beats_the_release_default() -> None:
    dump = DUMP.format(topk=1, pp=1) + "disable_overlap_schedule=False, enable_dp_attention=False)"
    points_to, worker, reason = dump_verdict(["sglang: 0.5.8", dump])
    assert (points_to, worker) == ("v2", "EAGLEWorkerV2")
    assert "no disable_overlap_schedule" not in reason
