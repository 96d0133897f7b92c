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


LAUNCH = (
    "python3 -m sglang.launch_server --model-path /models/q --tp 8 --speculative-algorithm EAGLE "
    "--speculative-num-steps 3 --speculative-eagle-topk {topk} --speculative-num-draft-tokens 4"
)


def launch_verdicts(lines: list[str]) -> list[tuple[str | None, str | None]]:
    evidence = config(lines).path_evidence
    return [
        (e.points_to, e.worker_class) for e in evidence if e.reason.startswith("launch command")
    ]


@pytest.mark.parametrize(
    ("version", "topk", "path"),
    [
        ("lmsysorg/sglang:v0.5.15-cu130", 1, ("v2", "EAGLEWorkerV2")),  # no v1 worker any more
        ("sglang: 0.5.9", 1, ("v1", "EAGLEWorker")),  # spec v2 off by default
        ("sglang: 0.5.12", 1, ("v2", "EAGLEWorkerV2")),
        ("sglang: 0.5.12", 2, ("v1", "EAGLEWorker")),
    ],
)  # fmt: skip
def test_a_launch_command_and_the_release_decide_without_a_dump(
    version: str, topk: int, path: tuple[str, str]
) -> None:
    assert launch_verdicts([version, LAUNCH.format(topk=topk)]) == [path]


def test_a_launch_command_without_a_release_is_conditional_and_a_dump_outranks_it() -> None:
    (ev,) = [e for e in config([LAUNCH.format(topk=1)]).path_evidence if e.condition]
    assert ev.points_to is None  # no vote: the release would settle it
    assert ev.condition == "v2 (EAGLEWorkerV2) if sglang >= 0.5.11, else v1 (EAGLEWorker)"
    dump = DUMP.format(topk=1, pp=1) + "disable_overlap_schedule=True)"
    assert launch_verdicts(["sglang: 0.5.9", LAUNCH.format(topk=1), dump]) == []


def test_a_warning_outranks_what_the_launch_command_implies() -> None:
    warning = "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on."
    evidence = config(["sglang: 0.5.9", LAUNCH.format(topk=1), warning]).path_evidence
    assert evidence[0].reason.startswith("0.5.7-0.5.10 warning")
    assert [e.points_to for e in evidence if e.points_to] == ["v2", "v2"]
