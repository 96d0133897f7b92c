"""A class decided from a config or words, retired by the text's day -> a release condition
(path_retired). Our own lines in the shape of round 38 33 (vllm-ascend MTP on a 2026 thread),
and near misses that must stay decided: a stated release, a day before the class was retired,
a frame of the class's own file."""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/c10d.py", line 88, in barrier',
    "RuntimeError: HCCL timeout",
]


def _ascend(day: str, *body: str, method: str = "deepseek_mtp") -> list[str]:
    return [
        "vllm-project/vllm-ascend · issue #9401 · open · Python",
        "# [Bug]: DeepSeek-V4 with MTP does not start with data parallel",
        f"ana · description · {day}",
        *body,
        f"vllm serve /models/dsv4 --data-parallel-size 2 --speculative-config "
        f"'{{\"method\": \"{method}\", \"num_speculative_tokens\": 1}}'",
        "",
        *_PROBE,
    ]


def test_mtp_after_the_plugin_retired_mtp_proposer_is_a_condition(tmp_path: Path) -> None:
    """May 2026, no release stated: vllm-ascend had shipped v0.16.0rc1 (no MtpProposer, MTP on
    AscendEagleProposer) two months before; the run may be on either side."""
    path = crash_path(run(tmp_path, _ascend("2026-05-30", "The engine never becomes ready.")))
    assert_verdict(path, "unknown", "MtpProposer|AscendEagleProposer")
    assert "0.15.0rc1" in (path.conditional or "")  # the old class's last release bounds it


def test_the_other_mtp_spelling_is_a_condition_too(tmp_path: Path) -> None:
    lines = _ascend("2026-07-02", "Start-up hangs on 16 NPUs.", method="mtp")
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "MtpProposer|AscendEagleProposer")


def test_a_day_before_the_retirement_keeps_the_class(tmp_path: Path) -> None:
    """December 2025: every vllm-ascend release then ran MTP on MtpProposer."""
    path = crash_path(run(tmp_path, _ascend("2025-12-20", "The engine never becomes ready.")))
    assert (path.value, path.worker_class) == ("other", "MtpProposer"), path


def test_a_stated_release_keeps_its_class(tmp_path: Path) -> None:
    """The plugin's release is stated (v0.13.0rc1): its class, whatever the day."""
    lines = _ascend("2026-05-30", "vllm-ascend version: v0.13.0rc1")
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MtpProposer"), path


def test_a_frame_of_the_retired_class_keeps_it(tmp_path: Path) -> None:
    """The crash runs through mtp_proposer.py: the class was in the run's tree."""
    lines = _ascend("2026-05-30", "It crashes in the proposer:")[:-4] + [
        "Traceback (most recent call last):",
        '  File "/vllm-workspace/vllm-ascend/vllm_ascend/spec_decode/mtp_proposer.py", line 210, in propose',
        "RuntimeError: shape mismatch",
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MtpProposer"), path
